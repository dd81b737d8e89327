function results = demo_skg_rolling_disk (varargin)
% -*- texinfo -*-
% @deftypefn  {} {} demo_skg_rolling_disk ()
% @deftypefnx {} {results =} demo_skg_rolling_disk (..., "quiet")
% @deftypefnx {} {results =} demo_skg_rolling_disk (..., "png", dir)
% The rolling-spinning disk on an incline as the critical point of the discrete SKG action
% (Rothkopf & Horowitz, "A variational approach to nonholonomic and inequality-constrained
% mechanics", eq.@: 10 and Fig.@: 2; model, data and closed form as in @code{demo_rolling_disk}):
% L = M/2 (xdot^2 + ydot^2) + IS/2 thetadot^2 + ID/2 phidot^2 + M g x sin(alpha), the quadratic
% g1 = xdot^2 + ydot^2 - R^2 thetadot^2 and g2 = xdot sin(phi) - ydot cos(phi), 0 <= t <= 2 pi.
% @code{skg_solve} at order 4 on N = 64 (the paper's SBP242 run), then orders 4 and 6 on N = 128,
% 256, against the closed form (@code{vm_disk_closed_form}) and the multipliers of
% @code{gauss_integrate} (dop853, RelTol 1e-12): q and the energy converge with order p+1, the
% multipliers with order p (their error sits at the boundary closures), lambda+ = -lambda_ideal,
% and g1, g2 hold at every node, t_f included (the paper's boundary multipliers of eq.@: 12 release
% them there: its "benign deviations" of Fig.@: 2).  At the constant start every node velocity is 0,
% so dg1/dqdot vanishes and Newton cannot start (exitflag 0, recorded); the demo first solves the
% linear branch g1lin = v - R thetadot (the same discrete solution on g2 = 0) and uses its motion as
% the guess.  Also the error-controlled march at order 8, RelTol 1e-10, against the closed form.
% "png", dir writes demo_skg_rolling_disk_@{coordinates,multiplier,constraints,energy@}.png.
% @var{results} holds @code{runs}, @code{rates}, @code{adaptive}, @code{default_guess}, the printed
% table @code{checks} and @code{pass}.
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
  % The energy figure: |E - E(0)| falls at the last node t_f = 2 pi from the interior level
  % (O(h^(p+1)), set by the SBP closures) to 1e-8 .. 1e-11.  No defect: the operators sum by parts,
  % u' H (D v) + (D u)' H v = u_N v_N - u_1 v_1, so the discrete energy balance telescopes from the
  % first node to the last, and the initial velocity enters weakly (SAT, Da q at t_0 is not qdot0).
  % Here (phi = t exactly, E quadratic in the velocities plus a linear potential) the balance is
  % E(t_f) - E(0) = -T(Da q(t_0) - qdot0), minus the kinetic energy of the start's mismatch, to
  % Newton's tolerance (9.86e-9 J both ways at order 4, N = 64).  The paper's end-point deviations
  % (Fig. 2) come from its boundary multipliers, which skg_solve does not use.
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

  % checks: N = 64, order 4 (the paper's SBP242 run), then the convergence.  The N = 64 bounds are
  % regression bounds (about twice the errors; the observed orders carry the theory); phi = t is
  % reproduced exactly; g1, g2 on the grid at Newton's tolerance 1e-10 times max v^2, max |v|
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
  r.lambda_ideal = gi.output.lambda;
  r.iterations = s.iterations;
  r.err_q = max (abs (s.q - ref.q), [], 1);
  r.sign = sum (s.lambda_plus .* gi.output.lambda, 1) ./ sum (gi.output.lambda .^ 2, 1);
  r.err_lambda = max (abs (s.lambda_plus + gi.output.lambda), [], 1);
  r.err_ref_lambda = max (max (abs (gi.output.lambda - ref.lambda)));
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
      % one colour per coordinate: the closed form as a line, the SKG nodes as circles; the key
      % in a strip above the axes
      vm_demo_subplot (1, 1, 1, 8, [9.5, 2, 5.6, 3.4 + 1.6 * 2 + 1]);
      hold on;
      for i = 1:4
        plot (tf, ref.q(:, i), [cols{i}, '-']);
        plot (t, r.q(:, i), [cols{i}, 'o'], 'markersize', 4);
      end
      hold off;
      xlim ([0, 2 * pi]);
      ylim ([min(ref.q(:)) - 1, max(ref.q(:)) + 1]);
      xlabel ('t (s)');
      ylabel ('x, y (m); theta, phi (rad)');
      title ('SKG (circles, order 4, N = 64) vs closed form (lines)');
      vm_demo_key ({{'r-o'}, {'b-o'}, {'g-o'}, {'m-o'}, {'k-'}, {'ko', 'linestyle', 'none'}}, ...
                   {'x (m)', 'y (m)', 'theta (rad)', 'phi (rad)', 'closed form', 'SKG nodes'}, 8, 4);
    case 'multiplier'
      plot (t, -r.lambda_ideal(:, 1), 'k-', t, r.lambda(:, 1), 'ro', 'linewidth', 1.5, 'markersize', 4);
      xlim ([0, 2 * pi]);
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
      vm_demo_subplot (1, 1, 1, 8, [9.5, 2, 5.6, 3.4 + 1.6 * 2 + 1]);
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
      xlim ([0, 2 * pi]);
      ylim ([1e-11, 1e-1]);
      set (gca, 'ytick', 10 .^ (-11:2:-1));
      xlabel ('t (s)');
      ylabel ('|E - E(0)| (J)');
      title ('energy error of the SKG solution');
      % the drop at t_f: E(t_f) - E(0) is minus the kinetic energy of the start's velocity
      % mismatch (see the comment in the main function); the key above the axes
      P = res.params;
      d = res.runs(1).sol.qdot(1, :) - [5, 0, 5, 1];
      Td = P.M / 2 * (d(1) ^ 2 + d(2) ^ 2) + P.IS / 2 * d(3) ^ 2 + P.ID / 2 * d(4) ^ 2;
      note = {'the drop at t_f = 2 pi: E(t_f) - E(0) = -T(Da q(t_0) - qdot0),', ...
              'the kinetic energy of the velocity mismatch at the weakly imposed', ...
              sprintf('start (%.1e J, order 4, N = 64): summation by parts carries the', Td), ...
              'energy balance from t_0 to t_f, not to the nodes in between'};
      for i = 1:numel (note)
        text (0.15, 1e-7 * 10 ^ (-0.45 * i), note{i}, 'fontsize', 7);
      end
      ls = {'-', '-', '-', '--', '--'};
      co = get (gca, 'colororder');
      specs = cell (1, numel (lab));
      for k = 1:numel (lab)
        specs{k} = {ls{k}, 'color', co(k, :), 'linewidth', 1.5};
      end
      vm_demo_key (specs, lab, 8, 3);
  end
  set (gca, 'fontsize', 8);
  grid on;
end

