% -*- texinfo -*-
% @deftypefn  {} {@var{r} =} bench_periodic ()
% @deftypefnx {} {@var{r} =} bench_periodic (@var{npair}, @var{shoot_tol})
% Benchmark of @code{periodic_orbit} (the dual action on a circle, Acharya and Sengupta Remark 5)
% against single shooting with @code{fsolve} on @code{ode45}, the alternative a user would write,
% on the same starting guesses.  See @file{bench/README_periodic.md}.
%
% Problems: (1) Van der Pol mu = 1 (x' = v, v' = (1 - x^2) v - x) from 8 rough guesses: circles
% of radius 1.5, 2, 2.5 and 3 with the period guessed 10 % short or long (5.997, 7.330; the period
% is 6.6633), the states perturbed by 3e-3 (sin (3 s + 1), cos (5 s + 2)), s = 2 pi t/T_guess;
% (2) Lorenz (s = 10, r = 28, b = 8/3): the candidates of
% @code{periodic_guesses (lor, [1 1 1], 500, 'MaxLoops', 5)}.
%
% Methods, both from the same guess (a curve t, y):
% @table @asis
% @item periodic_orbit
% with its defaults (order 8, automatic N, PeriodTol 1e-10).
% @item shooting
% unknowns the first point of the guess and T, with a phase condition that fixes one coordinate
% of the first point (Van der Pol: v0 = 0, the section v = 0, on which every circle guess starts;
% Lorenz: z0 = the candidate's z at its first point, the Poincare section z = mean z of
% @code{periodic_guesses}, on which every candidate starts): n equations
% @code{phi_T(x0) - x0 = 0} in n unknowns.  @code{fsolve} with its defaults (trust region dogleg,
% finite-difference Jacobian) and TolFun = TolX = 1e-12; phi_T by @code{ode45} at RelTol =
% AbsTol = @var{shoot_tol} (default 1e-12, which gives T to about the accuracy of periodic_orbit's
% defaults; see the accuracy columns).
% @end table
%
% Success: the method reports convergence (exitflag 1; fsolve info 1 or 2 or 3) and its orbit is
% periodic: the tight reference below, started from the method's own solution, converges and
% agrees with its period to 1e-6 relative, and it is not an equilibrium (|F(x0)| > 1e-6 (1 + |x0|):
% from some Van der Pol guesses shooting converges to the origin with an arbitrary T).  Reference (per solution): Newton on the same
% unknowns with the exact Jacobian from the variational equations and @code{ode45} at
% RelTol = AbsTol = 1e-13.  Accuracy: |T - T_ref|/T_ref.  Both methods may find different orbits
% from one guess (Lorenz): the column "same" says whether their periods agree to 1e-6.
%
% Timing: for every guess the two methods are run in turn @var{npair} times (default 3); the ratio
% shooting / periodic_orbit is taken per pair, its median per guess is printed, and min / median /
% max over the guesses where both succeed.  No timing is asserted.
%
% @var{r} has, per problem (@code{r.vdp}, @code{r.lorenz}), a struct array over the guesses with
% the fields @code{label}, @code{T_guess}, @code{po} and @code{sh} (each: @code{ok}, @code{T},
% @code{T_ref}, @code{err}, @code{time} (median), @code{times}, @code{message}), @code{same},
% @code{ratio} (median over the pairs) and @code{ratios}; and @code{summary}.
% @end deftypefn

