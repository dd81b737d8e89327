function results = demo_skg_damped_oscillator (varargin)
% -*- texinfo -*-
% @deftypefn  {} {} demo_skg_damped_oscillator ()
% @deftypefnx {} {results =} demo_skg_damped_oscillator (..., "quiet")
% @deftypefnx {} {results =} demo_skg_damped_oscillator (..., "png", dir)
% Galley's damped oscillator m q'' + k q = -lambda q' as the critical point of the discrete
% Schwinger-Keldysh-Galley action (Galley, Phys.@: Rev.@: Lett.@: 110, 174301, 2013; Rothkopf &
% Horowitz, "A variational approach to nonholonomic and inequality-constrained mechanics",
% Sec.@: II: a force enters the action as F(q+, qdot+) . q-).  m = k = 1, lambda = 0.2, q(0) = 1,
% q'(0) = 0, 0 <= t <= 20; the reference is the closed form q = exp(-gamma t) (q0 cos wt + B sin wt),
% gamma = lambda/(2m), checked against @code{ode45}.  @code{skg_solve} at order 4, N = 161: q, qdot,
% the energy, and the balance E(T) - E(0) = -lambda sum H v^2 - (the energy of the two SAT penalties,
% of order h^(2p+2)), an identity of the scheme; full and reduced mode agree and q- = 0.  The action
% is bilinear, S = q-' (A q+ - b): evaluated by hand with @code{sbp_operator} it equals
% @code{skg_action}; at the solution S = 0, grad S = 0 and the q+q+ and q-q- Hessian blocks vanish,
% while the undamped trajectory is not a critical point.  Orders 2, 4, 6 on N = 161 ... 1281: q,
% qdot, E with order p+1, the SAT remainder with 2p+2, within 0.3.  The papers print
% Lambda[q1, qdot2, q2, qdot2] for Lambda[q1, qdot1, q2, qdot2] (no consequence at q- = 0).
% "png", dir writes demo_skg_damped_oscillator_@{q,energy,doubled@}.png.  @var{results} holds the
% solution, the errors, @code{balance}, @code{action}, @code{conv}, the printed table
% @code{checks}, @code{pass} and @code{time}.
% @seealso{skg_solve, skg_action, demo_skg_convergence, demo_skg_nonholonomic_damped}
% @end deftypefn

  opt = vm_demo_args ('demo_skg_damped_oscillator', varargin, struct ());
  tstart = tic;
  P = struct ('m', 1, 'k', 1, 'lam', 0.2);
  q0 = 1;
  v0 = 0;
  T = 20;
  order = 4;
  N = 161;
  orders = [2, 4, 6];
  Ns = [161, 321, 641, 1281];
  % q, qdot, E, balance at N = 161: regression bounds (about twice the errors; the rates carry the
  % theory); identities of exact arithmetic 1e-12; solves whose condition grows like N^2 1e-11
  tol = struct ('ref', 1e-9, 'q', 4e-4, 'qdot', 1e-3, 'E', 4e-4, 'balance', 3e-7, ...
                'exact', 1e-12, 'solve', 1e-11, 'newton', 1e-10, 'rate', 0.3);

  sys = mechsys ('coordinates', {'q'}, 'parameters', P, ...
                 'lagrangian', 'm*dot(q)^2/2 - k*q^2/2', 'forces', {'-lam*dot(q)'});
  exact = @(t) closed_form (P, q0, v0, t);

  % the closed form against ode45 on the hand-derived equation, on the finest grid
  tf = linspace (0, T, max (Ns))';
  [qe, ve] = exact (tf);
  [~, y] = ode45 (@(tt, yy) [yy(2); -(P.k * yy(1) + P.lam * yy(2)) / P.m], tf, [q0; v0], ...
                  odeset ('RelTol', 1e-12, 'AbsTol', 1e-14));
  ref_check = max (max (abs ([y(:, 1) - qe, y(:, 2) - ve])));

  % the run of the figures: order 4, N = 161, full and reduced mode
  sf = skg_solve (sys, [0, T], q0, v0, 'N', N, 'Order', order, 'Mode', 'full');
  sr = skg_solve (sys, [0, T], q0, v0, 'N', N, 'Order', order, 'Mode', 'reduced');
  if sf.exitflag ~= 1 || sr.exitflag ~= 1
    error ('demo_skg_damped_oscillator: skg_solve failed: %s / %s', sf.message, sr.message);
  end
  t = sf.t(:);
  [qx, vx] = exact (t);
  Ex = P.m * vx .^ 2 / 2 + P.k * qx .^ 2 / 2;
  E0 = P.m * v0 ^ 2 / 2 + P.k * q0 ^ 2 / 2;
  [~, H] = sbp_operator (N, order, [0, T]);
  bal = energy_balance (P, q0, v0, sf, full (diag (H)), E0);

  results = struct ();
  results.params = P;
  results.T = T;
  results.q0 = q0;
  results.v0 = v0;
  results.order = order;
  results.N = N;
  results.t = t;
  results.q = sf.q;
  results.qdot = sf.qdot;
  results.energy = sf.energy(:);
  results.exact = struct ('q', qx, 'qdot', vx, 'E', Ex);
  results.ref_check = ref_check;
  results.err_q = max (abs (sf.q - qx));
  results.err_qdot = max (abs (sf.qdot - vx));
  results.err_E = max (abs (sf.energy(:) - Ex));
  results.balance = bal;
  results.max_energy_rise = max (diff (sf.energy(:)));
  results.max_qminus = sf.max_qminus;
  results.max_lambdaminus = sf.max_lambdaminus;
  results.mode_diff = max (abs (sf.q - sr.q));
  results.iterations = [sf.iterations, sr.iterations];
  results.action = doubled_picture (sys, P, q0, v0, T, N, order, t, sf.q, qx);

  % convergence in N for orders 2, 4, 6
  runs = [];
  for io = 1:numel (orders)
    runs = [runs, run_order(sys, P, q0, v0, T, orders(io), Ns, exact, E0)]; %#ok<AGROW>
  end
  results.conv = runs;
  results.tol = tol;
  results.checks = make_checks (results, tol);
  [results.pass, msg] = vm_demo_verdict (results.checks);
  results.time = toc (tstart);

  if ~opt.quiet
    fprintf ('Galley''s damped oscillator m q'''' + k q = -lambda q'' by skg_solve (F4)\n');
    fprintf ('m = %g, k = %g, lambda = %g, q(0) = %g, q''(0) = %g, 0 <= t <= %g\n', P.m, P.k, ...
             P.lam, q0, v0, T);
    fprintf ('reference: closed form (checked against ode45, RelTol 1e-12)\n');
    fprintf ('main run: order %d, N = %d, full mode\n\n', order, N);
    vm_demo_table (results.checks, '%.4e', 'part');
    fprintf ('%s (%.1f s)\n', msg, results.time);
  end
  vm_demo_png (opt, {'q', 'energy', 'doubled'}, @(what) draw (results, what), [900, 900]);
  if nargout == 0
    clear results;
  end
end

function [q, v] = closed_form (P, q0, v0, t)
  % underdamped (k/m > gamma^2): q'(0) = -gamma q0 + w B = v0 gives B
  g = P.lam / (2 * P.m);
  w = sqrt (P.k / P.m - g ^ 2);
  B = (v0 + g * q0) / w;
  ex = exp (-g * t);
  q = ex .* (q0 * cos (w * t) + B * sin (w * t));
  v = ex .* ((w * B - g * q0) * cos (w * t) - (w * q0 + g * B) * sin (w * t));
end

function b = energy_balance (P, q0, v0, s, h, E0)
  % E(T) - E(0) against the H-quadrature of the dissipated power; the SAT remainder; the identity
  % E_N - E(0) = -lambda sum H v^2 - m (v_1 - v0)^2/2 - k (q_1 - q0)^2/2 (v'H times the momentum
  % equation plus k q'H times D q = v - SAT, with SBP)
  v = s.qdot(:);
  q = s.q(:);
  b.dE = s.energy(end) - E0;
  b.work = -P.lam * sum (h .* v .^ 2);
  b.sat = P.m * (v(1) - v0) ^ 2 / 2 + P.k * (q(1) - q0) ^ 2 / 2;
  b.error = abs (b.dE - b.work);
  b.identity = abs (b.dE - b.work + b.sat);
  % along the trajectory: cumulative trapezoid of -lambda v^2 (for the figure; order 2)
  t = s.t(:);
  p = -P.lam * v .^ 2;
  b.cumwork = [0; cumsum((p(1:end - 1) + p(2:end)) / 2 .* diff (t))];
end

function a = doubled_picture (sys, P, q0, v0, T, N, order, t, qsol, qx)
  % the discrete action by hand (sbp_operator) against skg_action at a non-physical point; S, its
  % gradient and its Hessian blocks at the solution; S along a doubled variation q- = eps*eta
  [D, H] = sbp_operator (N, order, [0, T]);
  h = full (diag (H));
  e1 = [1; zeros(N - 1, 1)];
  Da = @(q) D * q + (q(1) - q0) * e1 ./ h;
  L = @(q, v) P.m * v .^ 2 / 2 - P.k * q .^ 2 / 2;
  qp = q0 + 0.3 * sin (0.7 * t) + 0.1 * t / T;
  qm = 0.2 * cos (1.3 * t) .* (1 + t / T);
  q1 = qp + qm / 2;
  q2 = qp - qm / 2;
  vp = Da (qp);
  a.hand = sum (h .* (L (q1, Da (q1)) - L (q2, Da (q2)) - P.lam * qm .* vp)) ...
           - qm(1) * (P.m * vp(1) - P.m * v0) - qm(N) * P.m * vp(N);
  a.skg = skg_action (sys, [0, T], q0, v0, N, order, interleave (qp, qm));
  a.hand_diff = abs (a.hand - a.skg) / max (1, abs (a.hand));
  [a.S_sol, g, Hs] = skg_action (sys, [0, T], q0, v0, N, order, interleave (qsol, zeros (N, 1)));
  a.grad_sol = max (abs (g));
  ip = 1:2:2 * N;
  im = 2:2:2 * N;
  a.Hpp = full (max (max (abs (Hs(ip, ip)))));
  a.Hmm = full (max (max (abs (Hs(im, im)))));
  a.Hpm = full (max (max (abs (Hs(ip, im)))));
  % a variation that vanishes at both ends (q1 = q2 at t_i and t_f, as in Galley's picture)
  a.eta = sin (pi * t / T);
  a.eps = linspace (-1, 1, 21);
  w0 = sqrt (P.k / P.m);
  qund = q0 * cos (w0 * t) + v0 / w0 * sin (w0 * t);
  a.S_skg = zeros (size (a.eps));
  a.S_exact = zeros (size (a.eps));
  a.S_undamped = zeros (size (a.eps));
  for k = 1:numel (a.eps)
    a.S_skg(k) = skg_action (sys, [0, T], q0, v0, N, order, interleave (qsol, a.eps(k) * a.eta));
    a.S_exact(k) = skg_action (sys, [0, T], q0, v0, N, order, interleave (qx, a.eps(k) * a.eta));
    a.S_undamped(k) = skg_action (sys, [0, T], q0, v0, N, order, ...
                                  interleave (qund, a.eps(k) * a.eta));
  end
  % S is linear in q- (bilinear action): the slope is S at eps = 1
  a.slope_exact = a.S_exact(end);
  a.slope_undamped = a.S_undamped(end);
  a.qsol = qsol;
  a.qund = qund;
end

function z = interleave (qp, qm)
  % skg_action's ordering: at each grid point q+ then q- (n = 1, no multipliers)
  z = reshape ([qp(:)'; qm(:)'], [], 1);
end

function r = run_order (sys, P, q0, v0, T, order, Ns, exact, E0)
  p = order / 2;
  nN = numel (Ns);
  r = struct ('order', order, 'N', Ns, 'h', T ./ (Ns - 1), 'err_q', zeros (1, nN), ...
              'err_qdot', zeros (1, nN), 'err_E', zeros (1, nN), 'sat', zeros (1, nN), ...
              'identity', zeros (1, nN), 'predicted', p + 1, 'predicted_sat', 2 * p + 2);
  for in = 1:nN
    s = skg_solve (sys, [0, T], q0, v0, 'N', Ns(in), 'Order', order);
    if s.exitflag ~= 1
      error ('demo_skg_damped_oscillator: skg_solve failed (order %d, N = %d): %s', order, ...
             Ns(in), s.message);
    end
    [q, v] = exact (s.t(:));
    E = P.m * v .^ 2 / 2 + P.k * q .^ 2 / 2;
    [~, H] = sbp_operator (Ns(in), order, [0, T]);
    b = energy_balance (P, q0, v0, s, full (diag (H)), E0);
    r.err_q(in) = max (abs (s.q - q));
    r.err_qdot(in) = max (abs (s.qdot - v));
    r.err_E(in) = max (abs (s.energy(:) - E));
    r.sat(in) = b.sat;
    r.identity(in) = b.identity;
  end
  efloor = 1e3 * eps;
  [r.rate_q, r.observed_q, r.pair_q] = vm_demo_rates (r.h, r.err_q, efloor, Ns);
  [r.rate_qdot, r.observed_qdot, r.pair_qdot] = vm_demo_rates (r.h, r.err_qdot, efloor, Ns);
  [r.rate_E, r.observed_E, r.pair_E] = vm_demo_rates (r.h, r.err_E, efloor, Ns);
  [r.rate_sat, r.observed_sat, r.pair_sat] = vm_demo_rates (r.h, r.sat, 1e-20, Ns);
end

function c = make_checks (res, tol)
  c = struct ('part', {}, 'name', {}, 'value', {}, 'reference', {}, 'error', {}, 'tol', {}, ...
              'pass', {}, 'info', {});
  c = vm_demo_check (c, 'max |(q, qdot) closed form - ode45|', res.ref_check, 0, tol.ref, ...
                     'part', 'reference');
  part = sprintf ('p%d N=%d', res.order, res.N);
  c = vm_demo_check (c, 'max |q - q_exact|', res.err_q, 0, tol.q, 'part', part);
  c = vm_demo_check (c, 'max |qdot - qdot_exact|', res.err_qdot, 0, tol.qdot, 'part', part);
  c = vm_demo_check (c, 'max |E - E_exact|', res.err_E, 0, tol.E, 'part', part);
  b = res.balance;
  c = vm_demo_check (c, 'E(T) - E(0) vs -lambda sum H qdot^2', b.dE, b.work, tol.balance, ...
                     'part', part);
  c = vm_demo_check (c, '  identity: E(T)-E(0) = work - SAT (rel.)', b.identity / abs (b.work), ...
                     0, tol.exact, 'part', part);
  c = vm_demo_check (c, '  SAT remainder m(v1-v0)^2/2 + k(q1-q0)^2/2', b.sat, NaN, NaN, ...
                     'part', part);
  c = vm_demo_check (c, 'max_k E(t_k+1) - E(t_k) (rise at turning points)', ...
                     res.max_energy_rise, NaN, NaN, 'part', part);
  c = vm_demo_check (c, 'max |q-| (full mode)', res.max_qminus, 0, tol.solve, 'part', part);
  c = vm_demo_check (c, 'max |lambda-| (full mode; no constraints)', res.max_lambdaminus, NaN, ...
                     NaN, 'part', part);
  c = vm_demo_check (c, 'max |q_full - q_reduced|', res.mode_diff, 0, tol.solve, 'part', part);
  c = vm_demo_check (c, 'Newton iterations (full, reduced; linear: 1)', max (res.iterations), 1, ...
                     0, 'part', part);
  a = res.action;
  part = 'action';
  c = vm_demo_check (c, 'S by hand vs skg_action (q-, q+ ~= 0; rel.)', a.hand_diff, 0, ...
                     tol.exact, 'part', part);
  c = vm_demo_check (c, 'S at the solution (q- = 0)', abs (a.S_sol), 0, tol.exact, 'part', part);
  c = vm_demo_check (c, 'max |grad S| at the solution', a.grad_sol, 0, tol.newton, 'part', part);
  c = vm_demo_check (c, 'max |d2S/dq+dq+|, |d2S/dq-dq-| / max |d2S/dq+dq-|', ...
                     max (a.Hpp, a.Hmm) / a.Hpm, 0, tol.exact, 'part', part);
  c = vm_demo_check (c, 'max |S(eps)| along q- = eps*eta, SKG solution', max (abs (a.S_skg)), 0, ...
                     tol.exact, 'part', part);
  c = vm_demo_check (c, 'dS/deps at the closed form (truncation)', a.slope_exact, NaN, NaN, ...
                     'part', part);
  c = vm_demo_check (c, 'dS/deps at the undamped trajectory', a.slope_undamped, NaN, NaN, ...
                     'part', part);
  for io = 1:numel (res.conv)
    r = res.conv(io);
    part = sprintf ('order %d', r.order);
    c = vm_demo_check (c, sprintf ('observed order, q (N %d/%d)', r.pair_q), r.observed_q, ...
                       r.predicted, tol.rate, 'part', part);
    c = vm_demo_check (c, sprintf ('observed order, qdot (N %d/%d)', r.pair_qdot), ...
                       r.observed_qdot, r.predicted, tol.rate, 'part', part);
    c = vm_demo_check (c, sprintf ('observed order, E (N %d/%d)', r.pair_E), r.observed_E, ...
                       r.predicted, tol.rate, 'part', part);
    c = vm_demo_check (c, sprintf ('observed order, SAT remainder (N %d/%d)', r.pair_sat), ...
                       r.observed_sat, r.predicted_sat, tol.rate, 'part', part);
    c = vm_demo_check (c, 'max |identity defect|, all N', max (r.identity), 0, 1e-11, ...
                       'part', part);
  end
end

function draw (res, what)
  t = res.t;
  tf = linspace (0, res.T, 801)';
  [qf, vf] = closed_form (res.params, res.q0, res.v0, tf);
  Ef = res.params.m * vf .^ 2 / 2 + res.params.k * qf .^ 2 / 2;
  E0 = Ef(1);
  fs = 8;
  % every other node as a symbol: the line under them stays visible
  k = 1:2:numel (t);
  switch what
    case 'q'
      vm_demo_subplot (2, 1, 1, fs);
      plot (tf, qf, 'k-', t(k), res.q(k), 'ro', 'markersize', 3, 'linewidth', 1);
      xlabel ('t (dimensionless)');
      ylabel ('q (dimensionless)');
      title (sprintf ('SKG (order %d, N = %d) vs closed form, dimensionless', res.order, res.N));
      style_axes ({'closed form', 'SKG q+ (every 2nd node)'});
      vm_demo_subplot (2, 1, 2, fs);
      plot (tf, vf, 'k-', t(k), res.qdot(k), 'bo', 'markersize', 3, 'linewidth', 1);
      xlabel ('t (dimensionless)');
      ylabel ('qdot (dimensionless)');
      style_axes ({'closed form', 'SKG velocity Da q+'});
    case 'energy'
      vm_demo_subplot (2, 1, 1, fs);
      plot (tf, Ef, 'k-', t(k), res.energy(k), 'ro', 'markersize', 3, 'linewidth', 1);
      xlabel ('t (dimensionless)');
      ylabel ('E = m qdot^2/2 + k q^2/2');
      title ('energy (dimensionless): SKG vs closed form');
      style_axes ({'closed form', 'SKG (every 2nd node)'});
      vm_demo_subplot (2, 1, 2, fs);
      k2 = 2:4:numel (t);
      k4 = 4:4:numel (t);
      plot (tf, Ef - E0, 'k-', t(k2), res.energy(k2) - E0, 'ro', t(k4), res.balance.cumwork(k4), 'b+', ...
            'markersize', 3, 'linewidth', 1);
      xlabel ('t (dimensionless)');
      ylabel ('E(t) - E(0) (dimensionless)');
      title ('balance dE/dt = -lambda qdot^2');
      style_axes ({'closed form', 'SKG', 'SKG: int -lambda qdot^2 dt (trapezoid)'});
    otherwise
      a = res.action;
      ep = 0.4;
      vm_demo_subplot (2, 1, 1, fs);
      plot (t, a.qsol + ep * a.eta / 2, 'r-', t, a.qsol - ep * a.eta / 2, 'b-', t, a.qsol, 'k-', ...
            'linewidth', 1);
      ylim ([-1, 2]);
      xlabel ('t (dimensionless)');
      ylabel ('q (dimensionless)');
      title (sprintf ('q1, q2 = q+ +/- q-/2, q- = %.1f sin(pi t/T)', ep));
      style_axes ({'q1', 'q2', 'q+ (SKG, physical limit q- = 0)'});
      vm_demo_subplot (2, 1, 2, fs);
      plot (a.eps, a.S_undamped, 'b-s', a.eps, a.S_exact, 'g-^', a.eps, a.S_skg, 'r-o', ...
            'markersize', 3);
      ylim ([-0.045, 0.035]);
      xlabel ('eps (q- = eps sin(pi t/T), dimensionless)');
      ylabel ('SKG action S (dimensionless)');
      title ('S along q- = eps sin(pi t/T)');
      style_axes ({'q+ = undamped trajectory', 'q+ = closed form, sampled', 'q+ = SKG solution'}, ...
                  'southwest');
  end
end

function style_axes (labels, where)
  if nargin < 2
    where = 'northeast';
  end
  set (gca, 'fontsize', 8);
  lh = legend (labels, 'location', where);
  set (lh, 'fontsize', 7);
  grid on;
end
