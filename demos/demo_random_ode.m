function results = demo_random_ode (varargin)
% -*- texinfo -*-
% @deftypefn  {} {} demo_random_ode ()
% @deftypefnx {} {results =} demo_random_ode (..., "quiet")
% @deftypefnx {} {results =} demo_random_ode (..., "png", dir)
% A random ODE with a nonholonomic energy constraint (Zubelevich, "On infinite dimensional version
% of the Lagrange-d'Alembert principle", Sec.@: 3, eqs.@: 3.1-3.3): x(t, omega) in L2(mu) with
% phi = (||xdot||^2 + ||x||^2)/2 - 1 = 0 and its ideal reaction, xddot = -(x, xdot)/||xdot||^2 xdot
% (3.2), whose solution is x = C1 + u(t) C2, u = c (cos t - 1) + sin t, c = (C1, C2)/||C2||^2 (3.3),
% classical until udot = 0 at t* = pi/2 - atan(c).  mu = N(0, 1) is replaced by the K-point
% Gauss-Hermite measure (Golub-Welsch), so the discrete system is the paper's with X = L2(mu_K)
% = R^K (kinetic metric diag(w)); C1 = cos(omega), C2 = 1 + sin(omega), which satisfy 3.1 exactly.
% Compared, for K = 2 ... 24, along dopri5 runs (RelTol 1e-11) on [0, 8]: x against 3.3 for mu_K
% before t*_K and after it (the "generalized solution"), within the sum B of the steps' local error
% bounds; against 3.3 for the Gaussian mu (the predicted difference (c_K - c)(cos t - 1) C2,
% spectral in K); the computed t* (the sign change of udot); the constraint residual; the
% multiplier against -(x, xdot)_K/||xdot||_K^2.  Once: the accelerations of Gauss's principle from
% @code{mechsys_eval} terms against 3.2, the Gauss-Hermite rule's moments and weights, c_24
% against c; info: the Euclidean metric is not a discretization of 3.2.
% "png", dir writes demo_random_ode_@{u,convergence,lambda,error@}.png.  @var{results} holds
% @code{c}, @code{tstar}, @code{conv} (one per K), the printed table @code{checks}, @code{pass}.
% @seealso{gauss_integrate, mechsys, mechsys_eval}
% @end deftypefn

  opt = vm_demo_args ('demo_random_ode', varargin);

  t0 = tic;
  Ks = [2 3 4 6 8 12 16 24];
  T = 8;
  dt = 1e-3;
  rtol = 1e-11;
  atol = 1e-13;
  c = exp (-1/2) / (3/2 - exp (-2) / 2);
  tstar = pi / 2 - atan (c);
  C1f = @(om) cos (om);
  C2f = @(om) 1 + sin (om);
  ck = struct ('name', {}, 'value', {}, 'reference', {}, 'error', {}, 'tol', {}, 'pass', {}, 'info', {});

  % Golub-Welsch rule checks (largest K)
  Kmax = max (Ks);
  [om, w] = gauss_hermite (Kmax);
  [emom, ewt] = rule_errors (om, w);
  ck = vm_demo_check (ck, sprintf ('Golub-Welsch K=%d: moments, deg <= %d', Kmax, 2 * Kmax - 1), ...
                      emom, 0, 100 * Kmax * eps);
  ck = vm_demo_check (ck, sprintf ('Golub-Welsch K=%d: weights vs Christoffel', Kmax), ewt, 0, ...
                      100 * Kmax * eps);
  cK = (w' * (C1f (om) .* C2f (om))) / (w' * C2f (om).^2);
  ck = vm_demo_check (ck, sprintf ('c_K (K=%d) vs c = e^-1/2/(3/2-e^-2/2)', Kmax), cK, c, 1e-14);

  % accelerations at points (K = 8): mechsys_eval + Gauss vs eq. 3.2
  [om, w] = gauss_hermite (8);
  sys = random_ode_system (w);
  np = 20;
  X = sin ((1:np)' * (1:8) * 0.77 + 0.3);
  V = cos ((1:np)' * (1:8) * 1.31 - 0.2);
  a_eval = accel_from_terms (sys, X, V);
  a_ref = accel_eq32 (X, V, w);
  ck = vm_demo_check (ck, 'accel (K=8): mechsys_eval + Gauss vs eq. 3.2', max (abs (a_eval(:))), ...
                      max (abs (a_ref(:))), 1e-12, 'error', ...
                      max (abs (a_eval(:) - a_ref(:))) / max (abs (a_ref(:))));
  % the Euclidean metric (not P = id in L2(mu_K)) for contrast
  syse = random_ode_system (w, 'euclidean');
  tt = (0:dt:1)';
  se = gauss_integrate (syse, [0 1], C1f (om), C2f (om), 'RelTol', rtol, 'AbsTol', atol, 'OutputTimes', tt);
  check_exit (se);
  cK = (w' * (C1f (om) .* C2f (om))) / (w' * C2f (om).^2);
  xe = closed_form (tt, C1f (om), C2f (om), cK);
  ee = max (abs (se.output.q(:) - xe(:)));
  ck = vm_demo_check (ck, 'Euclidean metric (not L2(mu_K)): err vs 3.3', ee, 0, NaN);

  conv = struct ('K', {}, 'cK', {}, 'tstarK', {}, 'tstar_num', {}, 'err_classical', {}, ...
                 'err_generalized', {}, 'err_gauss', {}, 'err_gauss_pred', {}, 'residual', {}, ...
                 'residual_tol', {}, 'lambda_err', {}, 'B', {}, 'tstar_tol', {}, 'naccept', {});
  tt = (0:dt:T)';
  keep = [];
  for iK = 1:numel (Ks)
    K = Ks(iK);
    [om, w] = gauss_hermite (K);
    C1 = C1f (om);
    C2 = C2f (om);
    sys = random_ode_system (w);
    s = gauss_integrate (sys, [0 T], C1, C2, 'RelTol', rtol, 'AbsTol', atol, 'OutputTimes', tt);
    check_exit (s);
    nC2 = sqrt (w' * C2.^2);
    cK = (w' * (C1 .* C2)) / nC2^2;
    tK = pi / 2 - atan (cK);
    xK = closed_form (tt, C1, C2, cK);
    xc = closed_form (tt, C1, C2, c);
    err = max (abs (s.output.q - xK), [], 2);
    cl = tt < tK;
    % the sum of the local error bounds of the accepted steps (dopri5's RMS error norm over the 2K
    % components bounds each step's error vector by sqrt (2K) times the scaled tolerance)
    B = s.stats.naccept * sqrt (2 * K) * (atol + rtol * max (max (abs ([s.q, s.qdot]))));
    % convergence in K: Gaussian closed form, classical interval of both
    cg = tt < min (tK, tstar);
    eg = max (max (abs (s.output.q(cg, :) - xc(cg, :))));
    pred = abs (cK - c) * max (1 - cos (tt(cg))) * max (abs (C2));
    % time of validity: first sign change of the computed udot, by linear interpolation (udot is
    % odd about t* to second order, u''' = -udot: error h^3/6)
    ud = (s.output.qdot * (w .* C2)) / nC2^2;
    i1 = find (ud(1:end - 1) > 0 & ud(2:end) <= 0, 1);
    tnum = tt(i1) + ud(i1) * dt / (ud(i1) - ud(i1 + 1));
    uddK = sqrt (1 + cK^2);
    ttol = dt^3 / 6 + B / (nC2 * uddK);
    % residual and multiplier, at the steps
    gphi = sqrt (sum ((s.q * diag (w)).^2 + (s.qdot * diag (w)).^2, 2));
    lam_ref = -sum (bsxfun (@times, s.q .* s.qdot, w'), 2) ./ sum (bsxfun (@times, s.qdot.^2, w'), 2);
    lam_scale = sum (bsxfun (@times, abs (s.q .* s.qdot), w'), 2) ./ sum (bsxfun (@times, s.qdot.^2, w'), 2);
    lerr = max (abs (s.lambda - lam_ref) ./ lam_scale);
    r = struct ('K', K, 'cK', cK, 'tstarK', tK, 'tstar_num', tnum, 'err_classical', max (err(cl)), ...
                'err_generalized', max (err(~cl)), 'err_gauss', eg, 'err_gauss_pred', pred, ...
                'residual', max (abs (s.residual)), 'residual_tol', B * max (gphi), ...
                'lambda_err', lerr, 'B', B, 'tstar_tol', ttol, 'naccept', s.stats.naccept);
    conv(iK) = r;
    lab = sprintf ('K=%2d', K);
    ck = vm_demo_check (ck, [lab, ': max|x - 3.3(mu_K)|, t < t*_K'], r.err_classical, 0, B);
    ck = vm_demo_check (ck, [lab, ': max|x - 3.3(mu_K)|, t*_K <= t <= 8'], r.err_generalized, 0, B);
    ck = vm_demo_check (ck, [lab, ': max|x - 3.3(mu)| vs predicted'], eg, pred, B);
    ck = vm_demo_check (ck, [lab, ': time of validity t*_K'], tnum, tK, ttol);
    ck = vm_demo_check (ck, [lab, ': constraint residual phi'], r.residual, 0, r.residual_tol);
    ck = vm_demo_check (ck, [lab, ': lambda vs -(x,xdot)/||xdot||^2'], lerr, 0, 100 * K * eps);
    if K == 8
      keep = struct ('t', tt, 'u', ud, 's', s, 'C1', C1, 'C2', C2, 'w', w, 'cK', cK, 'nC2', nC2, ...
                     'tstar', tnum);
    end
  end

  results.c = c;
  results.tstar = tstar;
  results.conv = conv;
  results.checks = ck;
  results.pass = vm_demo_verdict (ck);
  results.time = toc (t0);

  if ~opt.quiet
    print_table (results);
  end
  vm_demo_png (opt, {'u', 'convergence', 'lambda', 'error'}, @(what) draw (results, keep, what));
  if nargout == 0
    clear results;
  end
end

function [om, w] = gauss_hermite (K)
  % Golub-Welsch: Gauss rule of the standard normal measure (probabilists' Hermite)
  b = sqrt (1:K - 1);
  J = diag (b, 1) + diag (b, -1);
  [V, D] = eig (J);
  [om, ix] = sort (diag (D));
  w = (V(1, ix).^2)';
end

function [emom, ewt] = rule_errors (om, w)
  % moments up to degree 2K-1 against (k-1)!! (0 for odd k), relative to sum w |omega|^k;
  % weights against the Christoffel numbers K!/(K He_(K-1)(omega))^2
  K = numel (om);
  emom = 0;
  for k = 0:2 * K - 1
    if mod (k, 2) == 1
      ex = 0;
    else
      ex = prod (1:2:k - 1);
    end
    emom = max (emom, abs (sum (w .* om.^k) - ex) / sum (w .* abs (om).^k));
  end
  hm = ones (K, 1);
  h = om;
  for k = 1:K - 2
    hn = om .* h - k * hm;
    hm = h;
    h = hn;
  end
  if K == 1
    h = ones (K, 1);
  end
  wc = factorial (K) ./ (K * h).^2;
  ewt = max (abs (w - wc) ./ wc);
end

function sys = random_ode_system (w, metric)
  % K coordinates x1..xK (x at the nodes), weights as parameters, formulas assembled here
  K = numel (w);
  names = cell (1, K);
  kin = cell (1, K);
  en = cell (1, K);
  p = struct ();
  euclid = nargin > 1 && strcmp (metric, 'euclidean');
  for j = 1:K
    names{j} = sprintf ('x%d', j);
    if euclid
      kin{j} = sprintf ('dot(x%d)^2', j);
    else
      kin{j} = sprintf ('w%d*dot(x%d)^2', j, j);
    end
    en{j} = sprintf ('w%d*(dot(x%d)^2 + x%d^2)', j, j, j);
    p.(sprintf ('w%d', j)) = w(j);
  end
  lag = ['(', strjoin(kin, ' + '), ')/2'];
  con = ['(', strjoin(en, ' + '), ')/2 - 1'];
  sys = mechsys ('coordinates', names, 'parameters', p, 'lagrangian', lag, 'constraints', {con});
end

function x = closed_form (t, C1, C2, c)
  % eq. 3.3 with u = c (cos t - 1) + sin t; rows = times, columns = nodes
  u = c * (cos (t) - 1) + sin (t);
  x = bsxfun (@plus, C1', u * C2');
end

function a = accel_from_terms (sys, X, V)
  % Gauss's principle from mechsys_eval terms for a velocity-dependent constraint g:
  % M a = f + A' lam, A a = -(g_q xdot + g_t), A = g_qdot
  np = size (X, 1);
  n = size (X, 2);
  o = mechsys_eval (sys, 0, X, V, 'blocks', {'eom', 'constraints'});
  a = zeros (np, n);
  for p = 1:np
    M = reshape (o.M(p, :, :), n, n);
    f = o.f(p, :)';
    G = reshape (o.g_qdot(p, 1, :), 1, n);
    Gq = reshape (o.g_q(p, 1, :), 1, n);
    rhs = -(Gq * V(p, :)' + o.g_t(p));
    Mf = M \ f;
    MG = M \ G';
    lam = (G * MG) \ (rhs - G * Mf);
    a(p, :) = (Mf + MG * lam)';
  end
end

function a = accel_eq32 (X, V, w)
  % eq. 3.2 in L2(mu_K)
  xv = (X .* V) * w;
  vv = (V.^2) * w;
  a = bsxfun (@times, -xv ./ vv, V);
end

function check_exit (s)
  if s.exitflag ~= 1
    error ('demo_random_ode: gauss_integrate failed: %s', s.message);
  end
end

function print_table (r)
  fprintf ('Random ODE with the energy constraint (Zubelevich eqs. 3.1-3.3), mu = N(0,1) -> Gauss-Hermite mu_K\n');
  fprintf ('C1 = cos(omega), C2 = 1 + sin(omega); c = %.15g, t* = pi/2 - atan(c) = %.15g; %.1f s\n', ...
           r.c, r.tstar, r.time);
  fprintf ('\nconvergence in K (dopri5 RelTol 1e-11, t in [0, 8]; errors max over nodes and output times)\n');
  fprintf ('%3s | %10s | %13s | %10s | %10s | %10s | %10s | %10s | %9s\n', 'K', '|c_K - c|', 't*_K (num)', ...
           '|t*_K-t*|', 'err mu_K', 'err gen.', 'err mu', 'predicted', 'residual');
  for k = 1:numel (r.conv)
    v = r.conv(k);
    fprintf ('%3d | %10.3e | %13.10f | %10.3e | %10.3e | %10.3e | %10.3e | %10.3e | %9.2e\n', v.K, ...
             abs (v.cK - r.c), v.tstar_num, abs (v.tstarK - r.tstar), v.err_classical, ...
             v.err_generalized, v.err_gauss, v.err_gauss_pred, v.residual);
  end
  fprintf ('(err mu_K: vs 3.3 with c_K on [0, t*_K); err gen.: on [t*_K, 8]; err mu: vs 3.3 with the Gaussian c)\n');
  fprintf ('\n');
  vm_demo_table (r.checks, '%.4e');
  fprintf ('references: closed form 3.3 (mu_K and Gaussian mu), eq. 3.2, Christoffel weights, exact moments\n');
  [~, verdict] = vm_demo_verdict (r.checks);
  fprintf ('%s\n', verdict);
end

function draw (r, keep, what)
  t = keep.t;
  s = keep.s;
  uc = keep.cK * (cos (t) - 1) + sin (t);
  switch what
    case 'u'
      % the key in a strip above the axes, the axes tight to the curves
      vm_demo_subplot (1, 1, 1, 8, [9.5, 2, 5.6, 3.4 + 1.6 * 2 + 1]);
      un = (s.output.q - repmat (keep.C1', numel (t), 1)) * (keep.w .* keep.C2) / keep.nC2^2;
      yl = [min([un; uc; keep.u(:)]) - 0.2, max([un; uc; keep.u(:)]) + 0.2];
      co = get (gca, 'colororder');
      plot (t, un, '-', 'color', co(1, :), 'linewidth', 1.5);
      hold on;
      plot (t, uc, 'k--', t, keep.u, '-', 'color', co(2, :), 'linewidth', 1.5);
      plot (keep.tstar * [1 1], yl, 'k:', (keep.tstar + pi) * [1 1], yl, 'k:', 'linewidth', 1.5);
      hold off;
      ylim (yl);
      xlabel ('t (dimensionless)');
      ylabel ('u, udot (dimensionless)');
      vm_demo_key ({{'-', 'color', co(1, :), 'linewidth', 1.5}, {'k--', 'linewidth', 1.5}, ...
                    {'-', 'color', co(2, :), 'linewidth', 1.5}, {'k:', 'linewidth', 1.5}}, ...
                   {'u computed, (x - C1, C2)/||C2||^2 (K = 8)', 'u closed form 3.3', 'udot computed', ...
                    'zeros of udot: t*, t* + pi'}, 7, 2);
      title ('x(t, omega) = C1(omega) + u(t) C2(omega)  (eq. 3.3)');
    case 'convergence'
      vm_demo_subplot (1, 1, 1, 8, [9.5, 2, 5.6, 3.4 + 1.6 * 3 + 1]);
      K = [r.conv.K];
      semilogy (K, max ([r.conv.err_gauss], 1e-17), 'o-', K, max ([r.conv.err_gauss_pred], 1e-17), 'x--', ...
                K, max ([r.conv.err_classical], 1e-17), 's-');
      xlabel ('K (Gauss-Hermite nodes)');
      ylim ([1e-17, 10]);
      set (gca, 'ytick', 10 .^ (-15:3:0));
      ylabel ('max error on [0, t*) (dimensionless)');
      co = get (gca, 'colororder');
      vm_demo_key ({{'o-', 'color', co(1, :)}, {'x--', 'color', co(2, :)}, {'s-', 'color', co(3, :)}}, ...
                   {'vs 3.3 with the Gaussian mu', 'predicted |c_K - c| max(1 - cos t) max|C2|', ...
                    'vs 3.3 with mu_K (integration error)'}, 8, 1);
      title ('convergence in K');
    case 'lambda'
      semilogy (t, abs (s.output.lambda), '-');
      xlabel ('t (dimensionless)');
      ylabel ('|lambda| (dimensionless)');
      title ('multiplier lambda = -(x, xdot)/||xdot||^2 \sim 1/udot (K = 8)');
    otherwise
      err = max (abs (s.output.q - bsxfun (@plus, keep.C1', uc * keep.C2')), [], 2);
      semilogy (t, max (err, 1e-17), '-', s.t, max (abs (s.residual), 1e-17), '-');   % the residual at the steps
      xlabel ('t (dimensionless)');
      ylabel ('error, residual (dimensionless)');
      legend ({'max_j |x_j - 3.3 (mu_K)|', '|phi| (constraint 3.1)'}, 'location', 'southeast');
      title ('K = 8: error and residual through the zeros of udot');
  end
  set (gca, 'fontsize', 8);
  grid on;
end
