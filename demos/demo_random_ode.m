function results = demo_random_ode (varargin)
% -*- texinfo -*-
% @deftypefn  {} {} demo_random_ode ()
% @deftypefnx {} {results =} demo_random_ode ()
% @deftypefnx {} {results =} demo_random_ode (..., "quiet")
% @deftypefnx {} {results =} demo_random_ode (..., "png", dir)
% A random ODE with a nonholonomic energy constraint (Zubelevich, Sec. 3).
%
% Physics (Zubelevich, "On infinite dimensional version of the
% Lagrange-d'Alembert principle", eqs. 3.1-3.3).  The state is a second order
% stochastic process x(t, omega), an element of X = L2(R, mu), mu a probability
% measure; P = id (X identified with X' by the L2(mu) inner product), f = 0,
% and the only force is the ideal reaction of the constraint
%
% @example
% phi = ( ||xdot||^2 + ||x||^2 ) / 2 - 1 = 0,   ||y||^2 = E[y^2] = int y^2 dmu  (3.1)
% @end example
%
% (the total energy of a continuum of unit-frequency oscillators, one per omega).
%
% Derivation (from the paper's eq. 1.4, redone here): phi_xdot = (xdot, .),
% phi_x xdot = (x, xdot), phi_t = 0, b = phi_xdot P phi_xdot' = ||xdot||^2, so
% N = -xdot (x, xdot)/||xdot||^2 and
%
% @example
% xddot = -(x, xdot) / ||xdot||^2  xdot                                 (3.2)
% @end example
%
% as printed.  Since xddot is parallel to xdot, xdot(t) = udot(t) C2 with C2 =
% xdot(0), x = C1 + u(t) C2 with C1 = x(0) (eq. 3.3), and substituting into
% 3.2 (udot ~= 0 cancels) gives udd + u + c = 0, u(0) = 0, udot(0) = 1, with
% c = (C1, C2)/||C2||^2: the paper's IVP, no misprint.  Solved:
%
% @example
% u(t) = c (cos t - 1) + sin t,   udot(t) = cos t - c sin t.
% @end example
%
% Time of validity: 3.2 needs xdot ~= 0 (Hypothesis 2: phi_xdot = (xdot, .)
% must be onto R), i.e. udot ~= 0; the classical solution exists on
% [0, t*) with t* = pi/2 - atan(c), the first zero of udot (paper: "until
% udot = 0").  At t*, xdot = 0 and the continuation is not unique: from
% (x*, 0) every x* + s(t) D with s = (x*, D)/||D||^2 (cos(t - t*) - 1) solves
% 3.2 for t ~= t*.  The paper's "generalized solution" is 3.3 for all t (the
% direction C2 kept), a smooth function that solves 3.2 except at the zeros of udot.
%
% Discretization (the defensible reading used here).  mu is taken Gaussian,
% N(0, 1), and replaced by the K-point Gauss-Hermite measure mu_K = sum_j w_j
% delta(omega_j), itself a probability measure, so that the discrete system is
% exactly the paper's system with X = L2(mu_K) = R^K.  Nodes and weights come
% from the Golub-Welsch method: the eigenvalues of the Jacobi matrix of the
% monic probabilists' Hermite polynomials (zero diagonal, off-diagonal sqrt(k),
% k = 1..K-1) are the nodes, and the squared first components of the unit
% eigenvectors are the weights (mu(R) = 1).  The coordinates are x_j =
% x(omega_j), j = 1..K; the kinetic metric is the L2(mu_K) one, L = sum_j w_j
% dot(x_j)^2 / 2 (M = diag(w): "P = id" in L2(mu)), and the constraint is the
% single nonholonomic, velocity-quadratic formula
% (w1*(dot(x1)^2 + x1^2) + ... + wK*(dot(xK)^2 + xK^2))/2 - 1, both assembled
% with sprintf/strjoin, the weights being parameters w1..wK.  The ideal
% reaction is then R = A' lambda with A_j = w_j xdot_j, i.e. xddot_j = lambda
% xdot_j with lambda = -(x, xdot)_K/||xdot||_K^2: eq. 3.2 in L2(mu_K).  (With
% the Euclidean metric L = sum dot(x_j)^2/2 the reaction would be xddot_j =
% lambda w_j xdot_j, not a discretization of 3.2; an info row shows its error.)
%
% Initial data (chosen here; the paper has none): C1(omega) = cos(omega),
% C2(omega) = 1 + sin(omega).  Then ||C1||^2 + ||C2||^2 = 2 + 2 E[sin omega] = 2
% exactly, in L2(mu) and in every L2(mu_K) (the nodes are symmetric), so the
% discrete initial state satisfies 3.1 without rescaling, while (C1, C2) and
% ||C2||^2 are not polynomial inner products.  In L2(mu): E[cos] = exp(-1/2),
% E[cos sin] = 0, E[sin^2] = (1 - exp(-2))/2, so c = exp(-1/2)/(3/2 -
% exp(-2)/2) = 0.4234566..., t* = 1.1702336...  For mu_K, c_K and t*_K =
% pi/2 - atan(c_K) use the quadrature sums.
%
% Compared (dopri5, RelTol 1e-11, AbsTol 1e-13, t in [0, 8] with output every
% 1e-3), for K = 2, 3, 4, 6, 8, 12, 16, 24:
% @enumerate
% @item x_j(t) against 3.3 for mu_K (c_K), on [0, t*_K) (classical) and on
% [t*_K, 8] (generalized; through two zeros of udot).  Tolerance B = N sqrt(2K)
% (AbsTol + RelTol max|y|): the sum of the local error bounds of the N accepted
% steps (the RMS error norm over 2K components bounds each step's error vector
% by sqrt(2K) times the scaled tolerance).  The passage through xdot = 0 is
% benign numerically: every stage derivative is a multiple of xdot, so the
% computed xdot stays in span(C2) to rounding and the method integrates the
% smooth scalar equation for u.  B is a worst-case bound: the observed errors
% are 1e-4 to 1e-3 of it (dopri5 propagates the 5th-order solution, whose
% local error is far below the controlled 4th-order estimate).
% @item x_j(t) against 3.3 for the Gaussian mu (c), on [0, min(t*, t*_K)):
% the difference is exactly (c_K - c)(cos t - 1) C2(omega_j), so the error is
% predicted as |c_K - c| max(1 - cos t) max_j |C2(omega_j)| (two-sided check,
% |observed - predicted| <= B): convergence in K (spectral, ~1e-15 at K = 24).
% @item The time of validity: the first sign change of the computed udot =
% (xdot, C2)_K/||C2||_K^2, located by linear interpolation on the 1e-3 grid,
% against t*_K = pi/2 - atan(c_K); tolerance h^3/6 (interpolation: udot is odd
% about t* to second order since u''' = -udot) + B/(||C2||_K |udd(t*_K)|).
% @item The constraint residual phi (sol.residual, an exact first integral of
% 3.2 on all states with xdot ~= 0): tolerance B max|grad phi|.
% @item The integrator's multiplier against -(x, xdot)_K/||xdot||_K^2 at all
% output points (lambda ~ 1/udot near t*, and 0 where (x, C2) = 0), the
% difference divided by sum_j w_j |x_j xdot_j| / ||xdot||_K^2 (the rounding
% scale of the dot product); tolerance 100 K eps.
% @end enumerate
% and, once: the accelerations at 20 points from mechsys_eval terms (Gauss's
% principle assembled here: M a = f + A' lam, A a = -(g_q xdot + g_t), A = g_qdot)
% against 3.2 (relative 1e-12); the Golub-Welsch rule (K = 24): moments up to
% degree 2K-1 against (k-1)!! (error relative to sum w |omega|^k) and the
% weights against the Christoffel formula w_j = K!/(K He_(K-1)(omega_j))^2,
% tolerance 100 K eps; c_24 against the closed-form c (quadrature error below
% rounding at K = 24; tolerance 1e-14).
%
% Options:
% @table @code
% @item "quiet"
% print nothing.
% @item "png", @var{dir}
% write @file{demo_random_ode_u.png} (u(t), udot(t)), @file{demo_random_ode_convergence.png}
% (the errors against K), @file{demo_random_ode_lambda.png} (the multiplier) and
% @file{demo_random_ode_error.png} (error and residual for K = 8 on [0, 8]) into
% @var{dir} (created if missing).
% @end table
%
% @var{results} is a struct with fields @code{c}, @code{tstar} (closed form,
% Gaussian mu), @code{conv} (struct array per K: @code{K}, @code{cK},
% @code{tstarK}, @code{tstar_num}, @code{err_classical}, @code{err_generalized},
% @code{err_gauss}, @code{err_gauss_pred}, @code{residual}, @code{lambda_err},
% @code{B}, @code{naccept}), @code{checks} (struct array @code{name},
% @code{value}, @code{reference}, @code{error}, @code{tol}, @code{pass},
% @code{info}; info rows are not part of @code{pass}), @code{pass} and
% @code{time}.
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
  ee = max (abs (se.q(:) - xe(:)));
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
    err = max (abs (s.q - xK), [], 2);
    cl = tt < tK;
    B = s.stats.naccept * sqrt (2 * K) * (atol + rtol * max (max (abs ([s.q, s.qdot]))));
    % convergence in K: Gaussian closed form, classical interval of both
    cg = tt < min (tK, tstar);
    eg = max (max (abs (s.q(cg, :) - xc(cg, :))));
    pred = abs (cK - c) * max (1 - cos (tt(cg))) * max (abs (C2));
    % time of validity: first sign change of the computed udot
    ud = (s.qdot * (w .* C2)) / nC2^2;
    i1 = find (ud(1:end - 1) > 0 & ud(2:end) <= 0, 1);
    tnum = tt(i1) + ud(i1) * dt / (ud(i1) - ud(i1 + 1));
    uddK = sqrt (1 + cK^2);
    ttol = dt^3 / 6 + B / (nC2 * uddK);
    % residual and multiplier
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
      un = (s.q - repmat (keep.C1', numel (t), 1)) * (keep.w .* keep.C2) / keep.nC2^2;
      % the curves lie in [-1.5, 1.1]: the band below -2 holds the legend
      yl = [-4.5, 1.5];
      plot (t, un, '-', t, uc, 'k--', t, keep.u, '-', keep.tstar * [1 1], yl, 'k:', ...
            (keep.tstar + pi) * [1 1], yl, 'k:', 'linewidth', 1.5);
      ylim (yl);
      xlabel ('t (dimensionless)');
      ylabel ('u, udot (dimensionless)');
      lh = legend ({'u computed, (x - C1, C2)/||C2||^2 (K = 8)', 'u closed form 3.3', 'udot computed', ...
                    'zeros of udot: t*, t* + pi'}, 'location', 'south');
      set (lh, 'fontsize', 7);
      title ('x(t, omega) = C1(omega) + u(t) C2(omega)  (eq. 3.3)');
    case 'convergence'
      K = [r.conv.K];
      semilogy (K, max ([r.conv.err_gauss], 1e-17), 'o-', K, max ([r.conv.err_gauss_pred], 1e-17), 'x--', ...
                K, max ([r.conv.err_classical], 1e-17), 's-');
      xlabel ('K (Gauss-Hermite nodes)');
      % the band below 1e-17 (where no value is drawn) holds the legend
      ylim ([1e-21, 10]);
      set (gca, 'ytick', 10 .^ (-15:3:0));
      ylabel ('max error on [0, t*) (dimensionless)');
      lh = legend ({'vs 3.3 with the Gaussian mu', 'predicted |c_K - c| max(1 - cos t) max|C2|', ...
                    'vs 3.3 with mu_K (integration error)'}, 'location', 'southwest');
      set (lh, 'fontsize', 7);
      title ('convergence in K');
    case 'lambda'
      semilogy (t, abs (s.lambda), '-');
      xlabel ('t (dimensionless)');
      ylabel ('|lambda| (dimensionless)');
      title ('multiplier lambda = -(x, xdot)/||xdot||^2 \sim 1/udot (K = 8)');
    otherwise
      err = max (abs (s.q - bsxfun (@plus, keep.C1', uc * keep.C2')), [], 2);
      semilogy (t, max (err, 1e-17), '-', t, max (abs (s.residual), 1e-17), '-');
      xlabel ('t (dimensionless)');
      ylabel ('error, residual (dimensionless)');
      legend ({'max_j |x_j - 3.3 (mu_K)|', '|phi| (constraint 3.1)'}, 'location', 'southeast');
      title ('K = 8: error and residual through the zeros of udot');
  end
  set (gca, 'fontsize', 8);
  grid on;
end
