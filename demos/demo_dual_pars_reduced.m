function results = demo_dual_pars_reduced (varargin)
% -*- texinfo -*-
% @deftypefn  {} {} demo_dual_pars_reduced ()
% @deftypefnx {} {results =} demo_dual_pars_reduced (..., "quiet")
% @deftypefnx {} {results =} demo_dual_pars_reduced (..., "png", dir)
% @deftypefnx {} {results =} demo_dual_pars_reduced (..., "N", N, "T", T)
% The reduced Pars dual (Acharya & Sengupta, Sec.@: 4.1, eqs.@: 48-49):
% @code{dual_pars (@dots{}, "Reduced", true)}.  Along the Gauss motion of eq.@: 44, z = x3 =
% x3^0 + v3^0 t, the velocities obey v1' + k z v1 = 0, v2' - k v1 = 0, k = v3^0/(1 + z^2): eq.@: 48
% with its sign corrected (printed: v1' - k z v1 = 0), with the closed form @code{vm_pars_closed_form}.
% The dual (H = |v|^2/2, zero base state, lambda(T) = 0) has the DtP map
% v1^H = lambda1dot - k z lambda1 + k lambda2, v2^H = lambda2dot and the action of eq.@: 49 with the
% same sign corrected; it is linear, so Newton takes one step.  Data of @code{demo_pars}, t in
% [0, 5], N = 81, order 4.  Compared: the closed form against @code{ode45} on eqs.@: 44 and 48;
% the printed eq.@: 48 and its dual leave the constraint z v1 - v2 = 0 (by more than 0.1); the
% recovered v against the closed form (h^3) and the constraint; the corrected DtP map and eq.@: 49
% evaluated here at the duals reproduce sol.y and sol.S, the printed map misses sol.y; the closed
% form equals @code{dual_solve} on the reduced @code{odesys}; orders 2, 4, 6 on N = 41 ... 321
% with max-norm order p+1 (the final time too, info: the last node has no equation of the action).
% "N" (>= 17), "T" change the main run; "png", dir writes demo_dual_pars_reduced.png.
% @var{results} holds the run, the comparisons, @code{conv}, the printed table @code{checks},
% @code{pass} and @code{time}.
% @seealso{dual_pars, dual_solve, demo_dual_pars, demo_pars}
% @end deftypefn

  opt = vm_demo_args ('demo_dual_pars_reduced', varargin, struct ('N', 81, 'T', 5));
  N = opt.N;
  T = opt.T;
  if ~(isscalar (N) && isreal (N) && N == round (N) && N >= 17)
    error ('demo_dual_pars_reduced: N must be an integer >= 17');
  end
  if ~(isscalar (T) && isreal (T) && T > 0)
    error ('demo_dual_pars_reduced: T must be a positive scalar');
  end

  tstart = tic;
  order = 4;
  x0 = [0.3, -0.2, -0.5];
  v0 = [0.8, x0(3) * 0.8, 0.4];
  z0 = x0(3);
  v30 = v0(3);
  h = T / (N - 1);
  % ode45 at 1e-12 on a smooth problem: 1e-9; SBP-SAT max-norm order 3 with a unit constant (the
  % solution's derivatives are below 1): h^3; one linear solve: rounding times its condition
  tol = struct ('ref', 1e-9, 'differ', 0.1, 'formula', 1e-10, 'traj', h ^ 3, 'linear', 1e-10, ...
                'engine', 1e-10, 'rate', 0.3);
  oopt = odeset ('RelTol', 1e-12, 'AbsTol', 1e-14);

  % ---- the main run ------------------------------------------------------------------------------
  sol = dual_pars ([0, T], x0, v0, 'Reduced', true, 'N', N, 'Order', order);
  t = sol.t;
  [~, ex] = vm_pars_closed_form (t, x0, v0);   % eq. 44 in closed form
  ex = ex(:, 1:2);
  z = z0 + v30 * t;

  % ---- formulas: closed form vs ode45 (eq. 44, corrected 48), printed 48 -----------------------
  [~, y44] = ode45 (@(tt, y) vm_pars_rhs ('eq44', y), t, [x0, v0]', oopt);
  [~, yc] = ode45 (@(tt, y) vm_pars_rhs ('eq48', tt, y, z0, v30, false), t, v0(1:2)', oopt);
  [~, yp] = ode45 (@(tt, y) vm_pars_rhs ('eq48', tt, y, z0, v30, true), t, v0(1:2)', oopt);
  eq44_dev = max (max (abs (y44(:, 4:5) - ex)));
  corrected_dev = max (max (abs (yc - ex)));
  printed = struct ('v', yp, 'constraint', max (abs (z .* yp(:, 1) - yp(:, 2))), ...
                    'v1_dev', max (abs (yp(:, 1) - ex(:, 1))));

  % ---- the DtP map and eq. 49 by hand at the computed duals --------------------------------------
  dtp = dtp_check (sol, order, T, z0, v30, v0);

  % ---- the dual of the printed system -----------------------------------------------------------
  prm = struct ('v30', v30, 'x30', z0);
  zs = '(v30*t + x30)';
  ode_printed = odesys ('states', {'v1', 'v2'}, 'parameters', prm, ...
                        'rhs', {['v1*', zs, '*v30/(1 + ', zs, '^2)'], ['v1*v30/(1 + ', zs, '^2)']});
  sp = dual_solve (ode_printed, [0, T], v0(1:2), 'N', N, 'c', 1, 'Order', order, 'FinalDual', 'strong');
  printed_dual = struct ('constraint', max (abs (z .* sp.y(:, 1) - sp.y(:, 2))), ...
                         'dev', max (max (abs (sp.y - yp))), 'exitflag', sp.exitflag);

  % ---- convergence in N and the general engine ---------------------------------------------------
  ode = odesys ('states', {'v1', 'v2'}, 'parameters', prm, ...
                'rhs', {['-v1*', zs, '*v30/(1 + ', zs, '^2)'], ['v1*v30/(1 + ', zs, '^2)']});
  orders = [2, 4, 6];
  Ns = [41, 81, 161, 321];
  engine = struct ('dy', 0, 'dD', 0, 'dS', 0);
  conv = struct ('order', {}, 'N', {}, 'err_max', {}, 'err_final', {}, 'rate_max', {}, ...
                 'rate_final', {}, 'predicted', {}, 'observed_max', {}, 'observed_final', {}, ...
                 'exitflag', {}, 'iterations', {});
  for io = 1:numel (orders)
    od = orders(io);
    em = zeros (1, numel (Ns));
    efin = zeros (1, numel (Ns));
    ef = zeros (2, numel (Ns));
    it = zeros (2, numel (Ns));
    for in = 1:numel (Ns)
      s1 = dual_pars ([0, T], x0, v0, 'Reduced', true, 'N', Ns(in), 'Order', od);
      s2 = dual_solve (ode, [0, T], v0(1:2), 'N', Ns(in), 'c', 1, 'Order', od, 'FinalDual', 'strong');
      [~, e] = vm_pars_closed_form (s1.t, x0, v0);
      e = e(:, 1:2);
      em(in) = max (max (abs (s1.y - e)));
      efin(in) = max (abs (s1.y(end, :) - e(end, :)));
      ef(:, in) = [s1.exitflag; s2.exitflag];
      it(:, in) = [s1.iterations; s2.iterations];
      engine.dy = max (engine.dy, max (abs (s1.y(:) - s2.y(:))) / max (1, max (abs (s2.y(:)))));
      engine.dD = max (engine.dD, max (abs (s1.D(:) - s2.D(:))) / max (1, max (abs (s2.D(:)))));
      engine.dS = max (engine.dS, abs (s1.S - s2.S) / max (1, abs (s2.S)));
    end
    hN = T ./ (Ns - 1);
    [rm, om] = vm_demo_rates (hN, em, 1e-13, Ns);
    [rf, of] = vm_demo_rates (hN, efin, 1e-13, Ns);
    conv(end + 1) = struct ('order', od, 'N', Ns, 'err_max', em, 'err_final', efin, ...
                            'rate_max', rm, 'rate_final', rf, 'predicted', od / 2 + 1, ...
                            'observed_max', om, 'observed_final', of, 'exitflag', ef, ...
                            'iterations', it); %#ok<AGROW>
  end

  results = struct ();
  results.x0 = x0;
  results.v0 = v0;
  results.T = T;
  results.N = N;
  results.c = 1;
  results.t = t;
  results.y = sol.y;
  results.D = sol.D;
  results.exact = ex;
  results.S = sol.S;
  results.exitflag = sol.exitflag;
  results.iterations = sol.iterations;
  results.err_max = max (max (abs (sol.y - ex)));
  results.err_final = max (abs (sol.y(end, :) - ex(end, :)));
  results.constraint = max (abs (z .* sol.y(:, 1) - sol.y(:, 2)));
  results.residual = max (max (abs (sol.residual(1:end - 1, :))));
  results.eq44_dev = eq44_dev;
  results.corrected_dev = corrected_dev;
  results.printed = printed;
  results.printed_dual = printed_dual;
  results.dtp = dtp;
  results.engine = engine;
  results.conv = conv;
  results.tol = tol;
  results.checks = make_checks (results);
  [results.pass, msg] = vm_demo_verdict (results.checks);
  results.time = toc (tstart);

  if ~opt.quiet
    print_table (results, msg);
  end
  vm_demo_png (opt, '', @(what) draw_plot (results), [800, 900]);
  if nargout == 0
    clear results;
  end
end

function d = dtp_check (sol, order, T, z0, v30, v0)
  % the DtP map (corrected and printed) and the corrected eq. 49 at the computed duals (c = 1,
  % zero base state): v1 = lambda1dot - k z lambda1 + k lambda2, v2 = lambda2dot
  N = numel (sol.t);
  [Dm, H] = sbp_operator (N, order, [0, T]);
  w = full (diag (H));
  lam = sol.D;
  lamd = Dm * lam;
  z = z0 + v30 * sol.t;
  k = v30 ./ (1 + z .^ 2);
  v = [lamd(:, 1) - k .* z .* lam(:, 1) + k .* lam(:, 2), lamd(:, 2)];
  vp = [lamd(:, 1) + k .* z .* lam(:, 1) + k .* lam(:, 2), lamd(:, 2)];
  d.y_dev = max (abs (v(:) - sol.y(:)));
  d.y_scale = max (1, max (abs (lamd(:))));
  d.printed_dev = max (abs (vp(:) - sol.y(:)));
  LL = -sum (v .^ 2, 2) / 2;
  S = sum (w .* LL) - lam(1, :) * v0(1:2)';
  d.S_dev = abs (S - sol.S);
  d.S_scale = max (1, sum (abs (w .* LL)));
end

function checks = make_checks (r)
  checks = struct ('part', {}, 'name', {}, 'value', {}, 'reference', {}, 'error', {}, ...
                   'tol', {}, 'pass', {}, 'info', {});
  t = r.tol;
  checks = vm_demo_check (checks, 'max |v - closed form|, ode45 on eq. 44', r.eq44_dev, 0, t.ref, ...
                          'part', 'formulas');
  checks = vm_demo_check (checks, 'max |v - closed form|, ode45 on corrected eq. 48', ...
                          r.corrected_dev, 0, t.ref);
  checks = vm_demo_check (checks, 'printed eq. 48 (ode45): max |z v1 - v2|', ...
                          r.printed.constraint, '>= 0.1', t.differ, 'error', NaN, 'ratio', ...
                          t.differ / max (r.printed.constraint, realmin));
  checks = vm_demo_check (checks, 'printed eq. 48 (ode45): max |v1 - v1 exact|', ...
                          r.printed.v1_dev, '>= 0.1', t.differ, 'error', NaN, 'ratio', ...
                          t.differ / max (r.printed.v1_dev, realmin));
  checks = vm_demo_check (checks, 'corrected DtP map at the duals vs sol.y', r.dtp.y_dev, 0, ...
                          t.formula * r.dtp.y_scale);
  checks = vm_demo_check (checks, 'printed DtP map at the duals vs sol.y', r.dtp.printed_dev, ...
                          '>= 0.1', t.differ, 'error', NaN, 'ratio', ...
                          t.differ / max (r.dtp.printed_dev, realmin));
  checks = vm_demo_check (checks, 'corrected eq. 49 at the duals vs sol.S', r.dtp.S_dev, 0, ...
                          t.formula * r.dtp.S_scale);
  part = sprintf ('dual, N = %d', r.N);
  checks = vm_demo_check (checks, 'Newton exitflag', r.exitflag, 1, 0, 'part', part);
  checks = vm_demo_check (checks, 'Newton iterations (linear: 1)', r.iterations, 1, 0);
  checks = vm_demo_check (checks, 'max |v - v_exact| (h^3)', r.err_max, 0, t.traj);
  checks = vm_demo_check (checks, 'max |z v1 - v2| of the recovered v (h^3)', r.constraint, 0, ...
                          t.traj);
  checks = vm_demo_check (checks, 'max |discrete primal residual|, nodes 1..N-1', r.residual, 0, ...
                          t.linear);
  checks = vm_demo_check (checks, '|v(T) - v_exact(T)|', r.err_final, 0, NaN);
  checks = vm_demo_check (checks, 'exitflag', r.printed_dual.exitflag, 1, 0, 'part', ...
                          'printed-sign dual');
  checks = vm_demo_check (checks, 'max |z v1 - v2|', r.printed_dual.constraint, '>= 0.1', ...
                          t.differ, 'error', NaN, 'ratio', ...
                          t.differ / max (r.printed_dual.constraint, realmin));
  checks = vm_demo_check (checks, 'max |v - ode45 on printed eq. 48| (h^3)', r.printed_dual.dev, ...
                          0, t.traj);
  checks = vm_demo_check (checks, 'max |y_closed - y_engine| / max(1, |y|)', r.engine.dy, 0, ...
                          t.engine, 'part', 'engine (all runs)');
  checks = vm_demo_check (checks, 'max |D_closed - D_engine| / max(1, |D|)', r.engine.dD, 0, ...
                          t.engine);
  checks = vm_demo_check (checks, '|S_closed - S_engine| / max(1, |S|)', r.engine.dS, 0, t.engine);
  for io = 1:numel (r.conv)
    c = r.conv(io);
    part = '';
    if io == 1
      part = 'convergence';
    end
    checks = vm_demo_check (checks, sprintf ('Order %d: min exitflag (both kernels)', c.order), ...
                            min (c.exitflag(:)), 1, 0, 'part', part);
    checks = vm_demo_check (checks, sprintf ('Order %d: max Newton iterations (linear: 1)', ...
                            c.order), max (c.iterations(:)), 1, 0);
    checks = vm_demo_check (checks, sprintf ('Order %d: max-norm rate of v (N %d/%d)', c.order, ...
                            c.N(end - 1), c.N(end)), c.observed_max, c.predicted, t.rate);
    checks = vm_demo_check (checks, sprintf ('Order %d: final-time rate of v (N %d/%d)', c.order, ...
                            c.N(end - 1), c.N(end)), c.observed_final, c.predicted, NaN);
  end
end

function print_table (r, msg)
  fprintf ('Reduced Pars dual (Acharya & Sengupta eqs. 48-49, sign of eq. 48 corrected): H = |v|^2/2\n');
  fprintf ('x3 = z = %g + %g t, v0 = (%g, %g), t in [0, %g]; N = %d, Order 4, c = 1, zero base state\n', ...
           r.x0(3), r.v0(3), r.v0(1), r.v0(2), r.T, r.N);
  fprintf ('reference: v1 = v1^0 sqrt((1 + z0^2)/(1 + z^2)), v2 = z v1 (closed form of eq. 44)\n\n');
  vm_demo_table (r.checks, '%.4g', 'part');
  fprintf ('\nconvergence of the recovered v against the closed form (rates log2(e1/e2))\n');
  fprintf ('%6s %5s %10s %6s %10s %6s\n', 'order', 'N', 'max err', 'rate', 'err(T)', 'rate');
  for io = 1:numel (r.conv)
    c = r.conv(io);
    for in = 1:numel (c.N)
      if in == 1
        fprintf ('%6d %5d %10.3e %6s %10.3e %6s\n', c.order, c.N(in), c.err_max(in), '-', ...
                 c.err_final(in), '-');
      else
        fprintf ('%6d %5d %10.3e %6.2f %10.3e %6.2f\n', c.order, c.N(in), c.err_max(in), ...
                 c.rate_max(in - 1), c.err_final(in), c.rate_final(in - 1));
      end
    end
  end
  fprintf ('\n%s (%.1f s)\n', msg, r.time);
end

function draw_plot (r)
  colors = [0, 0.447, 0.741; 0.85, 0.325, 0.098; 0.466, 0.674, 0.188];
  fs = 7;
  vm_demo_subplot (2, 1, 1, fs);
  hold on;
  h1 = plot (r.t, r.exact(:, 1), '-', 'color', colors(1, :), 'linewidth', 1.5);
  plot (r.t, r.exact(:, 2), '-', 'color', colors(2, :), 'linewidth', 1.5);
  h2 = plot (r.t(1:4:end), r.y(1:4:end, 1), 'o', 'color', colors(1, :), 'markersize', 4);
  plot (r.t(1:4:end), r.y(1:4:end, 2), 'o', 'color', colors(2, :), 'markersize', 4);
  h3 = plot (r.t, r.printed.v(:, 1), '--', 'color', colors(1, :));
  plot (r.t, r.printed.v(:, 2), '--', 'color', colors(2, :));
  hold off;
  set (gca, 'fontsize', fs);
  ylim ([-1, 1.5]);
  xlabel ('t (dimensionless)');
  ylabel ('v_1 (blue), v_2 (red) (dimensionless)');
  title (sprintf ('reduced Pars dual, N = %d, Order 4', r.N), 'fontsize', 8);
  lh = legend ([h1, h2, h3], {'closed form', 'dual (every 4th node)', 'printed eq. 48 (ode45)'}, ...
               'location', 'southwest');
  set (lh, 'fontsize', 6);
  grid on;
  vm_demo_subplot (2, 1, 2, fs);
  hold on;
  hs = zeros (1, numel (r.conv));
  leg = cell (1, numel (r.conv));
  for io = 1:numel (r.conv)
    c = r.conv(io);
    hN = r.T ./ (c.N - 1);
    hs(io) = loglog (hN, c.err_max, '-o', 'color', colors(io, :), 'linewidth', 1.5);
    loglog (hN, c.err_final, '--s', 'color', colors(io, :));
    leg{io} = sprintf ('Order %d', c.order);
  end
  hold off;
  set (gca, 'xscale', 'log', 'yscale', 'log', 'fontsize', fs);
  % the h range tight to the data
  hN = r.T ./ ([r.conv.N] - 1);
  xl = [min(hN(:)) / 1.3, max(hN(:)) * 1.3];
  tk = kron (10 .^ (-4:1), [1, 2, 5]);
  tk = tk(tk >= xl(1) & tk <= xl(2));
  xlim (xl);
  set (gca, 'xtick', tk, 'xticklabel', strsplit (strtrim (sprintf ('%g ', tk))));
  xlabel ('h (time step, dimensionless)');
  ylabel ('error of v (dimensionless)');
  title ('max error (solid), error at T (dashed)', 'fontsize', 8);
  lh = legend (hs, leg, 'location', 'southeast');
  set (lh, 'fontsize', 6);
  grid on;
end
