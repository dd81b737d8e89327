function results = demo_dual_periodic_vdp (varargin)
% -*- texinfo -*-
% @deftypefn  {} {} demo_dual_periodic_vdp ()
% @deftypefnx {} {results =} demo_dual_periodic_vdp (..., "quiet")
% @deftypefnx {} {results =} demo_dual_periodic_vdp (..., "png", dir)
% The Van der Pol limit cycle x' = v, v' = mu (1 - x^2) v - x found by @code{periodic_orbit} (the
% dual action on a circle, Acharya & Sengupta, Remark 5), against shooting written here: Newton on
% the crossing x0 of the section v = 0 and the period T, with @code{ode45} at 1e-13 on the
% hand-written field and its variational equations.  By Liouville's formula the nontrivial Floquet
% multiplier is exp (int_0^T mu (1 - x^2) dt) (the other one is 1, the direction of the flow).
% (1) mu = 1 (T = 6.6633, smooth): from the help example of @code{periodic_orbit} and from a rough
%     guess (a circle, period off by 1 %): T to 1e-10, the closure of ode45 over sol.T from the
%     orbit's point of smallest |F| to 1e-9, the Floquet multipliers;
% (2) mu = 10 (T = 19.078, a relaxation oscillation, the stiff case): from a circle (info: Newton
%     stalls far from the relaxation cycle), from the candidate of @code{periodic_guesses}, at given
%     N = 4097, 8193 (info), and from the candidate perturbed, with the default weights and with
%     the weight of P lowered 1e4 times;
% (3) the convergence of T with N at mu = 1 for the orders 2, 4, 6, 8 (N = 33 ... 513) from the
%     reference orbit: the observed order within 0.3 of the order (central differences in T:
%     C h^p (1 + O(h^2))), every run converging; info: the same from the rough guess.
% "png", dir writes demo_dual_periodic_vdp_@{orbits,convergence@}.png.  @var{results} holds
% @code{ref}, @code{mu1}, @code{mu10}, @code{convergence}, the printed table @code{checks},
% @code{pass} and @code{time}.
% @seealso{periodic_orbit, periodic_guesses, demo_dual_lorenz}
% @end deftypefn

  opt = vm_demo_args ('demo_dual_periodic_vdp', varargin, struct ());
  tstart = tic;
  tol = struct ('T', 1e-10, 'closure', 1e-9, 'floquet', 1e-7, 'trivial', 1e-8, 'tiny', 1e-10, ...
                'ref', 1e-12, 'rate', 0.3, 'floor', 1e-13);

  % ---- the references: shooting with ode45 at 1e-13 ----
  ref = [shoot_vdp(1, 6.7), shoot_vdp(10, 19.1)];

  % ---- (1) mu = 1 ----
  vdp1 = vdp_system (1);
  t = linspace (0, 6.5, 60)';
  help_example = run_orbit (vdp1, ref(1), t, [2 * cos(2 * pi * t / 6.5), -2 * sin(2 * pi * t / 6.5)]);
  [tr, yr] = rough_guess (ref(1).T);
  rough = run_orbit (vdp1, ref(1), tr, yr);
  mu1 = struct ('help_example', help_example, 'rough', rough);

  % ---- (2) mu = 10 ----
  vdp10 = vdp_system (10);
  [tr, yr] = rough_guess (ref(2).T);
  mu10 = struct ();
  mu10.default_circle = run_orbit (vdp10, ref(2), tr, yr);
  cand = periodic_guesses (vdp10, [2, 0], 10 * ref(2).T, 'MaxLoops', 1, 'Points', 400);
  cand = cand(1);
  mu10.candidate_distance = cand.distance;
  mu10.default_candidate = run_orbit (vdp10, ref(2), cand.t, cand.y);
  Nscan = [4097, 8193];
  scan = [];
  for k = 1:numel (Nscan)
    scan = [scan, run_orbit(vdp10, ref(2), cand.t, cand.y, 'N', Nscan(k))]; %#ok<AGROW>
  end
  mu10.scan_N = Nscan;
  mu10.scan = scan;
  % the candidate with its period off by 1 % and its states perturbed by 3e-3: with the default
  % weights (through periodic_orbit's retry) and with the weight of P lowered 1e4 times
  s = 2 * pi * cand.t / cand.T;
  pert = cand;
  pert.t = 1.01 * cand.t;
  pert.y = cand.y + 3e-3 * [sin(3 * s + 1), cos(5 * s + 2)];
  X = max (pert.y, [], 1) - min (pert.y, [], 1);
  Pbar = pert.t(end) / (2 * pi);
  mu10.c = [1 ./ X .^ 2, 1e-4 / Pbar^2];
  mu10.perturbed_default = run_orbit (vdp10, ref(2), pert.t, pert.y, 'N', 8193);
  mu10.working = run_orbit (vdp10, ref(2), pert.t, pert.y, 'N', 8193, 'c', mu10.c);

  % ---- (3) convergence of T with N for each order, mu = 1, from the reference orbit ----
  [tr, yr] = rough_guess (ref(1).T);
  orders = [2, 4, 6, 8];
  Ns = [33, 65, 129, 257, 513];
  no = numel (orders);
  nn = numel (Ns);
  conv = struct ('orders', orders, 'N', Ns, 'err', zeros (no, nn), 'rate', zeros (no, nn - 1), ...
                 'observed', zeros (1, no), 'pair', zeros (no, 2), 'exitflag', zeros (no, nn), ...
                 'floor', tol.floor, 'rough_exitflag', zeros (no, nn), 'rough_err', zeros (no, nn), ...
                 'errors', {{}}, 'converge_tol', zeros(1, nn));
  for io = 1:no
    for in = 1:nn
      [conv.exitflag(io, in), conv.err(io, in), msg] = ...
        fixed_n (vdp1, ref(1), ref(1).t, ref(1).y, Ns(in), orders(io));
      if ~isempty (msg)
        conv.errors{end + 1} = sprintf ('order %d, N = %d: %s', orders(io), Ns(in), msg);
      end
      if conv.exitflag(io, in) ~= 1
        conv.err(io, in) = NaN;
      end
      % the same from the rough guess of (1b): Newton's robustness at a fixed N
      [conv.rough_exitflag(io, in), conv.rough_err(io, in)] = ...
        fixed_n (vdp1, ref(1), tr, yr, Ns(in), orders(io));
    end
    [conv.rate(io, :), conv.observed(io), conv.pair(io, :)] = ...
      vm_demo_rates (ref(1).T ./ Ns, conv.err(io, :), tol.floor, Ns);
  end

  results = struct ();
  results.ref = ref;
  results.mu1 = mu1;
  results.mu10 = mu10;
  results.convergence = conv;
  results.tol = tol;
  results.checks = make_checks (results);
  [results.pass, msg] = vm_demo_verdict (results.checks);
  results.time = toc (tstart);

  if ~opt.quiet
    print_tables (results, msg);
  end
  vm_demo_png (opt, {'orbits', 'convergence'}, @(what) draw (what, results), [1000, 800]);
  if nargout == 0
    clear results;
  end
end

function ode = vdp_system (mu)
  ode = odesys ('states', {'x', 'v'}, 'parameters', struct ('mu', mu), ...
                'rhs', {'v', 'mu*(1 - x^2)*v - x'});
end

function [t, y] = rough_guess (Tref)
  % the circle of radius 2 with the period off by 1 % and the states perturbed by 3e-3
  Tg = 1.01 * Tref;
  t = linspace (0, Tg, 60)';
  s = 2 * pi * t / Tg;
  y = [2 * cos(s), -2 * sin(s)] + 3e-3 * [sin(3 * s + 1), cos(5 * s + 2)];
end

function dw = vdp_rhs (w, mu)
  % the Van der Pol field, written by hand (the reference does not use varmech)
  dw = [w(2); mu * (1 - w(1)^2) * w(2) - w(1)];
end

function dw = vdp_var (w, mu)
  % the field, its variational equations (w(3:6) = M by columns) and the divergence (w(7))
  x = w(1);
  v = w(2);
  A = [0, 1; -2 * mu * x * v - 1, mu * (1 - x^2)];
  M = A * reshape (w(3:6), 2, 2);
  dw = [vdp_rhs(w, mu); M(:); mu * (1 - x^2)];
end

function [value, isterminal, direction] = section_event (w)
  % the section v = 0 crossed with v decreasing (x > 0: the right end of the cycle)
  value = w(2);
  isterminal = 0;
  direction = -1;
end

function [r, J, we, w] = shoot_residual (x0, T, mu, reltol, tspan)
  % phi_T(x0, 0) - (x0, 0), its Jacobian in (x0, T), the end state and the states at tspan
  opt = odeset ('RelTol', reltol, 'AbsTol', reltol);
  [~, w] = ode45 (@(t, w) vdp_var (w, mu), tspan, [x0; 0; 1; 0; 0; 1; 0], opt);
  we = w(end, :)';
  r = [we(1) - x0; we(2)];
  f = vdp_rhs (we, mu);
  J = [we(3) - 1, f(1); we(4), f(2)];
end

function ref = shoot_vdp (mu, Tguess)
  % shooting on (x0, T), x(0) = (x0, 0), with ode45 at 1e-13 for both mu (mu = 10 is only mildly
  % stiff: at this tolerance the step is set by accuracy).  The start: the section crossings of a
  % transient of 5 periods at 1e-9.  Newton with the exact Jacobian [M(:, 1) - e1, F(phi_T)] stops
  % when the correction of T is below 1e-12 T; the divergence is integrated as a fifth state
  t0 = tic;
  opt = odeset ('RelTol', 1e-9, 'AbsTol', 1e-9, 'Events', @(t, w) section_event (w));
  [~, ~, te, ye] = ode45 (@(t, w) vdp_rhs (w, mu), [0, 5 * Tguess], [2; 0], opt);
  x0 = ye(end, 1);
  T = te(end) - te(end - 1);
  it = 0;
  s = linspace (0, 1, 2001)';
  while true
    it = it + 1;
    [r, J, we, w] = shoot_residual (x0, T, mu, 1e-13, T * s);
    d = -J \ r;
    x0 = x0 + d(1);
    T = T + d(2);
    if abs (d(2)) <= 1e-12 * T || it >= 8
      break;
    end
  end
  tt = (T - d(2)) * s;
  % the check: one more Newton step with ode45 at 1e-12
  [rc, Jc] = shoot_residual (x0, T, mu, 1e-12, [0, T / 2, T]);
  dc = -Jc \ rc;
  ref = struct ('mu', mu, 'T', T, 'x0', x0, 'log_liouville', we(7), 'liouville', exp (we(7)), ...
                'residual', norm (r), 'check_T', abs (dc(2)) / T, 'iterations', it, ...
                'time', toc (t0), 't', tt, 'y', w(:, 1:2));
end

function [flag, err, msg] = fixed_n (ode, ref, t, y, N, order)
  % periodic_orbit at a fixed N: exitflag and relative error of T; flag -1 and the message when it
  % raises an error (none should)
  msg = '';
  try
    sol = periodic_orbit (ode, t, y, 'N', N, 'Order', order);
    flag = sol.exitflag;
    err = abs (sol.T - ref.T) / ref.T;
  catch e
    flag = -1;
    err = NaN;
    msg = e.message;
  end
end

function run = run_orbit (ode, ref, t, y, varargin)
  % periodic_orbit from the guess (t, y) with the options varargin, compared with the reference
  sol = periodic_orbit (ode, t, y, varargin{:});
  mu = ref.mu;
  run = struct ('exitflag', sol.exitflag, 'message', sol.message, 'T', sol.T, 'T_err', NaN, ...
                'closure_ode45', NaN, 'closure', sol.closure, 'period_error', sol.period_error, ...
                'floquet', [NaN; NaN], 'floquet_err', NaN, 'trivial_err', NaN, 'N', sol.N, ...
                'iterations', sol.iterations, 'time', sol.time, 't', [], 'y', []);
  if sol.exitflag ~= 1
    return;
  end
  run.T_err = abs (sol.T - ref.T) / ref.T;
  run.t = sol.t;
  run.y = sol.y;
  % the closure by ode45 (independent of periodic_orbit's DOP853) from the point of the orbit
  % where the field is smallest (on a fast jump the closure would be |F| times the error of T)
  F = [sol.y(:, 2), mu * (1 - sol.y(:, 1) .^ 2) .* sol.y(:, 2) - sol.y(:, 1)];
  [~, k] = min (sqrt (sum (F .^ 2, 2)));
  opt = odeset ('RelTol', 1e-13, 'AbsTol', 1e-13);
  [~, w] = ode45 (@(t, w) vdp_rhs (w, mu), [0, sol.T / 2, sol.T], sol.y(k, :)', opt);
  run.closure_ode45 = max (abs (w(end, :) - sol.y(k, :)));
  fl = sol.floquet(:);
  [~, i1] = min (abs (fl - 1));
  run.floquet = [fl(i1); fl(3 - i1)];
  run.trivial_err = abs (fl(i1) - 1);
  run.floquet_err = abs (fl(3 - i1) - ref.liouville) / ref.liouville;
end

function checks = make_checks (res)
  tol = res.tol;
  checks = struct ('part', {}, 'name', {}, 'value', {}, 'reference', {}, 'error', {}, ...
                   'tol', {}, 'pass', {}, 'info', {});
  for k = 1:numel (res.ref)
    r = res.ref(k);
    part = '';
    if k == 1
      part = 'ref';
    end
    checks = vm_demo_check (checks, sprintf ('mu = %g: shooting T, ode45 1e-13 vs 1e-12 (rel.)', r.mu), ...
                            r.check_T, 0, tol.ref, 'part', part);
    checks = vm_demo_check (checks, sprintf ('mu = %g: shooting |phi_T(x0) - x0| before the last step', ...
                                             r.mu), ...
                            r.residual, 0, NaN);
  end
  % (1)
  runs = {res.mu1.help_example, res.mu1.rough};
  labels = {'help example', 'rough guess'};
  ref = res.ref(1);
  for k = 1:2
    part = '';
    if k == 1
      part = '(1)';
    end
    checks = orbit_checks (checks, runs{k}, ref, ['mu = 1, ', labels{k}], tol, part, true);
  end
  % (2)
  m = res.mu10;
  ref = res.ref(2);
  checks = vm_demo_check (checks, 'mu = 10, defaults, rough circle: exitflag (finding)', ...
                          m.default_circle.exitflag, 1, NaN, 'part', '(2)');
  checks = orbit_checks (checks, m.default_candidate, ref, 'mu = 10, candidate, defaults', tol, '', false);
  for k = 1:numel (m.scan)
    checks = vm_demo_check (checks, sprintf ('mu = 10, candidate, N = %d: exitflag', m.scan_N(k)), ...
                            m.scan(k).exitflag, 1, NaN);
    checks = vm_demo_check (checks, sprintf ('mu = 10, candidate, N = %d: |T - T_ref|/T_ref', ...
                                             m.scan_N(k)), m.scan(k).T_err, 0, NaN);
  end
  checks = orbit_checks (checks, m.perturbed_default, ref, 'mu = 10, perturbed cand., N = 8193, default c', ...
                         tol, '', false);
  checks = orbit_checks (checks, m.working, ref, 'mu = 10, perturbed cand., N = 8193, c(P)/1e4', tol, ...
                         '', false);
  % (3)
  c = res.convergence;
  for io = 1:numel (c.orders)
    part = '';
    if io == 1
      part = '(3)';
    end
    checks = vm_demo_check (checks, sprintf ('mu = 1, order %d: observed order of T (N %d/%d)', ...
                                             c.orders(io), c.pair(io, :)), c.observed(io), ...
                            c.orders(io), tol.rate, 'part', part);
  end
  for in = 1:numel (c.N)
    checks = vm_demo_check (checks, sprintf ('mu = 1, N = %d: converged orders (of %d)', c.N(in), ...
                                             numel (c.orders)), sum (c.exitflag(:, in) == 1), ...
                            numel (c.orders), c.converge_tol(in));
  end
  checks = vm_demo_check (checks, 'mu = 1, convergence runs: errors raised', ...
                          sum (c.exitflag(:) < 0), 0, 0);
  checks = vm_demo_check (checks, 'mu = 1, from the rough guess: runs not converged (finding)', ...
                          sum (c.rough_exitflag(:) ~= 1), 0, NaN);
end

function checks = orbit_checks (checks, run, ref, label, tol, part, liouville)
  checks = vm_demo_check (checks, [label, ': exitflag'], run.exitflag, 1, 0, 'part', part);
  checks = vm_demo_check (checks, [label, ': T'], run.T, ref.T, NaN);
  checks = vm_demo_check (checks, [label, ': |T - T_ref|/T_ref'], run.T_err, 0, tol.T);
  checks = vm_demo_check (checks, [label, ': closure, ode45 1e-13 over T'], run.closure_ode45, 0, ...
                          tol.closure);
  checks = vm_demo_check (checks, [label, ': trivial Floquet multiplier'], run.floquet(1), 1, ...
                          tol.trivial);
  if liouville
    checks = vm_demo_check (checks, [label, ': Floquet vs exp(int div) (rel.)'], run.floquet(2), ...
                            ref.liouville, tol.floquet, 'error', run.floquet_err);
  else
    checks = vm_demo_check (checks, [label, ': |nontrivial multiplier| (exp(int div) tiny)'], ...
                            abs (run.floquet(2)), ref.liouville, tol.tiny);
  end
  checks = vm_demo_check (checks, [label, ': sol.period_error / T (estimate)'], ...
                          run.period_error / ref.T, 0, NaN);
  checks = vm_demo_check (checks, [label, ': sol.closure (DOP853)'], run.closure, 0, NaN);
end

function print_tables (res, msg)
  fprintf ('Van der Pol limit cycle by periodic_orbit (dual action on a circle) against shooting\n');
  fprintf ('reference: Newton on (x0 on v = 0, T) with ode45 RelTol = AbsTol = 1e-13 (both mu)\n');
  fprintf ('%5s %20s %18s %13s %10s %5s %7s\n', 'mu', 'T_ref', 'x0', 'exp(int div)', 'check', ...
           'it', 'time s');
  for k = 1:numel (res.ref)
    r = res.ref(k);
    fprintf ('%5g %20.14f %18.14f %13.5e %10.2e %5d %7.1f\n', r.mu, r.T, r.x0, r.liouville, ...
             r.check_T, r.iterations, r.time);
  end
  fprintf ('\nperiodic_orbit runs: N, Newton iterations, time, relative error of T\n');
  fprintf ('%-46s %5s %6s %5s %8s %10s  %s\n', 'run', 'exit', 'N', 'it', 'time s', 'T err', 'message');
  m = res.mu10;
  runs = {res.mu1.help_example, res.mu1.rough, m.default_circle, m.default_candidate};
  labels = {'mu = 1, help example (defaults)', 'mu = 1, rough guess (defaults)', ...
            'mu = 10, rough circle (defaults)', 'mu = 10, periodic_guesses cand. (defaults)'};
  for k = 1:numel (m.scan)
    runs{end + 1} = m.scan(k); %#ok<AGROW>
    labels{end + 1} = sprintf ('mu = 10, candidate, N = %d', m.scan_N(k)); %#ok<AGROW>
  end
  runs{end + 1} = m.perturbed_default;
  labels{end + 1} = 'mu = 10, perturbed cand., N = 8193';
  runs{end + 1} = m.working;
  labels{end + 1} = 'mu = 10, perturbed cand., N = 8193, c(P)/1e4';
  for k = 1:numel (runs)
    r = runs{k};
    msgk = r.message;
    if numel (msgk) > 60
      msgk = [msgk(1:57), '...'];
    end
    fprintf ('%-46s %5d %6d %5d %8.2f %10.2e  %s\n', labels{k}, r.exitflag, r.N, r.iterations, ...
             r.time, r.T_err, msgk);
  end
  c = res.convergence;
  fprintf ('\n(3) convergence of T with N, mu = 1, from the reference orbit: |T_N - T_ref|/T_ref (rate)\n');
  fprintf ('%6s', 'order');
  for in = 1:numel (c.N)
    fprintf (' %17s', sprintf ('N=%d', c.N(in)));
  end
  fprintf (' %9s\n', 'observed');
  for io = 1:numel (c.orders)
    fprintf ('%6d %17.3e', c.orders(io), c.err(io, 1));
    for in = 2:numel (c.N)
      fprintf (' %9.3e (%5.2f)', c.err(io, in), c.rate(io, in - 1));
    end
    fprintf (' %9.2f   exitflags %s\n', c.observed(io), mat2str (c.exitflag(io, :)));
  end
  for k = 1:numel (c.errors)
    fprintf ('error raised: %s\n', c.errors{k});
  end
  fprintf ('the same from the rough guess of (1b) (Newton at a fixed N): exitflag, |T_N - T_ref|/T_ref\n');
  for io = 1:numel (c.orders)
    fprintf ('%6d', c.orders(io));
    for in = 1:numel (c.N)
      fprintf (' %d %9.2e      ', c.rough_exitflag(io, in), c.rough_err(io, in));
    end
    fprintf ('\n');
  end
  fprintf ('\n');
  vm_demo_table (res.checks, '%.6g', 'part');
  fprintf ('%s (%.1f s)\n', msg, res.time);
end

function draw (what, res)
  colors = [0, 0.447, 0.741; 0.85, 0.325, 0.098; 0.466, 0.674, 0.188; 0.494, 0.184, 0.556];
  fs = 6;
  switch what
    case 'orbits'
      % the key above both panels (the legend inside covered the orbit), short titles inside
      % their panels, the units said once in the key
      runs = {res.mu1.rough, res.mu10.working};
      mg = [8, 4, 5.6, 3.4];
      for k = 1:2
        vm_demo_subplot (1, 2, k, fs, mg, 1.6 * 3 + 1);
        r = res.ref(k);
        plot (r.y(:, 1), r.y(:, 2), '-', 'color', [0.3, 0.3, 0.3], 'linewidth', 1.5);
        hold on;
        s = runs{k};
        if ~isempty (s.y)
          step = max (1, floor (numel (s.t) / 150));
          plot (s.y(1:step:end, 1), s.y(1:step:end, 2), 'o', 'color', colors(k, :), 'markersize', 3);
        end
        hold off;
        set (gca, 'fontsize', fs);
        grid on;
        xlabel ('x');
        ylabel ('v = dx/dt');
        title (sprintf ('mu = %g: T = %.10f', r.mu, r.T));
      end
      no = {'linestyle', 'none'};
      vm_demo_key ({{'-', 'color', [0.3, 0.3, 0.3], 'linewidth', 1.5}, [{'o', 'color', colors(1, :)}, no], ...
                    [{'o', 'color', colors(2, :)}, no]}, ...
                   {'shooting, ode45 1e-13 (the Van der Pol limit cycle; all quantities dimensionless)', ...
                    sprintf('periodic_orbit, mu = 1, N = %d (one node in %d)', runs{1}.N, ...
                            max (1, floor (numel (runs{1}.t) / 150))), ...
                    sprintf('periodic_orbit, mu = 10, N = %d (one node in %d)', runs{2}.N, ...
                            max (1, floor (numel (runs{2}.t) / 150)))}, fs, 1, [], 'none');
    otherwise
      c = res.convergence;
      hold on;
      leg = cell (1, numel (c.orders));
      for io = 1:numel (c.orders)
        loglog (c.N, c.err(io, :), '-o', 'color', colors(io, :), 'linewidth', 1.5);
        leg{io} = sprintf ('order %d (observed %.2f)', c.orders(io), c.observed(io));
      end
      hold off;
      set (gca, 'xscale', 'log', 'yscale', 'log', 'fontsize', fs);
      xlim ([min(c.N) / 1.3, max(c.N) * 1.3]);
      set (gca, 'xtick', c.N, 'xticklabel', strsplit (strtrim (sprintf ('%d ', c.N))));
      grid on;
      xlabel ('N (nodes on the period)');
      ylabel ('|T_N - T_{ref}| / T_{ref}');
      title ('Van der Pol mu = 1: the period, periodic central differences');
      lh = legend (leg, 'location', 'southwest');
      set (lh, 'fontsize', fs - 1);
  end
end
