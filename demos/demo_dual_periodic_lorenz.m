function results = demo_dual_periodic_lorenz (varargin)
% -*- texinfo -*-
% @deftypefn  {} {} demo_dual_periodic_lorenz ()
% @deftypefnx {} {results =} demo_dual_periodic_lorenz (..., "quiet")
% @deftypefnx {} {results =} demo_dual_periodic_lorenz (..., "png", dir)
% @deftypefnx {} {results =} demo_dual_periodic_lorenz (..., name, value)
% The shortest periodic orbits of the Lorenz attractor (s = 10, r = 28, b = 8/3) as critical
% points of the dual action on a circle (Acharya & Sengupta, Sec.@: 3, Remark 5: with
% s = 2 pi t/T, dx/ds = P F(x), P = T/(2 pi)), found by @code{periodic_orbit} from the candidates
% of @code{periodic_guesses}.  An orbit is labelled by its itinerary, the wing (A: x > 0, B: x < 0)
% of each loop; the primitive itineraries of 2 to 5 loops are the 7 orbits AB, AAB, AAAB, AABB,
% AAAAB, AAABB, AABAB (the demo enumerates them), saddles with one unstable Floquet multiplier.
% (1) search: every candidate of a trajectory over [0, "Horizon"] goes to @code{periodic_orbit}
%     with its defaults; the 7 orbits must be found, candidates of one orbit agree on T to 1e-10,
%     1-loop candidates fail (there is no 1-loop orbit);
% (2) each orbit checked independently: its closure under @code{ode45} (1e-13) on the hand-written
%     field over sol.T (1e-9), T against shooting written here (Newton on the flow map with a phase
%     plane, 1e-10 relative), the unstable multiplier against central differences (1e-6);
%     Viswanath's periods (2003) are printed for comparison;
% (3) AB and AAB from a rough guess (period + 1 %, states + 3e-3): the same T.
% Options: "Horizon" (default 2000), "MaxLoops" (default 5), "MaxCandidates" (default Inf),
% "png", dir (demo_dual_periodic_lorenz.png: the 7 orbits in the (x, z) plane).  @var{results}
% holds @code{candidates}, @code{orbits}, @code{rough}, the printed table @code{checks}, @code{pass}.
% @seealso{periodic_orbit, periodic_guesses, demo_dual_lorenz}
% @end deftypefn

  opt = vm_demo_args ('demo_dual_periodic_lorenz', varargin, ...
                      struct ('Horizon', 2000, 'MaxLoops', 5, 'MaxCandidates', Inf));
  tstart = tic;
  P = struct ('s', 10, 'r', 28, 'b', 8 / 3, 'Horizon', opt.Horizon, 'MaxLoops', opt.MaxLoops);
  tol = struct ('period', 1e-10, 'closure', 1e-9, 'mu', 1e-6, 'spread', 1e-10, 'rough', 1e-10);
  lor = odesys ('states', {'x', 'y', 'z'}, 'parameters', struct ('s', P.s, 'r', P.r, 'b', P.b), ...
                'rhs', {'s*(y - x)', 'x*(r - z) - y', 'x*y - b*z'});
  expected = primitive_words (2, 5);
  timing = struct ('guesses', 0, 'orbits', 0, 'shooting', 0, 'rough', 0);

  % ---- (1) candidates, periodic_orbit on each, labels ----
  t0 = tic;
  cands = periodic_guesses (lor, [1, 1, 1], P.Horizon, 'MaxLoops', P.MaxLoops);
  timing.guesses = toc (t0);
  ntry = min (numel (cands), opt.MaxCandidates);
  cl = struct ('loops', {}, 'T_guess', {}, 'distance', {}, 'exitflag', {}, 'T', {}, 'label', {}, ...
               'iterations', {}, 'time', {}, 'message', {});
  sols = cell (1, ntry);
  t0 = tic;
  for k = 1:ntry
    c = cands(k);
    s = periodic_orbit (lor, c);
    sols{k} = s;
    lab = '';
    T = NaN;
    if s.exitflag == 1
      lab = canonical (itinerary (s.y));
      T = s.T;
    end
    cl(k) = struct ('loops', c.loops, 'T_guess', c.T, 'distance', c.distance, ...
                    'exitflag', s.exitflag, 'T', T, 'label', lab, 'iterations', s.iterations, ...
                    'time', s.time, 'message', s.message);
  end
  timing.orbits = toc (t0);
  conv = find ([cl.exitflag] == 1);
  labels = {cl(conv).label};
  distinct = unique (labels);
  one_loop = find ([cl.loops] == 1);
  spread = 0;
  for i = 1:numel (distinct)
    Ts = [cl(conv(strcmp (labels, distinct{i}))).T];
    spread = max (spread, (max (Ts) - min (Ts)) / min (Ts));
  end

  % ---- (2) each expected orbit: ode45 closure, shooting, FD monodromy ----
  lit = struct ('AB', 1.5586522107162, 'AAB', 2.3059072639399, 'AAAB', 3.0235837034339, ...
                'AABB', 3.0842767758221);
  ode_opt = odeset ('RelTol', 1e-13, 'AbsTol', 1e-13, 'Refine', 1);
  orbits = struct ('label', {}, 'found', {}, 'copies', {}, 'T', {}, 'mu1', {}, ...
                   'period_error', {}, 'closure', {}, 'N', {}, 'iterations', {}, 'time', {}, ...
                   'closure_ode45', {}, 'T_shoot', {}, 'T_rel_err', {}, 'shoot_residual', {}, ...
                   'shoot_dT', {}, 'mu1_fd', {}, 'mu1_fd_2h', {}, 'fd_estimate', {}, ...
                   'mu1_rel_err', {}, 'T_lit', {}, 't', {}, 'y', {});
  for i = 1:numel (expected)
    o = struct ('label', expected{i}, 'found', false, 'copies', 0, 'T', NaN, 'mu1', NaN, ...
                'period_error', NaN, 'closure', NaN, 'N', NaN, 'iterations', NaN, 'time', NaN, ...
                'closure_ode45', NaN, 'T_shoot', NaN, 'T_rel_err', NaN, 'shoot_residual', NaN, ...
                'shoot_dT', NaN, 'mu1_fd', NaN, 'mu1_fd_2h', NaN, 'fd_estimate', NaN, ...
                'mu1_rel_err', NaN, 'T_lit', NaN, 't', [], 'y', []);
    if isfield (lit, expected{i})
      o.T_lit = lit.(expected{i});
    end
    hit = conv(strcmp (labels, expected{i}));
    if ~isempty (hit)
      closures = cellfun (@(s) s.closure, sols(hit));
      [~, best] = min (closures);
      s = sols{hit(best)};
      o.found = true;
      o.copies = numel (hit);
      o.T = s.T;
      o.mu1 = s.floquet(1);
      o.period_error = s.period_error;
      o.closure = s.closure;
      o.N = s.N;
      o.iterations = s.iterations;
      o.time = s.time;
      o.t = s.t;
      o.y = s.y;
      % (a) closure with ode45, (b), (c) shooting from a perturbed start, monodromy by central
      % differences (the closure's integration is a column of the shooting's first ode45 call).
      % The closure measures the orbit's error amplified by mu_1 plus ode45's own; shooting and
      % the dual are both accurate to about 1e-12 in T; the multiplier's tolerance covers the
      % differences' truncation error, estimated from the +-2h copies, with a margin, and is far
      % below the differences between orbits
      t0 = tic;
      sh = shoot (s.y(1, :)', s.T, P, ode_opt);
      timing.shooting = timing.shooting + toc (t0);
      o.closure_ode45 = sh.closure;
      o.T_shoot = sh.T;
      o.T_rel_err = abs (s.T - sh.T) / sh.T;
      o.shoot_residual = sh.residual;
      o.shoot_dT = sh.dT;
      o.mu1_fd = sh.mu1;
      o.mu1_fd_2h = sh.mu1_2h;
      o.fd_estimate = abs (sh.mu1_2h - sh.mu1) / 3 / abs (sh.mu1);
      o.mu1_rel_err = abs (o.mu1 - sh.mu1) / abs (sh.mu1);
    end
    orbits(i) = o;
  end

  % ---- (3) from a rough guess: T + 1 %, states + 3e-3 (smooth) ----
  t0 = tic;
  rough = struct ('label', {}, 'T_guess', {}, 'perturbation', {}, 'exitflag', {}, 'T', {}, ...
                  'T_ref', {}, 'rel_diff', {}, 'iterations', {});
  for lab = {'AB', 'AAB'}
    o = orbits(strcmp (expected, lab{1}));
    r = struct ('label', lab{1}, 'T_guess', NaN, 'perturbation', 3e-3, 'exitflag', 0, 'T', NaN, ...
                'T_ref', o.T, 'rel_diff', NaN, 'iterations', NaN);
    if o.found
      sarg = 2 * pi * o.t / o.T;
      tg = o.t * 1.01;
      yg = o.y + r.perturbation * [sin(sarg), cos(2 * sarg), sin(3 * sarg + 1)];
      s = periodic_orbit (lor, tg, yg);
      r.T_guess = tg(end);
      r.exitflag = s.exitflag;
      r.T = s.T;
      r.rel_diff = abs (s.T - o.T) / o.T;
      r.iterations = s.iterations;
    end
    rough(end + 1) = r; %#ok<AGROW>
  end
  timing.rough = toc (t0);

  results = struct ();
  results.params = P;
  results.candidates = cl;
  results.tried = ntry;
  results.converged = numel (conv);
  results.success_rate = numel (conv) / max (ntry, 1);
  results.distinct = distinct;
  results.expected = expected;
  results.one_loop_tried = numel (one_loop);
  results.one_loop_converged = sum ([cl(one_loop).exitflag] == 1);
  results.same_label_spread = spread;
  results.orbits = orbits;
  results.rough = rough;
  results.tol = tol;
  results.checks = make_checks (results, tol);
  [results.pass, msg] = vm_demo_verdict (results.checks);
  vm_demo_png (opt, '', @(name) draw (results), [1200, 600]);
  results.time = toc (tstart);
  timing.total = results.time;
  results.timing = timing;
  if ~opt.quiet
    print_tables (results, msg);
  end
end

% the Lorenz field on a 3-by-K array of states (K copies), hand-written
function f = lorenz_rhs (u, P)
  f = [P.s * (u(2, :) - u(1, :)); u(1, :) .* (P.r - u(3, :)) - u(2, :); ...
       u(1, :) .* u(2, :) - P.b * u(3, :)];
end

% the same for ode45: a column of 3 K entries
function f = lorenz_field (u, P)
  f = reshape (lorenz_rhs (reshape (u, 3, []), P), [], 1);
end

% Newton on G(x0, T) = [phi_T(x0) - x0; F(xr).(x0 - xr)], phi by ode45, M by central differences.
% Two evaluations: the first removes the 1e-6 perturbation to ~1e-11, the second correction (dT,
% reported) leaves an error of order dT^2, far below ode45's own error.
function sh = shoot (xr, T, P, ode_opt)
  h = 1e-5;
  Fr = lorenz_rhs (xr, P);
  x0 = xr + 1e-6 * [1; -1; 1];
  E = eye (3);
  for it = 1:2
    R = repmat (x0, 1, 3);
    X = [x0, R + h * E, R - h * E, R + 2 * h * E, R - 2 * h * E];
    if it == 1
      X = [X, xr]; %#ok<AGROW>
    end
    [~, w] = ode45 (@(t, u) lorenz_field (u, P), [0, T], X(:), ode_opt);
    Y = reshape (w(end, :), 3, []);
    if it == 1
      closure = max (abs (Y(:, 14) - xr));
    end
    phi = Y(:, 1);
    M = (Y(:, 2:4) - Y(:, 5:7)) / (2 * h);
    M2 = (Y(:, 8:10) - Y(:, 11:13)) / (4 * h);
    G = [phi - x0; Fr' * (x0 - xr)];
    J = [M - E, lorenz_rhs(phi, P); Fr', 0];
    du = -J \ G;
    x0 = x0 + du(1:3);
    T = T + du(4);
  end
  sh = struct ('T', T, 'x0', x0, 'closure', closure, 'residual', norm (G), 'dT', abs (du(4)), ...
               'mu1', lead (eig (M)), 'mu1_2h', lead (eig (M2)), 'M', M);
end

function m = lead (e)
  [~, k] = max (abs (e));
  m = e(k);
end

% the sign of x at each local maximum of z on a closed orbit (N + 1 rows, last = first)
function w = itinerary (y)
  x = y(1:end - 1, 1);
  z = y(1:end - 1, 3);
  k = find (z > circshift (z, 1) & z >= circshift (z, -1));
  w = repmat ('A', 1, numel (k));
  w(x(k) < 0) = 'B';
end

% the lexicographically smallest word over the rotations of w and of its A<->B swap
function c = canonical (w)
  n = numel (w);
  if n == 0
    c = '';
    return;
  end
  sw = char ('A' + 'B' - w);
  words = cell (1, 2 * n);
  for r = 0:n - 1
    words{r + 1} = circshift (w, [0, -r]);
    words{n + r + 1} = circshift (sw, [0, -r]);
  end
  words = sort (words);
  c = words{1};
end

% the canonical primitive non-constant words of lengths nmin..nmax (by length, then alphabet)
function list = primitive_words (nmin, nmax)
  list = {};
  for n = nmin:nmax
    found = {};
    for k = 0:2^n - 1
      w = char ('A' + (dec2bin (k, n) == '1'));
      if all (w == w(1)) || ~primitive (w)
        continue;
      end
      found{end + 1} = canonical (w); %#ok<AGROW>
    end
    list = [list, unique(found)]; %#ok<AGROW>
  end
end

function yes = primitive (w)
  n = numel (w);
  yes = true;
  for d = 1:n - 1
    if mod (n, d) == 0 && isequal (circshift (w, [0, d]), w)
      yes = false;
      return;
    end
  end
end

function checks = make_checks (res, tol)
  checks = struct ('part', {}, 'name', {}, 'value', {}, 'reference', {}, 'error', {}, ...
                   'tol', {}, 'pass', {}, 'info', {});
  checks = vm_demo_check (checks, 'candidates converged / tried', res.success_rate, NaN, NaN, ...
                          'part', '(1)', 'error', NaN);
  nfound = sum ([res.orbits.found]);
  checks = vm_demo_check (checks, 'orbits of itinerary length 2..5 found (of 7)', nfound, ...
                          numel (res.expected), 0);
  checks = vm_demo_check (checks, '1-loop candidates converged (no 1-loop orbit)', ...
                          res.one_loop_converged, 0, 0);
  checks = vm_demo_check (checks, 'same orbit from 2+ candidates: max dT/T', ...
                          res.same_label_spread, 0, tol.spread);
  part = '(2)';
  for i = 1:numel (res.orbits)
    o = res.orbits(i);
    checks = vm_demo_check (checks, sprintf ('%s: T vs T_shoot (rel.)', o.label), o.T, o.T_shoot, ...
                            tol.period, 'part', part, 'error', o.T_rel_err);
    part = '';
  end
  for i = 1:numel (res.orbits)
    o = res.orbits(i);
    checks = vm_demo_check (checks, sprintf ('%s: closure |x(T) - x(0)|, ode45 1e-13', o.label), ...
                            o.closure_ode45, 0, tol.closure);
  end
  for i = 1:numel (res.orbits)
    o = res.orbits(i);
    checks = vm_demo_check (checks, sprintf ('%s: mu_1 vs FD monodromy (rel.)', o.label), ...
                            real (o.mu1), real (o.mu1_fd), tol.mu, 'error', o.mu1_rel_err);
  end
  for i = 1:numel (res.orbits)
    o = res.orbits(i);
    if ~isnan (o.T_lit)
      checks = vm_demo_check (checks, sprintf ('%s: T vs Viswanath 2003 (rel.)', o.label), o.T, ...
                              o.T_lit, NaN, 'error', abs (o.T - o.T_lit) / o.T_lit);
    end
  end
  part = '(3)';
  for i = 1:numel (res.rough)
    r = res.rough(i);
    checks = vm_demo_check (checks, sprintf ('%s from T+1%%, y+3e-3: T (rel.)', r.label), r.T, ...
                            r.T_ref, tol.rough, 'part', part, 'error', r.rel_diff);
    checks = vm_demo_check (checks, sprintf ('%s from T+1%%, y+3e-3: exitflag', r.label), ...
                            r.exitflag, 1, 0);
    part = '';
  end
end

function print_tables (res, msg)
  P = res.params;
  fprintf ('periodic orbits of Lorenz (s = %g, r = %g, b = %.4g) by the dual action on a circle\n', ...
           P.s, P.r, P.b);
  fprintf ('(1) periodic_guesses from (1, 1, 1) over [0, %g], MaxLoops %d: %d candidates tried, ', ...
           P.Horizon, P.MaxLoops, res.tried);
  fprintf ('%d converged (%.0f %%), %d distinct orbits; 1-loop candidates: %d tried, %d converged\n', ...
           res.converged, 100 * res.success_rate, numel (res.distinct), res.one_loop_tried, ...
           res.one_loop_converged);
  fprintf ('%6s %5s %8s %9s %5s %14s %6s\n', 'loops', 'exit', 'T guess', 'distance', 'iter', 'T', 'label');
  for k = 1:numel (res.candidates)
    c = res.candidates(k);
    fprintf ('%6d %5d %8.4f %9.2e %5d %14.10f %6s\n', c.loops, c.exitflag, c.T_guess, ...
             c.distance, c.iterations, c.T, c.label);
  end
  fprintf ('\n(2) the 7 shortest orbits: periodic_orbit (defaults) against shooting (ode45 1e-13, Newton, FD monodromy h = 1e-5)\n');
  fprintf ('%6s %4s %16s %9s %16s %9s %9s %13s %9s %9s %9s %9s\n', 'orbit', 'cand', 'T', ...
           'T error', 'T_shoot', 'last dT', 'rel diff', 'mu_1', 'mu rel', 'FD est', 'closure', ...
           'ode45');
  for i = 1:numel (res.orbits)
    o = res.orbits(i);
    fprintf ('%6s %4d %16.12f %9.1e %16.12f %9.1e %9.1e %13.8f %9.1e %9.1e %9.1e %9.1e\n', ...
             o.label, o.copies, o.T, o.period_error, o.T_shoot, o.shoot_dT / o.T_shoot, ...
             o.T_rel_err, real (o.mu1), o.mu1_rel_err, o.fd_estimate, o.closure, o.closure_ode45);
  end
  fprintf (['(cand: candidates converging to the orbit; T error: sol.period_error; last dT: the ' ...
            'shooting''s last Newton correction / T;\n mu rel: |mu_1 - mu_1(FD)|/|mu_1|; FD est: ' ...
            '|mu_1(FD, 2h) - mu_1(FD, h)|/3/|mu_1|; closure: sol.closure (DOP853); ode45: the ' ...
            'closure by ode45 1e-13)\n']);
  fprintf ('\n(3) from a rough guess (time stretched by 1 %%, states + 3e-3 (sin s, cos 2s, sin(3s+1))):\n');
  for i = 1:numel (res.rough)
    r = res.rough(i);
    fprintf ('%s: T guess %.6f -> exitflag %d, T = %.12f (%d iterations), rel. diff %.1e\n', ...
             r.label, r.T_guess, r.exitflag, r.T, r.iterations, r.rel_diff);
  end
  fprintf ('\n');
  vm_demo_table (res.checks, '%.10g', 'part');
  t = res.timing;
  fprintf ('time: guesses %.1f s, periodic_orbit %.1f s, closure and shooting %.1f s, rough %.1f s\n', ...
           t.guesses, t.orbits, t.shooting, t.rough);
  fprintf ('%s (%.1f s)\n', msg, res.time);
end

function draw (res)
  % the units said once, in a line above the panels (every quantity of the Lorenz system is
  % dimensionless); balanced side margins keep the titles of the right-hand panels inside
  fs = 3.5;
  colors = lines (numel (res.orbits));
  n = numel (res.orbits);
  mg = [6.5, 6.5, 5.6, 3.4];
  top = 2.2;
  for i = 1:n
    o = res.orbits(i);
    vm_demo_subplot (2, 4, i, fs, mg, top);
    if o.found
      plot (o.y(:, 1), o.y(:, 3), '-', 'color', colors(i, :), 'linewidth', 1.2);
    end
    set (gca, 'fontsize', fs);
    axis ([-22, 22, 0, 50]);
    grid on;
    xlabel ('x');
    ylabel ('z');
    set (gca, 'xtick', -20:10:20);
    title (sprintf ('%s: T = %.5f, \\mu_1 = %.1f', o.label, o.T, real (o.mu1)));
  end
  vm_demo_subplot (2, 4, 8, fs, mg, top);
  hold on;
  for i = 1:n
    o = res.orbits(i);
    if o.found
      plot (o.y(:, 1), o.y(:, 3), '-', 'color', colors(i, :));
    end
  end
  hold off;
  set (gca, 'fontsize', fs);
  axis ([-22, 22, 0, 50]);
  set (gca, 'xtick', -20:10:20);
  grid on;
  xlabel ('x');
  ylabel ('z');
  title (sprintf ('all %d, colours as in their panels', n));
  ax = axes ('position', [0, 0.955, 1, 0.04]);
  set (ax, 'visible', 'off', 'xlim', [0, 1], 'ylim', [0, 1]);
  text (0.5, 0.5, ['Lorenz system, s = 10, r = 28, b = 8/3: periodic orbits in the (x, z) plane; ', ...
                   'T period, \mu_1 unstable Floquet multiplier; all quantities dimensionless'], ...
        'parent', ax, 'horizontalalignment', 'center', 'fontsize', fs);
end
