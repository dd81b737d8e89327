function results = demo_constraint_description (varargin)
% -*- texinfo -*-
% @deftypefn  {} {} demo_constraint_description ()
% @deftypefnx {} {results =} demo_constraint_description (..., "quiet")
% @deftypefnx {} {results =} demo_constraint_description (..., "png", dir)
% The ideal reaction N = phi_xdot' Lambda_phi (Zubelevich, "On infinite dimensional version of the
% Lagrange-d'Alembert principle", eqs.@: 1.4, 4.3) does not depend on the function that describes
% the constraint set (Sec.@: 6, eq.@: 6.3); the multipliers do: for sigma = U(z, phi),
% Lambda_phi = U_y(z, 0)' Lambda_sigma on the set (phi_xdot' is injective), so sigma = h(phi)
% scales lambda by h'(0) and sigma = k(z) phi by k(z).  Two systems: the random ODE with the energy
% constraint (Sec.@: 3, eq.@: 3.1; 8-point Gauss-Hermite measure; reference the closed form 3.3),
% described by phi, phi^3 + 2 phi (h'(0) = 2) and (1 + x1^2 + xdot2^2) phi; the geodesics on the
% quadric (x, A x) = 1 (Sec.@: 2.1, eq.@: 2.4; n = 4, 6), described by g, g^3 + 2 g and exp(x1) g.
% Compared: Gauss's principle assembled from @code{mechsys_eval} terms at 20 states on the set
% (accelerations and multipliers, 1e-12 relative); the @code{gauss_integrate} motions of every
% description against that of phi, within the sum B of the runs' local error bounds; the
% multipliers along the runs against h'(0) and k(z(t)).  Info rows: the degenerate description
% phi^3, whose gradient vanishes on the set, is refused where phi is exactly 0.
% "png", dir writes demo_constraint_description_@{random,quadric@}.png.  @var{results} holds
% @code{systems} (one struct per system), the printed table @code{checks}, @code{pass} and @code{time}.
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
    B(d) = s{d}.stats.naccept * sqrt (2 * n) * (cs.atol + cs.rtol * max (max (abs ([s{d}.output.q, s{d}.output.qdot]))));
  end

  % 1. at 20 states on S: Gauss's principle from mechsys_eval terms
  pick = round (linspace (1, numel (cs.tt), 20));
  [Q, V] = cs.project (s{1}.output.q(pick, :), s{1}.output.qdot(pick, :));
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
  r.q = {s{1}.output.q, s{2}.output.q, s{3}.output.q};
  r.lambda = {s{1}.output.lambda, s{2}.output.lambda, s{3}.output.lambda};
  r.kpred = cs.kfun (s{3}.output.q, s{3}.output.qdot);
  r.hprime = hp;
  r.motion_err = zeros (1, 2);
  r.motion_tol = zeros (1, 2);
  r.lambda_err = zeros (1, 2);
  r.lambda_tol = zeros (1, 2);
  if ~isempty (cs.closed)
    for d = 1:3
      ck = vm_demo_check (ck, sprintf ('x (%s) vs closed form 3.3', desc_label (labels{d}, cs.sym)), ...
                          max (abs (s{d}.output.q(:) - cs.closed(:))), 0, B(d), 'part', part);
    end
  end
  for d = 2:3
    eq = max (abs (s{d}.output.q(:) - s{1}.output.q(:)));
    ev = max (abs (s{d}.output.qdot(:) - s{1}.output.qdot(:)));
    r.motion_err(d - 1) = max (eq, ev);
    r.motion_tol(d - 1) = B(1) + B(d);
    ck = vm_demo_check (ck, sprintf ('motion: max|x(%s) - x(%s)|', labels{d}, cs.sym), eq, 0, ...
                        B(1) + B(d), 'part', part);
    ck = vm_demo_check (ck, sprintf ('motion: max|xdot(%s) - xdot(%s)|', labels{d}, cs.sym), ev, 0, ...
                        B(1) + B(d), 'part', part);
  end

  % 3. multipliers along the runs
  l1 = s{1}.output.lambda;
  lip = max (cs.lam_grad (s{1}.output.q, s{1}.output.qdot));
  round1 = 100 * n * eps * max (cs.lam_scale (s{1}.output.q, s{1}.output.qdot));
  for d = 2:3
    if d == 2
      pred = hp * ones (size (cs.tt));
      what = 'h''(0)';
    else
      pred = r.kpred;
      what = 'k(z)';
    end
    % off-S part of Gauss's formulas at the run's own (unprojected) states
    lg1 = gauss_terms (cs.sys{1}, s{d}.output.q, s{d}.output.qdot, cs.holonomic);
    lgd = gauss_terms (cs.sys{d}, s{d}.output.q, s{d}.output.qdot, cs.holonomic);
    offS = max (abs (lg1 - pred .* lgd));
    tol = lip * (B(1) + B(d)) + offS + round1;
    err = max (abs (l1 - pred .* s{d}.output.lambda));
    r.lambda_err(d - 1) = err;
    r.lambda_tol(d - 1) = tol;
    ck = vm_demo_check (ck, sprintf ('run: lambda_%s vs %s lambda(%s)', cs.sym, what, labels{d}), ...
                        max (abs (l1)), max (abs (pred .* s{d}.output.lambda)), tol, 'error', err, 'part', part);
    ratio = l1 ./ s{d}.output.lambda;
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
      dg.motion_err = max (abs (s.output.q(:) - s1.output.q(:)));
      dg.max_lambda = max (abs (s.output.lambda));
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