function r = bench_periodic (npair, shoot_tol)
  if (nargin < 1 || isempty (npair))
    npair = 3;
  end
  if (nargin < 2 || isempty (shoot_tol))
    shoot_tol = 1e-12;
  end
  t_all = tic;
  r = struct ();
  fprintf ('bench_periodic: periodic_orbit (defaults) vs shooting (fsolve on ode45 %g), %d pairs\n', ...
           shoot_tol, npair);

  % ---- Van der Pol mu = 1 ----
  vdp = odesys ('states', {'x', 'v'}, 'parameters', struct ('mu', 1), ...
                'rhs', {'v', 'mu*(1 - x^2)*v - x'});
  fvdp = @(t, w) [w(2); (1 - w(1)^2) * w(2) - w(1)];
  jvdp = @(w) [0, 1; -2 * w(1) * w(2) - 1, 1 - w(1)^2];
  guesses = {};
  labels = {};
  for rad = [1.5, 2, 2.5, 3]
    for Tg = [0.9, 1.1] * 6.6633
      t = linspace (0, Tg, 60)';
      s = 2 * pi * t / Tg;
      y = rad * [cos(s), -sin(s)] + 3e-3 * [sin(3 * s + 1), cos(5 * s + 2)];
      y(:, 2) = y(:, 2) - y(1, 2);             % the first point on the section v = 0
      guesses{end + 1} = struct ('t', t, 'y', y); %#ok<AGROW>
      labels{end + 1} = sprintf ('circle r = %g, T = %.3f', rad, Tg); %#ok<AGROW>
    end
  end
  r.vdp = run_problem ('Van der Pol mu = 1', vdp, fvdp, jvdp, 2, guesses, labels, npair, shoot_tol);

  % ---- Lorenz ----
  lor = odesys ('states', {'x', 'y', 'z'}, 'parameters', struct ('s', 10, 'r', 28, 'b', 8 / 3), ...
                'rhs', {'s*(y - x)', 'x*(r - z) - y', 'x*y - b*z'});
  flor = @(t, u) [10 * (u(2) - u(1)); u(1) * (28 - u(3)) - u(2); u(1) * u(2) - 8 / 3 * u(3)];
  jlor = @(u) [-10, 10, 0; 28 - u(3), -1, -u(1); u(2), u(1), -8 / 3];
  cands = periodic_guesses (lor, [1 1 1], 500, 'MaxLoops', 5);
  guesses = cell (1, numel (cands));
  labels = cell (1, numel (cands));
  for k = 1:numel (cands)
    guesses{k} = struct ('t', cands(k).t, 'y', cands(k).y);
    labels{k} = sprintf ('%d loops, T = %.3f, dist %.1e', cands(k).loops, cands(k).T, ...
                         cands(k).distance);
  end
  r.lorenz = run_problem ('Lorenz', lor, flor, jlor, 3, guesses, labels, npair, shoot_tol);

  r.summary = [summarize('Van der Pol mu = 1', r.vdp), summarize('Lorenz', r.lorenz)];
  print_summary (r.summary, shoot_tol);
  fprintf ('bench_periodic: %.0f s in all\n', toc (t_all));
end

