function results = demo_plane_particle (varargin)
% -*- texinfo -*-
% @deftypefn  {} {} demo_plane_particle ()
% @deftypefnx {} {results =} demo_plane_particle ()
% @deftypefnx {} {results =} demo_plane_particle (..., "quiet")
% @deftypefnx {} {results =} demo_plane_particle (..., "png", dir)
% @deftypefnx {} {results =} demo_plane_particle (..., "kappa", k, "T", T)
% A free particle on the plane x3 = 0: the ideal reaction against a constraint force that is only
% required to keep the constraint and to expend no power.
%
% Physics (Acharya and Sengupta, "Dual action principles ...", Sec.@: 2, the paragraph after
% eq.@: 10): "consider the free (without any external applied force) motion of a single particle
% constrained to move on the plane x3 = 0.  If the only requirement of the constraint forces is
% that they maintain the constraint on the motion of the particle and expend no power, circular,
% in-plane motions would clearly be allowed, with the (in-plane component of the) constraint force
% pointing from the particle to the center of the circle".  The paper writes the equations for
% unit mass (xddot = f - f^c, eq.@: 1a); here m = 1, L = m/2 |xdot|^2 - m gz x3 with gz = 0 (the
% paper's free particle) or gz = 9.8 (a particle on a horizontal table, which makes the ideal
% reaction nonzero).
%
% Equations, derived.
% @table @asis
% @item (a) ideal reaction
% constraint x3 = 0 (or dot(x3) = 0), reaction R = A' lambda, A = (0, 0, 1) (Gauss /
% d'Alembert): m xddot = (0, 0, -m gz) + lambda e3, and x3ddot = 0 gives lambda = m gz.  In-plane
% there is no force: x(t) = x0 + v0 t, the straight line.  The reaction's power is lambda v3 = 0.
% @item (b) power-only alternative
% the constraint force Q = kappa (e3 x v) + lambda e3, i.e.@: the in-plane part
% kappa (-x2dot, x1dot, 0) given to varmech as a model force ("forces") and the x3 part either
% ideal (b1) or absent ("Reaction", "explicit", b2; gz = 0 only).  It keeps x3 = 0 (its x3
% component balances gravity) and expends no power on the actual motion,
% Q.v = kappa (-v2 v1 + v1 v2) + lambda v3 = 0.  With om = kappa/m and J = [0 -1; 1 0] (in
% plane), vdot = om J v, so v(t) = Rot(om t) v0 and, integrating once more with J^-1 = -J,
% x(t) = c - J v(t)/om with the center c = x0 + J v0/om = x0 + (e3 x v0)/om: uniform circular
% motion of radius |v0|/om = m |v0|/kappa and period 2 pi/om.  The force kappa e3 x v = m om J v
% points from x to c, as the paper says.  Yet Q is not an ideal reaction: on an admissible velocity u
% other than the actual one (u = e3 x v, in the plane) its power is kappa |v|^2 ~= 0 (d'Alembert
% requires zero power on ALL velocities compatible with the constraint), and Gauss's constraint
% Z = |m xddot - f|^2/m = |Q|^2/m exceeds its minimum m gz^2 (the ideal reaction) by
% kappa^2 |v|^2/m.
% @end table
% The references are these closed forms.  The circle is also fitted to the computed points
% (algebraic least squares: x1^2 + x2^2 = 2 c1 x1 + 2 c2 x2 + (r^2 - |c|^2)) and its radius and
% center are compared with |v0|/w and c.
%
% Data: x0 = (0.3, -0.2, 0), v0 = (1, 0.5, 0), m = 1, kappa = 2 (options), T = two periods of
% the circle, 4 pi m/kappa.  Integration: gauss_integrate, dopri5, RelTol 1e-10, AbsTol 1e-12.
%
% Tolerances.  (a): x(t) is linear in t, which every Runge-Kutta method reproduces exactly, so only
% rounding remains: 10 eps max|x| per step, times the number of steps.  (b): dopri5 keeps the
% local error estimate of each step below RelTol |y| + AbsTol; the flow rotates velocity errors
% without growth and turns them into position errors growing at most linearly, so the global
% error is bounded by nsteps (RelTol max|y| + AbsTol) (1 + om T), which the circle (pointwise,
% radius, center) and the kinetic energy (times m max|v|) must meet.  Powers, the reaction
% lambda = m gz and the constraint residuals: rounding, 1e-12 (relative to kappa |v|^2 for the
% power, to m gz for lambda).
%
% Misprint in the paper: eq.@: 10 gives Gauss's constraint force as f^c = (n.f + w)/(n.n) a, with
% the constraint written n.xddot + w = 0 (eq.@: 9); a is the coefficient of a velocity-linear
% constraint and is not defined for eq.@: 9.  From n.(f - f^c) + w = 0 and f^c = lambda n, the
% force is f^c = (n.f + w)/(n.n) n.  Checked: for the plane (n = e3, w = 0, f = (0, 0, -gz)) this
% gives f^c = -gz e3, and varmech's reaction R = A' lambda (sign convention m xddot = f + R, so
% R = -m f^c) is (0, 0, m gz).
%
% Options:
% @table @code
% @item "quiet"
% print nothing.
% @item "png", @var{dir}
% write @file{demo_plane_particle.png} (the in-plane paths) into @var{dir}.
% @item "kappa", @var{k} / "T", @var{T}
% the strength of the in-plane force (default 2) and the final time (default two periods).
% @end table
%
% @var{results} has the fields @code{x0}, @code{v0}, @code{m}, @code{kappa}, @code{omega},
% @code{T}, @code{runs} (struct array, one per integration: @code{name}, @code{kind} "line" or
% "circle", @code{gz}, @code{err} (max pointwise error against the closed form), @code{tol},
% @code{line_dev} (max distance from the straight line x0 + v0 t), @code{sep_T}, @code{sep_T_ref}
% (distance from x0 + v0 T at t = T, computed and closed form), @code{radius}, @code{center}
% (fitted; NaN for lines), @code{power} (max |Q.v| of the constraint force Q),
% @code{virtual_power} (max |Q.u|, u = e3 x v), @code{gauss_Z} (max |Q|^2/m), @code{lambda}
% (max |lambda|), @code{lambda_err}, @code{residual} (max |x3|, |v3|), @code{energy_err},
% @code{energy_tol}, @code{nsteps}, @code{sol}), @code{circle} (radius, center, period of the closed form),
% @code{checks} (struct array: @code{name}, @code{value}, @code{reference}, @code{err},
% @code{tol}, @code{pass}) and @code{pass}.
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
  t = sol.t;
  q = sol.q;
  v = sol.qdot;
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
  lam = sol.lambda;
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
  plot (ra.q(:, 1), ra.q(:, 2), '-', 'color', [0, 0.447, 0.741], 'linewidth', 1.5);
  hold on;
  plot (c.center(1) + c.radius * cos (ph), c.center(2) + c.radius * sin (ph), 'k--');
  plot (rb.q(1:16:end, 1), rb.q(1:16:end, 2), 'o', 'color', [0.85, 0.325, 0.098], 'markersize', 4);
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
