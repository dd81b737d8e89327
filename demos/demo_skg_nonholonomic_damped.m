function results = demo_skg_nonholonomic_damped (varargin)
% -*- texinfo -*-
% @deftypefn  {} {} demo_skg_nonholonomic_damped ()
% @deftypefnx {} {results =} demo_skg_nonholonomic_damped (..., "quiet")
% @deftypefnx {} {results =} demo_skg_nonholonomic_damped (..., "png", dir)
% A nonholonomic system with dissipative forces as the critical point of the discrete
% Schwinger-Keldysh-Galley action (Rothkopf & Horowitz, "A variational approach to nonholonomic
% and inequality-constrained mechanics", eq.@: 7: constraint terms
% @code{lambda- g(q+, qdot+) - lambda+ q- . dg/dqdot}, forces @code{F(q+, qdot+) . q-}).  A blade
% at P = (x, y) along e = (cos theta, sin theta), centre of mass P + a e (mass m, inertia I):
% @code{L = m/2 ((xdot - a sin(theta) thetadot)^2 + (ydot + a cos(theta) thetadot)^2) + I/2 thetadot^2},
% F = (-c xdot, -c ydot, -ct thetadot), g = ydot cos(theta) - xdot sin(theta) = 0 (no sideways slip).
% (A) knife edge: a = 0, ct = 0, qdot0 = (1, 0, 1): a spiral in closed form.
% (B) Chaplygin sled started backwards: a = 0.5, ct = 0.05, qdot0 = (-1, 0, 0.5): it turns round;
%     reference @code{gauss_integrate} (dop853, RelTol 1e-12), cross-checked with @code{ode45} on
%     the reduced equations.
% Checked at order 4, N = 161: q, lambda+ = -lambda_ideal, g at the nodes, the energy decreasing,
% E(T) - E(0) against the quadrature of the power of F; orders 2, 4, 6 on N = 161..1281 (q and E
% with order p+1, lambda with order p).  The sled started forwards, qdot0 = (1, 0, 2), converges
% from the constant start and from the integrator start to the same solution.
% "png", dir writes demo_skg_nonholonomic_damped_@{trajectory,coordinates,energy,multiplier,
% solution@}.png.  @var{results} holds @code{cases}, @code{default_guess}, the printed table
% @code{checks}, @code{pass} and @code{time}.
% @seealso{skg_solve, gauss_integrate, demo_skg_rolling_disk, demo_skg_damped_oscillator}
% @end deftypefn

  opt = vm_demo_args ('demo_skg_nonholonomic_damped', varargin, struct ());
  tstart = tic;
  order = 4;
  N = 161;
  orders = [2, 4, 6];
  Ns = [161, 321, 641, 1281];
  T = 10;
  % q, lambda, E and the balance at N = 161: regression bounds about twice the errors (the
  % observed orders carry the theory); theta of (A) is linear in t, which SBP reproduces exactly
  tol = struct ('ref', 1e-9, 'rate', 0.3, 'newton', 1e-10, 'sign', 1e-2, 'first', 1e-6, ...
                'same', 1e-9, ...
                'A', struct ('q', [1.2e-4, 4e-5, 1e-11], 'lambda', 2.8e-3, 'E', 9e-5, ...
                             'balance', 2e-9), ...
                'B', struct ('q', [8.3e-5, 4.2e-5, 8.2e-5], 'lambda', 2.5e-3, 'E', 5.5e-5, ...
                             'balance', 3.4e-7));

  lag = ['m/2*((dot(x) - a*sin(theta)*dot(theta))^2 + (dot(y) + a*cos(theta)*dot(theta))^2)' ...
         ' + I/2*dot(theta)^2'];
  PB = struct ('m', 1, 'I', 0.1, 'a', 0.5, 'c', 0.2, 'ct', 0.05);
  sys = mechsys ('coordinates', {'x', 'y', 'theta'}, 'parameters', PB, 'lagrangian', lag, ...
                 'forces', {'-c*dot(x)', '-c*dot(y)', '-ct*dot(theta)'}, ...
                 'constraints', {'dot(y)*cos(theta) - dot(x)*sin(theta)'});
  PA = PB;
  PA.a = 0;
  PA.ct = 0;
  sysA = sys;
  sysA.parameters = PA;

  cases = [one_case(sysA, 'knife edge', [0, 0, 0], [1, 0, 1], T, order, N, orders, Ns), ...
           one_case(sys, 'Chaplygin sled', [0, 0, 0], [-1, 0, 0.5], T, order, N, orders, Ns)];

  % a hard constant start: the sled started forwards, (u0, omega0) = (1, 2).  The first Newton
  % iterate has no coupling m a u omega (a product of two zero velocities): it turns the sled as
  % if only ct acted, theta(T) = (I + m a^2) omega0/ct (1 - exp (-ct T/(I + m a^2)))
  qd0 = [1, 0, 2];
  s0 = skg_solve (sys, [0, T], [0, 0, 0], qd0, 'N', N, 'Order', order, 'Guess', 'constant');
  s1 = skg_solve (sys, [0, T], [0, 0, 0], qd0, 'N', N, 'Order', order, 'MaxIter', 1, ...
                  'Guess', 'constant');
  s5 = skg_solve (sys, [0, 5], [0, 0, 0], qd0, 'N', N, 'Order', order, 'Guess', 'constant');
  si = skg_solve (sys, [0, T], [0, 0, 0], qd0, 'N', N, 'Order', order, 'Guess', 'integrator');
  sa = skg_solve (sys, [0, T], [0, 0, 0], qd0, 'N', N, 'Order', order);
  Mt = PB.I + PB.m * PB.a ^ 2;
  results.default_guess = struct ('qdot0', qd0, 'exitflag', s0.exitflag, ...
                                  'iterations', s0.iterations, 'message', s0.message, ...
                                  'best_residual', min (s0.residual_history), ...
                                  'theta_T', s1.q(end, 3), ...
                                  'theta_T_predicted', Mt * qd0(3) / PB.ct ...
                                  * (1 - exp (-PB.ct * T / Mt)), ...
                                  'exitflag_T5', s5.exitflag, 'iterations_T5', s5.iterations, ...
                                  'exitflag_integrator', si.exitflag, ...
                                  'iterations_integrator', si.iterations, ...
                                  'exitflag_auto', sa.exitflag, 'guess_auto', sa.guess, ...
                                  'dq_integrator', max (abs (s0.q(:) - si.q(:))));

  results.cases = cases;
  results.tol = tol;
  results.checks = make_checks (results, tol);
  [results.pass, msg] = vm_demo_verdict (results.checks);
  results.time = toc (tstart);

  if ~opt.quiet
    fprintf ('Knife edge and Chaplygin sled with viscous drag by skg_solve (SKG action, F4)\n');
    fprintf ('g = ydot cos(theta) - xdot sin(theta) = 0, F = (-c xdot, -c ydot, -ct thetadot)\n');
    fprintf ('references: (A) closed form (and dop853), (B) gauss_integrate dop853 RelTol 1e-12\n');
    fprintf ('(and ode45); the sled started forwards (u0 = 1, omega0 = 2) from the constant\n');
    fprintf ('start: exitflag %d\n\n', s0.exitflag);
    vm_demo_table (results.checks, '%.4e', 'part');
    fprintf ('%s (%.1f s)\n', msg, results.time);
  end
  vm_demo_png (opt, {'trajectory', 'coordinates', 'energy', 'multiplier'}, ...
               @(what) draw (results, what), [900, 900]);
  vm_demo_png (opt, {'solution'}, @(what) draw_solution (results.cases(2)), [800, 870]);
  if nargout == 0
    clear results;
  end
