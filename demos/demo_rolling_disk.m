function results = demo_rolling_disk (varargin)
% -*- texinfo -*-
% @deftypefn  {} {} demo_rolling_disk ()
% @deftypefnx {} {results =} demo_rolling_disk (..., "quiet")
% @deftypefnx {} {results =} demo_rolling_disk (..., "png", dir)
% @deftypefnx {} {results =} demo_rolling_disk (..., "RelTol", rtol)
% The rolling-spinning disk on an incline, quadratic versus linear rolling constraint (Rothkopf &
% Horowitz, "A variational approach to nonholonomic and inequality-constrained mechanics", eq.@: 10,
% footnote 2, Fig.@: 2): L = M/2 (xdot^2 + ydot^2) + IS/2 thetadot^2 + ID/2 phidot^2 + M g x sin(alpha),
% g = 9.8, alpha = pi/6, M = R = 1, IS = 1/2, ID = 1/4, qdot0 = (5, 0, 5, 1), 0 <= t <= 2 pi.
% @code{gauss_integrate} (dopri5) integrates (a) the paper's g1 = xdot^2 + ydot^2 - R^2 thetadot^2
% with g2 = xdot sin(phi) - ydot cos(phi), and (b) the linear branch of g1 selected by the initial
% data, g1lin = v - R thetadot (v = xdot cos(phi) + ydot sin(phi); g1 = (v - R thetadot)(v + R
% thetadot) on g2 = 0).  Reference: the closed form (@code{vm_disk_closed_form}).  The two forms give
% the same motion with different multipliers: mu1 = 2 R thetadot lambda1, mu2 = lambda2 (the reaction
% is fixed by the motion), as the paper states.  Compared: q of (a) against (b), q, qdot and the
% multipliers against the closed form, that relation, the conserved energy and the constraint
% residuals, each within 10 RelTol times the scale of the quantity.  The paper's eqs.@: 12, 13 swap
% IS and ID (eq.@: 10 is right), its kappa_y (x_+[1] - y_i) reads y_+[1], and its g_D2 term has the
% wrong sign (doc/misprints.md).  "RelTol": dopri5's tolerance (default 1e-10, AbsTol RelTol/100);
% "png", dir writes demo_rolling_disk_@{trajectory,lambda,energy@}.png.  @var{results} holds
% @code{quadratic}, @code{linear}, @code{ref}, the errors, the printed table @code{checks}, @code{pass}.
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

  % scales S(Q) of the tolerances 10 * RelTol * S(Q): dopri5's global error is proportional to
  % RelTol times the scale of the quantity over the run
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
  % q, qdot, multipliers at the output times, and the energy and constraint residuals evaluated
  % from the state there
  s.q = sol.output.q;
  s.qdot = sol.output.qdot;
  s.lambda = sol.output.lambda;
  s.stats = sol.stats;
  qd = sol.output.qdot;
  phi = sol.output.q(:, 4);
  s.energy = P.M / 2 * (qd(:, 1) .^ 2 + qd(:, 2) .^ 2) + P.IS / 2 * qd(:, 3) .^ 2 ...
             + P.ID / 2 * qd(:, 4) .^ 2 - P.M * P.g * sin (P.alpha) * sol.output.q(:, 1);
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
      xlim ([min(r.ref.q(:, 2)) - 0.5, max(r.ref.q(:, 2)) + 0.5]);
      xlabel ('y (m, across the slope)');
      ylabel ('x (m, down the slope)');
      title ('rolling disk: path of the centre, 0 <= t <= 2 pi s');
      lh = legend ({'closed form', '(a) quadratic g1', '(b) linear g1'}, 'location', 'northwest');
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
      xlim ([0, t(end)]);
    otherwise
      semilogy (t, max (abs (A.energy - A.energy(1)), 1e-17), 'r-', ...
                t, max (abs (B.energy - B.energy(1)), 1e-17), 'b-', 'linewidth', 1.5);
      xlabel ('t (s)');
      ylabel ('|E(t) - E(0)| (J)');
      title (sprintf ('energy error, dopri5 RelTol = %g', r.reltol));
      xlim ([0, t(end)]);
      lh = legend ({'(a) quadratic g1', '(b) linear g1'}, 'location', 'southwest');
      set (lh, 'fontsize', 7);
  end
  set (gca, 'fontsize', 8);
  grid on;
end
