function results = demo_dual_periodic_pendulum (varargin)
% -*- texinfo -*-
% @deftypefn  {} {} demo_dual_periodic_pendulum ()
% @deftypefnx {} {results =} demo_dual_periodic_pendulum (..., "quiet")
% @deftypefnx {} {results =} demo_dual_periodic_pendulum (..., "png", dir)
% The pendulum th' = w, w' = -g sin th (g = 1) by @code{periodic_orbit} (the dual action on a
% circle, Acharya & Sengupta, Remark 5): a conservative system whose librations form a family, one
% per energy E = w^2/2 - g cos th, with the period T(E) = 4 K(m)/sqrt (g), m = (1 + E/g)/2.
% Along the family the monodromy is M = I - T'(E) F grad E' (both multipliers 1, a Jordan block),
% so a phase condition alone leaves the Newton matrix singular; an energy condition ("Integral"
% E, "Level") with an unfolding parameter e in x' = F(x) + e grad E ("Unfolding") makes it regular.
% Amplitudes a = 0.5, 2, 3 (3 is near the separatrix); references: the closed forms and
% @code{ode45} (1e-12) on the hand-written field and its variational equations.
% (1) with the energy condition from a rough guess (period + 1 %, states + 3e-3): T to 1e-10, e = 0,
%     the energy, the closure under ode45, the multipliers, M against its closed form, det M = 1,
%     and the shooting matrices: singular with the phase row (its null vector is the family's
%     direction), regular with the energy row and the unfolding column;
% (2) the same from a circle (info for a = 3, far from the orbit);
% (3) without the energy condition: from the rough guess Newton stalls (info); from the true orbit
%     it converges to a member of the family at its own energy, with T = 4 K at that energy.
% "png", dir writes demo_dual_periodic_pendulum.png.  @var{results} holds @code{exact},
% @code{integral}, @code{circle}, @code{free}, the printed table @code{checks}, @code{pass}, @code{time}.
% @seealso{periodic_orbit, demo_dual_periodic_vdp, demo_dual_periodic_lorenz}
% @end deftypefn

  opt = vm_demo_args ('demo_dual_periodic_pendulum', varargin, struct ());
  tstart = tic;
  tol = struct ('T', 1e-10, 'unfolding', 1e-10, 'energy', 1e-9, 'closure', 1e-9, ...
                'floquet', 1e-4, 'monodromy', 1e-6, 'det', 1e-9, 'singular', 1e-9, ...
                'regular', 1e-7, 'null', 1e-6);
  g = 1;
  amps = [0.5, 2, 3];
  pend = odesys ('states', {'th', 'w'}, 'parameters', struct ('g', g), ...
                 'rhs', {'w', '-g*sin(th)'});
  energy = {'Integral', 'w^2/2 - g*cos(th)', 'Unfolding', {'g*sin(th)', 'w'}};
  ode_opt = odeset ('RelTol', 1e-12, 'AbsTol', 1e-12);
  na = numel (amps);
  exact = [];
  runs1 = [];
  runs2 = [];
  runs3 = [];
  for k = 1:na
    a = amps(k);
    ex = closed_form (a, g);
    % the true orbit (ode45 at 1e-12 over the closed-form period)
    [ex.t, ex.y] = ode45 (@(t, y) pend_rhs (y, g), linspace (0, ex.T, 200)', [a; 0], ode_opt);
    exact = [exact, ex]; %#ok<AGROW>
    % (1) with the energy condition, from the rough guess
    s = 2 * pi * ex.t / ex.T;
    tr = 1.01 * ex.t;
    yr = ex.y + 3e-3 * [sin(s), cos(2 * s)];
    sol = periodic_orbit (pend, tr, yr, energy{:}, 'Level', ex.E);
    runs1 = [runs1, integral_run(sol, ex, g, ode_opt)]; %#ok<AGROW>
    % (2) the same from a circle
    tc = linspace (0, 1.01 * ex.T, 80)';
    sc = 2 * pi * tc / tc(end);
    yc = [a * cos(sc), -a * sin(sc)] + 3e-3 * [sin(sc), cos(2 * sc)];
    sol = periodic_orbit (pend, tc, yc, energy{:}, 'Level', ex.E);
    runs2 = [runs2, struct('exitflag', sol.exitflag, 'message', sol.message, 'T', sol.T, ...
                           'T_err', abs (sol.T - ex.T) / ex.T, ...
                           'iterations', sol.iterations)]; %#ok<AGROW>
    % (3) without the energy condition: from the rough guess, and from the true orbit
    rough = periodic_orbit (pend, tr, yr);
    sol = periodic_orbit (pend, ex.t, ex.y);
    runs3 = [runs3, free_run(sol, rough, ex, g)]; %#ok<AGROW>
  end

  results = struct ();
  results.g = g;
  results.amplitudes = amps;
  results.exact = exact;
  results.integral = runs1;
  results.circle = runs2;
  results.free = runs3;
  results.tol = tol;
  results.checks = make_checks (results);
  [results.pass, msg] = vm_demo_verdict (results.checks);
  results.time = toc (tstart);

  if ~opt.quiet
    print_tables (results, msg);
  end
  vm_demo_png (opt, '', @(name) draw (results), [1200, 550]);
  if nargout == 0
    clear results;
  end
end

function ex = closed_form (a, g)
  % energy, parameter m = k^2, period 4 K(m)/sqrt (g) and dT/dE of the libration of amplitude a
  m = sin (a / 2)^2;
  [K, E2] = ellipke (m);
  dK = (E2 - (1 - m) * K) / (2 * m * (1 - m));
  ex = struct ('a', a, 'E', -g * cos (a), 'm', m, 'T', 4 * K / sqrt (g), ...
               'dTdE', 2 * dK / g^1.5, 't', [], 'y', []);
end

function f = pend_rhs (y, g)
  % the pendulum's field, written by hand (the references do not use varmech)
  f = [y(2); -g * sin(y(1))];
end

function dz = pend_var (z, g)
  % the field, the variational equations (z(3:6) = M by columns) and the derivative of the flow
  % with respect to the unfolding parameter e of x' = F(x) + e grad E at e = 0 (z(7:8))
  th = z(1);
  w = z(2);
  A = [0, 1; -g * cos(th), 0];
  M = A * reshape (z(3:6), 2, 2);
  S = A * z(7:8) + [g * sin(th); w];
  dz = [pend_rhs(z, g); M(:); S];
end

function run = integral_run (sol, ex, g, ode_opt)
  % part (1): the orbit found with the energy condition against the closed forms and ode45
  run = struct ('exitflag', sol.exitflag, 'message', sol.message, 'T', sol.T, ...
                'T_err', abs (sol.T - ex.T) / ex.T, 'unfolding', NaN, 'energy_err', NaN, ...
                'closure_ode45', NaN, 'closure', sol.closure, 'floquet', [NaN; NaN], ...
                'floquet_dev', NaN, 'jordan', NaN, 'jordan_ref', NaN, 'monodromy_err', NaN, ...
                'det_err', NaN, 'sv_closure', NaN, 'sv_phase', NaN, 'sv_energy', NaN, ...
                'null_err', NaN, 'N', sol.N, 'iterations', sol.iterations, 'time', sol.time, ...
                't', sol.t, 'y', sol.y);
  if sol.exitflag ~= 1
    return;
  end
  run.unfolding = sol.unfolding;
  En = sol.y(:, 2) .^ 2 / 2 - g * cos (sol.y(:, 1));
  run.energy_err = max (abs (En - ex.E));
  run.floquet = sol.floquet(:);
  run.floquet_dev = max (abs (sol.floquet - 1));
  % the monodromy against its closed form at the orbit's first point: a perturbation dx0 changes
  % the energy by grad E . dx0 and the period by T'(E) grad E . dx0, so after one period the orbit
  % is behind by that much along F
  x0 = sol.y(1, :)';
  F = pend_rhs (x0, g);
  gE = [g * sin(x0(1)); x0(2)];
  Mc = eye (2) - ex.dTdE * F * gE';
  run.jordan = norm (sol.monodromy - eye (2));
  run.jordan_ref = norm (Mc - eye (2));
  run.monodromy_err = norm (sol.monodromy - Mc) / run.jordan_ref;
  run.det_err = abs (det (sol.monodromy) - 1);
  % ode45 at 1e-12 over sol.T: the closure, M and d phi_T/de (one integration)
  z0 = [x0; 1; 0; 0; 1; 0; 0];
  [~, z] = ode45 (@(t, z) pend_var (z, g), [0, sol.T / 2, sol.T], z0, ode_opt);
  zT = z(end, :)';
  run.closure_ode45 = max (abs (zT(1:2) - x0));
  M = reshape (zT(3:6), 2, 2);
  Se = zT(7:8);
  J1 = [M - eye(2), F];
  J2 = [J1; F', 0];
  J3 = [M - eye(2), F, Se; F', 0, 0; gE', 0, 0];
  run.sv_closure = sv_ratio (J1);
  run.sv_phase = sv_ratio (J2);
  run.sv_energy = sv_ratio (J3);
  % the null vector of the phase-conditioned matrix against the family's direction
  [~, ~, V] = svd (J2);
  v = V(:, end);
  u = [gE / (gE' * gE); ex.dTdE];
  u = u / norm (u);
  run.null_err = norm (v - (u' * v) * u);   % the sine of the angle between them
end

function r = sv_ratio (J)
  s = svd (J);
  r = s(end) / s(1);
end

function run = free_run (sol, rough, ex, g)
  % part (3): without the energy condition
  run = struct ('rough_exitflag', rough.exitflag, 'rough_message', rough.message, ...
                'exitflag', sol.exitflag, 'message', sol.message, ...
                'note', ~isempty (strfind (sol.message, 'belongs to a family')), 'T', sol.T, ...
                'T_err', abs (sol.T - ex.T) / ex.T, 'E', NaN, 'E_err', NaN, 'T_family', NaN, ...
                'T_family_err', NaN, 'floquet', [NaN; NaN], 't', sol.t, 'y', sol.y);
  if sol.exitflag ~= 1
    return;
  end
  % the energy of the member found: the mean over the N nodes (the last row repeats the first)
  En = sol.y(1:end - 1, 2) .^ 2 / 2 - g * cos (sol.y(1:end - 1, 1));
  run.E = mean (En);
  run.E_err = run.E - ex.E;
  m = (1 + run.E / g) / 2;
  run.T_family = 4 * ellipke (m) / sqrt (g);
  run.T_family_err = abs (sol.T - run.T_family) / run.T_family;
  run.floquet = sol.floquet(:);
end

function checks = make_checks (res)
  tol = res.tol;
  checks = struct ('part', {}, 'name', {}, 'value', {}, 'reference', {}, 'error', {}, ...
                   'tol', {}, 'pass', {}, 'info', {});
  for k = 1:numel (res.amplitudes)
    a = res.amplitudes(k);
    ex = res.exact(k);
    r = res.integral(k);
    part = '';
    if k == 1
      part = '(1)';
    end
    lab = sprintf ('a = %g', a);
    checks = vm_demo_check (checks, [lab, ': exitflag'], r.exitflag, 1, 0, 'part', part);
    checks = vm_demo_check (checks, [lab, ': T vs 4 K(m)/sqrt(g) (rel.)'], r.T, ex.T, tol.T, ...
                            'error', r.T_err);
    checks = vm_demo_check (checks, [lab, ': unfolding parameter e'], r.unfolding, 0, ...
                            tol.unfolding);
    checks = vm_demo_check (checks, [lab, ': max |E - Level| at the nodes'], r.energy_err, 0, ...
                            tol.energy);
    checks = vm_demo_check (checks, [lab, ': closure, ode45 1e-12 over T'], r.closure_ode45, 0, ...
                            tol.closure);
    checks = vm_demo_check (checks, [lab, ': sol.closure (DOP853)'], r.closure, 0, NaN);
    checks = vm_demo_check (checks, [lab, ': Floquet max |mu - 1| (Jordan block)'], ...
                            r.floquet_dev, 0, tol.floquet);
    checks = vm_demo_check (checks, [lab, ': |M - I| vs |T''(E)| |F| |grad E|'], r.jordan, ...
                            r.jordan_ref, NaN);
    checks = vm_demo_check (checks, [lab, ': monodromy vs closed form (rel.)'], ...
                            r.monodromy_err, 0, tol.monodromy);
    checks = vm_demo_check (checks, [lab, ': |det M - 1|'], r.det_err, 0, tol.det);
    checks = vm_demo_check (checks, [lab, ': shooting [M-I, F]: s_min/s_max'], r.sv_closure, ...
                            0, tol.singular);
    checks = vm_demo_check (checks, [lab, ': + phase row: s_min/s_max'], r.sv_phase, 0, ...
                            tol.singular);
    checks = vm_demo_check (checks, [lab, ': its null vector vs the family (sin)'], ...
                            r.null_err, 0, tol.null);
    checks = vm_demo_check (checks, [lab, ': + energy row, unfolding: s_min/s_max'], ...
                            r.sv_energy, '>= 1e-7', 0, 'error', NaN, ...
                            'ratio', tol.regular / r.sv_energy);
  end
  for k = 1:numel (res.amplitudes)
    a = res.amplitudes(k);
    ex = res.exact(k);
    c = res.circle(k);
    part = '';
    if k == 1
      part = '(2)';
    end
    lab = sprintf ('a = %g, circle', a);
    if a < 2.5
      checks = vm_demo_check (checks, [lab, ': exitflag'], c.exitflag, 1, 0, 'part', part);
      checks = vm_demo_check (checks, [lab, ': T vs 4 K(m) (rel.)'], c.T, ex.T, tol.T, ...
                              'error', c.T_err);
    else
      checks = vm_demo_check (checks, [lab, ': exitflag (finding)'], c.exitflag, 1, NaN, ...
                              'part', part);
    end
  end
  for k = 1:numel (res.amplitudes)
    a = res.amplitudes(k);
    ex = res.exact(k);
    f = res.free(k);
    part = '';
    if k == 1
      part = '(3)';
    end
    lab = sprintf ('a = %g, no Integral', a);
    checks = vm_demo_check (checks, [lab, ', rough guess: exitflag (finding)'], ...
                            f.rough_exitflag, 1, NaN, 'part', part);
    checks = vm_demo_check (checks, [lab, ', true orbit: exitflag'], f.exitflag, 1, 0);
    checks = vm_demo_check (checks, [lab, ', true orbit: note "family" printed'], ...
                            double (f.note), 1, 0);
    checks = vm_demo_check (checks, [lab, ', true orbit: E_found vs Level'], f.E, ex.E, NaN, ...
                            'error', f.E_err);
    checks = vm_demo_check (checks, [lab, ', true orbit: T vs 4 K(m) (rel.)'], f.T, ex.T, NaN, ...
                            'error', f.T_err);
    checks = vm_demo_check (checks, [lab, ', true orbit: T vs 4 K at E_found'], f.T, ...
                            f.T_family, tol.T, 'error', f.T_family_err);
  end
end

function print_tables (res, msg)
  fprintf ('the pendulum th'''' = -g sin th (g = %g) by periodic_orbit (dual action on a circle)\n', ...
           res.g);
  fprintf ('against T = 4 K(m)/sqrt(g), m = sin(a/2)^2 (ellipke), and ode45 at RelTol 1e-12\n');
  fprintf ('(1) with Integral E = w^2/2 - g cos th, Level -g cos a, Unfolding grad E, from the true orbit\n');
  fprintf ('    with T + 1 %% and the states + 3e-3 (sin s, cos 2s):\n');
  fprintf ('%5s %10s %18s %18s %9s %5s %4s %7s  %s\n', 'a', 'E', 'T', '4 K(m)', 'rel err', ...
           'N', 'it', 'time s', 'Floquet multipliers');
  for k = 1:numel (res.amplitudes)
    ex = res.exact(k);
    r = res.integral(k);
    fl = r.floquet;
    fprintf ('%5g %10.6f %18.14f %18.14f %9.1e %5d %4d %7.2f  %.12f %+.3ei, %.12f %+.3ei\n', ...
             ex.a, ex.E, r.T, ex.T, r.T_err, r.N, r.iterations, r.time, real (fl(1)), ...
             imag (fl(1)), real (fl(2)), imag (fl(2)));
  end
  fprintf ('    shooting matrices (ode45 1e-12 along the orbit), smallest / largest singular value:\n');
  fprintf ('%5s %12s %12s %12s %14s %12s\n', 'a', '[M-I, F]', '+ phase', '+ energy', ...
           'null vs family', 'dT/dE');
  for k = 1:numel (res.amplitudes)
    r = res.integral(k);
    fprintf ('%5g %12.2e %12.2e %12.2e %14.2e %12.6f\n', res.amplitudes(k), r.sv_closure, ...
             r.sv_phase, r.sv_energy, r.null_err, res.exact(k).dTdE);
  end
  fprintf ('(2) the same options from a circle (a cos s, -a sin s) + 3e-3 (sin s, cos 2s), T + 1 %%:\n');
  for k = 1:numel (res.amplitudes)
    c = res.circle(k);
    fprintf ('  a = %g: exitflag %d, T = %.14f, rel err %.1e, %d iterations\n', ...
             res.amplitudes(k), c.exitflag, c.T, c.T_err, c.iterations);
  end
  fprintf ('(3) without Integral: from the rough guess of (1), and from the true orbit (ode45, T = 4 K):\n');
  for k = 1:numel (res.amplitudes)
    f = res.free(k);
    fprintf (['  a = %g: rough: exitflag %d; true orbit: exitflag %d, T = %.14f (vs 4 K(m) %.1e), ' ...
              'E_found - E = %.2e, T vs 4 K at E_found %.1e, note printed: %s\n'], ...
             res.amplitudes(k), f.rough_exitflag, f.exitflag, f.T, f.T_err, f.E_err, ...
             f.T_family_err, vm_demo_yesno (f.note));
  end
  fprintf ('\n');
  vm_demo_table (res.checks, '%.10g', 'part');
  fprintf ('%s (%.1f s)\n', msg, res.time);
end

function draw (res)
  fs = 5;
  g = res.g;
  colors = [0, 0.447, 0.741; 0.85, 0.325, 0.098; 0.466, 0.674, 0.188];
  % the key of the phase portrait in a strip above both panels, off the orbits
  top = 1.6 * 3 + 1;
  vm_demo_subplot (1, 2, 1, fs, [], top);
  % the separatrix E = g: w = +-2 sqrt (g) |cos (th/2)|, through the saddles th = +-pi
  th = linspace (-3.5, 3.5, 401);
  ws = 2 * sqrt (g) * abs (cos (th / 2));
  plot (th, ws, '--', 'color', [0.4, 0.4, 0.4], 'linewidth', 1);
  specs = {{'--', 'color', [0.4, 0.4, 0.4], 'linewidth', 1}};
  hold on;
  plot (th, -ws, '--', 'color', [0.4, 0.4, 0.4], 'linewidth', 1);
  leg = {'separatrix E = g (saddles at \theta = \pm\pi)'};
  for k = 1:numel (res.amplitudes)
    ex = res.exact(k);
    plot (ex.y(:, 1), ex.y(:, 2), '-', 'color', colors(k, :), 'linewidth', 1.2);
    specs{end + 1} = {'-', 'color', colors(k, :), 'linewidth', 1.2}; %#ok<AGROW>
    leg{end + 1} = sprintf ('a = %g rad: ode45 1e-12, T = 4 K = %.10f s', ex.a, ex.T); %#ok<AGROW>
  end
  for k = 1:numel (res.amplitudes)
    r = res.integral(k);
    if r.exitflag == 1
      step = max (1, floor (numel (r.t) / 60));
      plot (r.y(1:step:end, 1), r.y(1:step:end, 2), 'o', 'color', colors(k, :), 'markersize', 3);
      if k == 1
        specs{end + 1} = {'o', 'color', colors(k, :), 'markersize', 3, 'linestyle', 'none'}; %#ok<AGROW>
        leg{end + 1} = 'o: the dual action (periodic orbit with Integral E)'; %#ok<AGROW>
      end
    end
  end
  hold off;
  set (gca, 'fontsize', fs);
  axis ([-3.5, 3.5, -2.4, 2.4]);
  set (gca, 'ytick', -2:2);
  grid on;
  xlabel ('\theta (rad)');
  ylabel ('\omega = d\theta/dt (rad/s)');
  title ('pendulum orbits at E = -g cos a, g = 1/s^2');
  vm_demo_key (specs, leg, fs, 2);
  vm_demo_subplot (1, 2, 2, fs, [], top);
  E = linspace (-g * 0.999, g * 0.995, 400);
  T = 4 * ellipke ((1 + E / g) / 2) / sqrt (g);
  plot (E, T, 'k-', 'linewidth', 1);
  hold on;
  for k = 1:numel (res.amplitudes)
    r = res.integral(k);
    plot (res.exact(k).E, r.T, 'o', 'color', colors(k, :), 'markersize', 6, 'linewidth', 1.5);
  end
  hold off;
  set (gca, 'fontsize', fs);
  grid on;
  xlabel ('E = \omega^2/2 - g cos \theta (1/s^2)');
  ylabel ('period T (s)');
  title ('the family: T(E) and the orbits found');
  lh = legend ([{'T(E) = 4 K((1 + E/g)/2) / sqrt(g)'}, cellfun(@(a) sprintf ('a = %g rad', a), ...
                num2cell (res.amplitudes), 'UniformOutput', false)], 'location', 'northwest');
  set (lh, 'fontsize', fs - 1);
end