end

function c = one_case (sys, name, q0, qd0, T, order, N, orders, Ns)
  % the main run (full mode) and the convergence runs of one case against its reference
  P = sys.parameters;
  tf = linspace (0, T, max (Ns))';
  [ref, ref_check] = reference (sys, q0, qd0, T, tf);
  c.name = name;
  c.params = P;
  c.q0 = q0;
  c.qdot0 = qd0;
  c.T = T;
  c.ref_check = ref_check;
  s = solve (sys, q0, qd0, T, order, N);
  r = pick (ref, max (Ns), N);
  c.sol = s;
  c.t = s.t(:);
  c.q = s.q;
  c.qdot = s.qdot;
  c.lambda = s.lambda_plus;
  c.energy = s.energy(:);
  c.ref = r;
  c.iterations = s.iterations;
  c.max_qminus = s.max_qminus;
  c.max_lambdaminus = s.max_lambdaminus;
  c.err_q = max (abs (s.q - r.q), [], 1);
  c.sign = sum (s.lambda_plus .* r.lambda) / sum (r.lambda .^ 2);
  c.err_lambda = max (abs (s.lambda_plus + r.lambda));
  c.g = constraint (s.q, s.qdot);
  c.max_g = max (abs (c.g));
  % Newton stops at ||W grad S||_2 <= Tol max(1, ||W grad S_0||) with the weights W = 1/sqrt(H_kk)
  % of the discrete equations (doc/skg.md, "Stopping"; the scale counts the initial momentum jump
  % with the smaller weight 1/sqrt(T), so it is at most residual_history(1)); the lambda- rows of
  % grad S are H_kk g_k, so |g_k| <= Tol max(1, residual_history(1)) / sqrt(min H_kk)
  [~, H] = sbp_operator (N, order, [0, T]);
  c.g_bound = 1e-10 * max (1, s.residual_history(1)) / sqrt (min (full (diag (H))));
  c.energy_rise = max (diff (c.energy));
  c.err_E = max (abs (c.energy - r.energy));
  c.balance = balance (P, s, full (diag (H)), qd0, r.energy(1));
  runs = [];
  for io = 1:numel (orders)
    p = orders(io) / 2;
    nN = numel (Ns);
    v = struct ('order', orders(io), 'N', Ns, 'h', T ./ (Ns - 1), 'err_q', zeros (1, nN), ...
                'err_lambda', zeros (1, nN), 'err_E', zeros (1, nN), ...
                'balance_error', zeros (1, nN), 'sat', zeros (1, nN), 'predicted', p + 1, ...
                'predicted_lambda', p, 'predicted_sat', 2 * p + 2);
    for in = 1:nN
      sk = solve (sys, q0, qd0, T, orders(io), Ns(in));
      rk = pick (ref, max (Ns), Ns(in));
      [~, Hk] = sbp_operator (Ns(in), orders(io), [0, T]);
      bk = balance (P, sk, full (diag (Hk)), qd0, rk.energy(1));
      v.err_q(in) = max (max (abs (sk.q - rk.q)));
      v.err_lambda(in) = max (abs (sk.lambda_plus + rk.lambda));
      v.err_E(in) = max (abs (sk.energy(:) - rk.energy));
      v.balance_error(in) = bk.error_c;
      v.sat(in) = bk.sat;
    end
    efloor = 1e3 * eps;
    [v.rate_q, v.observed_q, v.pair_q] = vm_demo_rates (v.h, v.err_q, efloor, Ns);
    [v.rate_lambda, v.observed_lambda, v.pair_lambda] = vm_demo_rates (v.h, v.err_lambda, ...
                                                                        efloor, Ns);
    [v.rate_E, v.observed_E, v.pair_E] = vm_demo_rates (v.h, v.err_E, efloor, Ns);
    % Newton's stopping test leaves a floor of about 1e-11 in the balance (order 6, N >= 641)
    [v.rate_balance, v.observed_balance, v.pair_balance] = vm_demo_rates (v.h, v.balance_error, ...
                                                                           2e-11, Ns);
    [v.rate_sat, v.observed_sat, v.pair_sat] = vm_demo_rates (v.h, v.sat, 1e-20, Ns);
    runs = [runs, v]; %#ok<AGROW>
  end
  c.conv = runs;
