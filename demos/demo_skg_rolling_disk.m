function results = demo_skg_rolling_disk (varargin)
% -*- texinfo -*-
% @deftypefn  {} {} demo_skg_rolling_disk ()
% @deftypefnx {} {results =} demo_skg_rolling_disk ()
% @deftypefnx {} {results =} demo_skg_rolling_disk (..., "quiet")
% @deftypefnx {} {results =} demo_skg_rolling_disk (..., "png", dir)
% Rolling-spinning disk on an incline as the critical point of the discrete SKG action
% (Rothkopf & Horowitz, "A variational approach to nonholonomic and inequality-constrained
% mechanics", eq. 10 and Fig. 2).
%
% Physics and closed form: see @code{demo_rolling_disk} (same model, derivation repeated in
% short).  L = M/2 (xdot^2 + ydot^2) + IS/2 thetadot^2 + ID/2 phidot^2 + M g x sin(alpha),
% constraints g1 = xdot^2 + ydot^2 - R^2 thetadot^2 (quadratic, the paper's g_D1) and
% g2 = xdot sin(phi) - ydot cos(phi) (g_D2).  Parameters (footnote 2): g = 9.8, alpha = pi/6,
% M = 1, R = 1, IS = 1/2, ID = 1/4; q0 = 0, qdot0 = (5, 0, 5, 1); 0 <= t <= 2 pi.
% With v = xdot cos(phi) + ydot sin(phi), k = M g sin(alpha)/(M + IS/R^2), Omega = 1,
% c = v0 - (k/Omega) sin(phi0): phi = phi0 + Omega t, v = c + (k/Omega) sin(phi),
% x = c (sin phi - sin phi0)/Omega + k (sin^2 phi - sin^2 phi0)/(2 Omega^2),
% y = c (cos phi0 - cos phi)/Omega + (k/Omega)(t/2 - (sin 2phi - sin 2phi0)/(4 Omega)),
% theta = (c t + k (cos phi0 - cos phi)/Omega^2)/R, and the ideal (Lagrange-d'Alembert-Chetaev)
% multipliers of d/dt dL/dqdot - dL/dq = A' lambda, A = dg/dqdot:
% lambda1 = -IS k cos(phi)/(2 R^2 v), lambda2 = -M Omega v - M g sin(alpha) sin(phi).
% (Checked here: the dop853 multipliers agree with these to 1.2e-11.)
%
% Method under test: @code{skg_solve} (F4 boundary form, constraint imposed at every node, no
% boundary multipliers on lambda) with interior order 4 on N = 64 (the paper's SBP242 run; full
% mode, so max |q-| and |lambda-| are reported), then orders 4 and 6 on N = 128, 256.
% References (independent of skg_solve): the closed form for q, and @code{gauss_integrate}
% (dop853, ideal reaction, RelTol 1e-12, AbsTol 1e-14) on the same grid for the multipliers.
%
% Sign of the multiplier (determined numerically): the least-squares factor s in
% lambda+ = s lambda_ideal is -1.0000 (-0.9998 for g1 at N = 64) for both constraints, i.e.@:
% lambda+ = -lambda_ideal, as doc/skg_boundary.md states for the term - lambda+ q- . dg/dqdot.
%
% FINDING (skg_solve): from the constant start (q0 at every node; 'Guess', 'constant', the
% default before 'auto', which now starts this system from the integrator) Newton does not converge
% (exitflag 0 after 50 iterations, all orders and N tried, also in full mode and from the straight
% line q0 + t qdot0).  At the constant start every node velocity Da q is 0, so dg1/dqdot =
% (2 xdot, 2 ydot, -2 R^2 thetadot, 0) vanishes and the lambda1 rows of the Jacobian are zero.
% The demo therefore uses continuation: it first solves the linear-branch form
% g1lin = xdot cos(phi) + ydot sin(phi) - R thetadot with skg_solve (converges from the constant
% start) and passes its grid motion as 'Guess'.  Since g1 = (v - R thetadot)(v + R thetadot) on
% g2 = 0, both forms have the same discrete solution (checked: max |q(g1) - q(g1lin)| ~ 5e-14),
% so Newton then converges in one step.  With 'Windows' > 1, a window whose Newton fails makes
% skg_solve raise "mechsys_eval: t must be finite" instead of returning exitflag 0.
%
% Tolerances.  q: SBP-SAT theory gives max-norm order p+1 for interior order 2p (3 for order 4,
% 4 for order 6); the observed orders are checked within 0.3.  The multipliers converge with
% order p only (observed 2.1, 2.1, 3.0): lambda is an acceleration-level quantity (one more
% derivative of Da q), and its largest error sits on the boundary-closure nodes (first/last
% nodes), where D has order p; this order p is the asserted prediction.  The energy error is a
% function of (q, Da q) and converges with order p+1.  The absolute tolerances of the N = 64
% rows are about twice the measured errors rounded up (x 2.2e-3, y 4.4e-3, theta 1.0e-2,
% lambda1 1.4e-3, lambda2 2.6e-2, energy 3.0e-2; regression bounds, the rates carry the theory);
% phi = t exactly (phiddot = 0 is reproduced exactly by SBP), tol 1e-11.  The constraint values
% on the grid are at Newton's tolerance: tol 1e-10 * S with S = max v^2 for g1 and max |v| for g2.
% q- and lambda- vanish at the critical point (tol 1e-10).
%
% Paper: the boundary multipliers on lambda in eq. 12 (appendix A.1) release g at the last nodes,
% which explains the "benign deviations" at the last time slices of Fig. 2; skg_solve has none,
% and here g1, g2 hold to 5e-13 at every node including t_f.  Misprints of eq. 12 (IS/ID swap,
% kappa_y (x_+[1] - y_i), the sign of the g_D2 term): see demo_rolling_disk and doc/misprints.md.
%
% Options: @code{"quiet"} (print nothing); @code{"png", @var{dir}}: write
% @file{demo_skg_rolling_disk_coordinates.png}, @file{_multiplier.png}, @file{_constraints.png},
% @file{_energy.png} (like the panels of Fig. 2) into @var{dir}.
%
% @var{results} has @code{params}, @code{t}, @code{sol} (= runs(1)), @code{runs} (per run:
% order, N, t, q, qdot, lambda, energy, ref, lambda_ideal, iterations, err_q (per coordinate),
% sign, err_lambda, err_ref_lambda, g, max_g, scale_g, E0, energy_drift, diff_forms, max_qminus,
% max_lambdaminus), @code{rates} (order, N, predicted, predicted_lambda, q, lambda, energy),
% @code{adaptive} (the error-controlled march at order 8, RelTol 1e-10: exitflag, windows, err_q,
% err_qdot, err_lambda against the closed form, lambda_scale),
% @code{default_guess} (exitflag, iterations, message), @code{checks} and @code{pass}.
% @seealso{skg_solve, demo_rolling_disk, gauss_integrate}
% @end deftypefn
  opt = vm_demo_args ('demo_skg_rolling_disk', varargin, struct ());

  % parameters and initial values of the paper (footnote 2)
  P = struct ('M', 1, 'g', 9.8, 'alpha', pi / 6, 'R', 1, 'IS', 1 / 2, 'ID', 1 / 4);
  q0 = [0, 0, 0, 0];
  qdot0 = [5, 0, 5, 1];
  T = 2 * pi;
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

  % the constant start (q0 at every node) makes every velocity, hence dg1/dqdot, vanish
  s0 = skg_solve (sysq, [0, T], q0, qdot0, 'N', 64, 'Order', 4, 'Guess', 'constant');
  results.default_guess = struct ('exitflag', s0.exitflag, 'iterations', s0.iterations, ...
                                  'message', s0.message);

  orders = [4, 4, 4, 6, 6];
  Ns = [64, 128, 256, 128, 256];
  runs = struct ([]);
  for k = 1:numel (Ns)
    runs = [runs, one_run(sysq, sysl, P, q0, qdot0, T, orders(k), Ns(k), k == 1)]; %#ok<AGROW>
  end
  results.params = P;
  results.runs = runs;
  r1 = runs(1);
  results.t = r1.t;
  results.sol = r1;

  % observed orders (max norm) between consecutive N of the same order
  rate = @(e1, e2, n1, n2) log (e1 / e2) / log ((n2 - 1) / (n1 - 1));
  pairs = [1, 2; 2, 3; 4, 5];
  for ip = 1:3
    a = runs(pairs(ip, 1));
    b = runs(pairs(ip, 2));
    rt.order = a.order;
    rt.N = [a.N, b.N];
    rt.predicted = a.order / 2 + 1;
    rt.q = rate (max (a.err_q), max (b.err_q), a.N, b.N);
    rt.lambda = rate (max (a.err_lambda), max (b.err_lambda), a.N, b.N);
    rt.energy = rate (a.energy_drift, b.energy_drift, a.N, b.N);
    rt.predicted_lambda = a.order / 2;
    rates(ip) = rt; %#ok<AGROW>
  end
  results.rates = rates;

  % error control: the defaults with RelTol 1e-10 at order 8 (marching from the prediction, no
  % guess, no fixed grid) against the closed form at every node
  sa = skg_solve (sysq, [0, T], q0, qdot0, 'Order', 8, 'RelTol', 1e-10);
  ra = vm_disk_closed_form (P, q0, qdot0, sa.t);
  results.adaptive = struct ('exitflag', sa.exitflag, 'windows', numel (sa.windows.t0), ...
                             'err_q', max (max (abs (sa.q - ra.q))), ...
                             'err_qdot', max (max (abs (sa.qdot - ra.qdot))), ...
                             'err_lambda', max (max (abs (sa.lambda - ra.lambda))), ...
                             'lambda_scale', max (max (abs (ra.lambda))));

  % checks: N = 64, order 4 (the paper's SBP242 run), then the convergence
  c = struct ('part', {}, 'name', {}, 'value', {}, 'reference', {}, 'error', {}, 'tol', {}, ...
              'pass', {}, 'info', {});
  names = {'x', 'y', 'theta', 'phi'};
  tq = [0.01, 0.01, 0.02, 1e-11];
  for i = 1:4
    c = vm_demo_check (c, sprintf ('max |%s - closed form|', names{i}), r1.err_q(i), 0, tq(i), ...
                       'part', 'N=64 p4');
  end
  c = vm_demo_check (c, 'sign s in lambda+ = s lambda_ideal (g1)', r1.sign(1), -1, 1e-2, ...
                     'part', 'N=64 p4');
  c = vm_demo_check (c, 'sign s in lambda+ = s lambda_ideal (g2)', r1.sign(2), -1, 1e-2, ...
                     'part', 'N=64 p4');
  c = vm_demo_check (c, 'max |lambda1+ + lambda1 (dop853)|', r1.err_lambda(1), 0, 0.01, ...
                     'part', 'N=64 p4');
  c = vm_demo_check (c, 'max |lambda2+ + lambda2 (dop853)|', r1.err_lambda(2), 0, 0.1, ...
                     'part', 'N=64 p4');
  c = vm_demo_check (c, 'max |lambda_ideal (dop853) - closed form|', r1.err_ref_lambda, 0, 1e-9, ...
                     'part', 'N=64 p4');
  c = vm_demo_check (c, 'max |g1| on the grid', r1.max_g(1), 0, 1e-10 * r1.scale_g(1), ...
                     'part', 'N=64 p4');
  c = vm_demo_check (c, 'max |g2| on the grid', r1.max_g(2), 0, 1e-10 * r1.scale_g(2), ...
                     'part', 'N=64 p4');
  c = vm_demo_check (c, 'energy drift max |E - E(0)|', r1.energy_drift, 0, 0.05, 'part', 'N=64 p4');
  c = vm_demo_check (c, 'max |q-| (full mode)', r1.max_qminus, 0, 1e-10, 'part', 'N=64 p4');
  c = vm_demo_check (c, 'max |lambda-| (full mode)', r1.max_lambdaminus, 0, 1e-10, 'part', 'N=64 p4');
  c = vm_demo_check (c, 'max |q(g1) - q(g1lin)| (same discrete motion)', r1.diff_forms, 0, 1e-10, ...
                     'part', 'N=64 p4');
  c = vm_demo_check (c, 'Newton iterations (continuation guess)', r1.iterations, NaN, NaN, ...
                     'part', 'N=64 p4');
  c = vm_demo_check (c, 'exitflag from the default guess q0', s0.exitflag, NaN, NaN, ...
                     'part', 'N=64 p4');
  for k = 2:numel (runs)
    r = runs(k);
    part = sprintf ('N=%d p%d', r.N, r.order);
    c = vm_demo_check (c, 'max |q - closed form| (all coordinates)', max (r.err_q), NaN, NaN, 'part', part);
    c = vm_demo_check (c, 'max |lambda+ + lambda_ideal|', max (r.err_lambda), NaN, NaN, 'part', part);
    c = vm_demo_check (c, 'max (|g1|/S1, |g2|/S2) on the grid', max (r.max_g ./ r.scale_g), 0, 1e-10, ...
                       'part', part);
    c = vm_demo_check (c, 'energy drift', r.energy_drift, NaN, NaN, 'part', part);
  end
  for ip = 1:3
    rt = rates(ip);
    part = sprintf ('p%d %d->%d', rt.order, rt.N);
    c = vm_demo_check (c, 'observed order, q', rt.q, rt.predicted, 0.3, 'part', part);
    c = vm_demo_check (c, 'observed order, lambda', rt.lambda, rt.predicted_lambda, 0.3, 'part', part);
    c = vm_demo_check (c, 'observed order, energy drift', rt.energy, rt.predicted, 0.3, 'part', part);
  end
  ad = results.adaptive;
  part = 'p8 RelTol 1e-10';
  c = vm_demo_check (c, 'exitflag (error-controlled march)', ad.exitflag, 1, 0, 'part', part);
  c = vm_demo_check (c, 'accepted windows', ad.windows, NaN, NaN, 'part', part);
  c = vm_demo_check (c, 'max |q - closed form|', ad.err_q, 0, 1e-9, 'part', part);
  c = vm_demo_check (c, 'max |qdot - closed form|', ad.err_qdot, 0, 1e-9, 'part', part);
  c = vm_demo_check (c, 'max |lambda - closed form|', ad.err_lambda, 0, 1e-9 * max (1, ad.lambda_scale), ...
                     'part', part);
  results.checks = c;
  results.pass = vm_demo_verdict (c);

  if ~opt.quiet
    fprintf ('Rolling-spinning disk (Rothkopf & Horowitz eq. 10, Fig. 2) by skg_solve, 0 <= t <= 2 pi\n');
    fprintf ('g1 = xdot^2 + ydot^2 - R^2 thetadot^2 (quadratic), g2 = xdot sin(phi) - ydot cos(phi)\n');
    fprintf ('references: closed form (q), gauss_integrate dop853 RelTol 1e-12 (lambda_ideal)\n');
    fprintf ('from the default guess: exitflag %d (%s)\n\n', s0.exitflag, s0.message);
    vm_demo_table (c, '%.4e', 'run');
    [~, verdict] = vm_demo_verdict (c);
    fprintf ('%s\n', verdict);
  end
  vm_demo_png (opt, {'coordinates', 'multiplier', 'constraints', 'energy'}, @(what) draw (results, what));
  if nargout == 0
    clear results;
  end
end

function r = one_run (sysq, sysl, P, q0, qdot0, T, order, N, full)
  % continuation: the linear-branch form converges from the default guess; its grid motion is the guess
  % (both solves to Tol 1e-12, at the rounding level: the comparison measures the discrete motion,
  % not where Newton stopped)
  sl = skg_solve (sysl, [0, T], q0, qdot0, 'N', N, 'Order', order, 'Tol', 1e-12);
  mode = 'reduced';
  if full
    mode = 'full';
  end
  s = skg_solve (sysq, [0, T], q0, qdot0, 'N', N, 'Order', order, 'Mode', mode, 'Guess', sl.q, 'Tol', 1e-12);
  if s.exitflag ~= 1 || sl.exitflag ~= 1
    error ('demo_skg_rolling_disk: skg_solve failed (order %d, N = %d): %s / %s', order, N, ...
           sl.message, s.message);
  end
  t = s.t(:);
  ref = vm_disk_closed_form (P, q0, qdot0, t);
  gi = gauss_integrate (sysq, [0, T], q0, qdot0, 'Method', 'dop853', 'RelTol', 1e-12, ...
                        'AbsTol', 1e-14, 'OutputTimes', t);
  if gi.exitflag ~= 1
    error ('demo_skg_rolling_disk: gauss_integrate failed: %s', gi.message);
  end
  r.order = order;
  r.N = N;
  r.sol = s;
  r.t = t;
  r.q = s.q;
  r.qdot = s.qdot;
  r.lambda = s.lambda_plus;
  r.energy = s.energy(:);
  r.ref = ref;
  r.lambda_ideal = gi.lambda;
  r.iterations = s.iterations;
  r.err_q = max (abs (s.q - ref.q), [], 1);
  r.sign = sum (s.lambda_plus .* gi.lambda, 1) ./ sum (gi.lambda .^ 2, 1);
  r.err_lambda = max (abs (s.lambda_plus + gi.lambda), [], 1);
  r.err_ref_lambda = max (max (abs (gi.lambda - ref.lambda)));
  qd = s.qdot;
  phi = s.q(:, 4);
  r.g = [qd(:, 1) .^ 2 + qd(:, 2) .^ 2 - P.R ^ 2 * qd(:, 3) .^ 2, ...
         qd(:, 1) .* sin(phi) - qd(:, 2) .* cos(phi)];
  r.max_g = max (abs (r.g), [], 1);
  v = ref.qdot(:, 3) * P.R;
  r.scale_g = [max(v .^ 2), max(abs (v))];
  E0 = P.M / 2 * (qdot0(1) ^ 2 + qdot0(2) ^ 2) + P.IS / 2 * qdot0(3) ^ 2 + P.ID / 2 * qdot0(4) ^ 2 ...
       - P.M * P.g * sin (P.alpha) * q0(1);
  r.E0 = E0;
  r.energy_drift = max (abs (r.energy - E0));
  r.diff_forms = max (max (abs (s.q - sl.q)));
  if full
    r.max_qminus = s.max_qminus;
    r.max_lambdaminus = s.max_lambdaminus;
  else
    r.max_qminus = NaN;
    r.max_lambdaminus = NaN;
  end
end

function draw (res, what)
  r = res.sol;
  t = r.t;
  tf = linspace (0, 2 * pi, 401)';
  ref = vm_disk_closed_form (res.params, [0, 0, 0, 0], [5, 0, 5, 1], tf);
  cols = {'r', 'b', 'g', 'm'};
  switch what
    case 'coordinates'
      hold on;
      hl = zeros (1, 4);
      for i = 1:4
        hl(i) = plot (tf, ref.q(:, i), [cols{i}, '-']);
      end
      for i = 1:4
        plot (t, r.q(:, i), [cols{i}, 'o'], 'markersize', 4);
      end
      hold off;
      xlabel ('t (s)');
      ylabel ('x, y (m); theta, phi (rad)');
      title ('SKG (symbols, order 4, N = 64) vs closed form (lines)');
      lh = legend (hl, {'x (m)', 'y (m)', 'theta (rad)', 'phi (rad)'}, 'location', 'northwest');
      set (lh, 'fontsize', 7);
    case 'multiplier'
      plot (t, -r.lambda_ideal(:, 1), 'k-', t, r.lambda(:, 1), 'ro', 'linewidth', 1.5, 'markersize', 4);
      xlabel ('t (s)');
      ylabel ('multiplier of g1 (kg/s)');
      title ('multiplier of g1: lambda+ (SKG), -lambda (ideal)');
      lh = legend ({'-lambda_{ideal} (dop853)', 'lambda+ (SKG)'}, 'location', 'southwest');
      set (lh, 'fontsize', 7);
    case 'constraints'
      % the constraint residuals of the solution (sol.residual: both constraints depend on the
      % velocities), drawn by varmech_plot
      varmech_plot (r.sol, 'Figure', gcf (), 'Panels', {'residual'}, 'Visible', 'off', ...
                    'Title', sprintf ('SKG, order %d, N = %d: g1 in m^2/s^2, g2 in m/s', r.order, r.N));
    otherwise
      hold on;
      for k = 1:numel (res.runs)
        rk = res.runs(k);
        if rk.order == 4
          ls = '-';
        else
          ls = '--';
        end
        semilogy (rk.t, max (abs (rk.energy - rk.E0), 1e-17), ls, 'linewidth', 1.5);
        lab{k} = sprintf ('order %d, N = %d', rk.order, rk.N); %#ok<AGROW>
      end
      hold off;
      set (gca, 'yscale', 'log');
      xlabel ('t (s)');
      ylabel ('|E - E(0)| (J)');
      title ('energy error of the SKG solution');
      lh = legend (lab, 'location', 'southwest');
      set (lh, 'fontsize', 7);
  end
  set (gca, 'fontsize', 8);
  grid on;
end

