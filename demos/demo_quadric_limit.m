function results = demo_quadric_limit (varargin)
% -*- texinfo -*-
% @deftypefn  {} {} demo_quadric_limit ()
% @deftypefnx {} {results =} demo_quadric_limit (..., "quiet")
% @deftypefnx {} {results =} demo_quadric_limit (..., "png", dir)
% @deftypefnx {} {results =} demo_quadric_limit (..., "NMax", nmax, "GL6Max", m)
% Geodesics on a quadric in l2 (Zubelevich, "On infinite dimensional version of the
% Lagrange-d'Alembert principle", Sec.@: 2.1, eq.@: 2.4): xddot = -lambda W x,
% lambda = (xdot, W xdot)/|W x|^2 on (x, W x) = 1, W diagonal with the pair coefficients
% w_j = 2 - 1/j (bounded, as the paper requires), truncated to n = 4, 8, ..., nmax components.
% The data are the truncations of a_k = 1/k, b_k = (-1)^k/k, put on the quadric and made tangent.
% The head feels the tail only through lambda, quadratically, so successive truncations differ on
% a fixed window of components at rate 2p - 1 = 1 in n and in the full l2 norm at rate
% p - 1/2 = 1/2 (p = 1, the tail decay).  Checked, on [0, 10]: for each n, dop853 (RelTol 1e-12,
% its error estimated against 1e-13) and gl6 (h = 0.1 and 0.05) keep the first integrals of
% Sec.@: 2.1 (the pair momenta L_j, phi = (W x, xdot), T = |xdot|^2/2, g) within their error
% bounds; the rates of the finest pairs; a long gl6 run to t = 1000 at n = 16 without drift
% (dop853 at RelTol 1e-8 for contrast).  The paper prints T = |x|^2/2 (a misprint: it is
% |xdot|^2/2; the table shows that |x|^2/2 varies).  Options: "NMax" (a power of 2 in [32, 256],
% default 256), "GL6Max" (the largest n run with gl6, default 128: its dense stage solve costs
% n^3), "png", dir (demo_quadric_limit_@{distances,drift@}.png).  @var{results} holds @code{runs}
% (one per n), @code{dist}, @code{long}, the printed table @code{checks}, @code{pass} and @code{time}.
% @seealso{demo_quadric_geodesics, gauss_integrate, mechsys}
% @end deftypefn

  opt = vm_demo_args ('demo_quadric_limit', varargin, struct ('NMax', 256, 'GL6Max', 128));
  nmax = opt.NMax;
  if ~isnumeric (nmax) || ~isscalar (nmax) || nmax < 32 || nmax > 256 || 2^round (log2 (nmax)) ~= nmax
    error ('demo_quadric_limit: NMax must be a power of 2 in [32, 256]');
  end
  t_all = tic;
  p = 1;
  T = 10;
  K = 4;
  tg = linspace (0, T, 1001)';
  ns = 2.^(2:round (log2 (nmax)));
  nn = numel (ns);
  c = struct ('part', {}, 'name', {}, 'value', {}, 'reference', {}, 'error', {}, 'tol', {}, ...
              'pass', {}, 'info', {});
  runs = struct ('n', {}, 'x0', {}, 'xdot0', {}, 'time_compile', {}, 'time_dop853', {}, ...
                 'time_gl6', {}, 'gl6_step_time', {}, 'e_dop853', {}, 'e_gl6', {});
  X = cell (1, nn);
  D0 = cell (1, nn);
  ntol = 1e-14;
  h = 0.1;

  for i = 1:nn
    n = ns(i);
    part = sprintf ('n = %d', n);
    t0 = tic;
    [sys, w] = quadric_system (n);
    r.n = n;
    r.time_compile = toc (t0);
    [x0, v0] = initial_data (n, w, p);
    r.x0 = x0;
    r.xdot0 = v0;
    D0{i} = [x0; v0];

    % 1. dop853 at RelTol 1e-12, its error estimated against RelTol 1e-13 (DOP853's error falls by
    % about 10^(7/8) per decade of tolerance: the difference overestimates it by at most 15 %)
    t0 = tic;
    s = gauss_integrate (sys, [0 T], x0, v0, 'Method', 'dop853', 'RelTol', 1e-12, 'AbsTol', 1e-14, ...
                         'OutputTimes', tg);
    r.time_dop853 = toc (t0);
    check_exit (s);
    s2 = gauss_integrate (sys, [0 T], x0, v0, 'Method', 'dop853', 'RelTol', 1e-13, 'AbsTol', 1e-15, ...
                          'OutputTimes', tg);
    check_exit (s2);
    edop = sqrt (sum ([s.output.q - s2.output.q, s.output.qdot - s2.output.qdot].^2, 2));
    r.e_dop853 = max (edop);
    X{i} = s.output.q;
    c = vm_demo_check (c, sprintf ('dop853 global error estimate (vs RelTol 1e-13), %d steps', ...
                                   s.stats.naccept), r.e_dop853, 0, NaN, 'part', part);
    c = integral_checks (c, part, 'dop853', s.output, w, 2 * r.e_dop853, 2 * r.e_dop853);
    xn = 0.5 * sum (s.output.q.^2, 2);
    if i == nn
      c = vm_demo_check (c, 'misprint: |x|^2/2 (paper: const), max - min', max (xn) - min (xn), 0, NaN, ...
                         'part', part);
    end

    % 2. gl6 at h and h/2 (step-halving, order 6: e = |y_h - y_h/2| 64/63), against dop853 at the
    % gl6 grid within 2 (e_gl6 + e_dop853)
    r.time_gl6 = NaN;
    r.gl6_step_time = NaN;
    r.e_gl6 = NaN;
    if n <= opt.GL6Max
      t0 = tic;
      g1 = gauss_integrate (sys, [0 T], x0, v0, 'Method', 'gl6', 'Step', h);
      r.time_gl6 = toc (t0);
      r.gl6_step_time = r.time_gl6 / g1.stats.naccept;
      check_exit (g1);
      g2 = gauss_integrate (sys, [0 T], x0, v0, 'Method', 'gl6', 'Step', h / 2);
      check_exit (g2);
      if max (abs (g2.t(1:2:end) - g1.t)) > 1e-12 || max (abs (tg(1:10:end) - g1.t)) > 1e-12
        error ('demo_quadric_limit: the gl6 grids do not match');
      end
      eg = sqrt (sum ([g1.q - g2.q(1:2:end, :), g1.qdot - g2.qdot(1:2:end, :)].^2, 2)) * 64 / 63;
      r.e_gl6 = max (eg);
      c = vm_demo_check (c, sprintf ('gl6 h = %g: step-halving error estimate', h), r.e_gl6, 0, NaN, ...
                         'part', part);
      nb = g1.stats.naccept * sqrt (2 * n) * ntol * (1 + max (max (abs ([g1.q, g1.qdot]))));
      c = integral_checks (c, part, sprintf ('gl6 h = %g', h), g1, w, nb, 2 * r.e_gl6);
      ed = sqrt (sum ([g1.q - s.output.q(1:10:end, :), g1.qdot - s.output.qdot(1:10:end, :)].^2, 2));
      c = vm_demo_check (c, 'gl6 vs dop853 (state, l2, max over t)', max (ed), 0, ...
                         2 * (r.e_gl6 + r.e_dop853), 'part', part);
    end
    runs(i) = r;
  end

  % 3. convergence in n
  dist = distances (X, D0, ns, tg, K);
  part = 'limit';
  for i = 1:nn - 1
    nm = sprintf ('n = %d -> %d', ns(i), ns(i + 1));
    c = vm_demo_check (c, ['window RMS distance, ', nm], dist.window_rms(i), NaN, NaN, 'part', part, 'error', NaN);
  end
  eint = max ([runs.e_dop853]);
  dmin = min ([dist.window_rms, dist.window_sup]);
  c = vm_demo_check (c, 'dop853 error / smallest distance', eint / dmin, 0, 1e-2, 'part', part);
  egl = [runs.e_gl6];
  egl = egl(~isnan (egl));
  if ~isempty (egl)
    c = vm_demo_check (c, sprintf ('gl6 h = %g error / smallest distance', h), max (egl) / dmin, 0, 1e-2, ...
                       'part', part);
  end
  e_rel = eint ./ dist.window_rms;
  c = rate_check (c, 'window rate (RMS), finest pair', dist.rate_window_rms, 2 * p - 1, e_rel, ns);
  e_rel = eint ./ dist.full_rms;
  c = rate_check (c, 'full l2 rate (RMS), finest pair', dist.rate_full_rms, p - 0.5, e_rel, ns);
  c = vm_demo_check (c, 'window rate (sup over t), finest pair', dist.rate_window_sup(end), 2 * p - 1, NaN, ...
                     'part', part);
  c = vm_demo_check (c, 'full l2 rate (sup over t), finest pair', dist.rate_full_sup(end), p - 0.5, NaN, ...
                     'part', part);
  c = vm_demo_check (c, 'initial data l2 rate, finest pair', dist.rate_data(end), p - 0.5, NaN, 'part', part);
  q = 2^(-(2 * p - 1));
  c = vm_demo_check (c, sprintf ('window RMS distance of n = %d to the limit (estimate)', ns(end)), ...
                     dist.window_rms(end) * q / (1 - q), NaN, NaN, 'part', part, 'error', NaN);

  % 4. long run, gl6 at n = 16
  nl = 16;
  TL = 1000;
  part = sprintf ('long n = %d', nl);
  [sys, w] = quadric_system (nl);
  [x0, v0] = initial_data (nl, w, p);
  t0 = tic;
  sg = gauss_integrate (sys, [0 TL], x0, v0, 'Method', 'gl6', 'Step', h);
  tlong = toc (t0);
  check_exit (sg);
  nb = sg.stats.naccept * sqrt (2 * nl) * ntol * (1 + max (max (abs ([sg.q, sg.qdot]))));
  [Ig, gradg] = invariants (sg, w);
  c = vm_demo_check (c, sprintf ('gl6 h = %g T = %g (%d steps, %.1f s): phi', h, TL, sg.stats.naccept, tlong), ...
                     max (abs (Ig.phi)), 0, nb * max (gradg.phi), 'part', part);
  c = vm_demo_check (c, 'gl6: max_j |L_j - L_j(0)|', max (max (abs (Ig.dL))), 0, nb * max (gradg.L), 'part', part);
  % T and g: the bounded O(h^6) error (the largest over the first 10%, factor 2 for the sampling of
  % its quasi-periodic envelope) plus what the rounding drift of phi feeds in through
  % dT/dt = -lambda phi and dg/dt = 2 phi
  lam = sum (sg.qdot.^2 * diag (w), 2) ./ sum ((sg.q * diag (w)).^2, 2);
  [rT, devT, eT] = drift_ratio (sg.t, abs (Ig.T - Ig.T(1)), TL);
  [rg, devg, eg] = drift_ratio (sg.t, abs (Ig.g), TL);
  c = vm_demo_check (c, 'gl6: max |T - T0|', max (devT), 0, 2 * eT + TL * max (lam) * max (abs (Ig.phi)), ...
                     'part', part);
  c = vm_demo_check (c, 'gl6: max |g|', max (devg), 0, 2 * eg + 2 * TL * max (abs (Ig.phi)), 'part', part);
  c = vm_demo_check (c, 'gl6: |T - T0| drift ratio last/first 10%', rT, 1, NaN, 'part', part, 'error', rT - 1);
  c = vm_demo_check (c, 'gl6: |g| drift ratio last/first 10%', rg, 1, NaN, 'part', part, 'error', rg - 1);
  sd = gauss_integrate (sys, [0 TL], x0, v0, 'Method', 'dop853', 'RelTol', 1e-8, 'AbsTol', 1e-10);
  check_exit (sd);
  Id = invariants (sd, w);
  [rTd, devTd] = drift_ratio (sd.t, abs (Id.T - Id.T(1)), TL);
  c = vm_demo_check (c, 'dop853 1e-8: |T - T0| drift ratio (contrast)', rTd, 1, NaN, 'part', part, ...
                     'error', rTd - 1);
  c = vm_demo_check (c, 'dop853 1e-8: max |T - T0| (contrast)', max (devTd), 0, NaN, 'part', part);
  long = struct ('n', nl, 'h', h, 'T', TL, 't_gl6', sg.t, 'T_gl6', devT, 'g_gl6', devg, ...
                 'phi_gl6', abs (Ig.phi), 'L_gl6', max (abs (Ig.dL), [], 2), 't_dop853', sd.t, ...
                 'T_dop853', devTd, 'g_dop853', abs (Id.g), 'time_gl6', tlong);

  results.p = p;
  results.T = T;
  results.K = K;
  results.ns = ns;
  results.w = (2 - 1 ./ (1:ns(end) / 2))';
  results.runs = runs;
  results.dist = dist;
  results.long = long;
  results.checks = c;
  results.pass = vm_demo_verdict (c);
  results.time = toc (t_all);

  if ~opt.quiet
    print_tables (results);
  end
  vm_demo_png (opt, {'distances', 'drift'}, @(what) draw (results, what));
  if nargout == 0
    clear results;
  end
end

function [sys, w] = quadric_system (n)
  % free particle on sum_j w_j (x_(2j-1)^2 + x_(2j)^2) = 1, w_j = 2 - 1/j; returns W's diagonal
  names = cell (1, n);
  vel = cell (1, n);
  for k = 1:n
    names{k} = sprintf ('x%d', k);
    vel{k} = sprintf ('dot(x%d)^2', k);
  end
  prm = struct ();
  terms = cell (1, n / 2);
  wj = 2 - 1 ./ (1:n / 2);
  for j = 1:n / 2
    pn = sprintf ('w%d', j);
    prm.(pn) = wj(j);
    terms{j} = sprintf ('%s*(x%d^2 + x%d^2)', pn, 2 * j - 1, 2 * j);
  end
  lag = ['(', strjoin(vel, ' + '), ')/2'];
  con = [strjoin(terms, ' + '), ' - 1'];
  sys = mechsys ('coordinates', names, 'parameters', prm, 'lagrangian', lag, 'constraints', {con});
  w = reshape ([wj; wj], [], 1);
end

function [x0, v0] = initial_data (n, w, p)
  % truncation of a_k = k^-p, b_k = (-1)^k k^-p: on the quadric, tangent, |xdot0| = 1
  k = (1:n)';
  x0 = k.^(-p);
  x0 = x0 / sqrt (x0' * (w .* x0));
  v0 = (-1).^k .* k.^(-p);
  wx = w .* x0;
  v0 = v0 - wx * (wx' * v0) / (wx' * wx);
  v0 = v0 / norm (v0);
end

function [I, grad] = invariants (s, w)
  % T, g, phi, L_j - L_j(0) along a run and the l2 norms of their gradients in (x, xdot)
  x = s.q;
  v = s.qdot;
  wx = bsxfun (@times, x, w');
  wv = bsxfun (@times, v, w');
  I.T = 0.5 * sum (v.^2, 2);
  I.g = sum (x .* wx, 2) - 1;
  I.phi = sum (wx .* v, 2);
  L = x(:, 1:2:end) .* v(:, 2:2:end) - x(:, 2:2:end) .* v(:, 1:2:end);
  I.dL = bsxfun (@minus, L, L(1, :));
  grad.T = sqrt (sum (v.^2, 2));
  grad.g = 2 * sqrt (sum (wx.^2, 2));
  grad.phi = sqrt (sum (wx.^2 + wv.^2, 2));
  grad.L = max (sqrt (x(:, 1:2:end).^2 + x(:, 2:2:end).^2 + v(:, 1:2:end).^2 + v(:, 2:2:end).^2), [], 2);
end

function c = integral_checks (c, part, label, s, w, tol_exact, e_state)
  % phi and L_j with the tolerance tol_exact (times the gradient), T and g with the state error
  % (an invariant changes only through the state's error e: tolerance max |grad I| e).  phi and L_j
  % are quadratic invariants of eq. 2.4, which gl6 keeps to its Newton tolerance: for gl6,
  % tol_exact = N sqrt (2n) ntol (1 + max |y|) (N steps, sqrt (2n) from the max norm of the Newton
  % test to the l2 norm); for dop853 2 e as for T and g (the factor 2 covers the estimate of e)
  [I, grad] = invariants (s, w);
  c = vm_demo_check (c, sprintf ('%s: phi = (W x, xdot)', label), max (abs (I.phi)), 0, ...
                     tol_exact * max (grad.phi), 'part', part);
  c = vm_demo_check (c, sprintf ('%s: max_j |L_j - L_j(0)| (%d L_j)', label, size (I.dL, 2)), ...
                     max (max (abs (I.dL))), 0, tol_exact * max (grad.L), 'part', part);
  c = vm_demo_check (c, sprintf ('%s: |xdot|^2/2 - T0', label), max (abs (I.T - I.T(1))), 0, ...
                     e_state * max (grad.T), 'part', part);
  c = vm_demo_check (c, sprintf ('%s: g = (x, W x) - 1', label), max (abs (I.g)), 0, ...
                     e_state * max (grad.g), 'part', part);
end

function d = distances (X, D0, ns, tg, K)
  % distances between successive truncations: window (first K components) and full l2,
  % RMS and sup over t; and of the initial data
  nn = numel (ns);
  T = tg(end) - tg(1);
  fields = {'window_rms', 'window_sup', 'full_rms', 'full_sup', 'data'};
  for f = 1:numel (fields)
    d.(fields{f}) = zeros (1, nn - 1);
  end
  for i = 1:nn - 1
    a = X{i};
    b = X{i + 1};
    ew = sqrt (sum ((a(:, 1:K) - b(:, 1:K)).^2, 2));
    ef = sqrt (sum (([a, zeros(size (a))] - b).^2, 2));
    d.window_rms(i) = sqrt (trapz (tg, ew.^2) / T);
    d.window_sup(i) = max (ew);
    d.full_rms(i) = sqrt (trapz (tg, ef.^2) / T);
    d.full_sup(i) = max (ef);
    n = ns(i);
    u = D0{i};
    v = D0{i + 1};
    d.data(i) = norm ([u(1:n); zeros(n, 1); u(n + 1:end); zeros(n, 1)] - v);
  end
  for f = 1:numel (fields)
    e = d.(fields{f});
    d.(['rate_', fields{f}]) = log2 (e(1:end - 1) ./ e(2:end));
  end
end

function c = rate_check (c, name, rates, expected, e_rel, ns)
  % the finest pair's rate against the prediction.  The rate r(n) between the pairs (n/2, n) and
  % (n, 2n) is r + C/n + O(n^-2) (the tail sums and W across the tail have O(1/n) corrections of
  % fixed sign), so the tolerance is twice the change of the rate over the last doubling, plus the
  % effect of the integration errors e on the two distances d, (e_a/d_a + e_b/d_b)/log (2)
  m = numel (rates);
  tol = 2 * abs (rates(m) - rates(m - 1)) + (e_rel(m) + e_rel(m + 1)) / log (2);
  c = vm_demo_check (c, sprintf ('%s (n = %d, %d, %d)', name, ns(m), ns(m + 1), ns(m + 2)), rates(m), ...
                     expected, tol, 'part', 'limit');
end

function [ratio, dev, efirst] = drift_ratio (t, dev, T)
  first = t <= 0.1 * T;
  last = t >= 0.9 * T;
  efirst = max (dev(first));
  ratio = max (dev(last)) / efirst;
end

function check_exit (s)
  if s.exitflag ~= 1
    error ('demo_quadric_limit: gauss_integrate failed: %s', s.message);
  end
end

function print_tables (res)
  fprintf ('Geodesics on the quadric sum_k W_k x_k^2 = 1 in l2 (Zubelevich Sec. 2.1, eq. 2.4): truncations n = %s\n', ...
           num2str (res.ns));
  fprintf ('W = diag (w_j, w_j), w_j = 2 - 1/j (bounded, as the paper requires); data a_k = 1/k, b_k = (-1)^k/k\n');
  fprintf ('\nconvergence (window = x_1..x_%d, t in [0, %g]; rate = log2 (d(n/2, n) / d(n, 2n))):\n', res.K, res.T);
  d = res.dist;
  fprintf ('%5s %6s | %10s %6s | %10s %6s | %10s %6s | %10s %6s | %10s %6s\n', 'n', '2n', 'win RMS', 'rate', ...
           'win sup', 'rate', 'full RMS', 'rate', 'full sup', 'rate', 'data', 'rate');
  for i = 1:numel (d.window_rms)
    fprintf ('%5d %6d | %10.4e %6s | %10.4e %6s | %10.4e %6s | %10.4e %6s | %10.4e %6s\n', res.ns(i), ...
             res.ns(i + 1), d.window_rms(i), rate_text (d.rate_window_rms, i), d.window_sup(i), ...
             rate_text (d.rate_window_sup, i), d.full_rms(i), rate_text (d.rate_full_rms, i), d.full_sup(i), ...
             rate_text (d.rate_full_sup, i), d.data(i), rate_text (d.rate_data, i));
  end
  fprintf ('predicted rates: window 2p - 1 = %g, full l2 and data p - 1/2 = %g (p = %g)\n', ...
           2 * res.p - 1, res.p - 0.5, res.p);
  fprintf ('\ntimings (s): n | mechsys compile | dop853 (RelTol 1e-12) | gl6 h = 0.1 (100 steps) | per gl6 step\n');
  for i = 1:numel (res.runs)
    r = res.runs(i);
    fprintf ('%5d | %8.3f | %8.3f | %8s | %8s\n', r.n, r.time_compile, r.time_dop853, ...
             num_text (r.time_gl6, '%.3f'), num_text (r.gl6_step_time, '%.2e'));
  end
  fprintf ('\n');
  vm_demo_table (res.checks, '%.4e');
  fprintf ('\nreferences: exact conservation; dop853 at RelTol 1e-13; gl6 step halving; the rates derived in the help\n');
  [~, verdict] = vm_demo_verdict (res.checks);
  fprintf ('%s (%.1f s)\n', verdict, res.time);
end

function s = rate_text (r, i)
  if i == 1
    s = '-';
  else
    s = sprintf ('%.4f', r(i - 1));
  end
end

function s = num_text (x, fmt)
  if isnan (x)
    s = '-';
  else
    s = sprintf (fmt, x);
  end
end

function draw (res, what)
  % keys in a strip above the axes (vm_demo_key), off the curves; the drift is drawn as log10 on a
  % linear axis with ticks labelled 10^k, so that ticks cover the curves down to 1e-16 (Octave's
  % gnuplot toolkit drops log-axis ticks below 1e-15)
  colors = [0, 0.447, 0.741; 0.85, 0.325, 0.098; 0.466, 0.674, 0.188; 0.494, 0.184, 0.556];
  fs = 8;
  switch what
    case 'distances'
      vm_demo_subplot (1, 1, 1, fs, [9.5, 2, 5.6, 3.4 + 1.6 * 3 + 1]);
      d = res.dist;
      n = res.ns(1:end - 1);
      loglog (n, d.window_rms, 'o-', 'color', colors(1, :));
      hold on;
      loglog (n, d.full_rms, 's-', 'color', colors(2, :));
      loglog (n, d.window_sup, 'o--', 'color', colors(1, :));
      loglog (n, d.full_sup, 's--', 'color', colors(2, :));
      loglog (n, 0.5 * d.window_rms(end) * n(end) ./ n, 'k:');
      loglog (n, 0.5 * d.full_rms(end) * sqrt (n(end) ./ n), 'k-.');
      hold off;
      xlim ([n(1) / 1.2, n(end) * 1.2]);
      lab = cell (1, numel (n));
      for i = 1:numel (n)
        lab{i} = sprintf ('%d', n(i));
      end
      set (gca, 'xtick', n, 'xticklabel', lab);
      xlabel ('n: x has n components, the head x_1..x_4 is the first 4');
      ylabel ('l2 distance (dimensionless)');
      title ('distance of the truncations n and 2n, t in [0, 10]');
      ylim ([min(0.5 * d.window_rms(end), min (d.window_rms)) / 2, max(d.full_sup) * 2]);
      set (gca, 'fontsize', fs);
      vm_demo_key ({{'o-', 'color', colors(1, :)}, {'s-', 'color', colors(2, :)}, ...
                    {'o--', 'color', colors(1, :)}, {'s--', 'color', colors(2, :)}, {'k:'}, {'k-.'}}, ...
                   {'head x_1..x_4, RMS over t', 'all of x (l2), RMS over t', ...
                    'head x_1..x_4, sup over t', 'all of x (l2), sup over t', ...
                    'slope -1 (predicted, head; shifted)', 'slope -1/2 (predicted, l2; shifted)'}, ...
                   fs - 1, 2);
    otherwise
      vm_demo_subplot (1, 1, 1, fs, [9.5, 2, 5.6, 3.4 + 1.6 * 3 + 1]);
      L = res.long;
      lg = @(v) log10 (max (v, 1e-17));
      plot (L.t_gl6, lg (L.T_gl6), '-', 'color', colors(1, :));
      hold on;
      plot (L.t_gl6, lg (L.g_gl6), '-', 'color', colors(2, :));
      plot (L.t_gl6, lg (L.phi_gl6), '-', 'color', colors(3, :));
      plot (L.t_gl6, lg (L.L_gl6), '-', 'color', colors(4, :));
      plot (L.t_dop853, lg (L.T_dop853), '--', 'color', colors(1, :), 'linewidth', 2);
      plot (L.t_dop853, lg (L.g_dop853), '--', 'color', colors(2, :), 'linewidth', 2);
      hold off;
      xlabel ('t (dimensionless)');
      ylabel ('error of the integral (0 at 1e-17)');
      title (sprintf ('n = %d: gl6 h = %g vs dop853 RelTol 1e-8', L.n, L.h));
      ex = -16:2:-2;
      ylim ([-17, -2]);
      lab = cell (1, numel (ex));
      for i = 1:numel (ex)
        lab{i} = sprintf ('10^{%d}', ex(i));
      end
      set (gca, 'ytick', ex, 'yticklabel', lab, 'fontsize', fs);
      vm_demo_key ({{'-', 'color', colors(1, :)}, {'--', 'color', colors(1, :), 'linewidth', 2}, ...
                    {'-', 'color', colors(2, :)}, {'--', 'color', colors(2, :), 'linewidth', 2}, ...
                    {'-', 'color', colors(3, :)}, {'-', 'color', colors(4, :)}}, ...
                   {'gl6 |T - T0|', 'dop853 |T - T0|', 'gl6 |g|', 'dop853 |g|', 'gl6 |phi|', ...
                    'gl6 max over j |L_j - L_j(0)|'}, fs - 1, 2);
  end
  grid on;
end