end

function s = solve (sys, q0, qd0, T, order, N)
  % the default guess ("auto": here the constant start, q0 at every node), full mode
  s = skg_solve (sys, [0, T], q0, qd0, 'N', N, 'Order', order, 'Mode', 'full');
  if s.exitflag ~= 1
    error ('demo_skg_nonholonomic_damped: skg_solve failed (order %d, N = %d): %s', order, N, ...
           s.message);
  end
end

function [ref, chk] = reference (sys, q0, qd0, T, t)
  % gauss_integrate with the ideal reaction; the closed form (a = 0, ct = 0) or ode45 on the
  % reduced equations as the cross-check.  With the forward speed u and omega = thetadot, Newton
  % for the centre of mass along e and n and the angular momentum about it (the force lambda n at
  % P has the torque -a lambda) give udot = a omega^2 - (c/m) u,
  % omegadot = -(m a u + ct) omega/(I + m a^2), lambda = m (u omega + a omegadot).  For a = ct = 0,
  % z = x + i y: z = z0 + u0 exp(i theta0) (exp((-alpha + i omega0) t) - 1)/(-alpha + i omega0),
  % alpha = c/m, u = u0 exp(-alpha t)
  P = sys.parameters;
  gi = gauss_integrate (sys, [0, T], q0, qd0, 'Method', 'dop853', 'RelTol', 1e-12, ...
                        'AbsTol', 1e-14, 'OutputTimes', t);
  if gi.exitflag ~= 1
    error ('demo_skg_nonholonomic_damped: gauss_integrate failed: %s', gi.message);
  end
  % its state at the times t (sol.output), with the energy there
  go = gi.output;
  eo = mechsys_eval (sys, go.t, go.q, go.qdot, 'blocks', {'eom'});
  go.energy = eo.energy;
  th0 = q0(3);
  u0 = qd0(1) * cos (th0) + qd0(2) * sin (th0);
  w0 = qd0(3);
  if P.a == 0 && P.ct == 0
    al = P.c / P.m;
    z = q0(1) + 1i * q0(2) ...
        + u0 * exp (1i * th0) * (exp ((-al + 1i * w0) * t) - 1) / (-al + 1i * w0);
    u = u0 * exp (-al * t);
    th = th0 + w0 * t;
    cf.q = [real(z), imag(z), th];
    cf.qdot = [u .* cos(th), u .* sin(th), w0 * ones(size (t))];
    cf.lambda = P.m * u * w0;
    cf.energy = P.m * u .^ 2 / 2 + P.I * w0 ^ 2 / 2;
    ref = cf;
    other = go;
  else
    Mt = P.I + P.m * P.a ^ 2;
    f = @(tt, y) [y(4) * cos(y(3)); y(4) * sin(y(3)); y(5); P.a * y(5) ^ 2 - P.c / P.m * y(4); ...
                  -(P.m * P.a * y(4) + P.ct) * y(5) / Mt];
    [~, Y] = ode45 (f, t, [q0(:); u0; w0], odeset ('RelTol', 1e-12, 'AbsTol', 1e-14));
    wd = -(P.m * P.a * Y(:, 4) + P.ct) .* Y(:, 5) / Mt;
    other.q = Y(:, 1:3);
    other.lambda = P.m * (Y(:, 4) .* Y(:, 5) + P.a * wd);
    other.energy = P.m / 2 * (Y(:, 4) .^ 2 + P.a ^ 2 * Y(:, 5) .^ 2) + P.I / 2 * Y(:, 5) .^ 2;
    ref = struct ('q', go.q, 'qdot', go.qdot, 'lambda', go.lambda, 'energy', go.energy);
  end
  chk = max ([max(max (abs (ref.q - other.q))), max(abs (ref.lambda - other.lambda)), ...
              max(abs (ref.energy - other.energy))]);
