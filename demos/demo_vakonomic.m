function results = demo_vakonomic (varargin)
% -*- texinfo -*-
% @deftypefn  {} {} demo_vakonomic ()
% @deftypefnx {} {results =} demo_vakonomic (..., "quiet")
% @deftypefnx {} {results =} demo_vakonomic (..., "png", dir)
% @deftypefnx {} {results =} demo_vakonomic (..., "mu0", mu0, "T", T)
% Vakonomic versus d'Alembert motions from the same initial data (Acharya & Sengupta, Sec.@: 2,
% eqs.@: 6-8).  For a constraint a(q) . qdot = 0 the Euler-Lagrange equations of L + mu a . qdot
% (mu varied too) give the reaction R_i = -mudot a_i - mu (d_j a_i - d_i a_j) qdot_j, d'Alembert's
% principle R = lambda a; neither does work, yet the motions differ.  @code{gauss_integrate} with
% "Reaction", "vakonomic" integrates mu as a state from "Multiplier0" mu0; mu0 = 0 starts with the
% d'Alembert acceleration (the distance grows like t^3, for mu0 ~= 0 like t^2).  Two systems, unit
% mass: Pars' particle (a = (x3, -1, 0); d'Alembert: eq.@: 44, @code{vm_pars_closed_form}) and a
% knife edge on an incline (d'Alembert: thdot constant, a closed form; vakonomic: the blade turns).
% References: the closed forms, and @code{ode45} (1e-12) on the vakonomic equations written by hand.
% Reported per system and per motion (d'Alembert, mu0 = 0, mu0): the trajectory and multiplier
% errors, |a . qdot|, the power R . qdot, the energy drift (1e-9 = 100 RelTol each), the distances
% between the motions and their exponent at small t (within 0.15).  Eq.@: 7, integrated as printed
% from mu(0) = m0, gives the motion of varmech from -m0 (the convention L - mu a . qdot, not a
% misprint); with its curl term flipped no mu(0) gives a vakonomic motion.  "mu0" (non-zero,
% default 0.3), "T" (>= 1, default 5); "png", dir writes demo_vakonomic.png.  @var{results} holds
% @code{systems} (with their @code{runs}), the printed table @code{checks}, @code{tol}, @code{pass}.
% @seealso{gauss_integrate, demo_pars, odesys}
% @end deftypefn

  opt = vm_demo_args ('demo_vakonomic', varargin, struct ('mu0', 0.3, 'T', 5));
  if ~(isscalar (opt.mu0) && isreal (opt.mu0) && opt.mu0 ~= 0 && isscalar (opt.T) ...
       && isreal (opt.T) && opt.T >= 1)
    error ('demo_vakonomic: mu0 must be a non-zero scalar and T a scalar of at least 1');
  end
  tstart = tic;
  % dopri5 at RelTol 1e-11 and ode45 at 1e-12: 100 RelTol allows for the error growth over [0, T],
  % and the residual, power (|R . qdot| <= |mudot| |a . qdot|) and energy drift are accumulated local
  % errors of the same order; the exponent fit on [0.01, 0.1] sees the next order of the expansion
  tol = struct ('traj', 1e-9, 'residual', 1e-9, 'power', 1e-9, 'energy', 1e-9, ...
                'exponent', 0.15, 'differ', 0.1);
  T = opt.T;
  tout = unique ([logspace(-2, -1, 9), linspace(0, T, 201)])';
  sysdef = {pars_system(), knife_system()};
  systems = struct ([]);
  for k = 1:numel (sysdef)
    s = run_system (sysdef{k}, tout, opt.mu0);
    if isempty (systems)
      systems = s;
    else
      systems(k) = s;
    end
  end
  results = struct ('T', T, 'mu0', opt.mu0, 'systems', systems, 'tol', tol);
  checks = make_checks (systems, tol);
  results.checks = checks;
  [results.pass, results.verdict] = vm_demo_verdict (checks);
  results.time = toc (tstart);
  if ~opt.quiet
    print_table (results);
  end
  vm_demo_png (opt, '', @(what) draw_plot (results), [1000, 1100]);
  if nargout == 0
    clear results;
  end
end

% ---- the two systems: model, data, closed form, hand-written E-L equations ------------------------

function d = pars_system ()
  d.name = 'Pars';
  d.sys = mechsys ('coordinates', {'x1', 'x2', 'x3'}, ...
                   'lagrangian', '1/2*(dot(x1)^2 + dot(x2)^2 + dot(x3)^2)', ...
                   'constraints', {'x3*dot(x1) - dot(x2)'});
  d.q0 = [0.3, -0.2, -0.5];
  d.qdot0 = [0.8, -0.5 * 0.8, 0.4];
  d.closed = @(t) vm_pars_closed_form (t, d.q0, d.qdot0);
  % Euler-Lagrange equations of L + mu (x3 v1 - v2), by hand
  d.el = el_system ({'x1', 'x2', 'x3', 'v1', 'v2', 'v3', 'mu'}, struct (), ...
                    {'v1', 'v2', 'v3', '-md*x3 - mu*v3', 'md', 'mu*v1', 'md'}, ...
                    '(v1*v3 - mu*x3*v3)/(1 + x3^2)');
  % generic form for the eq. 7 check: a(q), its Jacobian Ja(i, j) = d a_i / d q_j, M, f(q)
  d.M = eye (3);
  d.a = @(q) [q(3); -1; 0];
  d.Ja = @(q) [0, 0, 1; 0, 0, 0; 0, 0, 0];
  d.f = @(q, v) zeros (3, 1);
  d.energy = @(q, v) sum (v .^ 2, 2) / 2;
end

function d = knife_system ()
  g = 0.5;
  J = 0.5;
  d.name = 'knife edge';
  d.sys = mechsys ('coordinates', {'x', 'y', 'th'}, 'parameters', struct ('g', g, 'J', J), ...
                   'lagrangian', '(dot(x)^2 + dot(y)^2)/2 + J/2*dot(th)^2 + g*x', ...
                   'constraints', {'sin(th)*dot(x) - cos(th)*dot(y)'});
  th0 = 0.3;
  u0 = 1;
  om = 0.5;
  d.q0 = [0, 0, th0];
  d.qdot0 = [u0 * cos(th0), u0 * sin(th0), om];
  d.closed = @(t) knife_closed_form (t, d.q0, u0, om, g);
  % Euler-Lagrange equations of L + mu (sin(th) xdot - cos(th) ydot), by hand
  d.el = el_system ({'x', 'y', 'th', 'vx', 'vy', 'w', 'mu'}, struct ('g', g, 'J', J), ...
                    {'vx', 'vy', 'w', 'g - md*sin(th) - mu*cos(th)*w', ...
                     'md*cos(th) - mu*sin(th)*w', 'mu*(cos(th)*vx + sin(th)*vy)/J', 'md'}, ...
                    'g*sin(th) + w*(cos(th)*vx + sin(th)*vy)');
  d.M = diag ([1, 1, J]);
  d.a = @(q) [sin(q(3)); -cos(q(3)); 0];
  d.Ja = @(q) [0, 0, cos(q(3)); 0, 0, sin(q(3)); 0, 0, 0];
  d.f = @(q, v) [g; 0; 0];
  d.energy = @(q, v) (v(:, 1) .^ 2 + v(:, 2) .^ 2 + J * v(:, 3) .^ 2) / 2 - g * q(:, 1);
end

function ode = el_system (states, params, rhs, md)
  % the hand-written E-L equations: md in the formulas stands for mudot
  rhs = strrep (rhs, 'md', ['(', md, ')']);
  ode = odesys ('states', states, 'parameters', params, 'rhs', rhs);
end

function [x, v] = knife_closed_form (t, q0, u0, om, g)
  % d'Alembert: th = th0 + om t, u = u0 + (g/om) (sin th - sin th0), (x', y') = u (cos th, sin th)
  th0 = q0(3);
  th = th0 + om * t;
  s0 = sin (th0);
  u = u0 + g / om * (sin (th) - s0);
  x = q0(1) + (u0 * (sin (th) - s0) + g / om * ((sin (th) .^ 2 - s0^2) / 2 ...
      - s0 * (sin (th) - s0))) / om;
  y = q0(2) + (-u0 * (cos (th) - cos (th0)) + g / om * ((th - th0) / 2 ...
      - (sin (2 * th) - sin (2 * th0)) / 4 + s0 * (cos (th) - cos (th0)))) / om;
  x = [x, y, th];
  v = [u .* cos(th), u .* sin(th), om * ones(size (t))];
end

% ---- the runs ------------------------------------------------------------------------------------

function s = run_system (d, tout, mu0)
  gopt = {'RelTol', 1e-11, 'AbsTol', 1e-13, 'OutputTimes', tout};
  oopt = odeset ('RelTol', 1e-12, 'AbsTol', 1e-14);
  n = numel (d.q0);
  runs = struct ('name', {'d''Alembert', 'vakonomic, mu0 = 0', sprintf('vakonomic, mu0 = %g', mu0)}, ...
                 'mu0', {NaN, 0, mu0});
  for r = 1:3
    if r == 1
      sol = gauss_integrate (d.sys, tout([1 end]), d.q0, d.qdot0, gopt{:});
      [xr, vr] = d.closed (tout);
      mur = NaN (size (tout));
    else
      sol = gauss_integrate (d.sys, tout([1 end]), d.q0, d.qdot0, gopt{:}, ...
                             'Reaction', 'vakonomic', 'Multiplier0', runs(r).mu0);
      [~, y] = ode45 (@(t, y) el_rhs (d.el, t, y), tout, [d.q0, d.qdot0, runs(r).mu0]', oopt);
      xr = y(:, 1:n);
      mur = y(:, end);
    end
    runs(r).exitflag = sol.exitflag;
    runs(r).q = sol.output.q;
    runs(r).qdot = sol.output.qdot;
    runs(r).mu = sol.output.lambda;
    runs(r).t_steps = sol.t;   % power and residual: at the integrator's steps
    runs(r).power = sol.power;
    runs(r).residual = sol.residual;
    runs(r).dev_ref = max (max (abs (sol.output.q - xr)));
    runs(r).dev_mu = max (abs (sol.output.lambda - mur));
    runs(r).power_max = max (abs (sol.power));
    runs(r).residual_max = max (abs (sol.residual));
    E = d.energy (sol.output.q, sol.output.qdot);
    runs(r).energy_drift = max (abs (E - E(1)));
    runs(r).time = sol.time;
  end
  s.name = d.name;
  s.q0 = d.q0;
  s.qdot0 = d.qdot0;
  s.t = tout;
  s.runs = runs;
  T = tout(end);
  s.dist_t = T * [1/8, 1/4, 1/2, 1];
  s.dist_curve = zeros (numel (tout), 2);
  s.dist = zeros (2, 4);
  s.exponent = zeros (1, 2);
  small = tout >= 0.01 - 1e-15 & tout <= 0.1 + 1e-15;
  for r = 2:3
    dq = sqrt (sum ((runs(r).q - runs(1).q) .^ 2, 2));
    s.dist_curve(:, r - 1) = dq;
    s.dist(r - 1, :) = interp1 (tout, dq, s.dist_t);
    p = polyfit (log (tout(small)), log (dq(small)), 1);
    s.exponent(r - 1) = p(1);
  end
  % eq. 7 as printed (xddot = f - f^(c)) from mu(0) = mu0, against varmech from -mu0 and +mu0;
  % the same with the curl term flipped
  y0 = [d.q0, d.qdot0, mu0]';
  [~, y7] = ode45 (@(t, y) eq7_rhs (d, y, 1), tout, y0, oopt);
  [~, yf] = ode45 (@(t, y) eq7_rhs (d, y, -1), tout, y0, oopt);
  vm = gauss_integrate (d.sys, tout([1 end]), d.q0, d.qdot0, 'RelTol', 1e-11, 'AbsTol', 1e-13, ...
                        'OutputTimes', tout, 'Reaction', 'vakonomic', 'Multiplier0', -mu0);
  vp = runs(3);
  s.eq7_dev = max (max (abs (y7(:, 1:n) - vm.output.q)));
  s.eq7_mu_dev = max (abs (y7(:, end) + vm.output.lambda));
  s.eq7_same_sign = max (max (abs (y7(:, 1:n) - vp.q)));
  s.eq7_flipped = min (max (max (abs (yf(:, 1:n) - vm.output.q))), max (max (abs (yf(:, 1:n) - vp.q))));
  s.eq7_residual = max (abs (sum (cell2mat (arrayfun (@(i) d.a (y7(i, 1:n))', (1:numel (tout))', ...
                                                   'UniformOutput', false)) .* y7(:, n + 1:2 * n), 2)));
end

function dy = el_rhs (ode, t, y)
  out = odesys_eval (ode, t, y');
  dy = out.F';
end

function dy = eq7_rhs (d, y, sgn)
  % M qddot = f - f^(c), f^(c) = -mudot a - sgn mu (d_j a_i - d_i a_j) v_j (sgn = 1: eq. 7 as
  % printed); mudot from a . qddot + v' Ja v = 0
  n = numel (d.q0);
  q = y(1:n);
  v = y(n + 1:2 * n);
  mu = y(end);
  a = d.a (q);
  Ja = d.Ja (q);
  K = Ja - Ja';
  Mi = inv (d.M);
  f = d.f (q, v);
  md = -(a' * Mi * (f + sgn * mu * K * v) + v' * Ja * v) / (a' * Mi * a);
  fc = -md * a - sgn * mu * K * v;
  dy = [v; Mi * (f - fc); md];
end

% ---- the table -----------------------------------------------------------------------------------

function c = make_checks (systems, tol)
  c = struct ('part', {}, 'name', {}, 'value', {}, 'reference', {}, 'error', {}, 'tol', {}, ...
              'pass', {});
  refs = {'closed form', 'E-L of L + mu a.qdot (odesys, ode45)', 'E-L of L + mu a.qdot (odesys, ode45)'};
  for k = 1:numel (systems)
    s = systems(k);
    for r = 1:numel (s.runs)
      u = s.runs(r);
      part = [s.name, ', ', u.name];
      if u.exitflag ~= 1
        c = vm_demo_check (c, 'gauss_integrate exitflag', u.exitflag, 1, 0, 'part', part);
      end
      c = vm_demo_check (c, 'max_t |q - q_ref|', NaN, refs{r}, tol.traj, 'error', u.dev_ref, ...
                         'part', part);
      if r > 1
        c = vm_demo_check (c, 'max_t |mu - mu_ref|', NaN, refs{r}, tol.traj, 'error', u.dev_mu, ...
                           'part', part);
      end
      c = vm_demo_check (c, 'max_t |a.qdot| (residual)', u.residual_max, 0, tol.residual, ...
                         'part', part);
      c = vm_demo_check (c, 'max_t |R.qdot| (power)', u.power_max, 0, tol.power, 'part', part);
      c = vm_demo_check (c, 'max_t |E - E(0)|', u.energy_drift, 0, tol.energy, 'part', part);
    end
    part = [s.name, ', distance'];
    for r = 1:2
      c = differs (c, sprintf ('|q_vak(T) - q_dA(T)|, %s', s.runs(r + 1).name), s.dist(r, end), ...
                   tol, part);
    end
    c = vm_demo_check (c, 'exponent of the distance at small t, mu0 = 0', s.exponent(1), 3, ...
                       tol.exponent, 'part', part);
    c = vm_demo_check (c, 'exponent of the distance at small t, mu0 ~= 0', s.exponent(2), 2, ...
                       tol.exponent, 'part', part);
    part = [s.name, ', eq. 7'];
    c = vm_demo_check (c, 'printed (7) from m0 vs varmech from -m0', NaN, 'E-L of L + mu a.qdot', ...
                       tol.traj, 'error', s.eq7_dev, 'part', part);
    c = vm_demo_check (c, 'printed (7): mu vs -mu of varmech', NaN, 'E-L of L + mu a.qdot', ...
                       tol.traj, 'error', s.eq7_mu_dev, 'part', part);
    c = vm_demo_check (c, 'printed (7): max_t |a.qdot|', s.eq7_residual, 0, tol.residual, ...
                       'part', part);
    c = differs (c, 'printed (7) from m0 vs varmech from +m0', s.eq7_same_sign, tol, part);
    c = differs (c, '(7) with the curl flipped vs varmech from +-m0', s.eq7_flipped, tol, part);
  end
end

function c = differs (c, name, value, tol, part)
  % a row "value >= tol.differ": the error is the shortfall, the tolerance 0
  c = vm_demo_check (c, name, value, sprintf ('>= %g', tol.differ), 0, 'error', ...
                     max (0, tol.differ - value), 'part', part);
end

function print_table (r)
  fprintf ('Vakonomic (calculus of variations, A&S eq. 7) versus d''Alembert (eq. 8) motions\n');
  fprintf ('from the same initial data; gauss_integrate dopri5 RelTol 1e-11, t in [0, %g]\n', r.T);
  for k = 1:numel (r.systems)
    s = r.systems(k);
    fprintf ('%s: q0 = (%g, %g, %g), qdot0 = (%.6g, %.6g, %.6g)\n', s.name, s.q0, s.qdot0);
  end
  fprintf ('\n');
  vm_demo_table (r.checks, '%.4g', 'system, run');
  fprintf ('\ndistance |q_vak(t) - q_dA(t)| (Euclidean in q)\n');
  for k = 1:numel (r.systems)
    s = r.systems(k);
    fprintf ('%-11s %-22s', s.name, 't =');
    fprintf (' %10.4g', s.dist_t);
    fprintf ('   small-t exponent\n');
    for j = 1:2
      fprintf ('%-11s %-22s', '', s.runs(j + 1).name);
      fprintf (' %10.4g', s.dist(j, :));
      fprintf ('   %.3f\n', s.exponent(j));
    end
  end
  fprintf ('\ntimings (gauss_integrate, s):');
  for k = 1:numel (r.systems)
    fprintf (' %s:', r.systems(k).name);
    fprintf (' %.3f', [r.systems(k).runs.time]);
  end
  fprintf ('\n%s (%.1f s)\n', r.verdict, r.time);
end

function draw_plot (r)
  % one key for all panels, in a strip above them: the same colour and line style for a motion in
  % every panel
  colors = [0, 0.447, 0.741; 0.85, 0.325, 0.098; 0.466, 0.674, 0.188];
  styles = {'-', '--', '-.'};
  fs = 6;
  ns = numel (r.systems);
  top = 1.6 + 1;
  for k = 1:ns
    s = r.systems(k);
    vm_demo_subplot (4, ns, k, fs, [], top);
    hold on;
    for j = 1:3
      plot (s.runs(j).q(:, 1), s.runs(j).q(:, 2), styles{j}, 'color', colors(j, :), 'linewidth', 1.5);
    end
    hold off;
    set (gca, 'fontsize', fs);
    xlabel ('q_1');
    ylabel ('q_2');
    title (sprintf ('%s: (q_1, q_2)', s.name));
    grid on;
    vm_demo_subplot (4, ns, ns + k, fs, [], top);
    for j = 2:3
      loglog (s.t(2:end), max (s.dist_curve(2:end, j - 1), 1e-18), styles{j}, 'color', colors(j, :), ...
              'linewidth', 1.5);
      hold on;
    end
    hold off;
    set (gca, 'fontsize', fs, 'ytick', 10 .^ (-8:2:2));
    xlabel ('t');
    ylabel ('|q_{vak} - q_{dA}|');
    title ('distance to d''Alembert');
    grid on;
    vm_demo_subplot (4, ns, 2 * ns + k, fs, [], top);
    hold on;
    for j = 1:3
      semilogy (s.runs(j).t_steps, max (abs (s.runs(j).residual), 1e-18), styles{j}, 'color', colors(j, :), ...
                'linewidth', 1.5);
    end
    hold off;
    set (gca, 'yscale', 'log', 'fontsize', fs, 'ytick', 10 .^ (-18:3:-9));
    ylim ([1e-18, 1e-9]);
    xlabel ('t');
    ylabel ('|a . qdot|');
    title ('residual (0 at 1e-18)');
    grid on;
    vm_demo_subplot (4, ns, 3 * ns + k, fs, [], top);
    hold on;
    for j = 1:3
      plot (s.runs(j).t_steps, s.runs(j).power, styles{j}, 'color', colors(j, :), 'linewidth', 1.5);
    end
    hold off;
    set (gca, 'fontsize', fs);
    xlabel ('t');
    ylabel ('R . qdot');
    title ('power of the reaction');
    grid on;
  end
  specs = cell (1, 3);
  for j = 1:3
    specs{j} = {styles{j}, 'color', colors(j, :), 'linewidth', 1.5};
  end
  vm_demo_key (specs, {r.systems(1).runs.name}, fs + 1, 3);
end
