function results = demo_constraint_description (varargin)
% -*- texinfo -*-
% @deftypefn  {} {} demo_constraint_description ()
% @deftypefnx {} {results =} demo_constraint_description ()
% @deftypefnx {} {results =} demo_constraint_description (..., "quiet")
% @deftypefnx {} {results =} demo_constraint_description (..., "png", dir)
% The ideal reaction does not depend on the function that describes the constraint set
% (Zubelevich, Sec. 6 and eq. 1.4); the multipliers do, by a predicted factor.
%
% Physics (Zubelevich, "On infinite dimensional version of the
% Lagrange-d'Alembert principle", Remark 3 and Sec. 6).  The ideal reaction
% of the constraint phi(z) = 0, z = (t, x, xdot), is (eq. 1.4, 4.3)
%
% @example
% N = phi_xdot' Lambda_phi,  Lambda_phi = -b^-1 (phi_t + phi_x xdot + phi_xdot P f),
% b = phi_xdot P phi_xdot'.
% @end example
%
% Sec. 6: if sigma(z) = U(z, phi(z)) with U(z, y) = 0 <=> y = 0 and U_y(z, 0)
% an isomorphism, sigma = 0 describes the same set S and gives the same N on
% S (eq. 6.3), because on S (U(z, 0) = 0 for all z, so U_t = U_x = U_xdot = 0
% there, eq. 6.1) sigma_t = U_y phi_t, sigma_x = U_y phi_x, sigma_xdot = U_y
% phi_xdot, and b_sigma = U_y b U_y'.
%
% The multipliers (derived here; the paper states only the independence of N).
% N = phi_xdot' Lambda_phi = sigma_xdot' Lambda_sigma = phi_xdot' U_y'
% Lambda_sigma on S, and phi_xdot' is injective (phi_xdot is onto,
% Hypothesis 2), so
%
% @example
% Lambda_phi = U_y(z, 0)' Lambda_sigma      on S.
% @end example
%
% For one scalar constraint and the two rewritings used here:
% @itemize
% @item sigma = h(phi), h(0) = 0, h'(0) ~= 0: U_y = h'(0), so
% lambda_phi = h'(0) lambda_sigma.  Here h(y) = y^3 + 2 y, h'(0) = 2: the
% multiplier halves.  (h(y) = y^3 + y would leave it unchanged, h'(0) = 1: the
% cubic term is invisible on S.)
% @item sigma = k(z) phi with k > 0: U(z, y) = k(z) y, U_y = k(z), so
% lambda_phi = k(z) lambda_sigma: the ratio varies along the motion.
% @end itemize
% In gauss_integrate's convention (@code{M qddot = dL/dq + F + lambda dg/dqdot},
% for a position constraint g(q) @code{+ lambda dg/dq}) the same holds: a
% holonomic g is used at velocity level, phi = g_q xdot, with the reaction
% lambda g_q; for sigma = h(g), sigma_q = h'(g) g_q = h'(0) g_q on S, and for
% sigma = k(x) g, sigma_q = k g_q + g k_q = k g_q on S; again lambda_g = h'(0)
% lambda_sigma and lambda_g = k(x) lambda_sigma.
%
% A degenerate description: sigma = phi^3 (h'(0) = 0, U_y not an
% isomorphism) has sigma_xdot = 3 phi^2 phi_xdot = 0 on S: Hypothesis 2 fails,
% the reaction direction vanishes and Lambda_sigma = Lambda_phi/(3 phi^2) is
% undefined on S.  What gauss_integrate does with it is shown (info rows, not
% part of the verdict):
% @itemize
% @item at an initial state where the compiled phi is exactly 0 (found by
% moving one coordinate of the demo's state by a few units in the last
% place), the initial check refuses it with a clear message ("the
% constraint Jacobian is rank-deficient ...: the gradient ... vanishes
% there");
% @item at a state where phi is 0 only to rounding (|phi| ~ 1e-16) the row
% A = 3 phi^2 phi_xdot ~ 1e-32 is not exactly zero and the run starts.
% Gauss's formula R = A' (A P A')^-1 r is invariant under scaling the row A
% and its right side r by the same factor 3 phi^2, so as long as phi never
% evaluates to exactly 0 the motion is the right one, with a meaningless
% multiplier of order 1e31 (a function of the rounding error of phi): so it
% goes for the random ODE here.  For the quadric g evaluates to exactly 0 at
% a stage of the first step and the run stops (exitflag 0) with "constraint
% matrix singular: reciprocal condition below 1e-13 ... (rcond 0)".
% @end itemize
% Which of the two happens on a rounded state is a matter of chance; the
% initial check's zero-row test is exact (norm == 0), not relative.
%
% The two systems (as in @code{demo_random_ode} and @code{demo_quadric_geodesics}):
% @enumerate
% @item Random ODE with the energy constraint (Sec. 3, eq. 3.1), mu = N(0, 1)
% replaced by the K = 8 point Gauss-Hermite measure, L = sum_j w_j xdot_j^2/2,
% phi = (sum_j w_j (xdot_j^2 + x_j^2))/2 - 1, C1 = cos(omega), C2 = 1 + sin(omega),
% t in [0, 1] (inside the classical interval, t* = 1.170).  Descriptions: phi,
% phi^3 + 2 phi, k phi with k = 1 + x1^2 + xdot2^2 (a positive function of the
% position and the velocity).  Independent reference: the closed form 3.3.
% @item Geodesics on the quadric (x, A x) = 1 (Sec. 2.1, eq. 2.4), n = 4 and 6,
% A, x0, xdot0 as in @code{demo_quadric_geodesics}, t in [0, 20].  Descriptions
% of the holonomic constraint: g = (x, A x) - 1, g^3 + 2 g, k g with
% k = exp(x1).  Lambda_g in closed form: -(xdot, A xdot)/(2 |A x|^2).
% @end enumerate
%
% What is compared, per system (table: quantity | value | reference | error | tol):
% @enumerate
% @item At 20 states on S (states of the run, scaled onto S: for the random ODE
% (x, xdot)/sqrt(E), E = (||x||^2 + ||xdot||^2)/2; for the quadric x/sqrt((x, A
% x)), xdot minus its A x component), Gauss's principle assembled from
% mechsys_eval terms for each description (M a = f + A' lam, A a = -(g_q xdot + g_t)
% for a velocity constraint, A a = -xdot' g_qq xdot for a holonomic one): the
% accelerations of all descriptions against those of phi, and lambda_phi against
% h'(0) lambda_sigma and k(z) lambda_sigma.  Relative errors; tolerance 1e-12
% (rounding: the states are on S to rounding, and phi enters the off-S terms
% only linearly).  Also lambda_phi against its closed form (-(x, xdot)/||xdot||^2,
% resp. -(xdot, A xdot)/(2 |A x|^2)).
% @item Along dopri5 runs (random ODE: RelTol 1e-11, AbsTol 1e-13; quadric:
% RelTol 1e-10, AbsTol 1e-12; common output times, dense output), the motions
% of the rewritten descriptions against that of phi: max |x_sigma - x_phi|
% and max |xdot_sigma - xdot_phi| over the output times, tolerance B_phi +
% B_sigma with B = N sqrt(2n) (AbsTol + RelTol max|y|), the sum of the local error
% bounds of the N accepted steps of each run (as in the two demos; there the
% observed errors are 1e-4 to 1e-2 of it).  For the random ODE each motion is
% also compared with the closed form 3.3 (tolerance B of the run).
% @item Along the same runs, the multipliers: lambda_phi(t) against
% h'(0) lambda_sigma(t), resp. k(z_sigma(t)) lambda_sigma(t).  The runs' states
% differ, so the tolerance is the sum of (a) the first-order change of
% lambda_phi between the states, max_t ||grad lambda_phi||_1 (B_phi +
% B_sigma) (||.||_1 over the 2n state components, the state difference being
% at most B_phi + B_sigma in each), (b) the measured off-S part
% max_t |lambda_phi(z_sigma) - k lambda_sigma(z_sigma)| of Gauss's formulas
% at the run's unprojected states (the relation is exact only on S), and (c)
% rounding, 100 n eps times the rounding scale of lambda_phi (sum_j w_j |x_j
% xdot_j|/||xdot||^2, resp. |lambda_phi|).  Info rows: the range of the
% observed ratio lambda_phi/lambda_sigma.
% @item The degenerate description (info rows): the refusal at an exact
% initial state, and from the rounded state the exit flag, the motion
% difference and the size of the multiplier.
% @end enumerate
%
% Options:
% @table @code
% @item "quiet"
% print nothing.
% @item "png", @var{dir}
% write @file{demo_constraint_description_random.png} and
% @file{demo_constraint_description_quadric.png} (n = 4) into @var{dir}
% (created if missing): the motions of the three descriptions overlaid, their
% multipliers, and the ratios lambda_phi/lambda_sigma against the predicted
% h'(0) = 2 and k(z(t)).
% @end table
%
% @var{results} is a struct with fields @code{systems} (struct array per
% system: @code{name}, @code{descriptions} (the constraint formulas),
% @code{t}, @code{q}, @code{lambda} (cell arrays per description, the
% degenerate one not included), @code{kpred} (k(z(t)) along the run of k phi),
% @code{hprime} (h'(0) = 2), @code{motion_err}, @code{motion_tol},
% @code{lambda_err}, @code{lambda_tol} (per rewritten description),
% @code{degenerate} (struct: @code{refused}, @code{message} (exact initial
% state), @code{ulp_exact}, @code{ulp_rounded} (the shifts used), @code{phi0},
% @code{exitflag}, @code{run_message}, @code{motion_err}, @code{max_lambda}
% (rounded initial state; NaN when the run stopped))), @code{checks} (struct array @code{part}, @code{name},
% @code{value}, @code{reference}, @code{error}, @code{tol}, @code{pass},
% @code{info}; info rows are not part of @code{pass}), @code{pass} and
% @code{time}.
% @seealso{demo_random_ode, demo_quadric_geodesics, gauss_integrate, mechsys_eval}
% @end deftypefn

  opt = vm_demo_args ('demo_constraint_description', varargin);

  t0 = tic;
  ck = struct ('part', {}, 'name', {}, 'value', {}, 'reference', {}, 'error', {}, 'tol', {}, ...
               'pass', {}, 'info', {});
  cases = {random_case(), quadric_case([1 1 2 3]), quadric_case([1 1 2 3 3 4])};
  systems = [];
  for ic = 1:numel (cases)
    [ck, r] = run_case (ck, cases{ic});
    if isempty (systems)
      systems = r;
    else
      systems(ic) = r;
    end
  end

  results.systems = systems;
  results.checks = ck;
  results.pass = vm_demo_verdict (ck);
  results.time = toc (t0);

  if ~opt.quiet
    print_table (results);
  end
  vm_demo_png (opt, {'random', 'quadric'}, @(what) draw (results, what), [900, 900]);
  if nargout == 0
    clear results;
  end
end

% ---------------------------------------------------------------- the two systems

function cs = random_case ()
  % random ODE (Sec. 3), K = 8 Gauss-Hermite nodes
  K = 8;
  b = sqrt (1:K - 1);
  J = diag (b, 1) + diag (b, -1);
  [V, D] = eig (J);
  [om, ix] = sort (diag (D));
  w = (V(1, ix).^2)';
  names = cell (1, K);
  kin = cell (1, K);
  en = cell (1, K);
  p = struct ();
  for j = 1:K
    names{j} = sprintf ('x%d', j);
    kin{j} = sprintf ('w%d*dot(x%d)^2', j, j);
    en{j} = sprintf ('w%d*(dot(x%d)^2 + x%d^2)', j, j, j);
    p.(sprintf ('w%d', j)) = w(j);
  end
  lag = ['(', strjoin(kin, ' + '), ')/2'];
  phi = ['((', strjoin(en, ' + '), ')/2 - 1)'];
  cs.name = 'random ODE K=8';
  cs.short = 'random';
  cs.sym = 'phi';
  cs.kname = '1 + x1^2 + xdot2^2';
  cs.descr = {phi, [phi, '^3 + 2*', phi], ['(1 + x1^2 + dot(x2)^2)*', phi], [phi, '^3']};
  cs.holonomic = false;
  cs.n = K;
  cs.w = w;
  cs.q0 = cos (om);
  cs.v0 = 1 + sin (om);
  cs.T = 1;
  cs.tt = (0:1e-3:1)';
  cs.rtol = 1e-11;
  cs.atol = 1e-13;
  cs.sys = cell (1, 4);
  for d = 1:4
    cs.sys{d} = mechsys ('coordinates', names, 'parameters', p, 'lagrangian', lag, ...
                         'constraints', cs.descr(d));
  end
  cs.kfun = @(Q, V) 1 + Q(:, 1).^2 + V(:, 2).^2;
  cs.lam_ref = @(Q, V) -((Q .* V) * w) ./ ((V.^2) * w);
  cs.lam_scale = @(Q, V) (abs (Q .* V) * w) ./ ((V.^2) * w);
  cs.lam_grad = @(Q, V) random_grad (Q, V, w);
  cs.project = @(Q, V) random_project (Q, V, w);
  cs.phi = @(Q, V) ((V.^2 + Q.^2) * w) / 2 - 1;
  % closed form 3.3 with c_K
  C1 = cs.q0;
  C2 = cs.v0;
  cK = (w' * (C1 .* C2)) / (w' * C2.^2);
  u = cK * (cos (cs.tt) - 1) + sin (cs.tt);
  cs.closed = bsxfun (@plus, C1', u * C2');
end

function g1 = random_grad (Q, V, w)
  % ||grad lambda||_1, lambda = -a/b, a = sum w x xdot, b = sum w xdot^2
  a = (Q .* V) * w;
  b = (V.^2) * w;
  W = repmat (w', size (Q, 1), 1);
  gx = -W .* V ./ b;
  gv = -W .* Q ./ b + 2 * bsxfun (@times, a ./ b.^2, W .* V);
  g1 = sum (abs ([gx, gv]), 2);
end

function [Q, V] = random_project (Q, V, w)
  s = 1 ./ sqrt (((V.^2 + Q.^2) * w) / 2);
  Q = bsxfun (@times, s, Q);
  V = bsxfun (@times, s, V);
end

function cs = quadric_case (d)
  % geodesics on (x, A x) = 1 (Sec. 2.1), data of demo_quadric_geodesics
  n = numel (d);
  [R, ~] = qr (reshape (sin (1:n^2), n, n));
  A = R * diag (d) * R';
  A = (A + A') / 2;
  x0 = cos (1:n)';
  x0 = x0 / sqrt (x0' * A * x0);
  v0 = sin (2 * (1:n))';
  ax = A * x0;
  v0 = v0 - ax * (ax' * v0) / (ax' * ax);
  v0 = v0 / norm (v0);
  names = cell (1, n);
  vel = cell (1, n);
  for i = 1:n
    names{i} = sprintf ('x%d', i);
    vel{i} = sprintf ('dot(x%d)^2', i);
  end
  p = struct ();
  terms = {};
  for i = 1:n
    for j = i:n
      pn = sprintf ('a%d_%d', i, j);
      p.(pn) = A(i, j);
      if i == j
        terms{end + 1} = sprintf ('%s*x%d^2', pn, i);
      else
        terms{end + 1} = sprintf ('2*%s*x%d*x%d', pn, i, j);
      end
    end
  end
  lag = ['(', strjoin(vel, ' + '), ')/2'];
  g = ['(', strjoin(terms, ' + '), ' - 1)'];
  cs.name = sprintf ('quadric n=%d', n);
  cs.short = 'quadric';
  cs.sym = 'g';
  cs.kname = 'exp(x1)';
  cs.descr = {g, [g, '^3 + 2*', g], ['exp(x1)*', g], [g, '^3']};
  cs.holonomic = true;
  cs.n = n;
  cs.A = A;
  cs.q0 = x0;
  cs.v0 = v0;
  cs.T = 20;
  cs.tt = (0:0.01:20)';
  cs.rtol = 1e-10;
  cs.atol = 1e-12;
  cs.sys = cell (1, 4);
  for k = 1:4
    cs.sys{k} = mechsys ('coordinates', names, 'parameters', p, 'lagrangian', lag, ...
                         'constraints', cs.descr(k));
  end
  cs.kfun = @(Q, V) exp (Q(:, 1));
  cs.lam_ref = @(Q, V) -sum (V .* (V * A), 2) ./ (2 * sum ((Q * A).^2, 2));
  cs.lam_scale = @(Q, V) abs (cs.lam_ref (Q, V));
  cs.lam_grad = @(Q, V) quadric_grad (Q, V, A);
  cs.project = @(Q, V) quadric_project (Q, V, A);
  cs.phi = @(Q, V) sum (Q .* (Q * A), 2) - 1;
  cs.closed = [];
end

function g1 = quadric_grad (Q, V, A)
  % ||grad lambda||_1, lambda = -c/(2 e), c = (xdot, A xdot), e = |A x|^2:
  % dlambda/dx = c A^2 x/e^2, dlambda/dxdot = -A xdot/e
  c = sum (V .* (V * A), 2);
  e = sum ((Q * A).^2, 2);
  gx = bsxfun (@times, c ./ e.^2, Q * A * A);
  gv = bsxfun (@times, -1 ./ e, V * A);
  g1 = sum (abs ([gx, gv]), 2);
end

function [Q, V] = quadric_project (Q, V, A)
  Q = bsxfun (@times, 1 ./ sqrt (sum (Q .* (Q * A), 2)), Q);
  AQ = Q * A;
  V = V - bsxfun (@times, sum (V .* AQ, 2) ./ sum (AQ.^2, 2), AQ);
end

% ---------------------------------------------------------------- the comparisons

function [ck, r] = run_case (ck, cs)
  part = cs.name;
  n = cs.n;
  hp = 2;
  labels = {'', [cs.sym, '^3+2', cs.sym], ['k ', cs.sym]};

  % runs of phi, h(phi), k phi
  s = cell (1, 3);
  B = zeros (1, 3);
  for d = 1:3
    s{d} = gauss_integrate (cs.sys{d}, [0 cs.T], cs.q0, cs.v0, 'RelTol', cs.rtol, 'AbsTol', cs.atol, ...
                            'OutputTimes', cs.tt);
    check_exit (s{d}, cs.descr{d});
    B(d) = s{d}.stats.naccept * sqrt (2 * n) * (cs.atol + cs.rtol * max (max (abs ([s{d}.q, s{d}.qdot]))));
  end

  % 1. at 20 states on S: Gauss's principle from mechsys_eval terms
  pick = round (linspace (1, numel (cs.tt), 20));
  [Q, V] = cs.project (s{1}.q(pick, :), s{1}.qdot(pick, :));
  lam = zeros (numel (pick), 3);
  acc = cell (1, 3);
  for d = 1:3
    [lam(:, d), acc{d}] = gauss_terms (cs.sys{d}, Q, V, cs.holonomic);
  end
  lref = cs.lam_ref (Q, V);
  ck = vm_demo_check (ck, sprintf ('on S: lambda_%s vs closed form (rel.)', cs.sym), max (abs (lam(:, 1))), ...
                      max (abs (lref)), 1e-12, 'error', max (abs (lam(:, 1) - lref)) / max (abs (lref)), ...
                      'part', part);
  amax = max (max (abs (acc{1})));
  for d = 2:3
    ck = vm_demo_check (ck, sprintf ('on S: accel (%s) vs accel (%s) (rel.)', labels{d}, cs.sym), ...
                        max (max (abs (acc{d}))), amax, 1e-12, 'error', ...
                        max (max (abs (acc{d} - acc{1}))) / amax, 'part', part);
  end
  kS = cs.kfun (Q, V);
  ck = vm_demo_check (ck, sprintf ('on S: lambda_%s / lambda(%s) vs h''(0) = 2 (rel.)', cs.sym, labels{2}), ...
                      max (lam(:, 1) ./ lam(:, 2)), hp, 1e-12, 'error', ...
                      max (abs (lam(:, 1) - hp * lam(:, 2))) / max (abs (lam(:, 1))), 'part', part);
  ck = vm_demo_check (ck, sprintf ('on S: lambda_%s vs k lambda(%s), k = %s (rel.)', cs.sym, labels{3}, cs.kname), ...
                      max (abs (lam(:, 1))), max (abs (kS .* lam(:, 3))), 1e-12, 'error', ...
                      max (abs (lam(:, 1) - kS .* lam(:, 3))) / max (abs (lam(:, 1))), 'part', part);

  % 2. motions along the runs
  r.name = cs.name;
  r.descriptions = cs.descr;
  r.t = cs.tt;
  r.q = {s{1}.q, s{2}.q, s{3}.q};
  r.lambda = {s{1}.lambda, s{2}.lambda, s{3}.lambda};
  r.kpred = cs.kfun (s{3}.q, s{3}.qdot);
  r.hprime = hp;
  r.motion_err = zeros (1, 2);
  r.motion_tol = zeros (1, 2);
  r.lambda_err = zeros (1, 2);
  r.lambda_tol = zeros (1, 2);
  if ~isempty (cs.closed)
    for d = 1:3
      ck = vm_demo_check (ck, sprintf ('x (%s) vs closed form 3.3', desc_label (labels{d}, cs.sym)), ...
                          max (abs (s{d}.q(:) - cs.closed(:))), 0, B(d), 'part', part);
    end
  end
  for d = 2:3
    eq = max (abs (s{d}.q(:) - s{1}.q(:)));
    ev = max (abs (s{d}.qdot(:) - s{1}.qdot(:)));
    r.motion_err(d - 1) = max (eq, ev);
    r.motion_tol(d - 1) = B(1) + B(d);
    ck = vm_demo_check (ck, sprintf ('motion: max|x(%s) - x(%s)|', labels{d}, cs.sym), eq, 0, ...
                        B(1) + B(d), 'part', part);
    ck = vm_demo_check (ck, sprintf ('motion: max|xdot(%s) - xdot(%s)|', labels{d}, cs.sym), ev, 0, ...
                        B(1) + B(d), 'part', part);
  end

  % 3. multipliers along the runs
  l1 = s{1}.lambda;
  lip = max (cs.lam_grad (s{1}.q, s{1}.qdot));
  round1 = 100 * n * eps * max (cs.lam_scale (s{1}.q, s{1}.qdot));
  for d = 2:3
    if d == 2
      pred = hp * ones (size (cs.tt));
      what = 'h''(0)';
    else
      pred = r.kpred;
      what = 'k(z)';
    end
    % off-S part of Gauss's formulas at the run's own (unprojected) states
    lg1 = gauss_terms (cs.sys{1}, s{d}.q, s{d}.qdot, cs.holonomic);
    lgd = gauss_terms (cs.sys{d}, s{d}.q, s{d}.qdot, cs.holonomic);
    offS = max (abs (lg1 - pred .* lgd));
    tol = lip * (B(1) + B(d)) + offS + round1;
    err = max (abs (l1 - pred .* s{d}.lambda));
    r.lambda_err(d - 1) = err;
    r.lambda_tol(d - 1) = tol;
    ck = vm_demo_check (ck, sprintf ('run: lambda_%s vs %s lambda(%s)', cs.sym, what, labels{d}), ...
                        max (abs (l1)), max (abs (pred .* s{d}.lambda)), tol, 'error', err, 'part', part);
    ratio = l1 ./ s{d}.lambda;
    ck = vm_demo_check (ck, sprintf ('run: lambda_%s/lambda(%s), min..max', cs.sym, labels{d}), ...
                        max (ratio), min (ratio), NaN, 'part', part);
  end

  % 4. the degenerate description phi^3 (info)
  r.degenerate = degenerate (cs, s{1});
  dg = r.degenerate;
  ck = vm_demo_check (ck, sprintf ('%s^3, exact initial state: refused', cs.sym), double (dg.refused), 1, NaN, ...
                      'part', part);
  ck = vm_demo_check (ck, sprintf ('%s^3, rounded initial state (%s0 = %.1e): exitflag', cs.sym, cs.sym, ...
                                   dg.phi0), dg.exitflag, 1, NaN, 'part', part);
  ck = vm_demo_check (ck, sprintf ('%s^3, rounded initial state: max|x - x(%s)|', cs.sym, cs.sym), ...
                      dg.motion_err, 0, NaN, 'part', part);
  ck = vm_demo_check (ck, sprintf ('%s^3, rounded initial state: max|lambda|', cs.sym), dg.max_lambda, ...
                      max (abs (l1)), NaN, 'part', part);
end

function s = desc_label (lab, sym)
  if isempty (lab)
    s = sym;
  else
    s = lab;
  end
end

function dg = degenerate (cs, s1)
  % phi^3: refused at a state where the compiled phi is exactly 0 (the initial state with its
  % first component moved by j units in the last place); run from the first such state where phi
  % is not exactly 0 (|phi| ~ eps)
  sys = cs.sys{4};
  dg.refused = false;
  dg.message = 'no exact initial state found';
  dg.ulp_exact = NaN;
  dg.ulp_rounded = NaN;
  dg.run_message = '';
  for f = [0, kron(1:200, [1, -1])]
    [q, v] = scaled_state (cs, f);
    o = mechsys_eval (cs.sys{1}, 0, q', v', 'blocks', {'constraints'});
    if o.g == 0 && isnan (dg.ulp_exact)
      dg.ulp_exact = f;
      try
        gauss_integrate (sys, [0 cs.T], q, v, 'RelTol', cs.rtol, 'AbsTol', cs.atol);
        dg.message = 'accepted';
      catch err
        dg.refused = true;
        dg.message = err.message;
      end
    elseif o.g ~= 0 && isnan (dg.ulp_rounded)
      dg.ulp_rounded = f;
      dg.phi0 = o.g;
    end
    if ~isnan (dg.ulp_exact) && ~isnan (dg.ulp_rounded)
      break;
    end
  end
  dg.motion_err = NaN;
  dg.max_lambda = NaN;
  dg.exitflag = NaN;
  if ~isnan (dg.ulp_rounded)
    [q, v] = scaled_state (cs, dg.ulp_rounded);
    s = gauss_integrate (sys, [0 cs.T], q, v, 'RelTol', cs.rtol, 'AbsTol', cs.atol, 'OutputTimes', cs.tt);
    dg.exitflag = s.exitflag;
    dg.run_message = s.message;
    if s.exitflag == 1
      dg.motion_err = max (abs (s.q(:) - s1.q(:)));
      dg.max_lambda = max (abs (s.lambda));
    end
  end
end

function [q, v] = scaled_state (cs, j)
  % the initial state with x1 (quadric) or xdot_i of the largest weight w_i (random ODE) moved by
  % j units in the last place
  q = cs.q0;
  v = cs.v0;
  if cs.holonomic
    q(1) = q(1) + j * eps (q(1));
  else
    [~, i] = max (cs.w);
    v(i) = v(i) + j * eps (v(i));
  end
end

function [lam, a] = gauss_terms (sys, X, V, holonomic)
  % Gauss's principle from mechsys_eval terms (one constraint):
  % M a = f + A' lam, A a = rhs; velocity constraint: A = g_qdot, rhs = -(g_q xdot + g_t);
  % holonomic (time independent): A = g_q, rhs = -xdot' g_qq xdot
  np = size (X, 1);
  n = size (X, 2);
  o = mechsys_eval (sys, 0, X, V, 'blocks', {'eom', 'constraints'}, 'lambda', ones (np, 1));
  a = zeros (np, n);
  lam = zeros (np, 1);
  for p = 1:np
    M = reshape (o.M(p, :, :), n, n);
    f = o.f(p, :)';
    v = V(p, :)';
    if holonomic
      G = reshape (o.g_q(p, 1, :), 1, n);
      H = reshape (o.lg_qq(p, :, :), n, n);
      rhs = -(v' * H * v);
    else
      G = reshape (o.g_qdot(p, 1, :), 1, n);
      Gq = reshape (o.g_q(p, 1, :), 1, n);
      rhs = -(Gq * v + o.g_t(p));
    end
    Mf = M \ f;
    MG = M \ G';
    lam(p) = (G * MG) \ (rhs - G * Mf);
    a(p, :) = (Mf + MG * lam(p))';
  end
end

function check_exit (s, descr)
  if s.exitflag ~= 1
    error ('demo_constraint_description: gauss_integrate failed for %s: %s', descr, s.message);
  end
end

% ---------------------------------------------------------------- output

function print_table (r)
  fprintf ('The ideal reaction does not depend on the description of the constraint set (Zubelevich Sec. 6)\n');
  fprintf ('descriptions: phi, h(phi) = phi^3 + 2 phi, k phi (k > 0); predicted: same motion,\n');
  fprintf ('lambda_phi = h''(0) lambda_h = 2 lambda_h, lambda_phi = k(z) lambda_k; %.1f s\n\n', r.time);
  vm_demo_table (r.checks, '%.4e', 'system');
  fprintf ('\nreferences: closed form 3.3 (random ODE), -(x,xdot)/||xdot||^2 and -(xdot,A xdot)/(2|Ax|^2),\n');
  fprintf ('the predicted factors h''(0) = 2 and k(z(t)); tolerances: rounding (on S), local error bounds (runs)\n');
  fprintf ('\nthe degenerate description phi^3 (info rows; Hypothesis 2 fails on S):\n');
  for k = 1:numel (r.systems)
    S = r.systems(k);
    fprintf ('%s, exact initial state: %s\n', S.name, S.degenerate.message);
    fprintf ('%s, rounded initial state: %s\n', S.name, S.degenerate.run_message);
  end
  [~, verdict] = vm_demo_verdict (r.checks);
  fprintf ('%s\n', verdict);
end

function draw (r, what)
  if strcmp (what, 'random')
    S = r.systems(1);
    cols = [1, 4, 8];
    sym = 'phi';
  else
    S = r.systems(2);
    cols = [1, 2, 3];
    sym = 'g';
  end
  fs = 6;
  t = S.t;
  % motions: the three descriptions overlaid (indistinguishable at plot scale)
  vm_demo_subplot (3, 1, 1, fs);
  sty = {'-', '--', ':'};
  wid = [3, 1.5, 1.5];
  hold on;
  for d = 1:3
    plot (t, S.q{d}(:, cols), sty{d}, 'linewidth', wid(d));
  end
  hold off;
  xlabel ('t (dimensionless)');
  ylabel ('x_j (dimensionless)');
  title (sprintf ('%s: x_{%d}, x_{%d}, x_{%d}; solid %s, dashed h(%s), dotted k %s', S.name, cols, ...
                  sym, sym, sym));
  set (gca, 'fontsize', fs);
  grid on;
  % multipliers, with a band below the curves for the legend
  vm_demo_subplot (3, 1, 2, fs);
  L = [S.lambda{:}];
  lo = min (L(:));
  hi = max (L(:));
  plot (t, S.lambda{1}, '-', t, S.lambda{2}, '--', t, S.lambda{3}, '-.', 'linewidth', 1.5);
  ylim ([lo - 0.6 * (hi - lo), hi + 0.05 * (hi - lo)]);
  xlabel ('t (dimensionless)');
  ylabel ('lambda (dimensionless)');
  lh = legend ({['lambda of ', sym], ['lambda of ', sym, '^3 + 2 ', sym], ['lambda of k ', sym]}, ...
               'location', 'south', 'orientation', 'horizontal');
  set (lh, 'fontsize', fs);
  title ('multipliers: different for each description');
  set (gca, 'fontsize', fs);
  grid on;
  % ratios against the predictions, legend band above
  vm_demo_subplot (3, 1, 3, fs);
  rk = S.lambda{1} ./ S.lambda{3};
  lo = min ([rk; S.hprime]);
  hi = max ([rk; S.hprime]);
  plot (t, S.lambda{1} ./ S.lambda{2}, '-', t, S.hprime * ones (size (t)), 'k--', ...
        t, rk, '-', t, S.kpred, 'k:', 'linewidth', 1.5);
  ylim ([lo - 0.05 * (hi - lo), hi + 0.8 * (hi - lo)]);
  xlabel ('t (dimensionless)');
  ylabel ('ratio (dimensionless)');
  lh = legend ({['ratio, h(', sym, ')'], 'predicted h''(0) = 2', ['ratio, k ', sym], 'predicted k(z(t))'}, ...
               'location', 'north', 'orientation', 'horizontal');
  set (lh, 'fontsize', fs);
  title (['ratios lambda of ', sym, ' / lambda of h(', sym, '), of k ', sym, ' against the prediction']);
  set (gca, 'fontsize', fs);
  grid on;
end