end

function r = pick (ref, Nf, N)
  % the finest grid contains every coarser one (N - 1 divides Nf - 1)
  k = 1:(Nf - 1) / (N - 1):Nf;
  r = struct ('q', ref.q(k, :), 'qdot', ref.qdot(k, :), 'lambda', ref.lambda(k), ...
              'energy', ref.energy(k));
end

function g = constraint (q, qd)
  g = qd(:, 2) .* cos (q(:, 3)) - qd(:, 1) .* sin (q(:, 3));
end

function b = balance (P, s, h, qd0, E0)
  % E(T) - E(0) against the H-quadrature of the power of F.  For constant M (the knife edge), v'H
  % times the SKG equations, SBP and v . A' lambda = lambda g give the identity
  % E_N - E(0) = sum H v.F - sum H lambda+ g - (v_1 - v_i)' M (v_1 - v_i)/2 (the SAT remainder)
  v = s.qdot;
  F = [-P.c * v(:, 1), -P.c * v(:, 2), -P.ct * v(:, 3)];
  b.dE = s.energy(end) - E0;
  b.work = sum (h .* sum (F .* v, 2));
  b.error = abs (b.dE - b.work);
  % the work of the reaction at the nodes, - sum H lambda+ g: zero up to Newton's tolerance
  b.lg = sum (h .* s.lambda_plus .* constraint (s.q, v));
  b.error_c = abs (b.dE - b.work + b.lg);
  dv = v(1, :) - qd0;
  if P.a == 0
    M = diag ([P.m, P.m, P.I]);
    b.sat = dv * M * dv' / 2;
    b.identity = abs (b.dE - b.work + b.lg + b.sat);
  else
    b.sat = NaN;
    b.identity = NaN;
  end
  p = sum (F .* v, 2);
  t = s.t(:);
  b.cumwork = [0; cumsum((p(1:end - 1) + p(2:end)) / 2 .* diff (t))];
