function results = demo_dual_lorenz_long (varargin)
% -*- texinfo -*-
% @deftypefn  {} {} demo_dual_lorenz_long ()
% @deftypefnx {} {results =} demo_dual_lorenz_long (..., "quiet")
% @deftypefnx {} {results =} demo_dual_lorenz_long (..., "png", dir)
% @deftypefnx {} {results =} demo_dual_lorenz_long (..., "RelTol", tols)
% Long-time behaviour of the dual Lorenz solution (Acharya & Sengupta, Sec.@: 3, eq.@: 29; A = 10,
% R = 28, B = 8/3): the adaptive @code{dual_solve} on [0, 20] at RelTol = 1e-6 ... 1e-9, and how
% its error grows with the largest Lyapunov exponent lambda = 0.906 (exp (lambda T) = 7e7).
% (A) from a state on the attractor, U0 = (13.7932, 12.9518, 34.9016); (B) from (1, 1, 1), info.
% Reference: a Taylor-series integrator written here (order 25, step 0.01; checked against order
% 30, step 0.02), since @code{ode45} at 1e-12 is itself off by its tolerance times the growth (its
% errors are info).  The error e(t) is taken at the ends of the windows, where it accumulates.
% Checked in (A): the reference resolves every error used (e_ref/e <= 1/3); per tolerance the
% least-squares growth rate of log e on [5, 20] within 0.1 of lambda and within 0.05 of the
% finite-time rate of the tangent dynamics M' = J(U) M on that window; the error at T scales as
% RelTol^(4/3) (the in-window error is of order 3, so windows are L ~ RelTol^(1/3) long, and the
% value passed on is of order 4: L^4 per unit time), its exponent within 0.3 of 4/3; and
% @code{dual_solve} with its defaults converges on [0, 20].
% "RelTol": the tolerances (at least two); "png", dir writes demo_dual_lorenz_long.png (log e(t)
% per tolerance with the line exp (lambda t)).  @var{results} holds @code{attractor},
% @code{start111}, @code{defaults}, the printed table @code{checks}, @code{pass} and @code{time}.
% @seealso{demo_dual_lorenz, dual_solve, odesys}
% @end deftypefn

  opt = vm_demo_args ('demo_dual_lorenz_long', varargin, struct ('RelTol', [1e-6, 1e-7, 1e-8, 1e-9]));
  tstart = tic;
  tols = sort (opt.RelTol(:)', 'descend');
  if numel (tols) < 2 || any (~isfinite (tols)) || any (tols <= 0)
    error ('demo_dual_lorenz_long: "RelTol" needs at least two positive tolerances');
  end
  P = struct ('A', 10, 'R', 28, 'B', 8 / 3, 'lambda', 0.906, 'T', 20, 'fit', [5, 20], ...
              'fit_alt', [2, 10], ...
              'q', 4 / 3, 'reltol', tols, 'U0_attractor', [13.7932, 12.9518, 34.9016], ...
              'U0_111', [1, 1, 1]);
  tol = struct ('taylor', 1e-5, 'resolve', 1 / 3, 'lambda', 0.1, 'tangent', 0.05, 'q', 0.3, ...
                'spread', 10);
  ode = odesys ('states', {'x', 'y', 'z'}, 'parameters', struct ('A', P.A, 'R', P.R, 'B', P.B), ...
                'rhs', {'A*(y - x)', 'x*(R - z) - y', 'x*y - B*z'});

  results = struct ();
  results.params = P;
  results.attractor = run_part (ode, P, P.U0_attractor, true);
  results.start111 = run_part (ode, P, P.U0_111, false);
  % dual_solve with its defaults (RelTol 1e-6, AbsTol 1e-8) on the attractor part
  U0 = P.U0_attractor;
  t0 = tic;
  s = dual_solve (ode, [0, P.T], U0);
  d = struct ('exitflag', s.exitflag, 'message', s.message, 'time', toc (t0), ...
              'windows', numel (s.windows.t0), 'eT', NaN);
  d.eT = max (abs (s.y(end, :) - results.attractor.ref.yT));
  results.defaults = d;
  results.tol = tol;
  results.checks = make_checks (results);
  [results.pass, msg] = vm_demo_verdict (results.checks);
  results.time = toc (tstart);

  if ~opt.quiet
    print_tables (results, msg);
  end
  vm_demo_png (opt, '', @(what) draw (results), [1000, 1100]);
  if nargout == 0
    clear results;
  end
end

function part = run_part (ode, P, U0, tight)
  % references, tangent dynamics and the dual runs from one initial state
  T = P.T;
  part = struct ('U0', U0);
  % the Taylor series (main and check) and ode45
  [tk, C, h] = taylor_lorenz (U0, P, 0.01, 25);
  [tk2, C2, h2] = taylor_lorenz (U0, P, 0.02, 30);
  tout = linspace (0, T, 401)';
  yt = taylor_eval (tk, C, h, tout);
  yt2 = taylor_eval (tk2, C2, h2, tout);
  [~, y12] = ode45 (@(t, u) lorenz_ode (t, u, P), tout, U0, odeset ('RelTol', 1e-12, 'AbsTol', 1e-12));
  ref = struct ('taylor_check', max (abs (yt(end, :) - yt2(end, :))), ...
                'ode45_12', max (abs (y12(end, :) - yt(end, :))), 'ode45_13', NaN, ...
                'ode45_rate', NaN, 't', tout, 'e_taylor', max (abs (yt - yt2), [], 2), ...
                'e_ode45', max (abs (y12 - yt), [], 2), 'yT', yt(end, :));
  if tight
    [~, y13] = ode45 (@(t, u) lorenz_ode (t, u, P), tout, U0, odeset ('RelTol', 1e-13, 'AbsTol', 1e-13));
    ref.ode45_13 = max (abs (y13(end, :) - yt(end, :)));
  end
  k = tout >= P.fit(1) & tout <= P.fit(2);
  p = polyfit (tout(k), log (ref.e_ode45(k)), 1);
  ref.ode45_rate = p(1);
  part.ref = ref;
  % tangent dynamics: M' = J(U) M, M(0) = I, sigma_max(M(t, 0))
  tg = linspace (0, T, 801)';
  [~, W] = ode45 (@(t, w) variational_ode (t, w, P), tg, [U0(:); reshape(eye (3), 9, 1)], ...
                  odeset ('RelTol', 1e-10, 'AbsTol', 1e-10));
  logsig = zeros (numel (tg), 1);
  for i = 1:numel (tg)
    logsig(i) = log (norm (reshape (W(i, 4:12), 3, 3)));
  end
  k = tg >= P.fit(1) & tg <= P.fit(2);
  p = polyfit (tg(k), logsig(k), 1);
  part.tangent = struct ('t', tg, 'logsig', logsig, 'rate', p(1), 'ftle', logsig(end) / T);
  % the dual runs
  runs = struct ('reltol', {}, 'abstol', {}, 'exitflag', {}, 'message', {}, 'time', {}, ...
                 'windows', {}, 'rejected', {}, 't', {}, 'e', {}, 'e_ref', {}, 'eT', {}, ...
                 'eT_ode45', {}, 'C', {}, 'rate', {}, 'rate_tangent', {}, 'resolve', {}, 'fit', {}, ...
                 'rate_alt', {});
  for it = 1:numel (P.reltol)
    rt = P.reltol(it);
    t0 = tic;
    s = dual_solve (ode, [0, T], U0, 'RelTol', rt, 'AbsTol', rt / 100);
    r = struct ('reltol', rt, 'abstol', rt / 100, 'exitflag', s.exitflag, 'message', s.message, ...
                'time', toc (t0), 'windows', numel (s.windows.t0), ...
                'rejected', numel (s.rejected.t0), 't', [], 'e', [], 'e_ref', [], 'eT', NaN, ...
                'eT_ode45', NaN, 'C', NaN, 'rate', NaN, 'rate_tangent', part.tangent.rate, ...
                'resolve', NaN, 'fit', [NaN, NaN], 'rate_alt', [NaN, NaN]);
    te = s.windows.t1(:);
    [found, idx] = ismember (te, s.t);
    if ~all (found)
      error ('demo_dual_lorenz_long: a window end is not a node of sol.t');
    end
    yr = taylor_eval (tk, C, h, te);
    r.t = te;
    r.e = max (abs (s.y(idx, :) - yr), [], 2);
    r.e_ref = max (abs (yr - taylor_eval (tk2, C2, h2, te)), [], 2);
    r.eT = max (abs (s.y(end, :) - yt(end, :)));
    r.eT_ode45 = max (abs (s.y(end, :) - y12(end, :)));
    r.C = r.eT / (rt ^ P.q * exp (P.lambda * T));
    k = te >= P.fit(1) & te <= P.fit(2);
    r.fit = polyfit (te(k), log (r.e(k)), 1);
    r.rate = r.fit(1);
    r.resolve = max (r.e_ref(k) ./ r.e(k));
    % other fit windows (info): [2, T] and [10, T]
    for iw = 1:2
      k = te >= P.fit_alt(iw) & te <= P.fit(2);
      p = polyfit (te(k), log (r.e(k)), 1);
      r.rate_alt(iw) = p(1);
    end
    runs(it) = r;
  end
  part.runs = runs;
  p = polyfit (log ([runs.reltol]), log ([runs.eT]), 1);
  part.q = p(1);
  % the exponent between consecutive tolerances
  part.q_pairs = diff (log ([runs.eT])) ./ diff (log ([runs.reltol]));
  part.C_spread = max ([runs.C]) / min ([runs.C]);
  % windows against the tolerance: the window length L follows the in-window error, L ~ RelTol^(1/3)
  p = polyfit (log ([runs.reltol]), log ([runs.windows]), 1);
  part.w_slope = p(1);
end

function du = lorenz_ode (~, u, P)
  % the Lorenz field, written by hand (the references do not use varmech)
  du = [P.A * (u(2) - u(1)); u(1) * (P.R - u(3)) - u(2); u(1) * u(2) - P.B * u(3)];
end

function dw = variational_ode (~, w, P)
  % Lorenz and its variational equation M' = J(U) M, w = [U; M(:)]
  u = w(1:3);
  J = [-P.A, P.A, 0; P.R - u(3), -1, -u(1); u(2), u(1), -P.B];
  du = lorenz_ode (0, u, P);
  dM = J * reshape (w(4:12), 3, 3);
  dw = [du; dM(:)];
end

function [tk, C, h] = taylor_lorenz (U0, P, h, K)
  % Taylor series of order K with step h on [0, T]: the coefficients C(:, :, n) (K+1-by-3) of
  % the step that starts at tk(n).  The Lorenz field is quadratic, so the coefficients follow from
  % (k+1) x_{k+1} = A (y_k - x_k), (k+1) y_{k+1} = R x_k - (x z)_k - y_k,
  % (k+1) z_{k+1} = (x y)_k - B z_k, with (x z)_k the Cauchy product.
  n = round (P.T / h);
  tk = (0:n - 1)' * h;
  C = zeros (K + 1, 3, n);
  u = U0(:)';
  for s = 1:n
    x = zeros (K + 1, 1);
    y = x;
    z = x;
    x(1) = u(1);
    y(1) = u(2);
    z(1) = u(3);
    for k = 1:K
      xz = x(1:k)' * z(k:-1:1);
      xy = x(1:k)' * y(k:-1:1);
      x(k + 1) = P.A * (y(k) - x(k)) / k;
      y(k + 1) = (P.R * x(k) - xz - y(k)) / k;
      z(k + 1) = (xy - P.B * z(k)) / k;
    end
    C(:, :, s) = [x, y, z];
    u = horner ([x, y, z], h);
  end
end

function v = horner (c, d)
  % sum_k c(k, :) d^(k-1), one row per entry of d (a column)
  K = size (c, 1);
  v = repmat (c(K, :), numel (d), 1);
  for k = K - 1:-1:1
    v = v .* repmat (d(:), 1, size (c, 2)) + repmat (c(k, :), numel (d), 1);
  end
end

function Y = taylor_eval (tk, C, h, t)
  % the Taylor reference at the times t (dense output: the series of the step containing t)
  t = t(:);
  n = size (C, 3);
  s = min (floor (t / h + 1e-9) + 1, n);
  d = t - tk(s);
  K = size (C, 1);
  Y = zeros (numel (t), 3);
  for j = 1:3
    cj = reshape (C(:, j, :), K, n);
    acc = cj(K, s)';
    for k = K - 1:-1:1
      acc = acc .* d + cj(k, s)';
    end
    Y(:, j) = acc;
  end
end

function checks = make_checks (res)
  P = res.params;
  tol = res.tol;
  checks = struct ('part', {}, 'name', {}, 'value', {}, 'reference', {}, 'error', {}, 'tol', {}, ...
                   'pass', {}, 'info', {});
  a = res.attractor;
  checks = vm_demo_check (checks, 'Taylor (25, h .01) vs Taylor (30, h .02) at T', ...
                          a.ref.taylor_check, 0, tol.taylor, 'part', '(A) ref');
  checks = vm_demo_check (checks, 'ode45 1e-12 vs Taylor at T (its own error)', a.ref.ode45_12, 0, NaN);
  checks = vm_demo_check (checks, 'ode45 1e-13 vs Taylor at T', a.ref.ode45_13, 0, NaN);
  checks = vm_demo_check (checks, 'ratio of the two ode45 errors at T', ...
                          a.ref.ode45_12 / a.ref.ode45_13, 10, NaN);
  checks = vm_demo_check (checks, 'growth rate of ode45 1e-12 error, fit window', a.ref.ode45_rate, ...
                          P.lambda, NaN);
  checks = vm_demo_check (checks, 'tangent dynamics: rate on the fit window', a.tangent.rate, ...
                          P.lambda, NaN);
  checks = vm_demo_check (checks, 'tangent dynamics: log sigma_max(M(T,0))/T', a.tangent.ftle, ...
                          P.lambda, NaN);
  for it = 1:numel (a.runs)
    r = a.runs(it);
    lab = sprintf ('(A) %.0e', r.reltol);
    checks = vm_demo_check (checks, 'exitflag', r.exitflag, 1, 0, 'part', lab);
    checks = vm_demo_check (checks, 'fitted growth rate vs lambda_max', r.rate, P.lambda, tol.lambda);
    checks = vm_demo_check (checks, 'fitted growth rate vs tangent rate', r.rate, r.rate_tangent, ...
                            tol.tangent);
    checks = vm_demo_check (checks, 'max e_ref/e on the fit window', r.resolve, 0, tol.resolve);
    checks = vm_demo_check (checks, 'e(T) vs Taylor', r.eT, 0, NaN);
    checks = vm_demo_check (checks, 'e(T) vs ode45 1e-12', r.eT_ode45, 0, NaN);
    checks = vm_demo_check (checks, 'e(T) / (RelTol^(4/3) exp(lambda T))', r.C, 0, NaN);
  end
  checks = vm_demo_check (checks, 'slope q of log e(T) vs log RelTol', a.q, P.q, tol.q, 'part', '(A) all');
  checks = vm_demo_check (checks, 'spread of e(T)/(RelTol^(4/3) exp(lambda T))', a.C_spread, 1, ...
                          tol.spread, 'error', a.C_spread);
  checks = vm_demo_check (checks, 'slope of log windows vs log RelTol', a.w_slope, -1 / 3, NaN);
  d = res.defaults;
  checks = vm_demo_check (checks, 'dual_solve defaults: exitflag', d.exitflag, 1, 0, 'part', '(A) def');
  checks = vm_demo_check (checks, 'dual_solve defaults: e(T) vs Taylor', d.eT, 0, NaN);
  b = res.start111;
  checks = vm_demo_check (checks, 'Taylor pair at T', b.ref.taylor_check, 0, NaN, 'part', '(B) ref');
  checks = vm_demo_check (checks, 'ode45 1e-12 vs Taylor at T', b.ref.ode45_12, 0, NaN);
  checks = vm_demo_check (checks, 'tangent dynamics: rate on the fit window', b.tangent.rate, ...
                          P.lambda, NaN);
  checks = vm_demo_check (checks, 'tangent dynamics: log sigma_max(M(T,0))/T', b.tangent.ftle, ...
                          P.lambda, NaN);
  for it = 1:numel (b.runs)
    r = b.runs(it);
    lab = sprintf ('(B) %.0e', r.reltol);
    checks = vm_demo_check (checks, 'exitflag', r.exitflag, 1, 0, 'part', lab);
    checks = vm_demo_check (checks, 'fitted growth rate', r.rate, r.rate_tangent, NaN);
    checks = vm_demo_check (checks, 'e(T) vs Taylor', r.eT, 0, NaN);
    checks = vm_demo_check (checks, 'e(T) / RelTol', r.eT / r.reltol, 0, NaN);
  end
  checks = vm_demo_check (checks, 'slope q of log e(T) vs log RelTol', b.q, P.q, NaN, 'part', '(B) all');
end

function print_tables (res, msg)
  P = res.params;
  fprintf ('dual Lorenz on [0, %g] (Acharya & Sengupta Sec. 3): A = %g, R = %g, B = %.4g; ', ...
           P.T, P.A, P.R, P.B);
  fprintf ('dual_solve adaptive, AbsTol = RelTol/100\n');
  fprintf ('e(t) = max_i |U_i - U_ref,i| at window ends vs a Taylor-series reference; ');
  fprintf ('rates: least-squares slope of log e on t in [%g, %g]\n', P.fit);
  parts = {'attractor', 'start111'};
  titles = {'(A) U0 on the attractor', '(B) U0'};
  for ip = 1:2
    a = res.(parts{ip});
    fprintf ('\n%s = (%g, %g, %g): tangent rate %.3f on the fit window, log sigma_max(M(T,0))/T = %.3f\n', ...
             titles{ip}, a.U0, a.tangent.rate, a.tangent.ftle);
    fprintf ('reference: Taylor pair differs by %.1e at T; ode45 1e-12 off by %.1e at T', ...
             a.ref.taylor_check, a.ref.ode45_12);
    if ~isnan (a.ref.ode45_13)
      fprintf (', ode45 1e-13 by %.1e', a.ref.ode45_13);
    end
    fprintf ('\n%8s %5s %6s %8s %9s %9s %9s %9s %9s %7s %7s %7s %7s\n', 'RelTol', 'exit', 'wins', ...
             'rejected', 'e(T)', 'e(T)ode45', 'e(T)/tol', 'C', 'e_ref/e', 'rate', ...
             sprintf ('[%g,%g]', P.fit_alt(1), P.T), sprintf ('[%g,%g]', P.fit_alt(2), P.T), 'time');
    for it = 1:numel (a.runs)
      r = a.runs(it);
      fprintf ('%8.0e %5d %6d %8d %9.2e %9.2e %9.2e %9.2e %9.2e %7.3f %7.3f %7.3f %6.1fs\n', ...
               r.reltol, r.exitflag, r.windows, r.rejected, r.eT, r.eT_ode45, r.eT / r.reltol, r.C, ...
               r.resolve, r.rate, r.rate_alt, r.time);
    end
    fprintf ('slope of log e(T) vs log RelTol: %.2f (consecutive pairs: %s); C = e(T)/(RelTol^(4/3) exp(%.3f T))\n', ...
             a.q, strtrim (sprintf ('%.2f ', a.q_pairs)), P.lambda);
  end
  d = res.defaults;
  fprintf ('\ndual_solve (ode, [0 %g], U0) with its defaults: exitflag %d, %d windows, e(T) = %.2e, %.1f s\n', ...
           P.T, d.exitflag, d.windows, d.eT, d.time);
  fprintf ('\n');
  vm_demo_table (res.checks, '%.4g', 'part');
  fprintf ('%s (%.1f s)\n', msg, res.time);
end

function draw (res)
  % each panel has its key in a strip between its title and the panel above (vm_demo_key), off
  % the curves
  P = res.params;
  colors = [0, 0.447, 0.741; 0.85, 0.325, 0.098; 0.466, 0.674, 0.188; 0.494, 0.184, 0.556; ...
            0.301, 0.745, 0.933];
  fs = 6;
  parts = {'attractor', 'start111'};
  titles = {'(A) U0', '(B) U0'};
  for ip = 1:2
    a = res.(parts{ip});
    [ax, th] = vm_demo_subplot (2, 1, ip, fs, [9.5, 2, 7, 3.4 + 1.6 * 4 + 2]);
    hold on;
    specs = {};
    leg = {};
    tm = mean (P.fit);
    for it = 1:numel (a.runs)
      r = a.runs(it);
      c = colors(1 + mod (it - 1, size (colors, 1)), :);
      plot (r.t, log10 (r.e), '-', 'color', c, 'linewidth', 1);
      specs{end + 1} = {'-', 'color', c, 'linewidth', 1}; %#ok<AGROW>
      leg{end + 1} = sprintf ('dual, RelTol %.0e (fitted rate %.3f)', r.reltol, r.rate); %#ok<AGROW>
      % exp (0.906 t) through the fitted line at the middle of the fit window
      tl = [0, P.T];
      plot (tl, (r.fit(2) + r.fit(1) * tm + P.lambda * (tl - tm)) / log (10), '--', 'color', c, ...
            'linewidth', 1);
    end
    specs{end + 1} = {'--', 'color', c, 'linewidth', 1};
    leg{end + 1} = sprintf ('C exp(%.3f t) through each fit', P.lambda);
    plot (a.ref.t, log10 (a.ref.e_ode45), '-', 'color', [0.5, 0.5, 0.5]);
    specs{end + 1} = {'-', 'color', [0.5, 0.5, 0.5]};
    leg{end + 1} = 'ode45 1e-12 vs Taylor (its own error)';
    plot (a.ref.t, log10 (max (a.ref.e_taylor, 1e-16)), ':', 'color', [0, 0, 0]);
    specs{end + 1} = {':', 'color', [0, 0, 0]};
    leg{end + 1} = 'Taylor vs Taylor check (reference error)';
    if ip == 2
      % the tangent growth, shifted onto the smallest tolerance's error at the fit window's start
      r = a.runs(end);
      [~, k1] = min (abs (r.t - P.fit(1)));
      [~, k2] = min (abs (a.tangent.t - P.fit(1)));
      shift = log10 (r.e(k1)) - a.tangent.logsig(k2) / log (10);
      plot (a.tangent.t, a.tangent.logsig / log (10) + shift, '-.', 'color', [0.6, 0.3, 0], ...
            'linewidth', 1.2);
      specs{end + 1} = {'-.', 'color', [0.6, 0.3, 0], 'linewidth', 1.2}; %#ok<AGROW>
      leg{end + 1} = 'sigma_{max}(M(t, 0)), shifted'; %#ok<AGROW>
    end
    hold off;
    set (gca, 'fontsize', fs);
    grid on;
    xlabel ('t (dimensionless)');
    ylabel ('log_{10} max_i |U_i - U_{ref,i}|');
    title (sprintf ('%s = (%.4g, %.4g, %.4g): error at the window ends, fit on [%g, %g]', titles{ip}, ...
                    a.U0, P.fit));
    if ip == 1
      ylim ([-16, 2]);
    end
    p = get (ax, 'position');
    vm_demo_key (specs, leg, fs, 2, [0.01, p(2) + p(4) + 4 * th, 0.98, 1.6 * 4 * th]);
  end
end
