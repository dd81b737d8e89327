function results = demo_dual_lorenz (varargin)
% -*- texinfo -*-
% @deftypefn  {} {} demo_dual_lorenz ()
% @deftypefnx {} {results =} demo_dual_lorenz (..., "quiet")
% @deftypefnx {} {results =} demo_dual_lorenz (..., "png", dir)
% The dual Lorenz action of Acharya & Sengupta (Sec.@: 3, eqs.@: 29-31): the Lorenz trajectory
% x' = A (y - x), y' = x (R - z) - y, z' = x y - B z (A = 10, R = 28, B = 8/3) from U0 = (1, 1, 1)
% on [0, 2], recovered by @code{dual_lorenz} (c = 50) as the critical point of the dual action and
% compared with @code{ode45} (RelTol = AbsTol = 1e-12) on the hand-written field.
% (1) zero base state, 100 slabs of N = 65 (a slab must be shorter than 1/max |U|: there the DtP
%     matrix of eq.@: 30 turns singular), and a scan over the number of slabs;
% (2) a base state 3-5 % away (the solution for R = 28.5): 10 slabs on the same grid;
% (3) the base-state iteration ("BaseIterations") makes the duals vanish;
% (4) for a constant base state the dual Hamiltonian D.F(U) - c/2 |U - Ubar|^2 is a constant of
%     motion (its variation converges with order p+1), and the duals solve the adjoint equation;
% (5) @code{dual_lorenz} equals @code{dual_solve} on the Lorenz @code{odesys}; eqs.@: 30, 31 evaluated
%     here reproduce sol.y and sol.S; the expansion of S_H[U^H, D] before "Noting, further" has a
%     misprint (its third integrand's +B gamma must read -B gamma);
% (6) the max-norm error converges with order p+1 for the SBP orders 2p = 2, 4, 6.
% "png", dir writes demo_dual_lorenz_@{trajectory,hamiltonian,convergence@}.png.  @var{results}
% holds one struct per part, the printed table @code{checks}, @code{pass} and @code{time}.
% @seealso{dual_lorenz, dual_solve, dual_action, demo_sbp_convergence}
% @end deftypefn

  opt = vm_demo_args ('demo_dual_lorenz', varargin, struct ());
  tstart = tic;
  P = struct ('A', 10, 'R', 28, 'B', 8 / 3, 'c', 50, 'U0', [1, 1, 1], 'T', 2);
  tol = struct ('ref', 1e-9, 'zero', 1e-3, 'pert', 1e-5, 'vanish', 1e-8 * P.c, 'rate', 0.3, ...
                'hmean', 1e-5, 'round', 1e-12, 'engine', 1e-10);
  T = P.T;
  S_main = 100;
  nfine = S_main * 128;                     % intervals of the reference grid
  tfine = linspace (0, T, nfine + 1)';
  ode_opt = odeset ('RelTol', 1e-12, 'AbsTol', 1e-12);
  [~, yfine] = ode45 (@(t, u) lorenz_ode (t, u, P), tfine, P.U0, ode_opt);
  tchk = tfine(1:8:end);
  [~, ychk] = ode45 (@(t, u) lorenz_ode (t, u, P), tchk, P.U0, odeset ('RelTol', 1e-13, 'AbsTol', 1e-13));
  ref_check = max (max (abs (ychk - yfine(1:8:end, :))));
  ymax = max (abs (yfine(:)));

  % ---- (6) convergence in N from the zero base state (its order-4, N = 65 run is part (1)) ----
  orders = [2, 4, 6];
  Ns = [17, 33, 65, 129];
  efloor = max (1e3 * eps * ymax, 10 * ref_check);
  runs = [];
  main = [];
  scan33 = [];
  for io = 1:numel (orders)
    r = struct ('order', orders(io), 'S', S_main, 'N', Ns, 'h', T ./ (S_main * (Ns - 1)), ...
                'err_max', zeros (1, numel (Ns)), 'err_final', zeros (1, numel (Ns)), ...
                'rate_max', [], 'rate_final', [], 'observed_max', NaN, 'observed_final', NaN, ...
                'pair_max', [NaN, NaN], 'predicted_max', orders(io) / 2 + 1, ...
                'predicted_final', orders(io), 'floor', efloor, 'max_iter', zeros (1, numel (Ns)), ...
                'exitflag', zeros (1, numel (Ns)));
    for in = 1:numel (Ns)
      s = dual_lorenz ([0, T], P.U0, 'N', Ns(in), 'Slabs', S_main, 'Order', orders(io), 'c', P.c);
      yr = on_grid (yfine, nfine, S_main, Ns(in));
      r.err_max(in) = max (abs (s.y(:) - yr(:)));
      r.err_final(in) = max (abs (s.y(end, :) - yr(end, :)));
      r.max_iter(in) = max (s.slab_iterations);
      r.exitflag(in) = s.exitflag;
      if orders(io) == 4 && Ns(in) == 65
        main = s;
      end
      if orders(io) == 4 && Ns(in) == 33
        scan33 = s;
      end
    end
    [r.rate_max, r.observed_max, r.pair_max] = vm_demo_rates (r.h, r.err_max, efloor, Ns);
    [r.rate_final, r.observed_final] = vm_demo_rates (r.h, r.err_final, efloor, Ns);
    runs = [runs, r]; %#ok<AGROW>
  end

  % ---- (1) zero base state: the main run and a scan over the number of slabs ----
  yr = on_grid (yfine, nfine, S_main, 65);
  z = struct ('S', S_main, 'N', 65, 't', main.t, 'y', main.y, 'yref', yr, ...
              'err', max (abs (main.y - yr), [], 1), 'exitflag', main.exitflag, ...
              'max_iter', max (main.slab_iterations), 'dtp_ratio', dtp_ratio (main.D, P.c), ...
              'dtp_estimate', T / S_main * ymax, 'hamiltonian', main.hamiltonian, 'scan', []);
  Sscan = [20, 40, 50, 100, 200];
  scan = struct ('S', {}, 'L', {}, 'estimate', {}, 'dtp_ratio', {}, 'max_iter', {}, ...
                 'exitflag', {}, 'err', {});
  for k = 1:numel (Sscan)
    if Sscan(k) == S_main
      s = scan33;
    else
      s = dual_lorenz ([0, T], P.U0, 'N', 33, 'Slabs', Sscan(k), 'c', P.c);
    end
    yr = on_grid (yfine, nfine, Sscan(k), 33);
    scan(k).S = Sscan(k);
    scan(k).L = T / Sscan(k);
    scan(k).estimate = T / Sscan(k) * ymax;
    scan(k).dtp_ratio = dtp_ratio (s.D, P.c);
    scan(k).max_iter = max (s.slab_iterations);
    scan(k).exitflag = s.exitflag;
    scan(k).err = max (abs (s.y(:) - yr(:)));
  end
  z.scan = scan;

  % ---- (2) perturbed base state: the solution for R = 28.5, fewer slabs, the same grid ----
  Pb = P;
  Pb.R = 28.5;
  t6401 = tfine(1:2:end);
  [~, ybase] = ode45 (@(t, u) lorenz_ode (t, u, Pb), t6401, P.U0, ode_opt);
  Sp = 10;
  Np = 641;
  s = dual_lorenz ([0, T], P.U0, 'N', Np, 'Slabs', Sp, 'c', P.c, 'BaseState', ybase);
  yr = yfine(1:2:end, :);
  pert = struct ('S', Sp, 'N', Np, 'delta', max (abs (ybase(:) - yr(:))), 'y', s.y, ...
                 'err', max (abs (s.y - yr), [], 1), 'exitflag', s.exitflag, ...
                 'max_iter', max (s.slab_iterations), 'maxD', max (abs (s.D(:))), ...
                 'dtp_ratio', dtp_ratio (s.D, P.c), 'dtp_estimate', 0, ...
                 'diff_zero_base', max (abs (s.y(:) - main.y(:))));
  pert.dtp_estimate = pert.delta * T / Sp;

  % ---- (3) base-state iteration: driver (shared slab nodes) and per-slab base states ----
  nb = 3;
  Nb = 65;
  yb0 = ybase(1:10:end, :);
  yr = on_grid (yfine, nfine, Sp, Nb);
  bi = struct ('passes', 0:nb, 'maxD', zeros (1, nb + 1), 'base_change', [], ...
               'maxD_slab', zeros (1, nb + 1), 'change_slab', zeros (1, nb + 1), ...
               'err', zeros (1, nb + 1), 'exitflag', zeros (1, nb + 1), 'first_pass_diff', 0, ...
               'one_slab_maxD', NaN, 'one_slab_change', []);
  for b = 0:nb
    s = dual_lorenz ([0, T], P.U0, 'N', Nb, 'Slabs', Sp, 'c', P.c, 'BaseState', yb0, ...
                     'BaseIterations', b);
    bi.maxD(b + 1) = max (abs (s.D(:)));
    bi.err(b + 1) = max (abs (s.y(:) - yr(:)));
    bi.exitflag(b + 1) = s.exitflag;
    if b == 0
      y_driver0 = s.y;
    end
  end
  bi.base_change = s.base_change(:)';
  % the same iteration with every slab keeping its own N-point base state
  L = T / Sp;
  bases = cell (1, Sp);
  for k = 1:Sp
    bases{k} = yb0((k - 1) * (Nb - 1) + (1:Nb), :);
  end
  for b = 0:nb
    u0 = P.U0;
    mD = 0;
    mc = 0;
    for k = 1:Sp
      s = dual_lorenz ([(k - 1) * L, k * L], u0, 'N', Nb, 'c', P.c, 'BaseState', bases{k});
      mD = max (mD, max (abs (s.D(:))));
      mc = max (mc, max (max (abs (s.y - bases{k}))));
      if b == 0
        idx = (k - 1) * (Nb - 1) + (1:Nb - 1);
        dk = max (max (abs (s.y(1:end - 1, :) - y_driver0(idx, :))));
        bi.first_pass_diff = max (bi.first_pass_diff, dk);
      end
      bases{k} = s.y;
      u0 = s.y(end, :);
    end
    bi.maxD_slab(b + 1) = mD;
    bi.change_slab(b + 1) = mc;
  end
  % one slab: [0, 0.2], N = 129, the R = 28.5 base state
  s = dual_lorenz ([0, 0.2], P.U0, 'N', 129, 'c', P.c, 'BaseState', ybase(1:5:641, :), ...
                   'BaseIterations', 2);
  bi.one_slab_maxD = max (abs (s.D(:)));
  bi.one_slab_change = s.base_change(:)';

  % ---- (4) the dual Hamiltonian for a constant base state, one slab ----
  T4 = 0.1;
  ub = [1, 1, 1];
  [~, w] = ode45 (@(t, u) lorenz_ode (t, u, P), [0, T4 / 2, T4], P.U0, ode_opt);
  UT = w(end, :);
  H_ref = -P.c / 2 * sum ((UT - ub) .^ 2);
  N4 = [65, 129, 257, 513];
  ham = struct ('orders', orders, 'N', N4, 'variation', zeros (numel (orders), numel (N4)), ...
                'mean_err', zeros (numel (orders), numel (N4)), ...
                'max_err', zeros (numel (orders), numel (N4)), 'rate', [], 'observed', [], ...
                'D_err', zeros (1, numel (N4)), 'D_rate', [], 'D_observed', NaN, ...
                'formula_err', 0, 'legendre_err', 0, 'exitflag', 1, 't', [], 'H', [], ...
                'H_ref', H_ref, 'curves', {cell(1, 3)});
  ham.rate = zeros (numel (orders), numel (N4) - 1);
  ham.observed = zeros (1, numel (orders));
  for io = 1:numel (orders)
    for in = 1:numel (N4)
      s = dual_lorenz ([0, T4], P.U0, 'N', N4(in), 'Order', orders(io), 'c', P.c, 'BaseState', ub);
      ham.exitflag = min (ham.exitflag, s.exitflag);
      H = s.hamiltonian;
      ham.variation(io, in) = (max (H) - min (H)) / abs (H_ref);
      ham.mean_err(io, in) = abs (mean (H) - H_ref) / abs (H_ref);
      ham.max_err(io, in) = max (abs (H - H_ref)) / abs (H_ref);
      % the Hamiltonian from sol.D, sol.y in m-code: D.F - c/2 |U - Ubar|^2 and the paper's R.P - LL
      Hf = sum (s.D .* lorenz_F (s.y, P), 2) - P.c / 2 * sum ((s.y - ub) .^ 2, 2);
      ham.formula_err = max (ham.formula_err, max (abs (Hf - H)) / abs (H_ref));
      pe = paper_eval (s, orders(io), [0, T4], repmat (ub, N4(in), 1), P);
      ham.legendre_err = max (ham.legendre_err, max (abs (pe.legendre - H)) / abs (H_ref));
      if orders(io) == 4
        if N4(in) <= 257
          hrel = (H - H_ref) / abs (H_ref);
          ham.curves{in} = [s.t, hrel];
        end
        if N4(in) == 129
          ham.t = s.t;
          ham.H = H;
        end
        % the duals against the adjoint equation, backward from (U(T), 0)
        [~, wb] = ode45 (@(t, u) adjoint_ode (t, u, P, ub), flipud (s.t), [UT, 0, 0, 0], ode_opt);
        wb = flipud (wb);
        ham.D_err(in) = max (max (abs (s.D - wb(:, 4:6)))) / max (abs (wb(:)));
      end
    end
    [ham.rate(io, :), ham.observed(io)] = vm_demo_rates (T4 ./ (N4 - 1), ham.variation(io, :), ...
                                                         1e3 * eps, N4);
  end
  [ham.D_rate, ham.D_observed] = vm_demo_rates (T4 ./ (N4 - 1), ham.D_err, 1e3 * eps, N4);
  % the zero-base run of part (1): HH is constant on each slab, = -c/2 |U(slab end)|^2
  ham.slab_variation = 0;
  ham.slab_mean_err = 0;
  for k = 1:S_main
    r0 = (k - 1) * 64 + 1;
    Hs = main.hamiltonian(r0:r0 + 63);
    Hk = -P.c / 2 * sum (z.yref(r0 + 64, :) .^ 2);
    ham.slab_variation = max (ham.slab_variation, (max (Hs) - min (Hs)) / abs (Hk));
    ham.slab_mean_err = max (ham.slab_mean_err, abs (mean (Hs) - Hk) / abs (Hk));
  end

  % ---- (5) closed form against the general engine; the paper's formulas in m-code ----
  ode = odesys ('states', {'x', 'y', 'z'}, 'parameters', struct ('A', P.A, 'R', P.R, 'B', P.B), ...
                'rhs', {'A*(y - x)', 'x*(R - z) - y', 'x*y - B*z'});
  s2 = dual_solve (ode, [0, T], P.U0, 'N', 65, 'Slabs', S_main, 'c', P.c, 'FinalDual', 'strong');
  eng = struct ('y_diff', max (abs (s2.y(:) - main.y(:))) / max (abs (main.y(:))), ...
                'D_diff', max (abs (s2.D(:) - main.D(:))) / max (abs (main.D(:))), ...
                'exitflag', s2.exitflag, 'dtp30_err', NaN, 'action31_err', NaN, ...
                'inverse_err', NaN, 'expansion_err', NaN, 'printed_dev', NaN, 'printed_pred', NaN);
  base5 = ybase(1:5:641, :);
  s = dual_lorenz ([0, 0.2], P.U0, 'N', 129, 'c', P.c, 'BaseState', base5);
  pe = paper_eval (s, 4, [0, 0.2], base5, P);
  eng.exitflag = min (eng.exitflag, s.exitflag);
  eng.dtp30_err = max (max (abs (pe.U - s.y))) / max (abs (s.y(:)));
  eng.action31_err = abs (pe.S - s.S) / abs (s.S);
  eng.inverse_err = pe.inverse_err;
  eng.expansion_err = max (abs (pe.expansion - pe.LH)) / max (abs (pe.LH));
  eng.printed_dev = max (abs (pe.printed - pe.LH));
  % printed - corrected = -(z^H - zbar) (2 B gamma)
  pred = -2 * P.B * s.D(:, 3) .* (pe.U(:, 3) - base5(:, 3));
  eng.printed_pred = max (abs (pred));
  eng.printed_vs_pred = max (abs ((pe.printed - pe.LH) - pred)) / max (abs (pe.LH));

  results = struct ();
  results.params = P;
  results.ref_check = ref_check;
  results.zero_base = z;
  results.perturbed = pert;
  results.base_iter = bi;
  results.hamiltonian = ham;
  results.engines = eng;
  results.convergence = runs;
  results.tol = tol;
  results.checks = make_checks (results);
  [results.pass, msg] = vm_demo_verdict (results.checks);
  results.time = toc (tstart);

  if ~opt.quiet
    print_tables (results, msg);
  end
  vm_demo_png (opt, {'trajectory', 'hamiltonian', 'convergence'}, @(what) draw (what, results), ...
               [1200, 1000]);
  if nargout == 0
    clear results;
  end
end

function du = lorenz_ode (~, u, P)
  % the Lorenz field, written by hand (the reference does not use varmech)
  du = [P.A * (u(2) - u(1)); u(1) * (P.R - u(3)) - u(2); u(1) * u(2) - P.B * u(3)];
end

function F = lorenz_F (Y, P)
  % the Lorenz field at the rows of Y
  F = [P.A * (Y(:, 2) - Y(:, 1)), Y(:, 1) .* (P.R - Y(:, 3)) - Y(:, 2), ...
       Y(:, 1) .* Y(:, 2) - P.B * Y(:, 3)];
end

function dw = adjoint_ode (~, w, P, ub)
  % Lorenz with the adjoint equation D' = c (U - Ubar) - J(U)' D (the DtP equations read along the
  % solution), w = [U; D]
  u = w(1:3);
  D = w(4:6);
  JtD = [-P.A * D(1) + (P.R - u(3)) * D(2) + u(2) * D(3); P.A * D(1) - D(2) + u(1) * D(3); ...
         -u(1) * D(2) - P.B * D(3)];
  du = lorenz_ode (0, u, P);
  dw = [du; P.c * (u - ub(:)) - JtD];
end

function yr = on_grid (yfine, nfine, S, N)
  % the reference on the grid of S slabs of N points (nested in the reference grid)
  yr = yfine(1:nfine / (S * (N - 1)):end, :);
end

function r = dtp_ratio (D, c)
  % max over the grid of sqrt (gamma^2 + mu^2)/c: the DtP matrix is singular at 1
  r = max (sqrt (D(:, 2) .^ 2 + D(:, 3) .^ 2)) / c;
end

function pe = paper_eval (s, order, tspan, base, P)
  % The paper's Lorenz formulas in m-code at the duals of a one-slab solution s: the DtP map
  % (eq. 30), the dual Lagrangian (eq. 31) and the discrete action, the printed inverse BB, the
  % expansion of S_H[U^H, D] (printed and corrected), L_H(U^H) from its definition, and the
  % Hamiltonian as the paper's Legendre transform R.P - LL after eq. 31.
  N = size (s.D, 1);
  [Dm, Hn] = sbp_operator (N, order, tspan);
  Dd = Dm * s.D;
  w = full (diag (Hn));
  c = P.c;
  pe = struct ('U', zeros (N, 3), 'LL', zeros (N, 1), 'LH', zeros (N, 1), ...
               'expansion', zeros (N, 1), 'printed', zeros (N, 1), 'legendre', zeros (N, 1), ...
               'inverse_err', 0, 'S', 0);
  for k = 1:N
    la = s.D(k, 1);
    mu = s.D(k, 2);
    ga = s.D(k, 3);
    xb = base(k, 1);
    yb = base(k, 2);
    zb = base(k, 3);
    p = [ga * yb - mu * zb + Dd(k, 1) - P.A * la + P.R * mu; ...
         ga * xb + Dd(k, 2) - mu + P.A * la; ...
         -mu * xb + Dd(k, 3) - P.B * ga];
    AA = c * [1, -ga / c, mu / c; -ga / c, 1, 0; mu / c, 0, 1];
    g = ga / c;
    m = mu / c;
    BB = [1, g, -m; g, 1 - m ^ 2, -g * m; -m, -g * m, 1 - g ^ 2] / (c * (1 - g ^ 2 - m ^ 2));
    pe.inverse_err = max (pe.inverse_err, max (max (abs (BB * AA - eye (3)))));
    U = base(k, :)' + BB * p;
    pe.U(k, :) = U';
    Ub = base(k, :)';
    pe.LL(k) = -0.5 * p' * BB * p - Ub' * p - mu * xb * zb + ga * xb * yb;
    Fu = lorenz_F (U', P)';
    Hpot = c / 2 * sum ((U - Ub) .^ 2);
    pe.LH(k) = -Dd(k, :) * U - s.D(k, :) * Fu + Hpot;
    e = U - Ub;
    common = -e(1) * (Dd(k, 1) - la * P.A + P.R * mu + ga * yb - mu * zb) ...
             - e(2) * (la * P.A + Dd(k, 2) - mu + ga * xb) - Ub' * p ...
             + mu * e(1) * e(3) - ga * e(1) * e(2) - mu * xb * zb + ga * xb * yb + Hpot;
    pe.expansion(k) = common - e(3) * (Dd(k, 3) - P.B * ga - mu * xb);
    pe.printed(k) = common - e(3) * (Dd(k, 3) + P.B * ga - mu * xb);
    % Legendre transform: P = -U^H, Ddot = R(D, P) = -AA (P + Ubar) - ptilde, ptilde = p - Ddot
    Pm = -U;
    Rd = -AA * (Pm + Ub) - (p - Dd(k, :)');
    pe.legendre(k) = Rd' * Pm - pe.LL(k);
  end
  pe.S = sum (w .* pe.LL) - s.D(1, :) * P.U0(:);
end

function checks = make_checks (res)
  tol = res.tol;
  checks = struct ('part', {}, 'name', {}, 'value', {}, 'reference', {}, 'error', {}, ...
                   'tol', {}, 'pass', {}, 'info', {});
  checks = vm_demo_check (checks, 'ode45 1e-12 vs 1e-13 (max |dU|)', res.ref_check, 0, tol.ref, ...
                          'part', 'ref');
  % (1)
  z = res.zero_base;
  names = {'x', 'y', 'z'};
  for i = 1:3
    part = '';
    if i == 1
      part = '(1)';
    end
    checks = vm_demo_check (checks, sprintf ('zero base, %d slabs, N %d: max |%s - %s_ref|', z.S, ...
                            z.N, names{i}, names{i}), z.err(i), 0, tol.zero, 'part', part);
  end
  checks = vm_demo_check (checks, 'zero base: exitflag', z.exitflag, 1, 0);
  checks = vm_demo_check (checks, 'zero base: max sqrt(mu^2+gamma^2)/c (ref: L max|U|)', ...
                          z.dtp_ratio, z.dtp_estimate, NaN);
  checks = vm_demo_check (checks, 'zero base: max Newton iterations per slab', z.max_iter, NaN, NaN, ...
                          'error', NaN);
  for k = 1:numel (z.scan)
    sc = z.scan(k);
    checks = vm_demo_check (checks, sprintf ('scan N 33, %3d slabs (exit %d, %2d it): max error', ...
                            sc.S, sc.exitflag, sc.max_iter), sc.err, 0, NaN);
  end
  % (2)
  p = res.perturbed;
  for i = 1:3
    part = '';
    if i == 1
      part = '(2)';
    end
    checks = vm_demo_check (checks, sprintf ('R=28.5 base, %d slabs, N %d: max |%s - %s_ref|', ...
                            p.S, p.N, names{i}, names{i}), p.err(i), 0, tol.pert, 'part', part);
  end
  checks = vm_demo_check (checks, 'R=28.5 base: exitflag', p.exitflag, 1, 0);
  checks = vm_demo_check (checks, 'R=28.5 base: max |D|/c (ref: L max|U - Ubar|)', ...
                          p.dtp_ratio, p.dtp_estimate, NaN);
  checks = vm_demo_check (checks, 'R=28.5 base: max |D|', p.maxD, NaN, NaN, 'error', NaN);
  checks = vm_demo_check (checks, 'max |U(R=28.5 base) - U(zero base)|, same grid', ...
                          p.diff_zero_base, NaN, NaN, 'error', NaN);
  % (3)
  b = res.base_iter;
  checks = vm_demo_check (checks, sprintf ('driver, %d slabs: max |D| after %d passes', 10, ...
                          b.passes(end)), b.maxD(end), 0, tol.vanish, 'part', '(3)');
  checks = vm_demo_check (checks, 'driver: base_change of the last pass', b.base_change(end), 0, NaN);
  checks = vm_demo_check (checks, 'per-slab base states: max |D| after 1 pass', b.maxD_slab(2), 0, ...
                          tol.vanish);
  checks = vm_demo_check (checks, 'per-slab = driver on the first pass (max |dU|)', ...
                          b.first_pass_diff, 0, tol.round * 1e3);
  checks = vm_demo_check (checks, 'one slab [0, 0.2]: max |D| after 2 passes', b.one_slab_maxD, 0, ...
                          tol.vanish);
  % (4)
  h = res.hamiltonian;
  i4 = find (h.orders == 4);
  checks = vm_demo_check (checks, 'HH: (max - min)/|HH_ref|, order 4, N 129', h.variation(i4, 2), 0, ...
                          NaN, 'part', '(4)');
  checks = vm_demo_check (checks, 'HH: max |HH - HH_ref|/|HH_ref|, order 4, N 129', ...
                          h.max_err(i4, 2), 0, tol.hmean);
  checks = vm_demo_check (checks, 'HH: |mean HH - HH_ref|/|HH_ref|, order 4, N 129', ...
                          h.mean_err(i4, 2), 0, NaN);
  for io = 1:numel (h.orders)
    checks = vm_demo_check (checks, sprintf ('HH variation: observed order, order %d', h.orders(io)), ...
                            h.observed(io), h.orders(io) / 2 + 1, tol.rate);
  end
  checks = vm_demo_check (checks, 'duals vs adjoint ode45: rel. error, order 4, N 129', h.D_err(2), ...
                          0, NaN);
  checks = vm_demo_check (checks, 'duals vs adjoint ode45: observed order, order 4', h.D_observed, ...
                          3, tol.rate);
  checks = vm_demo_check (checks, 'sol.hamiltonian vs D.F - c/2|U-Ubar|^2 (rel.)', h.formula_err, 0, ...
                          tol.round);
  checks = vm_demo_check (checks, 'sol.hamiltonian vs paper''s R.P - LL (rel.)', h.legendre_err, 0, ...
                          tol.round);
  checks = vm_demo_check (checks, 'exitflag (all runs)', h.exitflag, 1, 0);
  checks = vm_demo_check (checks, 'part (1), 100 slabs: max (max - min)/|HH_k| per slab', ...
                          h.slab_variation, 0, NaN);
  checks = vm_demo_check (checks, 'part (1): max |mean HH - HH_k|/|HH_k|, HH_k = -c/2|U_ref(end)|^2', ...
                          h.slab_mean_err, 0, NaN);
  % (5)
  e = res.engines;
  checks = vm_demo_check (checks, 'dual_lorenz vs dual_solve: max |dy|/max |y|', e.y_diff, 0, ...
                          tol.engine, 'part', '(5)');
  checks = vm_demo_check (checks, 'dual_lorenz vs dual_solve: max |dD|/max |D|', e.D_diff, 0, ...
                          tol.engine);
  checks = vm_demo_check (checks, 'eq. 30 DtP map (m-code) vs sol.y (rel.)', e.dtp30_err, 0, tol.round);
  checks = vm_demo_check (checks, 'eq. 31 discrete action (m-code) vs sol.S (rel.)', ...
                          e.action31_err, 0, tol.round);
  checks = vm_demo_check (checks, 'printed BB times AA - I', e.inverse_err, 0, tol.round);
  checks = vm_demo_check (checks, 'corrected expansion vs L_H(U^H) (rel.)', e.expansion_err, 0, ...
                          tol.round);
  checks = vm_demo_check (checks, 'printed expansion - L_H: max (misprint)', e.printed_dev, ...
                          e.printed_pred, NaN);
  checks = vm_demo_check (checks, '  ... plus 2 B gamma (z^H - zbar) (rel. to L_H)', e.printed_vs_pred, 0, ...
                          tol.round);
  checks = vm_demo_check (checks, 'exitflag (both engines, one slab)', e.exitflag, 1, 0);
  % (6)
  for io = 1:numel (res.convergence)
    r = res.convergence(io);
    part = '';
    if io == 1
      part = '(6)';
    end
    checks = vm_demo_check (checks, sprintf ('order %d: max-norm order (N %d/%d)', r.order, ...
                            r.pair_max), r.observed_max, r.predicted_max, tol.rate, 'part', part);
    checks = vm_demo_check (checks, sprintf ('order %d: final-time rate (SBP-SAT: 2p)', r.order), ...
                            r.observed_final, r.predicted_final, NaN);
  end
  ef = min (arrayfun (@(r) min (r.exitflag), res.convergence));
  checks = vm_demo_check (checks, 'exitflag (all convergence runs)', ef, 1, 0);
end

function print_tables (res, msg)
  P = res.params;
  fprintf ('dual Lorenz action (Acharya & Sengupta eqs. 29-31): A = %g, R = %g, B = %.4g, c = %g, ', ...
           P.A, P.R, P.B, P.c);
  fprintf ('U0 = (%g, %g, %g), T = %g, order 4 unless stated\n', P.U0, P.T);
  fprintf ('reference: ode45 RelTol = AbsTol = 1e-12 on the hand-written field\n');
  fprintf ('\n(1) zero base state, slabs of N = 33: L = slab length, est = L max|U|, ratio = max sqrt(mu^2+gamma^2)/c\n');
  fprintf ('%6s %8s %7s %7s %5s %5s %10s\n', 'slabs', 'L', 'est', 'ratio', 'it', 'exit', 'max err');
  for k = 1:numel (res.zero_base.scan)
    s = res.zero_base.scan(k);
    fprintf ('%6d %8.4f %7.3f %7.3f %5d %5d %10.3e\n', s.S, s.L, s.estimate, s.dtp_ratio, ...
             s.max_iter, s.exitflag, s.err);
  end
  b = res.base_iter;
  fprintf ('\n(3) base-state iteration (R = 28.5 base, 10 slabs of N = 65): max |D| per pass\n');
  fprintf ('%5s %12s %12s %14s %14s %10s\n', 'pass', 'driver |D|', 'base_change', ...
           'per-slab |D|', 'per-slab chg', 'max err');
  for k = 1:numel (b.passes)
    if k == 1
      bc = NaN;
    else
      bc = b.base_change(k - 1);
    end
    fprintf ('%5d %12.3e %12.3e %14.3e %14.3e %10.3e\n', b.passes(k), b.maxD(k), bc, ...
             b.maxD_slab(k), b.change_slab(k), b.err(k));
  end
  h = res.hamiltonian;
  fprintf ('\n(4) dual Hamiltonian, one slab [0, 0.1], Ubar = (1, 1, 1): (max HH - min HH)/|HH_ref|, HH_ref = %.6g\n', ...
           h.H_ref);
  fprintf ('%6s', 'order');
  fprintf (' %10s', sprintf ('N=%d', h.N(1)));
  for in = 2:numel (h.N)
    fprintf (' %10s %6s', sprintf ('N=%d', h.N(in)), 'rate');
  end
  fprintf ('\n');
  for io = 1:numel (h.orders)
    fprintf ('%6d %10.3e', h.orders(io), h.variation(io, 1));
    for in = 2:numel (h.N)
      fprintf (' %10.3e %6.2f', h.variation(io, in), h.rate(io, in - 1));
    end
    fprintf ('\n');
  end
  fprintf ('\n(6) convergence, zero base state, 100 slabs: max-norm error (rate), final-time error (rate)\n');
  for io = 1:numel (res.convergence)
    r = res.convergence(io);
    fprintf ('order %d:', r.order);
    for in = 1:numel (r.N)
      if in == 1
        fprintf ('  N=%d %.2e / %.2e', r.N(in), r.err_max(in), r.err_final(in));
      else
        fprintf ('  N=%d %.2e (%.2f) / %.2e (%.2f)', r.N(in), r.err_max(in), r.rate_max(in - 1), ...
                 r.err_final(in), r.rate_final(in - 1));
      end
    end
    fprintf ('\n');
  end
  fprintf ('\n');
  vm_demo_table (res.checks, '%.4g', 'part');
  fprintf ('%s (%.1f s)\n', msg, res.time);
end

function draw (what, res)
  colors = [0, 0.447, 0.741; 0.85, 0.325, 0.098; 0.466, 0.674, 0.188];
  fs = 5;
  switch what
    case 'trajectory'
      z = res.zero_base;
      names = {'x', 'y', 'z'};
      k = 1:50:numel (z.t);
      k2 = 26:50:numel (z.t);
      top = [3.4, 1.2, 1.2, 1.2];
      for i = 1:3
        vm_demo_subplot (4, 1, i, fs, [9.5, 2, 5.6, top(i)]);
        plot (z.t, z.yref(:, i), '-', 'color', [0.3, 0.3, 0.3], 'linewidth', 1.5);
        hold on;
        plot (z.t(k), z.y(k, i), 'o', 'color', colors(1, :), 'markersize', 3);
        plot (z.t(k2), res.perturbed.y(k2, i), '+', 'color', colors(2, :), 'markersize', 4);
        hold off;
        set (gca, 'fontsize', fs);
        xlabel ('t (dimensionless)');
        ylabel ([names{i}, ' (dimensionless)']);
        grid on;
        if i == 1
          title (sprintf ('Lorenz from (1, 1, 1), dimensionless: dual action (c = %g, order 4) vs ode45', ...
                          res.params.c));
          lh = legend ({'ode45 1e-12', 'dual, zero base, 100 slabs', 'dual, R = 28.5 base, 10 slabs'}, ...
                       'location', 'northeast');
          set (lh, 'fontsize', fs - 1);
        end
      end
      vm_demo_subplot (4, 1, 4, fs, [9.5, 2, 5.6, top(4)]);
      semilogy (z.t, max (abs (z.y - z.yref), [], 2) + 1e-16, '-', 'color', colors(1, :));
      hold on;
      semilogy (z.t, max (abs (res.perturbed.y - z.yref), [], 2) + 1e-16, '-', 'color', colors(2, :));
      hold off;
      set (gca, 'fontsize', fs);
      ylim ([1e-11, 1e-2]);
      set (gca, 'ytick', 10 .^ (-10:2:-2));
      xlabel ('t (dimensionless)');
      ylabel ('max_i |U_i - U_{ref,i}|');
      lh = legend ({'zero base, 100 slabs', 'R = 28.5 base, 10 slabs'}, 'location', 'southeast');
      set (lh, 'fontsize', fs - 1);
      grid on;
    case 'hamiltonian'
      h = res.hamiltonian;
      vm_demo_subplot (2, 1, 1, fs);
      hold on;
      leg = {};
      for in = 1:3
        cv = h.curves{in};
        plot (cv(:, 1), cv(:, 2), '-', 'color', colors(in, :), 'linewidth', 1.2);
        leg{end + 1} = sprintf ('N = %d', h.N(in)); %#ok<AGROW>
      end
      hold off;
      set (gca, 'fontsize', fs);
      grid on;
      xlabel ('t (dimensionless)');
      ylabel ('(HH - HH_{ref}) / |HH_{ref}|');
      title (sprintf ('one slab on [0, 0.1], Ubar = (1, 1, 1), order 4; HH_{ref} = -c/2 |U(T) - Ubar|^2 = %.6g', ...
                      h.H_ref));
      lh = legend (leg, 'location', 'northwest');
      set (lh, 'fontsize', fs - 1);
      vm_demo_subplot (2, 1, 2, fs);
      z = res.zero_base;
      plot (z.t, z.hamiltonian, '-', 'color', colors(1, :), 'linewidth', 1.2);
      hold on;
      plot (z.t, -res.params.c / 2 * sum (z.yref .^ 2, 2), '--', 'color', [0.3, 0.3, 0.3]);
      hold off;
      set (gca, 'fontsize', fs);
      grid on;
      xlabel ('t (dimensionless)');
      ylabel ('HH (dimensionless)');
      title ('zero base state, 100 slabs: HH is constant on each slab');
      lh = legend ({'sol.hamiltonian', '-c/2 |U_{ref}(t)|^2'}, 'location', 'southeast');
      set (lh, 'fontsize', fs - 1);
    otherwise
      % one colour per order: the max-norm error (circles) and the final-time error (squares);
      % a dotted guide of the predicted max-norm slope order/2 + 1 through the finest point
      % (shifted down by 2), labelled at its end; the key in a strip above the axes, the h range
      % tight to the data
      no = numel (res.convergence);
      vm_demo_subplot (1, 1, 1, fs, [9.5, 2, 8, 3.4 + 1.6 * 3 + 1]);
      specs = cell (2, no);
      leg = cell (2, no);
      for io = 1:no
        r = res.convergence(io);
        loglog (r.h, r.err_max, '-o', 'color', colors(io, :), 'linewidth', 1.5);
        hold on;
        loglog (r.h, r.err_final, '--s', 'color', colors(io, :));
        p = r.predicted_max;
        [hf, kf] = min (r.h);
        guide = r.err_max(kf) / 2 * (r.h / hf) .^ p;
        loglog (r.h, guide, 'k:', 'linewidth', 1.5);
        [hl, kl] = max (r.h);
        text (hl * 1.05, guide(kl), sprintf ('slope %g', p), 'fontsize', fs);
        specs(:, io) = {{'-o', 'color', colors(io, :), 'linewidth', 1.5}; {'--s', 'color', colors(io, :)}};
        leg(:, io) = {sprintf('order %d, max (observed %.2f)', r.order, r.observed_max); ...
                      sprintf('order %d, final time', r.order)};
      end
      hold off;
      h = sort (res.convergence(1).h);
      lab = cell (1, numel (h));
      for i = 1:numel (h)
        lab{i} = sprintf ('%.3g', h(i));
      end
      set (gca, 'xscale', 'log', 'yscale', 'log', 'xtick', h, 'xticklabel', lab);
      xlim ([min(h) / 1.3, max(h) * 1.6]);
      grid on;
      xlabel ('h (time step, dimensionless)');
      ylabel ('error vs ode45, max over the grid or at the final time (dimensionless)');
      title ('recovered primal, zero base state, 100 slabs on [0, 2]');
      set (gca, 'fontsize', fs);
      specs = specs';
      leg = leg';
      vm_demo_key ([specs(:)', {{'k:', 'linewidth', 1.5}}], ...
                   [leg(:)', {'slope order/2 + 1 (predicted)'}], fs, no);
  end
end