end

function c = make_checks (res, tol)
  c = struct ('part', {}, 'name', {}, 'value', {}, 'reference', {}, 'error', {}, 'tol', {}, ...
              'pass', {}, 'info', {});
  names = {'x', 'y', 'theta'};
  tags = {'A', 'B'};
  for ic = 1:2
    k = res.cases(ic);
    tk = tol.(tags{ic});
    part = sprintf ('(%s) ref', tags{ic});
    if ic == 1
      c = vm_demo_check (c, 'max |dop853 - closed form| (q, lambda, E)', k.ref_check, 0, ...
                         tol.ref, 'part', part);
    else
      c = vm_demo_check (c, 'max |dop853 - ode45 reduced eqs| (q, lambda, E)', k.ref_check, 0, ...
                         tol.ref, 'part', part);
    end
    part = sprintf ('(%s) p4 N=161', tags{ic});
    for i = 1:3
      c = vm_demo_check (c, sprintf ('max |%s - %s_ref|', names{i}, names{i}), k.err_q(i), 0, ...
                         tk.q(i), 'part', part);
    end
    c = vm_demo_check (c, 'sign s in lambda+ = s lambda_ideal', k.sign, -1, tol.sign, 'part', part);
    c = vm_demo_check (c, 'max |lambda+ + lambda_ref|', k.err_lambda, 0, tk.lambda, 'part', part);
    c = vm_demo_check (c, 'max |g| at the nodes (incl. t_f)', k.max_g, 0, k.g_bound, 'part', part);
    c = vm_demo_check (c, 'max |q-| (full mode)', k.max_qminus, 0, tol.newton, 'part', part);
    c = vm_demo_check (c, 'max |lambda-| (full mode)', k.max_lambdaminus, 0, tol.newton, ...
                       'part', part);
    c = vm_demo_check (c, 'E decreasing: max_k E(t_k+1) - E(t_k) < 0', k.energy_rise, 0, 0, ...
                       'error', max (0, k.energy_rise), 'part', part);
    c = vm_demo_check (c, 'max |E - E_ref|', k.err_E, 0, tk.E, 'part', part);
    b = k.balance;
    if ic == 1
      c = vm_demo_check (c, 'E(T) - E(0) vs sum H qdot . F', b.dE, b.work, tk.balance, ...
                         'part', part);
      c = vm_demo_check (c, '  identity incl. SAT and lambda g terms', b.identity, 0, ...
                         tol.newton, 'part', part);
    else
      c = vm_demo_check (c, 'E(T) - E(0) vs sum H qdot . F (M(theta): no identity)', b.dE, ...
                         b.work, tk.balance, 'part', part);
    end
    c = vm_demo_check (c, 'Newton iterations (default guess)', k.iterations, NaN, NaN, ...
                       'part', part);
    for io = 1:numel (k.conv)
      v = k.conv(io);
      part = sprintf ('(%s) order %d', tags{ic}, v.order);
      c = vm_demo_check (c, sprintf ('observed order, q (N %d/%d)', v.pair_q), v.observed_q, ...
                         v.predicted, tol.rate, 'part', part);
      c = vm_demo_check (c, sprintf ('observed order, lambda (N %d/%d)', v.pair_lambda), ...
                         v.observed_lambda, v.predicted_lambda, tol.rate, 'part', part);
      c = vm_demo_check (c, sprintf ('observed order, E (N %d/%d)', v.pair_E), v.observed_E, ...
                         v.predicted, tol.rate, 'part', part);
      if ic == 1
        c = vm_demo_check (c, sprintf ('observed order, SAT remainder (N %d/%d)', v.pair_sat), ...
                           v.observed_sat, v.predicted_sat, tol.rate, 'part', part);
      else
        c = vm_demo_check (c, sprintf ('observed order, balance error (N %d/%d)', ...
                           v.pair_balance), v.observed_balance, 2 * v.predicted_lambda, NaN, ...
                           'part', part);
      end
    end
  end
  d = res.default_guess;
  part = '(B'') u0=1,w0=2';
  c = vm_demo_check (c, 'constant start, T=10: exitflag', d.exitflag, 1, 0, 'part', part);
  c = vm_demo_check (c, '  Newton iterations', d.iterations, NaN, NaN, 'part', part);
  c = vm_demo_check (c, '  max |q - q(Guess integrator)| (same discrete solution)', ...
                     d.dq_integrator, 0, tol.same, 'part', part);
  c = vm_demo_check (c, '  theta(T) after 1 Newton step vs linearization at rest', d.theta_T, ...
                     d.theta_T_predicted, tol.first, 'part', part);
  c = vm_demo_check (c, 'constant start, T=5: exitflag', d.exitflag_T5, 1, 0, 'part', part);
  c = vm_demo_check (c, 'Guess ''integrator'', T=10: exitflag', d.exitflag_integrator, 1, 0, ...
                     'part', part);
  c = vm_demo_check (c, 'default Guess ''auto'' (retries from the integrator), T=10: exitflag', ...
                     d.exitflag_auto, 1, 0, 'part', part);
