function results = demo_rolling_disk (varargin)
% -*- texinfo -*-
% @deftypefn  {} {} demo_rolling_disk ()
% @deftypefnx {} {results =} demo_rolling_disk ()
% @deftypefnx {} {results =} demo_rolling_disk (..., "quiet")
% @deftypefnx {} {results =} demo_rolling_disk (..., "png", dir)
% @deftypefnx {} {results =} demo_rolling_disk (..., "RelTol", rtol)
% Rolling-spinning disk on an incline: quadratic versus linear rolling constraint.
%
% Physics (Rothkopf & Horowitz, "A variational approach to nonholonomic and
% inequality-constrained mechanics", eq. 10 and footnote 2).  A disk of mass M,
% radius R, moment of inertia IS about its symmetry axis and ID about the
% spinning axis (normal to the incline, a diameter of the upright disk) rolls
% without slipping on an incline of angle alpha.
% x points down the slope, y across it, theta is the rolling angle, phi the
% heading.  The Lagrangian is
%
% @example
% L = M/2 (xdot^2 + ydot^2) + IS/2 thetadot^2 + ID/2 phidot^2 + M g x sin(alpha)
% @end example
%
% with the paper's parameters g = 9.8, alpha = pi/6, M = 1, R = 1, IS = 1/2,
% ID = 1/4 and initial values x = y = theta = phi = 0, xdot = 5, ydot = 0,
% thetadot = 5, phidot = 1, on 0 <= t <= 2 pi.  Rolling is imposed by two
% nonholonomic constraints:
%
% @example
% g1 = xdot^2 + ydot^2 - R^2 thetadot^2 = 0        (paper's g_D1, quadratic)
% g2 = xdot sin(phi) - ydot cos(phi)    = 0        (g_D2: no side slip)
% @end example
%
% The semi-holonomic (linear) form of g1.  g2 = 0 says that (xdot, ydot) is
% parallel to e = (cos phi, sin phi): (xdot, ydot) = v e with
% v = xdot cos(phi) + ydot sin(phi).  Then g1 = v^2 - R^2 thetadot^2 =
% (v - R thetadot)(v + R thetadot), so g1 = 0 splits into two linear branches.
% At t = 0, v - R thetadot = 5 - 5 = 0 and v + R thetadot = 10, so the branch of
% the initial data is
%
% @example
% g1lin = xdot cos(phi) + ydot sin(phi) - R thetadot = 0.
% @end example
%
% Both forms are integrated with @code{gauss_integrate} (dopri5, ideal
% reaction): (a) @{g1, g2@} with multipliers (lambda1, lambda2), (b)
% @{g1lin, g2@} with multipliers (mu1, mu2).
%
% Equations of motion (derived here; gauss_integrate uses
% d/dt dL/dqdot - dL/dq = A' lambda, A = dg/dqdot, as the paper's eq. 3).
% For form (b), A = [cos phi, sin phi, -R, 0; sin phi, -cos phi, 0, 0]:
%
% @example
% M xddot      = M g sin(alpha) + mu1 cos(phi) + mu2 sin(phi)
% M yddot      =                  mu1 sin(phi) - mu2 cos(phi)
% IS thetaddot = -R mu1
% ID phiddot   = 0      =>  phidot = Omega (= 1), phi = phi0 + Omega t
% @end example
%
% With (xdot, ydot) = v e and v = R thetadot, xddot = vdot cos(phi) - v Omega
% sin(phi), yddot = vdot sin(phi) + v Omega cos(phi).  Projecting the first two
% equations on e and on (sin phi, -cos phi) and using mu1 = -IS thetaddot/R =
% -IS vdot/R^2:
%
% @example
% (M + IS/R^2) vdot = M g sin(alpha) cos(phi)
% mu1 = -IS k cos(phi)/R^2,  mu2 = -M Omega v - M g sin(alpha) sin(phi),
% k = M g sin(alpha)/(M + IS/R^2)
% @end example
%
% Closed form (the independent reference).  Let c = v0 - (k/Omega) sin(phi0):
%
% @example
% v(t)     = c + (k/Omega) sin(phi)
% x(t)     = x0 + c (sin phi - sin phi0)/Omega + k (sin^2 phi - sin^2 phi0)/(2 Omega^2)
% y(t)     = y0 + c (cos phi0 - cos phi)/Omega
%               + (k/Omega) (t/2 - (sin 2phi - sin 2phi0)/(4 Omega))
% theta(t) = theta0 + (c t + k (cos phi0 - cos phi)/Omega^2)/R
% @end example
%
% (x, y by integrating v cos(phi), v sin(phi) exactly).  Here v >= 5 - k =
% 1.73 > 0 at all times, so the quadratic g1 keeps a nonzero gradient and the
% disk stays on the branch v = R thetadot.
%
% Relation of the multipliers.  The reaction is M qddot - f, fixed by the
% trajectory, so equal trajectories mean equal reactions.  For (a) the
% reaction is lambda1 dg1/dqdot + lambda2 dg2/dqdot with dg1/dqdot = (2 xdot,
% 2 ydot, -2 R^2 thetadot, 0) = 2 v (cos phi, sin phi, -R, 0) = 2 R thetadot
% dg1lin/dqdot on the branch; for (b) it is mu1 dg1lin/dqdot + mu2 dg2/dqdot.
% The two rows are independent, hence
%
% @example
% mu1 = 2 R thetadot lambda1,   mu2 = lambda2.
% @end example
%
% So lambda1 = -IS k cos(phi)/(2 R^2 v) differs from mu1 by the factor 2 v,
% which ranges over [3.5, 16.5] here: the same motion, different multipliers,
% as the paper states (Fig. 2).  (At t = 0: mu1 = -1.6333, lambda1 = -0.16333,
% mu2 = lambda2 = -5.)
%
% Energy.  The constraints are homogeneous in the velocities (g2, g1lin of
% degree 1, g1 of degree 2), so the ideal reaction does no work,
% A qdot = (degree) g = 0, and
% E = M/2 (xdot^2 + ydot^2) + IS/2 thetadot^2 + ID/2 phidot^2 - M g x sin(alpha)
% is conserved (computed here from the state, not from sol.energy).
%
% What is compared (table columns: quantity | value | reference | error | tol):
% q of (a) against q of (b) (max over the run); q and qdot of both forms
% against the closed form; mu1, mu2 of (b) and lambda1, lambda2 of (a) against
% their closed forms; the relation mu1 = 2 R thetadot lambda1 between the two
% numerical solutions; max |lambda1 - mu1| (how much the multipliers differ;
% reported, reference the closed-form value); the energy drift; the residuals
% of g1, g1lin, g2 on both solutions (evaluated here from q, qdot).
%
% Tolerances.  dopri5 keeps each local error below RelTol |y| + AbsTol (here
% AbsTol = RelTol/100).  Its global error is then proportional to RelTol; for
% this problem the measured error of every compared quantity Q is 0.2 to 1.6
% times RelTol * S(Q) for RelTol = 1e-6, 1e-8, 1e-10, 1e-12 (checked), where
% S(Q) is the scale of Q over the run.  Each check uses tol = 10 * RelTol *
% S(Q), a margin of at least 6 over the measured error.  S: max |q| of the
% reference (31.4) for q; max |qdot| for qdot; max (R thetadot)^2 for g1;
% max |v| for g1lin and g2; max |mu1|, max |mu2| for mu1, mu2, lambda2 and the
% relation; max |mu1|/(2 min v) for lambda1 (lambda1 = mu1/(2 v), so its error
% is that of mu1 divided by at least 2 min v); max of kinetic + |potential|
% energy for E.  Default RelTol = 1e-10.
%
% Misprints (paper; how each was checked):
% @itemize
% @item Eq. 12 and eq. 13 (discretized action and energy) put ID on the rolling
% rate D theta and IS on the spinning rate D phi, the reverse of eq. 10.
% Eq. 10 is right: the text defines IS as the moment about the symmetry axis,
% which is the rolling axis, and the footnote's IS = 1/2 = M R^2/2 and
% ID = 1/4 = M R^2/4 are the moments of a uniform disk about its symmetry axis
% and about a diameter.  The swap matters: it would give the initial rolling
% acceleration g sin(alpha)/(1 + ID/(M R^2)) = 3.92 instead of
% g sin(alpha)/(1 + IS/(M R^2)) = 3.2667.
% @item Eq. 12, second initial-condition line: kappa_y (x_+[1] - y_i) should
% be kappa_y (y_+[1] - y_i).
% @item Eq. 12, the g_D2 term: lambda_-^D2 ((D x_+)' H sin[phi] + (D y_+)' H
% cos[phi]) has "+", but g_D2 = xdot sin(phi) - ydot cos(phi) has "-".  The
% printed "+" form is violated by the motion: on the closed form
% xdot sin(phi) + ydot cos(phi) = v sin(2 phi), up to 7.39 in magnitude.  The
% term -(lambda_+^D2)' (H sin[phi] + H cos[phi]) also lacks the factors x_-,
% y_- that eq. 7 (-lambda_+ q_- dg/dqdot) requires.
% @end itemize
%
% Options:
% @table @code
% @item "quiet"
% print nothing.
% @item "png", @var{dir}
% write @file{demo_rolling_disk_trajectory.png} (x-y path of both forms and
% the closed form), @file{demo_rolling_disk_lambda.png} (lambda1 of (a), mu1 of
% (b), and 2 R thetadot lambda1) and @file{demo_rolling_disk_energy.png} (energy
% error of both forms) into @var{dir} (created if missing).
% @item "RelTol", @var{rtol}
% the dopri5 relative tolerance (default 1e-10; AbsTol = rtol/100).
% @end table
%
% @var{results} is a struct with fields @code{params}, @code{reltol},
% @code{t}; @code{quadratic}, @code{linear} (each with @code{q}, @code{qdot},
% @code{lambda}, @code{energy}, @code{residual} = [g1, g1lin, g2] on that
% solution, @code{stats}); @code{ref} (closed-form @code{q}, @code{qdot},
% @code{mu}, @code{lambda}); @code{branch} (the two branch values
% v -/+ R thetadot at t = 0); the measured quantities @code{diff_q_forms},
% @code{diff_lambda1}, @code{ratio_mu1_lambda1} ([min max] of mu1/lambda1),
% @code{err_relation}, @code{err_q}, @code{err_qdot}, @code{err_mult},
% @code{energy_drift}, @code{max_residual}; and @code{checks}, a struct array
% (@code{name}, @code{value}, @code{reference}, @code{error}, @code{tol},
% @code{pass}) with one element per table row, and @code{pass} (all rows).
% @seealso{gauss_integrate, mechsys, demo_incline}
% @end deftypefn

  opt = vm_demo_args ('demo_rolling_disk', varargin, struct ('RelTol', 1e-10));
  rtol = opt.RelTol;
  if ~(isnumeric (rtol) && isscalar (rtol) && isreal (rtol) && rtol > 0 && rtol < 1e-3)
    error ('demo_rolling_disk: RelTol must be a number in (0, 1e-3)');
  end

  % parameters and initial values of the paper (footnote 2)
  P = struct ('M', 1, 'g', 9.8, 'alpha', pi / 6, 'R', 1, 'IS', 1 / 2, 'ID', 1 / 4);
  q0 = [0, 0, 0, 0];
  qdot0 = [5, 0, 5, 1];
  T = 2 * pi;
  tout = linspace (0, T, 401)';

  lag = ['M/2*(dot(x)^2 + dot(y)^2) + IS/2*dot(theta)^2 + ID/2*dot(phi)^2' ...
         ' + M*g*x*sin(alpha)'];
  g1 = 'dot(x)^2 + dot(y)^2 - R^2*dot(theta)^2';
  g1lin = 'dot(x)*cos(phi) + dot(y)*sin(phi) - R*dot(theta)';
  g2 = 'dot(x)*sin(phi) - dot(y)*cos(phi)';
  coords = {'x', 'y', 'theta', 'phi'};
  sysq = mechsys ('coordinates', coords, 'parameters', P, 'lagrangian', lag, ...
                  'constraints', {g1, g2});
  sysl = mechsys ('coordinates', coords, 'parameters', P, 'lagrangian', lag, ...
                  'constraints', {g1lin, g2});

  % branch of g1 = (v - R thetadot)(v + R thetadot) selected by the initial data
  v0 = qdot0(1) * cos (q0(4)) + qdot0(2) * sin (q0(4));
  branch = [v0 - P.R * qdot0(3), v0 + P.R * qdot0(3)];

  opts = {'Method', 'dopri5', 'RelTol', rtol, 'AbsTol', rtol / 100, 'OutputTimes', tout};
  sa = gauss_integrate (sysq, [0, T], q0, qdot0, opts{:});
  sb = gauss_integrate (sysl, [0, T], q0, qdot0, opts{:});
  if sa.exitflag ~= 1 || sb.exitflag ~= 1
    error ('demo_rolling_disk: integration failed: %s / %s', sa.message, sb.message);
  end

  ref = vm_disk_closed_form (P, q0, qdot0, tout);
  results.params = P;
  results.reltol = rtol;
  results.t = tout;
  results.quadratic = pack (sa, P);
  results.linear = pack (sb, P);
  results.ref = ref;
  results.branch = branch;

  A = results.quadratic;
  B = results.linear;
  results.diff_q_forms = max (max (abs (A.q - B.q)));
  results.diff_lambda1 = max (abs (A.lambda(:, 1) - B.lambda(:, 1)));
  ratio = B.lambda(:, 1) ./ A.lambda(:, 1);
  ratio = ratio(abs (A.lambda(:, 1)) > 1e-3 * max (abs (A.lambda(:, 1))));
  results.ratio_mu1_lambda1 = [min(ratio), max(ratio)];
  results.err_relation = max (abs (B.lambda(:, 1) - 2 * P.R * A.qdot(:, 3) .* A.lambda(:, 1)));
  results.err_q = [max(max(abs(A.q - ref.q))), max(max(abs(B.q - ref.q)))];
  results.err_qdot = [max(max(abs(A.qdot - ref.qdot))), max(max(abs(B.qdot - ref.qdot)))];
  results.err_mult = [max(abs(A.lambda(:, 1) - ref.lambda(:, 1))), ...
                      max(abs(A.lambda(:, 2) - ref.lambda(:, 2))), ...
                      max(abs(B.lambda(:, 1) - ref.mu(:, 1))), ...
                      max(abs(B.lambda(:, 2) - ref.mu(:, 2)))];
  results.energy_drift = [max(abs(A.energy - A.energy(1))), max(abs(B.energy - B.energy(1)))];
  results.max_residual = [max(abs(A.residual), [], 1); max(abs(B.residual), [], 1)];

  % scales S(Q) of the tolerances 10 * RelTol * S(Q) (see the help text)
  v = ref.qdot(:, 3) * P.R;
  Sq = max (abs (ref.q(:)));
  Sqd = max (abs (ref.qdot(:)));
  Smu1 = max (abs (ref.mu(:, 1)));
  Smu2 = max (abs (ref.mu(:, 2)));
  % lambda1 = mu1/(2 R thetadot): its error is that of mu1 divided by 2 R thetadot >= 2 min v
  Sl1 = Smu1 / (2 * min (v));
  Sl2 = max (abs (ref.lambda(:, 2)));
  kin = P.M / 2 * sum (ref.qdot(:, 1:2) .^ 2, 2) + P.IS / 2 * ref.qdot(:, 3) .^ 2 ...
        + P.ID / 2 * ref.qdot(:, 4) .^ 2;
  SE = max (kin + abs (P.M * P.g * sin (P.alpha) * ref.q(:, 1)));
  tolf = @(S) 10 * rtol * S;
  lam1_gap = max (abs (ref.lambda(:, 1) - ref.mu(:, 1)));

  c = struct ('name', {}, 'value', {}, 'reference', {}, 'error', {}, 'tol', {}, 'pass', {});
  c = vm_demo_check (c, 'branch v - R thetadot at t = 0', branch(1), 0, tolf (abs (v0)));
  c = vm_demo_check (c, 'max |q(a) - q(b)|', results.diff_q_forms, 0, tolf (Sq));
  c = vm_demo_check (c, 'max |q(a) - closed form|', results.err_q(1), 0, tolf (Sq));
  c = vm_demo_check (c, 'max |q(b) - closed form|', results.err_q(2), 0, tolf (Sq));
  c = vm_demo_check (c, 'max |qdot(a) - closed form|', results.err_qdot(1), 0, tolf (Sqd));
  c = vm_demo_check (c, 'max |qdot(b) - closed form|', results.err_qdot(2), 0, tolf (Sqd));
  c = vm_demo_check (c, 'max |lambda1(a) - closed form|', results.err_mult(1), 0, tolf (Sl1));
  c = vm_demo_check (c, 'max |lambda2(a) - closed form|', results.err_mult(2), 0, tolf (Sl2));
  c = vm_demo_check (c, 'max |mu1(b) - closed form|', results.err_mult(3), 0, tolf (Smu1));
  c = vm_demo_check (c, 'max |mu2(b) - closed form|', results.err_mult(4), 0, tolf (Smu2));
  c = vm_demo_check (c, 'max |lambda1(a) - mu1(b)| (they differ)', results.diff_lambda1, lam1_gap, ...
                     tolf (Smu1));
  c = vm_demo_check (c, 'max |mu1(b) - 2 R thetadot lambda1(a)|', results.err_relation, 0, ...
                     tolf (Smu1));
  c = vm_demo_check (c, 'max |lambda2(a) - mu2(b)|', max (abs (A.lambda(:, 2) - B.lambda(:, 2))), 0, ...
                     tolf (Smu2));
  c = vm_demo_check (c, 'energy drift max |E - E(0)| (a)', results.energy_drift(1), 0, tolf (SE));
  c = vm_demo_check (c, 'energy drift max |E - E(0)| (b)', results.energy_drift(2), 0, tolf (SE));
  names = {'g1', 'g1lin', 'g2'};
  scales = [max(v .^ 2), max(abs(v)), max(abs(v))];
  tags = {'a', 'b'};
  for is = 1:2
    for ig = 1:3
      c = vm_demo_check (c, sprintf ('max |%s| on (%s)', names{ig}, tags{is}), ...
                         results.max_residual(is, ig), 0, tolf (scales(ig)));
    end
  end
  results.checks = c;
  results.pass = vm_demo_verdict (c);

  if ~opt.quiet
    print_table (results, sa, sb, kin(1) - P.M * P.g * sin (P.alpha) * ref.q(1, 1));
  end
  vm_demo_png (opt, {'trajectory', 'lambda', 'energy'}, @(what) draw (results, what));
  if nargout == 0
    clear results;
  end
end

function s = pack (sol, P)
  % q, qdot, multipliers, and the energy and constraint residuals evaluated from the state
  s.q = sol.q;
  s.qdot = sol.qdot;
  s.lambda = sol.lambda;
  s.stats = sol.stats;
  qd = sol.qdot;
  phi = sol.q(:, 4);
  s.energy = P.M / 2 * (qd(:, 1) .^ 2 + qd(:, 2) .^ 2) + P.IS / 2 * qd(:, 3) .^ 2 ...
             + P.ID / 2 * qd(:, 4) .^ 2 - P.M * P.g * sin (P.alpha) * sol.q(:, 1);
  s.residual = [qd(:, 1) .^ 2 + qd(:, 2) .^ 2 - P.R ^ 2 * qd(:, 3) .^ 2, ...
                qd(:, 1) .* cos(phi) + qd(:, 2) .* sin(phi) - P.R * qd(:, 3), ...
                qd(:, 1) .* sin(phi) - qd(:, 2) .* cos(phi)];
end

function print_table (r, sa, sb, E0)
  P = r.params;
  fprintf ('Rolling-spinning disk on an incline (Rothkopf & Horowitz eq. 10), 0 <= t <= 2 pi\n');
  fprintf ('g = %g, alpha = pi/6, M = %g, R = %g, IS = %g, ID = %g; q0 = 0, qdot0 = (5, 0, 5, 1)\n', ...
           P.g, P.M, P.R, P.IS, P.ID);
  fprintf ('(a) g1 = xdot^2 + ydot^2 - R^2 thetadot^2, g2 = xdot sin(phi) - ydot cos(phi)\n');
  fprintf ('(b) g1lin = xdot cos(phi) + ydot sin(phi) - R thetadot, g2\n');
  fprintf ('branches of g1 at t = 0: v - R thetadot = %g (used), v + R thetadot = %g\n', ...
           r.branch(1), r.branch(2));
  fprintf ('dopri5, RelTol = %g, AbsTol = %g: %d / %d steps; E(0) = %.6f\n', r.reltol, ...
           r.reltol / 100, sa.stats.nsteps, sb.stats.nsteps, E0);
  fprintf ('reference: closed form (v = c + k/Omega sin(phi), k = M g sin(alpha)/(M + IS/R^2));\n');
  fprintf ('tolerance = 10 * RelTol * (largest magnitude of the quantity)\n\n');
  vm_demo_table (r.checks, '%.4e');
  fprintf ('\nmu1/lambda1 = 2 R thetadot ranges over [%.4f, %.4f]: same motion, different multiplier\n', ...
           r.ratio_mu1_lambda1);
  [~, verdict] = vm_demo_verdict (r.checks);
  fprintf ('%s\n', verdict);
end

function draw (r, what)
  t = r.t;
  A = r.quadratic;
  B = r.linear;
  switch what
    case 'trajectory'
      plot (r.ref.q(:, 2), r.ref.q(:, 1), 'k-', 'linewidth', 2);
      hold on;
      plot (A.q(1:8:end, 2), A.q(1:8:end, 1), 'ro', B.q(1:8:end, 2), B.q(1:8:end, 1), 'b+');
      hold off;
      set (gca, 'ydir', 'reverse');
      xlabel ('y (m, across the slope)');
      ylabel ('x (m, down the slope)');
      title ('rolling disk: path of the centre, 0 <= t <= 2 pi s');
      lh = legend ({'closed form', '(a) quadratic g1', '(b) linear g1'}, 'location', 'southeast');
      set (lh, 'fontsize', 7);
    case 'lambda'
      plot (t, A.lambda(:, 1), 'r-', t, B.lambda(:, 1), 'b-', ...
            t, 2 * r.params.R * A.qdot(:, 3) .* A.lambda(:, 1), 'k--', 'linewidth', 1.5);
      xlabel ('t (s)');
      ylabel ('lambda1 (kg/s), mu1 (N)');
      title ('multiplier of g1: mu1 = 2 R thetadot lambda1');
      lh = legend ({'lambda1, (a) quadratic g1', 'mu1, (b) linear g1', '2 R thetadot lambda1 from (a)'}, ...
                   'location', 'north');
      set (lh, 'fontsize', 7);
      ylim ([-2, 3]);
    otherwise
      semilogy (t, max (abs (A.energy - A.energy(1)), 1e-17), 'r-', ...
                t, max (abs (B.energy - B.energy(1)), 1e-17), 'b-', 'linewidth', 1.5);
      xlabel ('t (s)');
      ylabel ('|E(t) - E(0)| (J)');
      title (sprintf ('energy error, dopri5 RelTol = %g', r.reltol));
      lh = legend ({'(a) quadratic g1', '(b) linear g1'}, 'location', 'southwest');
      set (lh, 'fontsize', 7);
  end
  set (gca, 'fontsize', 8);
  grid on;
end