function R = run_problem (name, ode, f, jac, pc, guesses, labels, npair, shoot_tol)
  % both methods on every guess, npair pairs run in turn; pc: the fixed coordinate of x0
  fprintf ('\n%s: %d guesses\n', name, numel (guesses));
  fprintf ('%-32s | %3s %17s %9s %8s | %3s %17s %9s %8s | %4s %6s\n', 'guess', 'ok', 'T', ...
           'T err', 'time s', 'ok', 'T', 'T err', 'time s', 'same', 'ratio');
  fprintf ('%-32s | %-40s | %-40s |\n', '', 'periodic_orbit', 'shooting (fsolve on ode45)');
  R = struct ('label', {}, 'T_guess', {}, 'po', {}, 'sh', {}, 'same', {}, 'ratio', {}, 'ratios', {});
  for k = 1:numel (guesses)
    g = guesses{k};
    tp = zeros (1, npair);
    ts = zeros (1, npair);
    for j = 1:npair
      t1 = tic;
      sol = periodic_orbit (ode, g.t, g.y);
      tp(j) = toc (t1);
      t1 = tic;
      sh = shoot_fsolve (f, g.t, g.y, pc, shoot_tol);
      ts(j) = toc (t1);
    end
    po = struct ('ok', sol.exitflag == 1, 'T', sol.T, 'T_ref', NaN, 'err', NaN, ...
                 'time', median (tp), 'times', tp, 'message', sol.message);
    if (po.ok)
      [po.T_ref, okr] = tight_reference (f, jac, sol.y(1, :)', sol.T, pc);
      po.ok = okr && abs (po.T_ref - po.T) <= 1e-6 * po.T;
      if (po.ok)
        po.err = abs (po.T - po.T_ref) / po.T_ref;
      end
    end
    shr = struct ('ok', sh.ok, 'T', sh.T, 'T_ref', NaN, 'err', NaN, 'time', median (ts), ...
                  'times', ts, 'message', sh.message);
    if (shr.ok)
      [shr.T_ref, okr] = tight_reference (f, jac, sh.x0, sh.T, pc);
      shr.ok = okr && abs (shr.T_ref - shr.T) <= 1e-6 * shr.T;
      if (shr.ok)
        shr.err = abs (shr.T - shr.T_ref) / shr.T_ref;
      end
    end
    same = po.ok && shr.ok && abs (po.T_ref - shr.T_ref) <= 1e-6 * po.T_ref;
    ratios = ts ./ tp;
    R(end + 1) = struct ('label', labels{k}, 'T_guess', g.t(end) - g.t(1), 'po', po, 'sh', shr, ...
                         'same', same, 'ratio', median (ratios), 'ratios', ratios); %#ok<AGROW>
    fprintf ('%-32s | %3d %17.13f %9.2e %8.3f | %3d %17.13f %9.2e %8.3f | %4d %6.2f\n', labels{k}, ...
             po.ok, po.T, po.err, po.time, shr.ok, shr.T, shr.err, shr.time, same, median (ratios));
  end
end

function sh = shoot_fsolve (f, t, y, pc, tol)
  % single shooting: unknowns x0 without its coordinate pc (fixed: the phase condition) and T
  n = size (y, 2);
  free = setdiff (1:n, pc);
  x0 = y(1, :)';
  z0 = [x0(free); t(end) - t(1)];
  ode_opt = odeset ('RelTol', tol, 'AbsTol', tol);
  fopt = optimset ('TolFun', 1e-12, 'TolX', 1e-12);
  sh = struct ('ok', false, 'T', NaN, 'x0', [], 'message', '');
  % fsolve's dogleg warns of singular matrices on the way (equilibria); the warnings are hidden
  ws = warning ('off', 'all');
  try
    [z, ~, info] = fsolve (@(z) shoot_res (f, z, x0, free, ode_opt), z0, fopt);
  catch err
    warning (ws);
    sh.message = err.message;
    return;
  end
  warning (ws);
  x = x0;
  x(free) = z(1:end - 1);
  sh.ok = any (info == [1, 2, 3]) && z(end) > 0;
  sh.T = z(end);
  sh.x0 = x;
  sh.message = sprintf ('fsolve info %d', info);
end

function res = shoot_res (f, z, x0, free, ode_opt)
  x = x0;
  x(free) = z(1:end - 1);
  T = z(end);
  if (~(T > 0))
    res = 1e3 * ones (numel (x), 1);
    return;
  end
  [~, w] = ode45 (f, [0, T / 2, T], x, ode_opt);
  res = w(end, :)' - x;
end

function [T, ok] = tight_reference (f, jac, x0, T, pc)
  % Newton on (x0 without coordinate pc, T) with the variational equations, ode45 at 1e-13
  n = numel (x0);
  free = setdiff (1:n, pc);
  opt = odeset ('RelTol', 1e-13, 'AbsTol', 1e-13);
  rhs = @(t, w) [f(t, w(1:n)); reshape(jac (w(1:n)) * reshape (w(n + 1:end), n, n), [], 1)];
  ok = false;
  ws = warning ('off', 'all');                % singular J at an equilibrium: reported as failure
  for it = 1:8
    [~, w] = ode45 (rhs, [0, T / 2, T], [x0; reshape(eye (n), [], 1)], opt);
    we = w(end, :)';
    M = reshape (we(n + 1:end), n, n);
    res = we(1:n) - x0;
    E = eye (n);
    J = [M(:, free) - E(:, free), f(0, we(1:n))];
    d = -J \ res;
    x0(free) = x0(free) + d(1:end - 1);
    T = T + d(end);
    if (~all (isfinite (d)) || T <= 0)
      break;
    end
    if (abs (d(end)) <= 1e-12 * T)
      % a periodic orbit, not an equilibrium (which is periodic with any T): |F(x0)| > 0
      ok = norm (f(0, x0)) > 1e-6 * (1 + norm (x0));
      break;
    end
  end
  warning (ws);
end

function s = summarize (name, R)
  po = [R.po];
  sh = [R.sh];
  both = [po.ok] & [sh.ok];
  ratios = [R.ratio];
  s = struct ('problem', name, 'n', numel (R), 'po_ok', sum ([po.ok]), 'sh_ok', sum ([sh.ok]), ...
              'same', sum ([R.same]), 'po_time', median ([po([po.ok]).time]), ...
              'sh_time', median ([sh([sh.ok]).time]), 'ratio_min', min (ratios(both)), ...
              'ratio_med', median (ratios(both)), 'ratio_max', max (ratios(both)), ...
              'po_err_med', median ([po([po.ok]).err]), 'po_err_max', max ([po([po.ok]).err]), ...
              'sh_err_med', median ([sh([sh.ok]).err]), 'sh_err_max', max ([sh([sh.ok]).err]));
end

function print_summary (S, shoot_tol)
  fprintf ('\nsummary (shooting: fsolve defaults, TolFun = TolX = 1e-12, ode45 RelTol = AbsTol = %g)\n', ...
           shoot_tol);
  fprintf ('%-20s %7s | %-29s | %-29s | %-22s\n', '', '', 'periodic_orbit', 'shooting', ...
           'ratio shooting/p_orbit');
  fprintf ('%-20s %7s | %7s %7s %6s %7s | %7s %7s %6s %7s | %6s %6s %6s %5s\n', 'problem', 'guesses', ...
           'success', 'time s', 'err med', 'max', 'success', 'time s', 'err med', 'max', 'min', ...
           'median', 'max', 'same');
  for k = 1:numel (S)
    s = S(k);
    fprintf ('%-20s %7d | %3d/%-3d %7.3f %7.1e %7.1e | %3d/%-3d %7.3f %7.1e %7.1e | %6.2f %6.2f %6.2f %5d\n', ...
             s.problem, s.n, s.po_ok, s.n, s.po_time, s.po_err_med, s.po_err_max, s.sh_ok, s.n, ...
             s.sh_time, s.sh_err_med, s.sh_err_max, s.ratio_min, s.ratio_med, s.ratio_max, s.same);
  end
end