end

function draw (res, what)
  cols = {'r', 'b', 'g'};
  fs = 8;
  for ic = 1:2
    k = res.cases(ic);
    t = k.t;
    vm_demo_subplot (2, 1, ic, fs);
    switch what
      case 'trajectory'
        ttl = sprintf ('%s: path of the contact point P', k.name);
        a = k.params.a;
        if a > 0
          % the body: P to the centre of mass C = P + a e, every 4th node (drawn first, under the path)
          for jj = 1:4:numel (t)
            plot (k.q(jj, 1) + a * [0, cos(k.q(jj, 3))], k.q(jj, 2) + a * [0, sin(k.q(jj, 3))], ...
                  'b-');
            hold on;
          end
          ttl = sprintf ('%s: path of P (blue: P to C)', k.name);
        end
        hl = plot (k.ref.q(:, 1), k.ref.q(:, 2), 'k-', k.q(1:2:end, 1), k.q(1:2:end, 2), 'ro', ...
                   'markersize', 3, 'linewidth', 1);
        hold off;
        labels = {'reference', sprintf('SKG, N = %d (every 2nd node)', numel (t))};
        axis equal;
        xlabel ('x (dimensionless)');
        ylabel ('y (dimensionless)');
        title (ttl);
        % below the spiral (knife edge), below the path (sled)
        if a > 0
          style_axes (labels, 'southwest', hl);
        else
          ylim ([-1.1, 1.6]);
          style_axes (labels, 'southwest', hl);
        end
      case 'coordinates'
        % the reference lines first: the legend labels them; the symbols are SKG
        plot (t, k.ref.q(:, 1), 'r-', t, k.ref.q(:, 2), 'b-', t, k.ref.q(:, 3), 'g-');
        hold on;
        for i = 1:3
          plot (t(1:4:end), k.q(1:4:end, i), [cols{i}, 'o'], 'markersize', 3);
        end
        hold off;
        % room above the curves for the legend
        yl = {[-2, 14], [-4, 10]};
        where = {'northwest', 'northeast'};
        ylim (yl{ic});
        xlabel ('t (dimensionless)');
        ylabel ('x, y; theta (rad)');
        title (sprintf ('%s: SKG (symbols) vs reference (lines)', k.name));
        style_axes ({'x (dimensionless)', 'y (dimensionless)', 'theta (rad)'}, where{ic});
      case 'energy'
        E0 = k.ref.energy(1);
        k2 = 1:4:numel (t);
        k4 = 3:4:numel (t);
        plot (t, k.ref.energy - E0, 'k-', t(k2), k.energy(k2) - E0, 'ro', t(k4), ...
              k.balance.cumwork(k4), 'b+', 'markersize', 3, 'linewidth', 1);
        xlabel ('t (dimensionless)');
        ylabel ('E(t) - E(0) (dimensionless)');
        title (sprintf ('%s: energy, dE/dt = -c u^2 - ct omega^2', k.name));
        style_axes ({'reference', 'SKG', 'SKG: int qdot . F dt (trapezoid)'});
      otherwise
        plot (t, -k.ref.lambda, 'k-', t(1:4:end), k.lambda(1:4:end), 'ro', 'markersize', 3, ...
              'linewidth', 1);
        xlabel ('t (dimensionless)');
        ylabel ('force at P (dimensionless)');
        title (sprintf ('%s: lambda+ (SKG), -lambda (ideal)', k.name));
        where = {'southeast', 'northeast'};
        style_axes ({'-lambda_{ideal} (reference)', 'lambda+ (SKG, every 4th node)'}, where{ic});
    end
  end
end

function draw_solution (k)
  % the sled's SKG solution against the reference on the same nodes, by varmech_plot: its
  % multiplier is sol.lambda (eq. 3 of the rolling-disk paper, as gauss_integrate's)
  s = k.sol;
  r = struct ('t', s.t, 'q', k.ref.q, 'qdot', k.ref.qdot, 'lambda', k.ref.lambda, ...
              'energy', k.ref.energy, 'names', {s.names});
  varmech_plot (s, r, 'Figure', gcf (), 'Panels', {'q', 'lambda', 'energy'}, ...
                'Labels', {'skg_solve', 'reference'}, 'Visible', 'off', ...
                'TimeUnit', 'dimensionless', 'Units', {'', '', 'rad'}, ...
                'Title', sprintf ('%s: skg_solve (solid) and reference (dashed)', k.name));
end

function style_axes (labels, where, h)
  if nargin < 2
    where = 'northeast';
  end
  set (gca, 'fontsize', 8);
  if nargin < 3
    lh = legend (labels, 'location', where);
  else
    lh = legend (h, labels, 'location', where);
  end
  set (lh, 'fontsize', 7);
  grid on;
end
