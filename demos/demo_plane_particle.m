function results = demo_plane_particle (varargin)
% -*- texinfo -*-
% @deftypefn  {} {} demo_plane_particle ()
% @deftypefnx {} {results =} demo_plane_particle (..., "quiet")
% @deftypefnx {} {results =} demo_plane_particle (..., "png", dir)
% @deftypefnx {} {results =} demo_plane_particle (..., "kappa", k, "T", T)
% A free particle on the plane x3 = 0 (Acharya & Sengupta, "Dual action principles ...", Sec.@: 2,
% after eq.@: 10): a constraint force that only keeps the constraint and expends no power allows
% circular in-plane motions, the ideal reaction only the straight line.  m = 1, gravity gz = 0 or
% 9.8 along -x3, x0 = (0.3, -0.2, 0), v0 = (1, 0.5, 0), integrated by @code{gauss_integrate}
% (dopri5, RelTol 1e-10) on two periods of the circle.
% (a) the ideal reaction: x = x0 + v0 t, lambda = m gz, no power;
% (b) the force kappa (e3 x v) as a model force, its x3 part ideal (b1) or absent (b2,
%     "Reaction", "explicit"): uniform circular motion of radius m |v0|/kappa about
%     c = x0 + (e3 x v0) m/kappa, the force pointing to the centre, zero power on the motion, but
%     power kappa |v|^2 on the admissible velocity e3 x v and Gauss's constraint above its minimum.
% References: these closed forms; the circle is also fitted to the computed points.  Tolerances:
% for the line rounding only (Runge-Kutta reproduces it exactly), for the circle the steps' local
% errors growing at most linearly.  The paper's eq.@: 10 writes its force along a where the
% constraint's normal n is meant: f^c = (n.f + w)/(n.n) n (checked against varmech's reaction).
% "kappa" (default 2), "T"; "png", dir writes demo_plane_particle.png.  @var{results} holds
% @code{runs} (one per integration), @code{circle}, the printed table @code{checks} and @code{pass}.
% @seealso{gauss_integrate, mechsys, demo_tumbler}
% @end deftypefn

  opt = vm_demo_args ('demo_plane_particle', varargin, struct ('kappa', 2, 'T', []));
  kappa = opt.kappa;
  T = opt.T;
  m = 1;
  if ~(isscalar (kappa) && isreal (kappa) && kappa > 0)
    error ('demo_plane_particle: kappa must be a positive scalar');
  end
  om = kappa / m;
  if isempty (T)
    T = 2 * 2 * pi / om;
  end
  if ~(isscalar (T) && isreal (T) && T > 0)
    error ('demo_plane_particle: T must be a positive scalar');
  end

  x0 = [0.3, -0.2, 0];
  v0 = [1, 0.5, 0];
  gzs = [0, 9.8];
  rtol = 1e-10;
  atol = 1e-12;
  rtolr = 1e-12;
  J = [0, -1; 1, 0];
  circ.radius = norm (v0(1:2)) / om;
  circ.center = x0(1:2) + (J * v0(1:2)')' / om;
  circ.period = 2 * pi / om;
  circ.omega = om;

  par = struct ('m', m, 'gz', 0, 'kappa', kappa);
  lag = 'm/2*(dot(x1)^2 + dot(x2)^2 + dot(x3)^2) - m*gz*x3';
  coords = {'x1', 'x2', 'x3'};
  sys_pos = mechsys ('coordinates', coords, 'parameters', par, 'lagrangian', lag, ...
                     'constraints', {'x3'});
  sys_vel = mechsys ('coordinates', coords, 'parameters', par, 'lagrangian', lag, ...
                     'constraints', {'dot(x3)'});
  sys_rot = mechsys ('coordinates', coords, 'parameters', par, 'lagrangian', lag, ...
                     'forces', {'-kappa*dot(x2)', 'kappa*dot(x1)', '0'}, 'constraints', {'x3'});

  % name, system, reaction law, kind, gz
  plan = {'(a)  x3 = 0, ideal', sys_pos, 'ideal', 'line', 0; ...
          '(a)  dot(x3) = 0, ideal', sys_vel, 'ideal', 'line', 0; ...
          '(a)  x3 = 0, Reaction = [0 0 1]', sys_pos, [0, 0, 1], 'line', 0; ...
          '(a)  x3 = 0, ideal, gz = 9.8', sys_pos, 'ideal', 'line', gzs(2); ...
          '(b1) kappa e3 x v + ideal x3', sys_rot, 'ideal', 'circle', 0; ...
          '(b2) kappa e3 x v, explicit', sys_rot, 'explicit', 'circle', 0; ...
          '(b1) kappa e3 x v + ideal x3, gz = 9.8', sys_rot, 'ideal', 'circle', gzs(2)};
  tout = linspace (0, T, 401)';
  runs = [];
  for ir = 1:size (plan, 1)
    sys = plan{ir, 2};
    sys.parameters.gz = plan{ir, 5};
    sol = gauss_integrate (sys, [0, T], x0, v0, 'RelTol', rtol, 'AbsTol', atol, ...
                           'Reaction', plan{ir, 3}, 'OutputTimes', tout);
    if sol.exitflag ~= 1
      error ('demo_plane_particle: run %s failed: %s', plan{ir, 1}, sol.message);
    end
    r = analyse (sys, sol, plan{ir, 1}, plan{ir, 4}, plan{ir, 5}, x0, v0, m, kappa, om, J, circ, ...
                 rtol, atol, T);
    if isempty (runs)
      runs = r;
    else
      runs(ir) = r;
    end
  end

  % the checks of the table
  checks = struct ('name', {}, 'value', {}, 'reference', {}, 'err', {}, 'tol', {}, 'pass', {});
  for ir = 1:numel (runs)
    r = runs(ir);
    if strcmp (r.kind, 'line')
      checks = vm_demo_check (checks, [r.name, ': max |x - (x0 + v0 t)|'], r.err, 0, r.tol);
    else
      checks = vm_demo_check (checks, [r.name, ': max |x - x_circle(t)|'], r.err, 0, r.tol);
      checks = vm_demo_check (checks, [r.name, ': fitted radius'], r.radius, circ.radius, r.tol);
      checks = vm_demo_check (checks, [r.name, ': fitted center x1'], r.center(1), circ.center(1), ...
                              r.tol);
      checks = vm_demo_check (checks, [r.name, ': fitted center x2'], r.center(2), circ.center(2), ...
                              r.tol);
      checks = vm_demo_check (checks, [r.name, ': |x(T) - (x0 + v0 T)| (vs motion (a))'], r.sep_T, ...
                              r.sep_T_ref, r.tol);
      checks = vm_demo_check (checks, [r.name, ': virtual power on u = e3 x v'], r.virtual_power, ...
                              kappa * norm (v0)^2, rtolr * kappa * norm (v0)^2 + r.energy_tol);
      Zref = (kappa^2 * norm (v0)^2 + (m * r.gz)^2) / m;
      checks = vm_demo_check (checks, ...
                              [r.name, sprintf(': Gauss Z = |Q|^2/m (ideal: %g)', m * r.gz^2)], ...
                              r.gauss_Z, Zref, rtolr * Zref + 2 * kappa * r.energy_tol);
    end
    checks = vm_demo_check (checks, [r.name, ': max |power of the reaction|'], r.power, 0, ...
                            rtolr * max (1, kappa * norm (v0)^2));
    checks = vm_demo_check (checks, [r.name, ': max |E - E0| (no work)'], r.energy_err, 0, ...
                            r.energy_tol);
    checks = vm_demo_check (checks, [r.name, ': max |x3|, |v3| (constraint)'], r.residual, 0, ...
                            rtolr);
    if r.gz == 0
      continue;
    end
    checks = vm_demo_check (checks, [r.name, ': reaction lambda (= m gz)'], r.lambda, m * r.gz, ...
                            rtolr * max (1, m * r.gz));
  end
  % paper eq. 10 with n for a: f^c = (n.f + w)/(n.n) n against varmech's reaction (gz = 9.8)
  nn = [0, 0, 1];
  f = [0, 0, -gzs(2)];
  fc = (nn * f' + 0) / (nn * nn') * nn;
  rg = runs(4);
  Rv = rg.lambda * [0, 0, 1];
  checks = vm_demo_check (checks, 'eq. 10 (n for a): -m f^c vs varmech R = A''lambda', ...
                          max (abs (-m * fc - Rv)), 0, rtolr * m * gzs(2));

  results.x0 = x0;
  results.v0 = v0;
  results.m = m;
  results.kappa = kappa;
  results.omega = om;
  results.T = T;
  results.circle = circ;
  results.fc_eq10 = fc;
  results.runs = runs;
  results.checks = checks;
  results.pass = vm_demo_verdict (checks);

  if ~opt.quiet
    print_table (results);
  end
  vm_demo_png (opt, '', @(what) draw_plot (results));
  if nargout == 0
    clear results;
  end
end

function r = analyse (sys, sol, name, kind, gz, x0, v0, m, kappa, om, J, circ, rtol, atol, T)
  % measured quantities of one run against the closed forms
  t = sol.output.t;
  q = sol.output.q;
  v = sol.output.qdot;
  n = numel (t);
  r.name = name;
  r.kind = kind;
  r.gz = gz;
  % straight line and circle, closed form
  xl = ones (n, 1) * x0 + t * v0;
  vc = zeros (n, 2);
  for i = 1:n
    c = cos (om * t(i));
    s = sin (om * t(i));
    vc(i, :) = ([c, -s; s, c] * v0(1:2)')';
  end
  xc = ones (n, 1) * circ.center - (J * vc')' / om;
  r.line_dev = max (sqrt (sum ((q - xl) .^ 2, 2)));
  % separation from the straight line at the final time, and its closed form
  r.sep_T = norm (q(end, :) - xl(end, :));
  r.sep_T_ref = norm ([xc(end, :), 0] - xl(end, :));
  nsteps = sol.stats.naccept;
  ymax = max ([max(abs (q(:))), max(abs (v(:)))]);
  if strcmp (kind, 'line')
    r.err = r.line_dev;
    r.tol = 10 * eps * max (abs (xl(:))) * max (nsteps, 1);
    r.radius = NaN;
    r.center = [NaN, NaN];
    vref = v0;
  else
    r.err = max (sqrt (sum ((q - [xc, zeros(n, 1)]) .^ 2, 2)));
    r.tol = nsteps * (rtol * ymax + atol) * (1 + om * T);
    % algebraic circle fit: x1^2 + x2^2 = 2 c1 x1 + 2 c2 x2 + d
    P = [2 * q(:, 1), 2 * q(:, 2), ones(n, 1)];
    p = P \ (q(:, 1) .^ 2 + q(:, 2) .^ 2);
    r.center = p(1:2)';
    r.radius = sqrt (p(3) + p(1)^2 + p(2)^2);
    vref = [vc, zeros(n, 1)];
  end
  % forces and powers along the run (mechsys_eval: the model force F; ideal part lambda A)
  o = mechsys_eval (sys, t, q, v, 'blocks', {'eom', 'constraints'});
  if isempty (sys.forces)
    F = zeros (n, 3);
  else
    of = mechsys_eval (sys, t, q, v, 'blocks', {'forces'});
    F = of.F;
  end
  lam = sol.output.lambda;
  if isempty (lam) || size (lam, 2) == 0
    lam = zeros (n, 1);
  end
  if strcmp (name(1:4), '(b2)')
    Rid = zeros (n, 3);
    lam = zeros (n, 1);
  else
    Rid = lam(:, 1) * [0, 0, 1];
  end
  Q = F + Rid;
  r.power = max (abs (sum (Q .* v, 2)));
  r.power_ref = 0;
  % virtual power of Q on the admissible velocity u = e3 x v (in the plane, not the actual one)
  u = [-v(:, 2), v(:, 1), zeros(n, 1)];
  r.virtual_power = max (abs (sum (Q .* u, 2)));
  % Gauss's constraint Z = |m xddot - f_applied|^2 / m = |Q|^2 / m along the run
  r.gauss_Z = max (sum (Q .^ 2, 2)) / m;
  r.lambda = max (abs (lam(:, 1)));
  if gz > 0
    r.lambda_err = max (abs (lam(:, 1) - m * gz));
  else
    r.lambda_err = max (abs (lam(:, 1)));
  end
  r.residual = max ([max(abs (q(:, 3))), max(abs (v(:, 3)))]);
  % kinetic energy (the in-plane motion; E = m|v|^2/2 + m gz x3)
  E = o.energy;
  r.energy_err = max (abs (E - E(1)));
  r.energy_tol = m * max (sqrt (sum (vref .^ 2, 2))) * nsteps * (rtol * ymax + atol) * (1 + om * T);
  if strcmp (kind, 'line')
    r.energy_tol = 10 * eps * max (abs (E)) * max (nsteps, 1) + eps;
  end
  r.nsteps = nsteps;
  r.sol = sol;
end

function print_table (res)
  fprintf ('Free particle on the plane x3 = 0 (Acharya & Sengupta, Sec. 2): ideal reaction vs a\n');
  fprintf ('constraint force that only keeps x3 = 0 and expends no power\n');
  fprintf ('m = %g, x0 = [%g %g %g], v0 = [%g %g %g], kappa = %g, T = %.6g (two periods)\n', ...
           res.m, res.x0, res.v0, res.kappa, res.T);
  fprintf ('(a) closed form x0 + v0 t;  (b) closed form circle: radius m|v0|/kappa = %.6g, center [%.6g %.6g]\n', ...
           res.circle.radius, res.circle.center);
  fprintf ('gauss_integrate dopri5, RelTol 1e-10, AbsTol 1e-12\n\n');
  vm_demo_table (res.checks, '%.5g');
  [~, verdict] = vm_demo_verdict (res.checks);
  fprintf ('%s\n', verdict);
end

function draw_plot (res)
  ra = res.runs(1).sol;
  rb = res.runs(5).sol;
  c = res.circle;
  ph = linspace (0, 2 * pi, 361);
  plot (ra.output.q(:, 1), ra.output.q(:, 2), '-', 'color', [0, 0.447, 0.741], 'linewidth', 1.5);
  hold on;
  plot (c.center(1) + c.radius * cos (ph), c.center(2) + c.radius * sin (ph), 'k--');
  plot (rb.output.q(1:16:end, 1), rb.output.q(1:16:end, 2), 'o', 'color', [0.85, 0.325, 0.098], 'markersize', 4);
  plot (res.x0(1), res.x0(2), 'k*', 'markersize', 8);
  % the two constraint forces at the start: ideal (zero) and kappa e3 x v0 (to the center)
  f0 = res.kappa * [-res.v0(2), res.v0(1)] / res.m;
  quiver (res.x0(1), res.x0(2), f0(1) / 4, f0(2) / 4, 0, 'color', [0.85, 0.325, 0.098]);
  quiver (res.x0(1), res.x0(2), res.v0(1) / 4, res.v0(2) / 4, 0, 'color', [0, 0.447, 0.741]);
  plot (c.center(1), c.center(2), 'k+', 'markersize', 8);
  hold off;
  axis equal;
  set (gca, 'fontsize', 8);
  xlabel ('x_1 (m)');
  ylabel ('x_2 (m)');
  title ('x_3 = 0: ideal reaction (line), power-only force (circle)', 'fontsize', 9);
  lh = legend ({'(a) ideal: x_0 + v_0 t', '(b) closed form circle', '(b) varmech', 'x_0', ...
                '\kappa e_3 x v_0 / 4', 'v_0 / 4', 'center'}, 'location', 'northwest');
  set (lh, 'fontsize', 7);
  grid on;
end
