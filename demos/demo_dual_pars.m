function results = demo_dual_pars (varargin)
% -*- texinfo -*-
% @deftypefn  {} {} demo_dual_pars ()
% @deftypefnx {} {results =} demo_dual_pars (..., "quiet")
% @deftypefnx {} {results =} demo_dual_pars (..., "png", dir)
% @deftypefnx {} {results =} demo_dual_pars (..., "N", N, "T", T, "nu", nu, "epsilon", eps)
% The generalized Pars dual (Acharya & Sengupta, Sec.@: 4, eqs.@: 32-37): Pars' particle
% xdot = v, vdot = -Q, x3 v1 - v2 = 0, Q . v = s^2/2 >= 0 does not fix the force Q; the dual
% (@code{dual_pars}, one slab of N = 65, order 4) selects a motion through the base state of
% H = 1/2 (cx |x - xbar|^2 + cv |v - vbar|^2 + cQ |Q - Qbar|^2 + cs (s - sbar)^2).
% Data of @code{demo_pars}: x0 = (0.3, -0.2, -0.5), v0 = (0.8, -0.4, 0.4), T = 2, nu = 0.5.
% (a) the Gauss (ideal) motion, eq.@: 44, as base: the duals vanish, the primal converges to the
%     closed form (@code{vm_pars_closed_form});  (b1) the eq.@: 45 force on the Gauss motion,
%     (b2) the dissipative eq.@: 45 motion (47'), (b3) a perturbed base with sbar = 0: each selects
%     a different motion that keeps the constraint and never gains kinetic energy (the
%     non-uniqueness of Secs.@: 4-5);  (c) @code{dual_pars} equals @code{dual_solve} on the Pars
%     @code{odesys};  (d) convergence in N for orders 2, 4, 6;  formulas: eqs.@: 34 and 36
%     evaluated here at the computed duals reproduce sol.S and sol.y.  Eq.@: 36's x line has a
%     misprint: x_i = xbar_i + (rhodot_i - mu L_ki v_k)/cx (L' v), not L v.
% "png", dir writes demo_dual_pars.png; "N" (odd, >= 33), "T", "nu" (> 0), "epsilon" change the
% data.  @var{results} holds the cases, the comparisons, the printed table @code{checks},
% @code{pass} and @code{time}.
% @seealso{dual_pars, dual_solve, demo_dual_pars_reduced, demo_pars}
% @end deftypefn

  opt = vm_demo_args ('demo_dual_pars', varargin, struct ('N', 65, 'T', 2, 'nu', 0.5, 'epsilon', 0.5));
  N = opt.N;
  T = opt.T;
  nu = opt.nu;
  ep = opt.epsilon;
  if ~(isscalar (N) && isreal (N) && N == round (N) && N >= 33 && mod (N, 2) == 1)
    error ('demo_dual_pars: N must be an odd integer >= 33');
  end
  if ~(isscalar (T) && isreal (T) && T > 0 && isscalar (nu) && isreal (nu) && nu > 0 ...
       && isscalar (ep) && isreal (ep))
    error ('demo_dual_pars: T and nu must be positive scalars, epsilon a real scalar');
  end

  tstart = tic;
  order = 4;
  p = order / 2;
  cw = 20;
  x0 = [0.3, -0.2, -0.5];
  v0 = [0.8, x0(3) * 0.8, 0.4];
  h = T / (N - 1);
  % Newton's tolerance bounds every node's equation by 1e-9 (solver); SBP-SAT with boundary order
  % p gives x, v to O(h^(p+1)), Q = -vdot to O(h^p); the constraint dual mu is O(h^(p-1)) at the
  % boundary closures and O(h^(p+1)) inside; e_K, e_x are the differences between the N and 2N-1
  % grids (Richardson: an error bound of 2 e); closed form and general engine agree to rounding
  tol = struct ('solver', 1e-9, 'x', h ^ (p + 1), 'v', h ^ (p + 1), 'Q', h ^ p, ...
                'D', cw * h ^ (p - 1), 'D_interior', cw * h ^ (p + 1), 'K_factor', 4, ...
                'differ_factor', 20, 'engine_y', 1e-12, 'engine_D', 1e-10, 'engine_S', 1e-10, ...
                'ref', 1e-9, 'formula', 1e-10, 'misread', 0.01, 'rate', 0.3);
  dopt = {'c', cw * [1, 1, 1, 1], 'Order', order};

  % ---- (a), (b1)-(b3) on N, 2N-1 and (N+1)/2 points --------------------------------------------
  names = {'(a) Gauss base', '(b1) eq. 45 force on Gauss', '(b2) eq. 45 motion', ...
           '(b3) perturbed xbar, vbar'};
  grids = [N, 2 * N - 1, (N + 1) / 2];
  cases = struct ('name', names, 'y', [], 'D', [], 'base', [], 'exitflag', [], 'iterations', [], ...
                  'maxD', NaN, 'maxD_interior', NaN, 'mu_end', [], 'residual', NaN, ...
                  'residual_end', NaN, 'constraint', NaN, 'power', NaN, 'power_min', NaN, 'K', [], ...
                  'K_increase', NaN, 'e_K', NaN, 'e_x', NaN, 'rate_x', NaN, 'dev_gauss', NaN, ...
                  'dev_ref', [NaN, NaN, NaN], 'S', NaN);
  t = linspace (0, T, N)';
  [xg, vg, Qg] = vm_pars_closed_form (t, x0, v0);
  ref_dev = 0;
  dtp = struct ('y_dev', 0, 'y_scale', 1, 'S_dev', 0, 'S_scale', 1, 'misread_dev', 0);
  base_b2 = [NaN, NaN];
  for ic = 1:4
    c = cases(ic);
    ngrid = 1;
    if ic > 1
      ngrid = 3;
    end
    sols = cell (1, ngrid);
    for ig = 1:ngrid
      tg = linspace (0, T, grids(ig))';
      [yb, info] = base_state (ic, tg, x0, v0, nu, ep, T);
      if ig == 1
        c.base = yb;
        if ic == 1
          ref_dev = info;
        elseif ic == 3
          base_b2 = info;
        end
      end
      sols{ig} = dual_pars ([0, T], x0, v0, 'N', grids(ig), 'BaseState', yb, dopt{:});
    end
    s = sols{1};
    c.y = s.y;
    c.D = s.D;
    c.S = s.S;
    c.exitflag = cellfun (@(q) q.exitflag, sols);
    c.iterations = cellfun (@(q) q.iterations, sols);
    c.maxD = max (abs (s.D(:)));
    inner = (2 * order + 1):(N - 2 * order);
    c.maxD_interior = max (max (abs (s.D(inner, :))));
    c.mu_end = cellfun (@(q) abs (q.D(end, 7)), sols);
    c.residual = max (max (abs (s.residual(1:end - 1, :))));
    c.residual_end = max (abs (s.residual(end, :)));
    c.constraint = max (abs (s.G(:, 1)));
    c.power = max (abs (s.G(:, 2)));
    qv = sum (s.y(:, 7:9) .* s.y(:, 4:6), 2);
    c.power_min = min (qv);
    c.K = sum (s.y(:, 4:6) .^ 2, 2) / 2;
    c.K_increase = max (c.K - cummin (c.K));
    c.dev_gauss = max (max (abs (s.y(:, 1:3) - xg)));
    if ic == 1
      c.dev_ref = [max(max (abs (s.y(:, 1:3) - xg))), max(max (abs (s.y(:, 4:6) - vg))), ...
                   max(max (abs (s.y(:, 7:9) - Qg)))];
    elseif ic == 3
      c.dev_ref = [max(max (abs (s.y(:, 1:3) - c.base(:, 1:3)))), ...
                   max(max (abs (s.y(:, 4:6) - c.base(:, 4:6)))), ...
                   max(max (abs (s.y(:, 7:9) - c.base(:, 7:9))))];
    end
    if ngrid == 3
      f = sols{2};
      q = sols{3};
      Kf = sum (f.y(1:2:end, 4:6) .^ 2, 2) / 2;
      c.e_K = max (abs (c.K - Kf));
      c.e_x = max (max (abs (s.y(:, 1:3) - f.y(1:2:end, 1:3))));
      e_coarse = max (max (abs (q.y(:, 1:3) - s.y(1:2:end, 1:3))));
      c.rate_x = log (e_coarse / c.e_x) / log (2);
    end
    % eqs. 34 and 36 evaluated by hand at the computed duals
    d = dtp_check (s, c.base, cw, order, T, x0, v0);
    dtp.y_dev = max (dtp.y_dev, d.y_dev);
    dtp.y_scale = max (dtp.y_scale, d.y_scale);
    dtp.S_dev = max (dtp.S_dev, d.S_dev);
    dtp.S_scale = max (dtp.S_scale, d.S_scale);
    dtp.misread_dev = max (dtp.misread_dev, d.misread_dev);
    cases(ic) = c;
  end

  % ---- (c) closed form against the general engine -----------------------------------------------
  ode = odesys ('states', {'x1', 'x2', 'x3', 'v1', 'v2', 'v3', 'Q1', 'Q2', 'Q3', 's'}, ...
                'rhs', {'v1', 'v2', 'v3', '-Q1', '-Q2', '-Q3'}, ...
                'algebraic', {'x3*v1 - v2', 'Q1*v1 + Q2*v2 + Q3*v3 - s^2/2'}, 'square', false);
  engine = struct ('name', names, 'dy', NaN, 'dD', NaN, 'dS', NaN, 'scale_y', NaN, ...
                   'scale_D', NaN, 'scale_S', NaN, 'exitflag', [0, 0]);
  for ic = 1:4
    yb = cases(ic).base;
    s1 = dual_pars ([0, T], x0, v0, 'N', N, 'BaseState', yb, dopt{:}, 'Tol', 1e-13);
    s2 = dual_solve (ode, [0, T], [x0, v0], 'N', N, 'BaseState', yb, 'c', cw, 'Order', order, ...
                     'Tol', 1e-13, 'FinalDual', 'strong');
    e = engine(ic);
    e.exitflag = [s1.exitflag, s2.exitflag];
    e.dy = max (abs (s1.y(:) - s2.y(:)));
    e.dD = max (abs (s1.D(:) - s2.D(:)));
    e.dS = abs (s1.S - s2.S);
    e.scale_y = max (1, max (abs (s2.y(:))));
    e.scale_D = max (1, max (abs (s2.D(:))));
    e.scale_S = max (1, abs (s2.S));
    engine(ic) = e;
  end

  % ---- (d) convergence in N --------------------------------------------------------------------
  Ns = [33, 65, 129, 257];
  conv = struct ('name', {}, 'order', {}, 'N', {}, 'err', {}, 'rate', {}, 'predicted', {}, ...
                 'observed', {}, 'pair', {}, 'exitflag', {});
  runs = {1, 2; 1, 4; 1, 6; 3, 4};
  for ir = 1:size (runs, 1)
    ic = runs{ir, 1};
    od = runs{ir, 2};
    pp = od / 2;
    err = zeros (5, numel (Ns));
    ef = zeros (1, numel (Ns));
    for in = 1:numel (Ns)
      tg = linspace (0, T, Ns(in))';
      yb = base_state (ic, tg, x0, v0, nu, ep, T);
      if ic == 1
        [xr, vr, Qr] = vm_pars_closed_form (tg, x0, v0);
      else
        xr = yb(:, 1:3);
        vr = yb(:, 4:6);
        Qr = yb(:, 7:9);
      end
      s = dual_pars ([0, T], x0, v0, 'N', Ns(in), 'BaseState', yb, 'c', cw * [1, 1, 1, 1], ...
                     'Order', od);
      ef(in) = s.exitflag;
      inner = (2 * od + 1):(Ns(in) - 2 * od);
      err(:, in) = [max(max (abs (s.y(:, 1:3) - xr))); max(max (abs (s.y(:, 4:6) - vr))); ...
                    max(max (abs (s.y(:, 7:9) - Qr))); max(abs (s.D(:))); ...
                    max(max (abs (s.D(inner, :))))];
    end
    hN = T ./ (Ns - 1);
    rate = zeros (5, numel (Ns) - 1);
    observed = zeros (5, 1);
    for k = 1:5
      [rate(k, :), observed(k)] = vm_demo_rates (hN, err(k, :), 1e-13, Ns);
    end
    conv(end + 1) = struct ('name', names{ic}, 'order', od, 'N', Ns, 'err', err, 'rate', rate, ...
                            'predicted', [pp + 1; pp + 1; pp; pp - 1; pp + 1], ...
                            'observed', observed, 'pair', Ns([end - 1, end]), 'exitflag', ef); %#ok<AGROW>
  end

  results = struct ();
  results.x0 = x0;
  results.v0 = v0;
  results.T = T;
  results.N = N;
  results.nu = nu;
  results.epsilon = ep;
  results.c = cw * [1, 1, 1, 1];
  results.order = order;
  results.t = t;
  results.gauss = struct ('x', xg, 'v', vg, 'Q', Qg);
  results.cases = cases;
  results.engine = engine;
  results.conv = conv;
  results.dtp = dtp;
  results.ref_dev = ref_dev;
  results.base_b2 = base_b2;
  results.tol = tol;
  results.checks = make_checks (results);
  [results.pass, msg] = vm_demo_verdict (results.checks);
  results.time = toc (tstart);

  if ~opt.quiet
    print_table (results, msg);
  end
  vm_demo_png (opt, '', @(what) draw_plot (results), [800, 900]);
  if nargout == 0
    clear results;
  end
end

function Q = force45 (x, v, nu)
  % the eq. 45 force lam* a + a x v + nu v, rows are points
  n = size (x, 1);
  a = [x(:, 3), -ones(n, 1), zeros(n, 1)];
  axv = [-v(:, 3), -x(:, 3) .* v(:, 3), x(:, 3) .* v(:, 2) + v(:, 1)];
  lam = (v(:, 1) .* v(:, 3) + nu * (v(:, 2) - x(:, 3) .* v(:, 1))) ./ (1 + x(:, 3) .^ 2);
  Q = repmat (lam, 1, 3) .* a + axv + nu * v;
end

function [yb, info] = base_state (ic, t, x0, v0, nu, ep, T)
  % the base states of the four cases on the grid t (columns x, v, Q, s)
  oopt = odeset ('RelTol', 1e-12, 'AbsTol', 1e-14);
  n = numel (t);
  info = [];
  switch ic
    case 1
      [~, y] = ode45 (@(tt, y) vm_pars_rhs ('eq44', y), t, [x0, v0]', oopt);
      x = y(:, 1:3);
      v = y(:, 4:6);
      lam = v(:, 1) .* v(:, 3) ./ (1 + x(:, 3) .^ 2);
      yb = [x, v, lam .* x(:, 3), -lam, zeros(n, 1), zeros(n, 1)];
      [xc, vc] = vm_pars_closed_form (t, x0, v0);
      info = max (max (abs ([x - xc, v - vc])));
    case 2
      [x, v] = vm_pars_closed_form (t, x0, v0);
      yb = [x, v, force45(x, v, nu), sqrt(2 * nu * sum (v .^ 2, 2))];
    case 3
      [~, y] = ode45 (@(tt, y) vm_pars_rhs ('eq47', y, nu), t, [x0, v0]', oopt);
      x = y(:, 1:3);
      v = y(:, 4:6);
      Q = force45 (x, v, nu);
      s = sqrt (2 * nu * sum (v .^ 2, 2));
      yb = [x, v, Q, s];
      info = [max(abs (x(:, 3) .* v(:, 1) - v(:, 2))), max(abs (sum (Q .* v, 2) - s .^ 2 / 2))];
    otherwise
      [x, v, Q] = vm_pars_closed_form (t, x0, v0);
      x = x + ep * [sin(pi * t / T), zeros(n, 1), sin(2 * pi * t / T)];
      v = v + ep * [cos(pi * t / T), sin(pi * t / T), zeros(n, 1)];
      yb = [x, v, Q, zeros(n, 1)];
  end
end

function d = dtp_check (s, yb, cw, order, T, x0, v0)
  % eq. 36 (x line corrected) and eq. 34 evaluated by hand at the computed duals
  N = numel (s.t);
  [Dm, H] = sbp_operator (N, order, [0, T]);
  w = full (diag (H));
  D = s.D;
  Dd = Dm * D(:, 1:6);
  rho = D(:, 1:3);
  lam = D(:, 4:6);
  mu = D(:, 7);
  Lam = D(:, 8);
  rhod = Dd(:, 1:3);
  lamd = Dd(:, 4:6);
  L = [0, 0, 1; 0, 0, 0; 0, 0, 0];
  b = [0, -1, 0];
  cx = cw;
  cv = cw;
  cQ = cw;
  cs = cw;
  xb = yb(:, 1:3);
  vb = yb(:, 4:6);
  Qb = yb(:, 7:9);
  sb = yb(:, 10);
  y = zeros (N, 10);
  xmis = zeros (N, 3);
  LH = zeros (N, 1);
  for k = 1:N
    MM = (1 - Lam(k) ^ 2 / (cQ * cv)) * eye (3) - mu(k) ^ 2 / (cx * cv) * (L * L');
    r = vb(k, :)' + (rho(k, :)' + lamd(k, :)' - mu(k) * b' - mu(k) * L * xb(k, :)' ...
                     - mu(k) * L * rhod(k, :)' / cx - Lam(k) * Qb(k, :)' + Lam(k) * lam(k, :)' / cQ) / cv;
    v = MM \ r;
    x = xb(k, :)' + (rhod(k, :)' - mu(k) * L' * v) / cx;
    xmis(k, :) = (xb(k, :)' + (rhod(k, :)' - mu(k) * L * v) / cx)';
    Q = Qb(k, :)' - (lam(k, :)' + Lam(k) * v) / cQ;
    sk = cs * sb(k) / (cs - Lam(k));
    y(k, :) = [x', v', Q', sk];
    LH(k) = -x' * rhod(k, :)' - v' * rho(k, :)' - v' * lamd(k, :)' + lam(k, :) * Q ...
            + mu(k) * v' * (L * x) + mu(k) * b * v + Lam(k) * (Q' * v) - Lam(k) * sk ^ 2 / 2 ...
            + (cx * sum ((x' - xb(k, :)) .^ 2) + cv * sum ((v' - vb(k, :)) .^ 2) ...
               + cQ * sum ((Q' - Qb(k, :)) .^ 2) + cs * (sk - sb(k)) ^ 2) / 2;
  end
  d.y_dev = max (abs (y(:) - s.y(:)));
  d.y_scale = max (1, max (abs (s.y(:))));
  S = sum (w .* LH) - rho(1, :) * x0(:) - lam(1, :) * v0(:);
  d.S_dev = abs (S - s.S);
  d.S_scale = max (1, sum (abs (w .* LH)));
  d.misread_dev = max (max (abs (xmis - s.y(:, 1:3))));
end

function checks = make_checks (r)
  checks = struct ('part', {}, 'name', {}, 'value', {}, 'reference', {}, 'error', {}, ...
                   'tol', {}, 'pass', {}, 'info', {});
  t = r.tol;
  c = r.cases;
  % formulas and references
  checks = vm_demo_check (checks, 'closed form (44) vs ode45 on (44)', r.ref_dev, 0, t.ref, ...
                          'part', 'formulas');
  checks = vm_demo_check (checks, '(b2) base: max |x3 v1 - v2| (ode45 on 47'')', r.base_b2(1), 0, ...
                          t.ref);
  checks = vm_demo_check (checks, '(b2) base: max |Q.v - s^2/2|', r.base_b2(2), 0, t.ref);
  checks = vm_demo_check (checks, 'eq. 36 (corrected) at the duals vs sol.y', r.dtp.y_dev, 0, ...
                          t.formula * r.dtp.y_scale);
  checks = vm_demo_check (checks, 'eq. 34: sum w L_H - rho0.x0 - lam0.v0 vs sol.S', r.dtp.S_dev, ...
                          0, t.formula * r.dtp.S_scale);
  checks = vm_demo_check (checks, 'eq. 36 x line read as L v (misprint): max |x - x^H|', ...
                          r.dtp.misread_dev, '>= 0.01', t.misread, 'error', NaN, ...
                          'ratio', t.misread / max (r.dtp.misread_dev, realmin));
  % (a)
  a = c(1);
  checks = vm_demo_check (checks, 'Newton exitflag', a.exitflag(1), 1, 0, 'part', a.name);
  checks = vm_demo_check (checks, 'max |D| (c h^(p-1))', a.maxD, 0, t.D);
  checks = vm_demo_check (checks, 'interior max |D| (c h^(p+1))', a.maxD_interior, 0, t.D_interior);
  checks = vm_demo_check (checks, 'max |x - x_Gauss| (h^3)', a.dev_ref(1), 0, t.x);
  checks = vm_demo_check (checks, 'max |v - v_Gauss| (h^3)', a.dev_ref(2), 0, t.v);
  checks = vm_demo_check (checks, 'max |Q - Q_Gauss| (h^2)', a.dev_ref(3), 0, t.Q);
  checks = vm_demo_check (checks, 'max |s| (sbar = 0)', max (abs (a.y(:, 10))), 0, 0);
  checks = vm_demo_check (checks, 'max |(b + L x).v|', a.constraint, 0, t.solver);
  checks = vm_demo_check (checks, 'max |Q.v - s^2/2|', a.power, 0, t.solver);
  checks = vm_demo_check (checks, 'max |discrete primal residual|, nodes 1..N-1', a.residual, 0, ...
                          t.solver);
  % (b1)-(b3)
  for ic = 2:4
    k = c(ic);
    checks = vm_demo_check (checks, 'min Newton exitflag (N, 2N-1, (N+1)/2)', min (k.exitflag), ...
                            1, 0, 'part', k.name);
    checks = vm_demo_check (checks, 'max |(b + L x).v| (every node)', k.constraint, 0, t.solver);
    checks = vm_demo_check (checks, 'max |Q.v - s^2/2| (every node)', k.power, 0, t.solver);
    checks = vm_demo_check (checks, 'min Q.v', k.power_min, '>= 0', t.solver, 'error', ...
                            max (0, -k.power_min));
    checks = vm_demo_check (checks, 'max |discrete primal residual|, nodes 1..N-1', k.residual, ...
                            0, t.solver);
    checks = vm_demo_check (checks, 'max rise of K above its running min (4 e_K)', k.K_increase, ...
                            0, t.K_factor * k.e_K);
    thr = t.differ_factor * k.e_x;
    checks = vm_demo_check (checks, 'max |x - x_Gauss| (differs: >= 20 e_x)', k.dev_gauss, ...
                            sprintf ('>= %.3g', thr), thr, 'error', NaN, 'ratio', ...
                            thr / max (k.dev_gauss, realmin));
    if ic == 3
      checks = vm_demo_check (checks, 'max |x - x_ref|, |v - v_ref| (ode45 on 47'')', ...
                              max (k.dev_ref(1:2)), 0, NaN);
    end
    checks = vm_demo_check (checks, 'max |D|', k.maxD, NaN, NaN, 'error', NaN);
    checks = vm_demo_check (checks, '|mu| at the last node (N, 2N-1)', k.mu_end(1), ...
                            sprintf ('%.3g', k.mu_end(2)), NaN, 'error', NaN);
    checks = vm_demo_check (checks, 'ODE residual at the last node (no equation)', ...
                            k.residual_end, NaN, NaN, 'error', NaN);
    checks = vm_demo_check (checks, 'Newton iterations (N, 2N-1)', k.iterations(1), ...
                            sprintf ('%d', k.iterations(2)), NaN, 'error', NaN);
    checks = vm_demo_check (checks, 'self-convergence order of x (3 grids)', k.rate_x, NaN, NaN, ...
                            'error', NaN);
  end
  % (c)
  for ic = 1:numel (r.engine)
    e = r.engine(ic);
    part = '';
    if ic == 1
      part = '(c) engine';
    end
    checks = vm_demo_check (checks, sprintf ('%s: exitflags', e.name), min (e.exitflag), 1, 0, ...
                            'part', part);
    checks = vm_demo_check (checks, sprintf ('%s: max |y_closed - y_engine|', e.name), e.dy, 0, ...
                            t.engine_y * e.scale_y);
    checks = vm_demo_check (checks, sprintf ('%s: max |D_closed - D_engine|', e.name), e.dD, 0, ...
                            t.engine_D * e.scale_D);
    checks = vm_demo_check (checks, sprintf ('%s: |S_closed - S_engine|', e.name), e.dS, 0, ...
                            t.engine_S * e.scale_S);
  end
  % (d)
  qn = {'x', 'v', 'Q', 'max |D|', 'interior |D|'};
  for ir = 1:numel (r.conv)
    cv = r.conv(ir);
    part = '';
    if ir == 1
      part = '(d) orders';
    end
    checks = vm_demo_check (checks, sprintf ('%s, Order %d: min exitflag', cv.name, cv.order), ...
                            min (cv.exitflag), 1, 0, 'part', part);
    for k = 1:5
      if ir == numel (r.conv) && k > 2
        continue;
      end
      checks = vm_demo_check (checks, sprintf ('%s, Order %d: rate of %s (N %d/%d)', ...
                              strtok (cv.name), cv.order, qn{k}, cv.pair), cv.observed(k), ...
                              cv.predicted(k), t.rate);
    end
  end
end

function print_table (r, msg)
  fprintf ('Generalized Pars dual (Acharya & Sengupta eqs. 32-37), Pars particle x3 v1 - v2 = 0\n');
  fprintf ('x0 = (%g, %g, %g), v0 = (%g, %g, %g), t in [0, %g]; N = %d, Order %d, c = %g; nu = %g, epsilon = %g\n', ...
           r.x0, r.v0, r.T, r.N, r.order, r.c(1), r.nu, r.epsilon);
  fprintf ('references: (a) closed form of eq. 44 (base: ode45 on eq. 44, RelTol 1e-12); (b2) ode45 on eq. 47''\n');
  fprintf ('(RelTol 1e-12); (b1), (b3) have no reference: grid refinement (e_K, e_x: N vs 2N-1)\n\n');
  vm_demo_table (r.checks, '%.4g', 'case');
  fprintf ('\nconvergence (max-norm errors; rates log2(e1/e2))\n');
  qn = {'x', 'v', 'Q', 'max|D|', 'int|D|'};
  for ir = 1:numel (r.conv)
    cv = r.conv(ir);
    fprintf ('%s, Order %d (predicted x, v %d; Q %d; max|D| %d; interior |D| %d)\n', cv.name, ...
             cv.order, cv.predicted([1, 3, 4, 5]));
    nq = 5;
    if ir == numel (r.conv)
      nq = 2;
    end
    fprintf ('%5s', 'N');
    for k = 1:nq
      fprintf (' %10s %6s', qn{k}, 'rate');
    end
    fprintf ('\n');
    for in = 1:numel (cv.N)
      fprintf ('%5d', cv.N(in));
      for k = 1:nq
        if in == 1
          fprintf (' %10.3e %6s', cv.err(k, in), '-');
        else
          fprintf (' %10.3e %6.2f', cv.err(k, in), cv.rate(k, in - 1));
        end
      end
      fprintf ('\n');
    end
  end
  fprintf ('\n%s (%.1f s)\n', msg, r.time);
end

function draw_plot (r)
  colors = [0, 0.447, 0.741; 0.85, 0.325, 0.098; 0.466, 0.674, 0.188; 0.494, 0.184, 0.556];
  styles = {'-', '--', '-.', '-'};
  t = r.t;
  c = r.cases;
  fs = 7;
  vm_demo_subplot (2, 2, 1, fs);
  hold on;
  for ic = 1:numel (c)
    plot (t, c(ic).y(:, 3), styles{ic}, 'color', colors(ic, :), 'linewidth', 1.5);
  end
  plot (t, c(4).base(:, 3), ':', 'color', colors(4, :), 'linewidth', 1.5);
  hold off;
  set (gca, 'fontsize', fs);
  ylim ([-1, 1]);
  xlabel ('t (dimensionless)');
  ylabel ('x_3 (dimensionless)');
  title ('x_3(t) for the four base states', 'fontsize', 8);
  lh = legend ({'(a)', '(b1)', '(b2)', '(b3)', '(b3) base'}, 'location', 'northwest');
  set (lh, 'fontsize', 6);
  grid on;
  vm_demo_subplot (2, 2, 2, fs);
  hold on;
  for ic = 1:numel (c)
    plot (c(ic).y(:, 1), c(ic).y(:, 2), styles{ic}, 'color', colors(ic, :), 'linewidth', 1.5);
  end
  hold off;
  set (gca, 'fontsize', fs);
  xlabel ('x_1 (dimensionless)');
  ylabel ('x_2 (dimensionless)');
  title ('paths (x_1, x_2)', 'fontsize', 8);
  grid on;
  vm_demo_subplot (2, 2, 3, fs);
  hold on;
  for ic = 1:numel (c)
    plot (t, sum (c(ic).y(:, 7:9) .* c(ic).y(:, 4:6), 2), styles{ic}, 'color', colors(ic, :), ...
          'linewidth', 1.5);
  end
  hold off;
  set (gca, 'fontsize', fs);
  xlabel ('t (dimensionless)');
  ylabel ('Q . v (dimensionless)');
  title ('power Q . v = s^2/2', 'fontsize', 8);
  grid on;
  vm_demo_subplot (2, 2, 4, fs);
  hold on;
  for ic = 1:numel (c)
    plot (t, c(ic).K, styles{ic}, 'color', colors(ic, :), 'linewidth', 1.5);
  end
  hold off;
  set (gca, 'fontsize', fs);
  xlabel ('t (dimensionless)');
  ylabel ('K = |v|^2/2 (dimensionless)');
  title ('kinetic energy', 'fontsize', 8);
  grid on;
end
