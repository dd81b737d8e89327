function results = demo_periodic_continuation (varargin)
% -*- texinfo -*-
% @deftypefn  {} {} demo_periodic_continuation ()
% @deftypefnx {} {results =} demo_periodic_continuation (..., "quiet")
% @deftypefnx {} {results =} demo_periodic_continuation (..., "png", dir)
% A branch of periodic orbits followed in a parameter by @code{periodic_continue}, with its
% stability and its special points, each checked against an independent reference.
% (1) A fold of periodic orbits in closed form: x' = x (mu + r^2 - r^4) - y (1 + r^2),
%     y' = y (mu + r^2 - r^4) + x (1 + r^2), r^2 = x^2 + y^2.  In polar coordinates
%     r' = r (mu + r^2 - r^4) and theta' = 1 + r^2: the orbits are the circles u = r^2 with
%     mu = u^2 - u, of period T = 2 pi / (1 + u), and the nontrivial Floquet multiplier is
%     exp (T d/dr (r (mu + r^2 - r^4))) = exp (2 u (1 - 2 u) T).  The two branches, stable
%     (u > 1/2) and unstable (u < 1/2), meet at the fold mu = -1/4, u = 1/2, T = 4 pi / 3.  The
%     continuation starts on the stable branch at mu = 0.1, goes down to the fold and back up
%     the unstable branch: every point is checked against the closed form, the fold's place
%     and the change of stability there.
% (2) A period doubling: the Rossler system x' = -y - z, y' = x + a y, z' = b + z (x - c) with
%     a = b = 0.2, its period-1 orbit from c = 2.5 to 3.2.  A multiplier passes through -1 at
%     the first period doubling of the Feigenbaum cascade; the located point is checked by an
%     independent monodromy (ode45 at 1e-12 on the field and its variational equations written
%     here), whose multiplier there must be -1 to the location's tolerance.
% "png", dir writes demo_periodic_continuation.png (T against the parameter, stable solid,
% unstable dashed, the special points marked); without "quiet" the figure is drawn.
% @var{results} holds @code{fold}, @code{pd} (the branches and their errors), @code{checks},
% @code{pass} and @code{time}.
% @seealso{periodic_continue, periodic_orbit, demo_dual_periodic_vdp}
% @end deftypefn

  opt = vm_demo_args ('demo_periodic_continuation', varargin, struct ());
  tstart = tic;

  % ---- (1) the fold: from mu = 0.1 on the outer (stable) circle ----
  f = 'mu + (x^2+y^2) - (x^2+y^2)^2';
  sys = odesys ('states', {'x', 'y'}, 'parameters', struct ('mu', 0.1), 'rhs', ...
                {['x*(' f ') - y*(1 + x^2+y^2)'], ['y*(' f ') + x*(1 + x^2+y^2)']});
  u0 = (1 + sqrt (1 + 4 * 0.1)) / 2;
  t = linspace (0, 3, 40)';                          % a rough circle: T off by 5 %
  po = periodic_orbit (sys, t, sqrt (u0) * [cos(2*pi*t/3), sin(2*pi*t/3)]);
  br = periodic_continue (sys, po, 'mu', [0.1 -0.5], 'MaxSteps', 22);
  fold = struct ('branch', br);
  % the closed form at each point, from its own radius u (the mean of r^2 over the orbit)
  u = cellfun (@(y) mean (sum (y(1:end-1, :).^2, 2)), br.y);
  fold.u = u;
  fold.mu_err = max (abs (br.p - (u.^2 - u)));
  fold.T_err = max (abs (br.T - 2 * pi ./ (1 + u)) ./ br.T);
  [~, j] = max (abs (br.floquet - 1), [], 2);      % the nontrivial multiplier
  mun = br.floquet(sub2ind (size (br.floquet), (1:numel (u))', j));
  mue = exp (2 * u .* (1 - 2 * u) .* br.T);
  fold.floquet_err = max (abs (mun - mue) ./ max (1, mue));
  fold.stable_ok = isequal (br.stable, u > 1/2);
  isfold = strcmp ({br.special.type}, 'fold');
  fold.count = sum (isfold);
  if fold.count > 0
    s = br.special(find (isfold, 1));
    fold.p = s.p;
    fold.T = s.T;
    fold.sigma_tol = s.sigma_tol;
    fold.segment = s.segment;
    % T's error from the bracket: sigma_tol times its rate along the arclength there (the chord
    % of the fold's segment, twice for the rate's change across it), plus its own 1e-9 T
    k = s.segment;
    rate = abs (br.T(k + 1) - br.T(k)) / (br.s(k + 1) - br.s(k));
    fold.T_tol = 2 * rate * s.sigma_tol + 1e-9 * s.T;
  else
    fold.T_tol = NaN;
    fold.p = NaN;
    fold.T = NaN;
    fold.sigma_tol = NaN;
    fold.segment = NaN;
  end

  % ---- (2) the period doubling of Rossler's period-1 orbit ----
  ros = odesys ('states', {'x', 'y', 'z'}, 'parameters', struct ('a', 0.2, 'b', 0.2, 'c', 2.5), ...
                'rhs', {'-y - z', 'x + a*y', 'b + z*(x - c)'});
  cand = periodic_guesses (ros, [1 1 0], 200);      % the first close return: one loop
  po = periodic_orbit (ros, cand(1));
  br2 = periodic_continue (ros, po, 'c', [2.5 3.2], 'MaxStep', 0.25);
  pd = struct ('branch', br2);
  ispd = strcmp ({br2.special.type}, 'period-doubling');
  pd.count = sum (ispd);
  pd.p = NaN;
  pd.mu_ode45 = NaN;
  pd.mu_package = NaN;
  pd.sigma_tol = NaN;
  pd.stable_ok = false;
  if pd.count > 0
    s = br2.special(find (ispd, 1));
    pd.p = s.p;
    pd.sigma_tol = s.sigma_tol;
    mu = independent_multipliers (s.y(1, :)', s.T, 0.2, 0.2, s.p);
    [~, k] = min (abs (mu + 1));
    pd.mu_ode45 = mu(k);
    [~, k] = min (abs (s.floquet + 1));
    pd.mu_package = s.floquet(k);
    pd.stable_ok = all (br2.stable(1:s.segment)) && ~any (br2.stable(s.segment+1:end));
  end

  results = struct ('fold', fold, 'pd', pd);
  results.checks = make_checks (results);
  [results.pass, msg] = vm_demo_verdict (results.checks);
  results.time = toc (tstart);
  if ~opt.quiet
    print_tables (results, msg);
    if isempty (opt.png)
      figure ();
      draw ('', results);
    end
  end
  vm_demo_png (opt, '', @(what) draw (what, results), [1000, 500]);
  if nargout == 0
    clear results;
  end
end

% the Floquet multipliers of the Rossler orbit through x0 with period T: ode45 at 1e-12 on the
% field and its variational equations, the monodromy's eigenvalues
function mu = independent_multipliers (x0, T, a, b, c)
  rhs = @(t, w) [-w(2) - w(3); w(1) + a * w(2); b + w(3) * (w(1) - c); ...
                 reshape([0, -1, -1; 1, a, 0; w(3), 0, w(1) - c] * reshape(w(4:12), 3, 3), 9, 1)];
  o = odeset ('RelTol', 1e-12, 'AbsTol', 1e-12);
  [~, w] = ode45 (rhs, [0, T], [x0; reshape(eye (3), 9, 1)], o);
  mu = eig (reshape (w(end, 4:12), 3, 3));
end

% The checks and their tolerances.  Every point is a periodic_orbit solve with PeriodTol 1e-10,
% so T within about 1e-10 T (1e-9 allows the estimate's factor), and the radius u, hence
% mu = u^2 - u, about as well; the multipliers to about FlowTol per piece of the period
% (1e-8 relative, with the orbit's own error).  A special point is bracketed to sigma_tol in
% the scaled arclength, along which |dp/dsigma| <= |p1 - p0| (0.6 for the fold, whose p is
% extremal there, so far closer); T is off by sigma_tol times its rate along the arclength.  The period doubling's multiplier: the bracket times the multiplier's rate
% (below 1 per unit) plus ode45's error over a period (1e-10).
function checks = make_checks (res)
  checks = struct ('part', {}, 'name', {}, 'value', {}, 'reference', {}, 'error', {}, ...
                   'tol', {}, 'pass', {}, 'info', {});
  f = res.fold;
  checks = vm_demo_check (checks, 'max |mu - (u^2 - u)| on the branch', f.mu_err, 0, 1e-9, ...
                          'part', '(1)');
  checks = vm_demo_check (checks, 'max |T - 2 pi/(1 + u)| / T', f.T_err, 0, 1e-9);
  checks = vm_demo_check (checks, 'max rel. error of the multiplier exp(2u(1-2u)T)', ...
                          f.floquet_err, 0, 1e-8);
  checks = vm_demo_check (checks, 'stable exactly where u > 1/2', double (f.stable_ok), 1, 0);
  checks = vm_demo_check (checks, 'folds found', f.count, 1, 0);
  checks = vm_demo_check (checks, 'the fold: mu', f.p, -1/4, 0.6 * 1e-6 + 1e-10);
  checks = vm_demo_check (checks, 'the fold: T', f.T, 4 * pi / 3, f.T_tol);
  checks = vm_demo_check (checks, 'the fold: final bracket in sigma', f.sigma_tol, 0, 1e-6);
  p = res.pd;
  checks = vm_demo_check (checks, 'period doublings found in c = 2.5 ... 3.2', p.count, 1, 0, ...
                          'part', '(2)');
  checks = vm_demo_check (checks, 'the period doubling: c', p.p, 'det (A + I) = 0', NaN, 'error', NaN);
  tol = p.sigma_tol + 1e-10;
  checks = vm_demo_check (checks, 'multiplier there, package', p.mu_package, -1, tol);
  checks = vm_demo_check (checks, 'multiplier there, ode45 1e-12', p.mu_ode45, -1, tol + 1e-10);
  checks = vm_demo_check (checks, 'stable before it, unstable after', double (p.stable_ok), 1, 0);
end

function print_tables (res, msg)
  fprintf ('Continuation of periodic orbits (periodic_continue)\n\n');
  names = {'(1) the fold system, mu from 0.1', '(2) Rossler a = b = 0.2, c from 2.5'};
  brs = {res.fold.branch, res.pd.branch};
  for k = 1:2
    br = brs{k};
    fprintf ('%s: %s (%.1f s)\n', names{k}, br.message, br.time);
    fprintf ('%12s %16s %8s   %s\n', br.name, 'T', 'stable', 'Floquet multipliers');
    for i = 1:numel (br.p)
      fprintf ('%12.8f %16.12f %8s   %s\n', br.p(i), br.T(i), vm_demo_yesno (br.stable(i)), ...
               num2str (br.floquet(i, :), '%11.4e '));
    end
    for i = 1:numel (br.special)
      s = br.special(i);
      fprintf ('  special: %s at %s = %.12f, T = %.12f (between points %d and %d)\n', s.type, ...
               br.name, s.p, s.T, s.segment, s.segment + 1);
    end
    fprintf ('\n');
  end
  vm_demo_table (res.checks, '%.6g', 'part');
  fprintf ('%s (%.1f s)\n', msg, res.time);
end

% T against the parameter: stable points joined by solid lines, unstable by dashed ones, the
% special points marked; for the fold system also the closed form T = 2 pi / (1 + u) along
% mu = u^2 - u
function draw (~, res)
  brs = {res.fold.branch, res.pd.branch};
  titles = {'(1) a fold of periodic orbits', '(2) Rossler, a period-1 orbit'};
  marks = struct ('fold', 'o', 'period_doubling', 's', 'torus', 'd');
  fs = 7;
  for k = 1:2
    axes ('position', [0.08 + 0.5 * (k - 1), 0.17, 0.38, 0.70]);
    br = brs{k};
    h = zeros (1, 3);
    hold on;
    if k == 1
      u = linspace (0.02, 1.3, 400);
      h(1) = plot (u.^2 - u, 2 * pi ./ (1 + u), '-', 'color', [0.75, 0.75, 0.75], 'linewidth', 4);
    end
    for i = 1:numel (br.p) - 1
      stable = br.stable(i) && br.stable(i + 1);
      styles = {'--', '-'};
      hi = plot (br.p(i:i+1), br.T(i:i+1), styles{1 + stable}, 'color', [0, 0.447, 0.741], ...
                 'linewidth', 1.5);
      h(3 - stable) = hi;
    end
    plot (br.p(br.stable), br.T(br.stable), '.', 'color', [0, 0.447, 0.741], 'markersize', 12);
    plot (br.p(~br.stable), br.T(~br.stable), 'o', 'color', [0, 0.447, 0.741], 'markersize', 4);
    for i = 1:numel (br.special)
      s = br.special(i);
      plot (s.p, s.T, marks.(strrep (s.type, '-', '_')), 'color', [0.85, 0.325, 0.098], ...
            'markersize', 10, 'linewidth', 2);
      text (s.p, s.T, ['   ', s.type], 'color', [0.85, 0.325, 0.098], 'fontsize', fs);
    end
    hold off;
    if k == 1
      xlim ([-0.3, 0.15]);
      ylim ([2.8, 8]);
    end
    set (gca, 'fontsize', fs);
    grid on;
    xlabel (br.name);
    ylabel ('period T');
    title (titles{k});
    labels = {'closed form', 'stable', 'unstable'};
    locations = {'northeast', 'southeast'};
    lh = legend (h(h ~= 0), labels(h ~= 0), 'location', locations{k});
    set (lh, 'fontsize', fs);
  end
end
