% -*- texinfo -*-
% @deftypefn  {} {sol =} periodic_orbit (ode, t_guess, y_guess)
% @deftypefnx {} {sol =} periodic_orbit (ode, cand)
% @deftypefnx {} {sol =} periodic_orbit (..., name, value, ...)
% @deftypefnx {} {sol =} periodic_orbit (..., opts)
% @deftypefnx {} {} periodic_orbit (...)
% Find a periodic orbit of an autonomous ODE xdot = F(x) and its period, from a rough closed
% curve or a candidate of @code{periodic_guesses}.  Options:
% @multitable @columnfractions .2 .8
% @item "PeriodTol" @tab relative accuracy of the period (default 1e-10)
% @item "N" @tab nodes on the period (odd; default: doubled to PeriodTol)
% @item "Order" @tab order of the differences: 2, 4, 6 or 8 (default 8)
% @item "Integral" @tab first integral and "Level" (for conservative systems)
% @item "Display" @tab "off" (default), "final" or "iter"
% @end multitable
% Fields: @code{sol.T} (the period), @code{sol.t}, @code{sol.y} (one period, closed),
% @code{sol.floquet}, @code{sol.exitflag} (1: converged, closes), @code{sol.message}; with
% "OutputTimes" @code{sol.output} (.t, .y).  Example (ode45 from sol.y(1,:) over sol.T closes):
% @verbatim
% vdp = odesys ('states', {'x', 'v'}, 'parameters', struct ('mu', 1), 'rhs', {'v', 'mu*(1 - x^2)*v - x'});
% cands = periodic_guesses (vdp, [2 0], 50);     % close returns of a trajectory
% sol = periodic_orbit (vdp, cands(1));
% fprintf ('T = %.10f, %s\n', sol.T, sol.message);
% plot (sol.y(:,1), sol.y(:,2));  xlabel ('x');  ylabel ('v')
% @end verbatim
%
% @strong{Reference.}  The orbit is a critical point of the dual action of Acharya and Sengupta on
% a circle (their Remark 5 of Sec.@: 3).  @var{ode} is made by @code{odesys}, with differential
% states only and right-hand sides that do not depend on t.  The guess is a rough closed curve:
% times @var{t_guess} (increasing, a vector) and states @var{y_guess} (one row per time, n
% columns), for example a piece of a long trajectory between two close returns, or a candidate
% @var{cand} of @code{periodic_guesses} (a struct with fields t and y).  A guess that does not
% close, such as a stretch of trajectory run past its period, is first cut at its closest return:
% the time in the last tenth of its duration at which it comes closest to its first point (each
% state in units of its amplitude), when that is inside the last tenth.  Without "Integral" the
% guess is replaced by the orbit that multiple shooting finds from it (the warm start, below,
% Search, which cuts the guess in its own way), when that converges.  The duration of the guess (so
% cut or replaced) is the guess of the period; the mismatch between its ends is spread linearly
% over it.  Options are name/value pairs or one struct @var{opts}.  Called without an output
% argument, a solve that does not converge is an error (@code{varmech:periodic_orbit:noconv}); with
% one, check @code{sol.exitflag}.
%
% @strong{Method.}  Time is rescaled, s = 2 pi t / T, and the unknown P = T / (2 pi) is added
% with dP/ds = 0: dx/ds = P F(x) on the circle [0, 2 pi).  The pre-dual Lagrangian is
% @code{L_H = -Ddot . y - D . (P F(x), 0) + 1/2 sum_i c_i (y_i - ybar_i(s))^2} with y = (x, P);
% the duals D are 2 pi-periodic, so the integration by parts leaves no boundary term.  Time
% derivatives are periodic central differences of order "Order" on N equispaced nodes (N odd:
% for even N the alternating grid function would be a second constant).  The time-shift
% invariance is removed by the integral phase condition of AUTO, @code{int w . x ds = 0} with
% w the normalized derivative of the base state (each state divided by its amplitude, below):
% the orbit is the shift closest to the base state in L2; it is linear, needs no Poincare section, and holds identically when the base
% state is the orbit.  Its multiplier nu and the gauge D_P(0) = 0 (adding a constant to the dual
% of P changes nothing) make the Newton system square.  The stationarity equations are the
% periodic collocation equations of the rescaled ODE whatever the base state; the base state
% (the guess, resampled) only sets the size of the duals, hence Newton's convergence.  After
% convergence the base state is replaced by the recovered orbit ("BaseIterations"), at which
% the duals vanish.  The guess is first refined by multiple shooting with the package's
% integrator (below, Search).  See @file{doc/periodic.md}.
%
% @strong{Accuracy.}  With "N" empty (default) N starts at 26 nodes per Fourier mode of the guess
% above 1e-4 of its largest (at least 129; a relaxation oscillation needs thousands before Newton
% converges at all) and is doubled (N -> 2 N + 1) until two successive periods agree to
% "PeriodTol" relative; the previous solution, resampled
% by trigonometric interpolation, is the next base state.  With a given N, a second solve on
% about N/2 nodes gives the estimate.  @code{sol.period_error} is the difference of the two
% last periods (it bounds the error of the coarser one; the finer one is about 2^Order times
% better).  Independently, the orbit is integrated over one period from its first point with the
% package's DOP853 integrator at relative tolerance "FlowTol", together with the variational
% equations: @code{sol.closure} is the distance of the end point from the start, and the
% eigenvalues of the monodromy matrix are the Floquet multipliers (one of them is 1, the
% direction of the flow), each to relative accuracy (below, field floquet).
%
% @strong{Units.}  The solver measures each state in units of its amplitude in the guess, the
% period in units of the guess's period, and its phase condition in those scaled states, so the
% result is the same in any units of time and of the states (Van der Pol in time units of
% 1e-6 s or 1e6 s, and states in units of 1e-6, give the same period in its own units to 1e-10).
%
% Example (the Van der Pol limit cycle, mu = 1, from a rough circle of radius 2):
% @verbatim
% vdp = odesys ('states', {'x', 'v'}, 'parameters', struct ('mu', 1), ...
%   'rhs', {'v', 'mu*(1 - x^2)*v - x'});
% t = linspace (0, 6.5, 60)';                       % period guess 6.5 (it is 6.6633)
% sol = periodic_orbit (vdp, t, [2*cos(2*pi*t/6.5), -2*sin(2*pi*t/6.5)]);
% fprintf ('T = %.10f  (error estimate %.1e), Floquet multipliers %s\n', sol.T, ...
%   sol.period_error, mat2str (sol.floquet.', 4));
% @end verbatim
%
% @strong{Conservative systems} have their periodic orbits in families (one per energy): the
% linearized equations have a second null vector, along the family, and Newton cannot converge.
% Give a first integral I(x) ("Integral") and its value ("Level"): the condition
% @code{(1/2pi) int I(x(s)) ds = Level} (with its own multiplier) selects the member, and an
% unfolding parameter e, @code{dx/ds = P (F(x) + e g(x))} with de/ds = 0 and g ("Unfolding")
% such that grad I . g > 0 (for example g = grad I), makes the system square again; at a periodic
% orbit e = 0 (I would change along it otherwise), reported as @code{sol.unfolding}.
%
% Example (the pendulum at energy E = -cos 2, amplitude 2: T = 4 K(sin^2 1)):
% @verbatim
% pend = odesys ('states', {'th', 'w'}, 'parameters', struct ('g', 1), ...
%   'rhs', {'w', '-g*sin(th)'});
% t = linspace (0, 8.3, 80)';
% sol = periodic_orbit (pend, t, [2*cos(2*pi*t/8.3), -1.5*sin(2*pi*t/8.3)], ...
%   'Integral', 'w^2/2 - g*cos(th)', 'Level', -cos (2), 'Unfolding', {'g*sin(th)', 'w'});
% fprintf ('T = %.12f, 4 K = %.12f, e = %.1e\n', sol.T, 4 * ellipke (sin (1)^2), sol.unfolding);
% @end verbatim
%
% Options:
% @table @asis
% @item "N"
% number of nodes on the period (odd); [] (default): chosen by doubling, see above.
% @item "Order"
% order of the periodic central differences: 2, 4, 6 or 8 (default 8).
% @item "PeriodTol"
% the relative accuracy of T that the automatic N aims at (default 1e-10).
% @item "Tol", "MaxIter"
% Newton's tolerance on the RMS of the collocation residuals, each state's divided by its
% amplitude X_i, relative to the size of the equations' terms at the base state (default
% 1e-12), and its iteration limit (default 50).
% @item "c"
% the weights of H (a positive scalar or n + 1 values, the last for P; with an Integral n + 2,
% the last for the unfolding parameter).  Default []: 1 / X_i^2 for state i (X_i its
% peak-to-peak amplitude in the guess), 1 / Pbar^2 for P and 1 / e_s^2 for the unfolding
% parameter (e_s = RMS (F / X) / RMS (g / X) at the guess: the e that changes F by its own size),
% the weights of a uniform H in the scale-free variables x_i / X_i, P / Pbar and e / e_s.  Only
% their ratios matter (the critical point and Newton's iterates do not change when all are
% scaled alike); with equal weights the coupling of P and x in the DtP map makes Lorenz stall.
% When the automatic weights fail, the solve is retried once with the weights of P and the
% unfolding parameter lowered 1e4 times (a relaxation oscillation such as Van der Pol mu = 10
% needs it from a guess off its orbit); the message says so and sol.c holds the weights used.
% @item "BaseIterations"
% replace the base state by the recovered orbit and solve again, this many times (default 1).
% @item "FlowTol"
% relative tolerance of the closure and monodromy integration (default 1e-12).
% @item "Display"
% "off" (default), "final" (one line per grid), "iter" (Newton's iterations as they run).
% @item "Integral", "Level", "Unfolding"
% a first integral I(x) (a formula in the states and parameters), its value, and the unfolding
% direction g (one formula per state), for conservative systems (above); default: none (Level
% default 0).
% @item "WarmStart"
% "on" (default): without "Integral", the guess is first replaced by the orbit that multiple
% shooting finds from it (Search, below); "off": the dual solve starts from the guess itself.
% @item "OutputTimes"
% times at which the orbit is wanted (any real times, taken modulo the period T; default []:
% none): @code{sol.output} (below), by the trigonometric interpolant of the N nodes.
% @end table
%
% @strong{Search.}  From a base state far from an orbit the duals grow and Newton stalls; the
% base state is therefore replaced by the recovered primal every 2 Newton iterations (the
% duals restart from 0), the paper's "base states to steer the search".  The residual must
% fall from one replacement to the next, otherwise the solve ends (exitflag 0): the guess is too
% far from an orbit.  A run that converges to an equilibrium (an "orbit" of zero amplitude) is
% reported as a failure.  Candidates of @code{periodic_guesses} that do not lie near an orbit
% (for Lorenz, the 1-loop returns) end this way.  A stretch of trajectory of a chaotic flow
% strays from its orbit along the unstable direction (by up to the orbit's unstable multiplier
% times its initial offset) and its ends do not meet: the correction it needs grows along the
% loop with the flow's expansion, while each replacement moves the whole loop by a proximal
% step that weighs every node alike, so the residual stops falling.  Hence the warm start:
% without "Integral", the guess is first continued by the flow over a tenth of its duration
% and cut at its closest return in [0.9, 1.1] times its duration (the window reaches past its
% end, so that a stretch that stops short is continued to its return), then m nodes are placed
% on it (m such that the variational equations grow an error about tenfold per segment) and
% Newton solves
% phi(x_k, T/m) = x_(k+1) cyclically with a Poincare phase condition at the first node, with
% the package's DOP853 integrator and its variational equations (damped, and when that stalls
% a Newton homotopy from the guess).  The orbit it finds, sampled densely, is the guess of the
% dual solve, which then converges in a few iterations; when shooting does not converge (a
% family of orbits, an equilibrium, a guess far from any orbit) the dual solve starts from the
% guess itself.
%
% @strong{Sign conventions.}  The duals multiply the residuals dx/ds - P F(x) (and dP/ds) as in
% @code{dual_solve}; @code{sol.nu} multiplies the phase condition, @code{sol.mu} the integral
% condition.  Multipliers of mechanical constraints do not arise here (an @code{odesys} without
% algebraic states); write the constraint forces into F with the package-wide convention of
% @code{odesys} (eq.@: 3 of the rolling-disk paper).
%
% Fields of @var{sol}:
% @table @code
% @item T
% the period.
% @item t, y
% one period, closed: N + 1 times from 0 to T and the states there (the last row is the first).
% @item floquet
% the Floquet multipliers (eigenvalues of the monodromy matrix), largest modulus first;
% @code{monodromy} the matrix itself.  The period is integrated in K chained pieces, each
% piece's transfer matrix M_k of condition number about 10 (absolute tolerance FlowTol/10 times
% the smallest amplitude, at most 1), so the monodromy is M_K ... M_1; the
% multipliers are the eigenvalues of that product found from the factors without forming it
% (the product QR iteration of the periodic QR algorithm), each to about K FlowTol relative to
% itself, the tiny stable ones included (eig of the formed matrix finds them only to about
% eps max |mu| absolute).  A real multiplier is a product of the factors' own diagonal entries;
% multipliers of equal modulus (a complex pair, a double multiplier 1 of a conservative orbit)
% come from the eigenvalues of their small diagonal block of the product, formed, so accurate
% relative to their own modulus.  @code{monodromy} is the product formed, for inspection.
% @item closure, closure_components
% max |x(T) - x(0)| of the orbit's first point integrated over T (DOP853, "FlowTol"), and
% |x_i(T) - x_i(0)| per state.  A converged orbit whose state i does not come back within
% sqrt (PeriodTol) of its amplitude plus 10 times its estimated discretization error, times the
% largest Floquet multiplier's modulus, is not an orbit of the ODE: exitflag 0, with the reason.
% @item repetitions
% 1, or k > 1 when the orbit closes k times in T (a guess that went round the orbit k times
% converges to that k-fold traversal): its minimal period is T/k, which the message gives.
% @item period_error, state_error
% the differences of T and of the orbit (max norm) between the last two grids.
% @item exitflag, message
% 1 when Newton converged (and, with automatic N, the period reached "PeriodTol") and the orbit
% closes under integration (closure above); 0 otherwise, with the reason.  A failure without
% "Integral" whose guess starts on a closed orbit with two Floquet multipliers 1 (a family of
% orbits: a conservative system) says so first and names "Integral", "Level" and "Unfolding".
% @item iterations, residual_history
% Newton iterations (all grids and base passes) and the residual history of the last solve.
% @item D, nu, residual, base_change
% the duals (N rows: x then P) and the phase multiplier of the last solve, the collocation
% residuals of the recovered orbit, and max |orbit - base state| at each base iteration.
% @item N, Order, grids, time, solver, names
% the final grid size and order, the sizes tried, seconds, "periodic_orbit", the state names.
% @item c
% the weights of H of the last solve (the automatic ones, their retry, or the given ones).
% @item unfolding, integral, mu
% with an Integral: the mean of the unfolding parameter (0 at an orbit), the mean of
% I - Level over the nodes, and the condition's multiplier.
% @item output
% only with @code{"OutputTimes"}: the solution at the K requested times, a struct with @code{t}
% (K-by-1, the requested times as a column) and, for a mechanical system, @code{q}, @code{qdot}
% (K-by-n) and @code{lambda} (K-by-m), for a first-order system @code{y} (K-by-ny) (dual_solve
% adds @code{D}, the duals); the same names in skg_solve, gauss_integrate, dual_solve and
% periodic_orbit.  Here: @code{y} (K-by-n) at t modulo T by the trigonometric interpolant of
% the N nodes (the orbit's, not a new integration), NaN when no orbit was found.
% @end table
%
% @seealso{periodic_guesses, dual_solve, odesys}
% @end deftypefn

function sol = periodic_orbit (ode, varargin)
  fname = 'periodic_orbit';
  tic0 = tic;
  vm_check_flow_system (fname, ode, 'xdot = F(x) (eliminate them first)');
  [tg, yg, rest] = check_guess (fname, ode, varargin);
  [opts, defaults] = vm_options (fname, rest);   % names, defaults, rules: csrc/base/vm_schema.c
  if (isempty (opts.MaxIter))
    opts.MaxIter = defaults.MaxIter;
  end
  [ode_aug, gauge] = augmented (fname, ode, opts);
  n = ode.nd;
  na = numel (gauge);   % P, and the unfolding parameter with an integral condition
  c = check_weights (fname, opts.c, n, na);
  minN = vm_periodic_mex ('min_n', opts.Order);
  if (~isempty (opts.N) && (mod (opts.N, 2) == 0 || opts.N < minN))
    vm_badarg (fname, 'N must be odd and at least %d for order %d; got %d', minN, opts.Order, opts.N);
  end
  % the base state on the first grid: the guess, cut at its closest return, or (WarmStart)
  % the orbit that multiple shooting finds from the guess as given (which it cuts itself), with
  % its end mismatch spread over it
  tg_in = tg;
  yg_in = yg;
  [tg, yg] = closest_return (tg, yg, n);
  tg0 = tg;
  yg0 = yg;
  warm = '';
  if (isempty (opts.Integral) && strcmp (opts.WarmStart, 'on'))
    [tw, yw, winfo] = vm_periodic_warm (ode, tg_in, yg_in, amplitudes (yg_in, n), ...
                                        max (opts.FlowTol, 1e-10));
    if (~isempty (tw))
      tg = tw;
      yg = yw;
    else
      warm = winfo.reason;
    end
  end
  Tg = tg(end) - tg(1);
  if (isempty (opts.N))
    N0 = max ([129, 2 * ceil((minN - 1) / 2) + 1, resolution(tg, yg, Tg)]);
  else
    N0 = 2 * floor ((opts.N - 1) / 4) + 1;   % the estimate's grid, when it is large enough
    if (N0 < minN)
      N0 = opts.N;
    end
  end
  guess = @(N) resample_guess (tg, yg, N, Tg, na);
  ybar0 = guess (N0);
  sc = scales (ode_aug, ybar0, n, na);
  auto_c = isempty (c);
  if (auto_c)
    c = auto_weights (sc, n);
  end
  [r, grids, iters, perr, serr] = solve_grids (fname, ode_aug, guess, ybar0, opts, ...
                                                  search_weights (c, sc, gauge, n));
  if (auto_c && r.exitflag ~= 1 && ~isempty (grids) && ~isfield (r, 'equilibrium'))
    % the automatic weights failed: once more with the second set (see weights_retry)
    c1 = c;
    c = weights_retry (sc, n);
    [r, g2, i2, perr, serr] = solve_grids (fname, ode_aug, guess, ybar0, opts, ...
                                                  search_weights (c, sc, gauge, n));
    r.message = sprintf ('%s (after the automatic weights c = [%s] failed on N = %d: retried with c = [%s])', ...
                         r.message, num2str (c1, '%.3g '), grids(1), num2str (c, '%.3g '));
    grids = [grids, g2];
    iters = iters + i2;
  end
  sol = assemble (fname, ode, r, grids, opts);
  sol.c = c;
  sol.iterations = iters;
  sol.period_error = perr;
  sol.state_error = serr;
  if (r.exitflag == 1)
    sol = repetitions (sol);
    sol = floquet (sol, ode, opts);
    sol = closure_check (sol, opts);
    if (sol.exitflag == 1 && isempty (opts.Integral) && sum (abs (sol.floquet - 1) < 1e-3) >= 2)
      sol.message = [sol.message, '; note: two Floquet multipliers are 1, so the orbit belongs ' ...
                     'to a family (a conservative system?): this is the member nearest the guess; ' ...
                     'fix one with "Integral" and "Level"'];
    end
  end
  if (sol.exitflag ~= 1 && isempty (opts.Integral) && in_family (ode, tg0, yg0, opts))
    sol.message = ['the orbits of this system come in families (two Floquet multipliers are 1: ' ...
                   'a conservative system?): Newton cannot converge without selecting one; give ' ...
                   '"Integral" (a first integral I(x)), "Level" and "Unfolding" (see help ' ...
                   'periodic_orbit). The search: ', sol.message];
  end
  if (sol.exitflag ~= 1 && ~isempty (warm))
    sol.message = sprintf ('%s; the warm start (multiple shooting from the guess) did not converge either: %s', ...
                           sol.message, warm);
  end
  if (~isempty (opts.OutputTimes))
    sol.output = orbit_at (sol, opts.OutputTimes);
  end
  sol.time = toc (tic0);
  if (sol.exitflag ~= 1 && nargout == 0)
    error (['varmech:' fname ':noconv'], '%s: %s', fname, sol.message);
  end
end

% The grids: with N unset, N0 (resolution below) doubled (N -> 2 N + 1) until two periods agree
% to PeriodTol, the previous orbit (trigonometric interpolation) the next base state.  With N
% given: N0 (about N/2, for the estimate; if it fails, N from the guess) and N.  ybar: the base
% state on N0 nodes.
function [r, grids, iters, perr, serr] = solve_grids (fname, aug, guess, ybar, opts, w)
  n = w.n;
  auto = isempty (opts.N);
  grids = [];
  iters = 0;
  perr = NaN;
  serr = NaN;
  good = [];
  N = size (ybar, 1);
  while (true)
    r = solve_one (fname, aug, ybar, N, opts, w);
    grids(end + 1) = N;
    iters = iters + r.iterations;
    if (r.exitflag == 1 && ~isempty (good))
      perr = abs (period (r, n) - period (good, n));
      serr = max (max (abs (r.y(:, 1:n) - real (interpft (good.y(:, 1:n), N)))));
    end
    if (r.exitflag ~= 1)
      if (~isempty (good))        % a finer grid failed: keep the coarser orbit, no estimate
        failed = r;
        r = good;
        r.exitflag = 0;
        r.message = sprintf (['converged at N = %d but not at N = %d (%s): no error estimate; ' ...
                              'give N = %d and check the period with another Order'], ...
                             size (good.y, 1), N, failed.message, size (good.y, 1));
        return;
      end
      if (~auto && N < opts.N)     % the estimate's grid failed: try the given N itself
        N = opts.N;
      else
        r.message = failure_message (r, grids);
        return;
      end
      ybar = guess (N);
      continue;
    end
    if (~auto && N == opts.N) || (auto && ~isnan (perr) && perr <= opts.PeriodTol * period (r, n))
      break;
    end
    if (auto && N > 2^16)
      r.exitflag = 0;
      r.message = sprintf (['the period did not reach PeriodTol = %g at N = %d (change %.2e); ' ...
                            'raise Order or give N'], opts.PeriodTol, N, perr);
      return;
    end
    good = r;
    if (auto)
      N = 2 * N + 1;
    else
      N = opts.N;
    end
    ybar = real (interpft (r.y, N));
  end
  if (isnan (perr))
    est = 'no error estimate: no coarser grid to compare with';
  else
    est = sprintf ('change %.1e from the grid before', perr);
  end
  r.message = sprintf ('converged: T = %.15g (%s), N = %d, order %d, %d Newton iterations', ...
                       period (r, n), est, N, opts.Order, iters);
end

% The first grid from the guess's spectrum: 26 k nodes (odd), k the highest Fourier mode of the
% closed guess above 1e-4 of its largest (nonzero) mode in any state.  Order-8 differences take
% mode k on 26 k nodes (k h = 0.24) with a relative error of about 2e-8.  Calibrated on Van der
% Pol mu = 10 (a relaxation oscillation: k = 319..546, Newton converges from N = 8193 and not from
% 4159); smooth orbits stay at 129 (Lorenz candidates: k <= 46, mu = 1: k = 15).
function N = resolution (tg, yg, Tg)
  M = 2^nextpow2 (max (4096, 8 * numel (tg)));
  s = 2 * pi * (tg - tg(1)) / Tg;
  yc = yg - (s / (2 * pi)) * (yg(end, :) - yg(1, :));
  Y = abs (fft (interp1 (s, yc, 2 * pi * (0:M-1)' / M, 'spline')));
  Y = Y(2:M/2, :);
  k = 1;
  for j = 1:size (Y, 2)
    if (max (Y(:, j)) > 0)
      k = max (k, find (Y(:, j) > 1e-4 * max (Y(:, j)), 1, 'last'));
    end
  end
  N = min (2 * floor (26 * k / 2) + 1, 2^16 + 1);
end

function T = period (r, n)
  T = 2 * pi * mean (r.y(:, n + 1));
end

function w = search_weights (c, sc, gauge, n)
  % what every solve of the search shares besides the grid: the weights c, the states' scales sc,
  % the gauge (the phase condition's state) and the number of states n
  w.c = c;
  w.sc = sc;
  w.gauge = gauge;
  w.n = n;
end

function r = solve_one (fname, aug, ybar, N, opts, w)
  c = w.c;
  sc = w.sc;
  gauge = w.gauge;
  n = w.n;
  setup = struct ('N', N, 'order', opts.Order, 'c', c, 'scale', sc, 'ybar', ybar, 'gauge', gauge, ...
                  'tol', opts.Tol, 'max_iter', opts.MaxIter, ...
                  'base_iterations', opts.BaseIterations, 'inner', 2, ...
                  'display', double (strcmp (opts.Display, 'iter')));
  r = vm_periodic_mex ('solve', aug, setup);
  r = check_nontrivial (r, ybar, n);
  if (~strcmp (opts.Display, 'off'))
    fprintf ('%s: N = %d: %s', fname, N, r.message);
    if (r.exitflag == 1)
      fprintf (', T = %.15g', period (r, n));
    end
    fprintf ('\n');
  end
end

function msg = failure_message (r, grids)
  msg = sprintf (['no convergence on the grid(s) N = %s (last: %s); the guess may be too far ' ...
                  'from a periodic orbit: give a closer one, e.g. a candidate of periodic_guesses ' ...
                  'from a trajectory that has settled (a longer transient), or, for a stiff or ' ...
                  'relaxation oscillation, more nodes ("N") or other weights of H ("c")'], ...
                 strjoin (arrayfun (@(x) sprintf ('%d', x), grids, 'UniformOutput', false), ', '), ...
                 r.message);
end


% The system with P: dx/ds = P F(x), dP/ds = 0; with an integral condition also the unfolding
% parameter e: dx/ds = P (F(x) + e g(x)), de/ds = 0, and the algebraic equation I(x) - Level.
% gauge: the indices of P (and e) in the augmented states.
function [aug, gauge] = augmented (fname, ode, opts)
  n = ode.nd;
  taken = [ode.states(:); ode.parameter_names(:)];
  pname = fresh ('P', taken);
  ename = fresh ('eps', [taken; {pname}]);
  integral = ~isempty (opts.Integral);
  g = opts.Unfolding;
  if (ischar (g))
    g = {g};
  end
  if (integral)
    if (~vm_isrow_string (opts.Integral))
      vm_badarg (fname, 'Integral must be a formula (a string); got %s', vm_describe (opts.Integral));
    end
    if (~iscellstr (g) || numel (g) ~= n)
      vm_badarg (fname, ['with an Integral, Unfolding must be %d formulas g(x), one per state, ' ...
                         'with grad(Integral) . g > 0 on the orbit (e.g. the gradient of the ' ...
                         'integral); got %s'], n, vm_describe (opts.Unfolding));
    end
  elseif (~isempty (g))
    vm_badarg (fname, 'Unfolding is used only with an Integral (a first integral to fix)');
  end
  rhs = cell (1, n);
  for i = 1:n
    if (integral)
      rhs{i} = sprintf ('%s*((%s) + %s*(%s))', pname, ode.rhs{i}, ename, g{i});
    else
      rhs{i} = sprintf ('%s*(%s)', pname, ode.rhs{i});
    end
  end
  states = reshape (ode.states, 1, []);
  if (integral)
    try
      aug = odesys ('states', [states, {pname, ename}], 'parameters', ode.parameters, ...
                    'rhs', [rhs, {'0', '0'}], ...
                    'algebraic', {sprintf('(%s) - (%.17g)', opts.Integral, opts.Level)}, ...
                    'square', false);
    catch err
      vm_badarg (fname, ['the Integral (%s) or an Unfolding formula is not a formula of the ' ...
                         'states and parameters: %s'], opts.Integral, err.message);
    end
    gauge = [n + 1, n + 2];
  else
    % built from the compiled model of ode (vm_ode_period): no formula is parsed again; the
    % texts describe the system it is
    st = [states, {pname}];
    rhs = [rhs, {'0'}];
    try
      [blocks, compiled] = vm_model_mex ('period', ode, st, rhs);
    catch err
      vm_rethrow (err, fname);
    end
    [~, pv] = vm_param_values (ode.parameters, fname);
    def.states = st;
    def.parameters = ode.parameters;
    def.parameter_names = ode.parameter_names;
    def.rhs = rhs;
    def.algebraic = {};
    def.square = true;
    aug = vm_ode_struct (def, blocks, compiled, pv);
    gauge = n + 1;
  end
end

function name = fresh (name, taken)
  while (any (strcmp (name, taken)))
    name = [name '_'];
  end
end

function [tg, yg, rest] = check_guess (fname, ode, args)
  if (isempty (args))
    vm_badarg (fname, 'expected a guess: t_guess and y_guess, or a candidate of periodic_guesses');
  end
  if (isstruct (args{1}))
    cand = args{1};
    if (~isscalar (cand) || ~isfield (cand, 't') || ~isfield (cand, 'y'))
      vm_badarg (fname, ['t_guess must be a vector of times, or a candidate of periodic_guesses ' ...
                         '(one struct with fields t and y); got %s'], vm_describe (cand));
    end
    tg = cand.t;
    yg = cand.y;
    rest = args(2:end);
  else
    if (numel (args) < 2)
      vm_badarg (fname, 'expected t_guess and y_guess');
    end
    tg = args{1};
    yg = args{2};
    rest = args(3:end);
  end
  if (~isnumeric (tg) || issparse (tg) || ~isreal (tg) || ~isvector (tg) || numel (tg) < 4 ...
      || ~all (isfinite (tg)))
    vm_badarg (fname, 't_guess must be a real finite vector of at least 4 times; got %s', ...
               vm_describe (tg));
  end
  tg = vm_double (tg(:));
  if (any (diff (tg) <= 0))
    vm_badarg (fname, 't_guess must be increasing');
  end
  if (~isnumeric (yg) || issparse (yg) || ~isreal (yg) || ~ismatrix (yg) || size (yg, 1) ~= numel (tg) ...
      || size (yg, 2) ~= ode.nd || ~all (isfinite (yg(:))))
    vm_badarg (fname, ['y_guess must be a real finite matrix with one row per entry of t_guess ' ...
                       '(%d) and one column per state (%d); got %s'], numel (tg), ode.nd, ...
               vm_describe (yg));
  end
  yg = vm_double (yg);
end

function c = check_weights (fname, c, n, na)
  if (isempty (c))
    return;
  end
  if (~isnumeric (c) || issparse (c) || ~isreal (c) || ~all (isfinite (c(:))) || any (c(:) <= 0) ...
      || ~any (numel (c) == [1, n + na]))
    vm_badarg (fname, ['c must be [] (automatic), a positive scalar or %d positive values (one ' ...
                       'per state, one for P and, with an Integral, one for the unfolding ' ...
                       'parameter); got %s'], n + na, vm_describe (c));
  end
  c = vm_double (c(:)');
  if (isscalar (c))
    c = c * ones (1, n + na);
  end
end

% The weights of H that make the DtP map scale-free: c_i = 1 / sc_i^2 with sc the scales of the
% augmented states (below: X_i the peak-to-peak amplitude of state i in the base state, Pbar for
% the period, the unfolding parameter's size): the DtP map of uniform weights in the scaled
% variables x_i / X_i, P / Pbar, e / e_s, the same in any units of time and of the states (the
% solver's own tests are scaled alike: csrc/dual/dual_periodic.h).  (With equal weights the P-x
% coupling D . F(x) of the DtP map is nonlinear on the scale of the Newton corrections: Lorenz
% stalls.)  One scale for every state would make a state in units of 1e-6 beside one of order
% 1, or time in units of 1e-6 s, fail (doc/periodic.md, "Units").
function c = auto_weights (sc, n)
  c = 1 ./ sc.^2;
end

% The second set of weights, tried when the first fails: the weights of P (and of the unfolding
% parameter) lowered 1e4 times, so that the DtP map moves P freely while the states stay near
% their base state.  A relaxation oscillation (Van der Pol mu = 10) from a perturbed orbit
% needs both this and a scale per state; as the default it breaks Lorenz and the pendulum,
% hence a retry only.
function c = weights_retry (sc, n)
  c = 1 ./ sc.^2;
  c(n + 1:end) = 1e-4 * c(n + 1:end);
end

% The scales of the augmented states, for the weights above and for the solver's tests, phase
% condition and unknowns (csrc/dual/dual_periodic.h), the same on every grid: the states' amplitudes,
% |P| and, with an Integral, the size of the unfolding parameter e that changes P F by its own
% size, RMS (F / X) / RMS (g / X) at the base state (1 where F or g vanishes there)
function sc = scales (aug, ybar, n, na)
  Xs = amplitudes (ybar, n);
  sc = [Xs, abs(mean (ybar(:, n + 1))), ones(1, na - 1)];
  if (na > 1)
    out = odesys_eval (aug, 0, ybar);
    F = out.F(:, 1:n) ./ Xs;
    g = out.F_y(:, 1:n, n + 2) ./ Xs;
    if (any (g(:) ~= 0) && any (F(:) ~= 0))
      sc(n + 2) = sqrt (mean (F(:).^2) / mean (g(:).^2));
    end
  end
  if (sc(n + 1) == 0)
    sc(n + 1) = 1;
  end
end

% Whether the guess's first point x0 lies on a periodic orbit of a family (after a failed solve):
% the flow from x0 returns to the section through x0 normal to F(x0) (within 3 guess periods) at
% x0 itself, to sqrt (FlowTol) of the amplitudes, and the monodromy over that return time has two
% multipliers within 1e-3 of 1 (the threshold of the converged orbit's note).  A point of a
% family is on a closed orbit, whose return misses x0 only by the flow's error (about FlowTol);
% off an isolated orbit the return misses by |1 - mu| times the distance to it, above sqrt
% (FlowTol) unless x0 is within sqrt (FlowTol)/|1 - mu| of the orbit, where Newton converges.
% Cost: two integrations over about one period (the second with the variational equations), each
% at most 1e5 steps (a stiff system that needs more is not classified: its message stands).
function tf = in_family (ode, tg, yg, opts)
  tf = false;
  n = ode.nd;
  x0 = yg(1, :);
  Tg = tg(end) - tg(1);
  amp = amplitudes (yg, n);
  try
    F = odesys_eval (ode, 0, x0);
    F = reshape (F.F, 1, n);
    if (~(norm (F) > 0) || ~all (isfinite (F)))
      return;
    end
    setup = struct ('t0', 0, 'tf', 3 * Tg, 'x0', x0, 'tout', [], 'rtol', opts.FlowTol, ...
                    'atol', opts.FlowTol * min (amp), 'variational', 0, ...
                    'section', [F, F * x0', 1], 'max_steps', 1e5);
    f = vm_periodic_mex ('flow', ode, setup);
    k = find (f.te > 1e-3 * Tg, 1);
    if (f.status ~= 0 || isempty (k) || max (abs (f.ye(k, :) - x0) ./ amp) > sqrt (opts.FlowTol))
      return;
    end
    setup.tf = f.te(k);
    setup.variational = 1;
    setup.section = [];
    f = vm_periodic_mex ('flow', ode, setup);
    tf = f.status == 0 && sum (abs (eig (f.monodromy) - 1) < 1e-3) >= 2;
  catch
    tf = false;   % the search's own message stands
  end
end

% the peak-to-peak amplitude of each state in ybar (as csrc/dual/dual_periodic.c's state scales); a
% state whose amplitude is below 1e-8 of its modulus gets its modulus, one that is 0 gets 1
function Xs = amplitudes (ybar, n)
  Xs = max (ybar(:, 1:n), [], 1) - min (ybar(:, 1:n), [], 1);
  mx = max (abs (ybar(:, 1:n)), [], 1);
  flat = ~(Xs > 1e-8 * mx);
  Xs(flat) = mx(flat);
  Xs(Xs == 0) = 1;
end

% A guess that does not close, such as a stretch of trajectory run somewhat longer than the
% period, is cut at its closest return: the time te in the last tenth of its duration at which
% the distance from its first point (each state in units of its amplitude) has its minimum,
% located on the guess's spline at 20 points per guess interval (at least 2000).  Why: the
% search corrects a period error only slowly, and the overshoot, spread over the loop by
% resample_guess, adds a mismatch of |F| times the overshoot; from a stretch 1 % longer than the
% period the search stalls at the guess's period.  The guess is kept as it is when the minimum
% is at either end of that window (a closed guess, a stretch shorter than the period, or one
% whose distance grows over the whole window).  Cost: one spline evaluation on the window.
function [tg, yg] = closest_return (tg, yg, n)
  Tg = tg(end) - tg(1);
  amp = amplitudes (yg, n);
  in = tg >= tg(1) + 0.9 * Tg;
  tf = linspace (tg(1) + 0.9 * Tg, tg(end), max (2001, 20 * sum (in) + 1))';
  yf = interp1 (tg, yg, tf, 'spline');
  d = sqrt (sum (((yf - yg(1, :)) ./ amp).^2, 2));
  [dmin, k] = min (d);
  if (k == 1 || k == numel (tf) || ~(dmin < d(end)))
    return;
  end
  keep = tg < tf(k) - 1e-9 * Tg;
  tg = [tg(keep); tf(k)];
  yg = [yg(keep, :); yf(k, :)];
end

% the guess on N equispaced nodes of [0, 2 pi), closed by a linear correction, with P
function ybar = resample_guess (tg, yg, N, Tg, na)
  s = 2 * pi * (tg - tg(1)) / Tg;
  drift = yg(end, :) - yg(1, :);
  yc = yg - (s / (2 * pi)) * drift;
  sk = 2 * pi * (0:N-1)' / N;
  ybar = [interp1(s, yc, sk, 'spline'), (Tg / (2 * pi)) * ones(N, 1), zeros(N, na - 1)];
end

% a "periodic orbit" that is a point: Newton went to an equilibrium; or, without convergence, the
% best iterate shrank to a tenth of the guess's amplitude or less: it is heading for one (no retry
% with other weights then, and the message says so)
function r = check_nontrivial (r, ybar, n)
  if (~isfield (r, 'y') || isempty (r.y))
    return;
  end
  amp = max (max (r.y(:, 1:n)) - min (r.y(:, 1:n)));
  amp0 = max (max (ybar(:, 1:n)) - min (ybar(:, 1:n)));
  if (r.exitflag ~= 1)
    if (amp <= 0.1 * amp0)
      r.equilibrium = true;
      r.message = sprintf (['%s; the iterates shrink toward an equilibrium (amplitude %.1e ' ...
                            'against %.1e in the guess): there may be no periodic orbit near ' ...
                            'the guess'], r.message, amp, amp0);
    end
  elseif (amp <= 1e-6 * amp0)
    r.exitflag = 0;
    r.equilibrium = true;
    r.message = sprintf (['converged to an equilibrium (the orbit has amplitude %.1e against ' ...
                          '%.1e in the guess); give a guess closer to a periodic orbit'], amp, amp0);
  end
end

function sol = assemble (fname, ode, r, Ns, opts)
  n = ode.nd;
  sol = struct ('T', NaN, 't', [], 'y', [], 'floquet', [], 'monodromy', [], 'closure', NaN, ...
                'closure_components', [], ...
                'period_error', NaN, 'state_error', NaN, 'exitflag', r.exitflag, ...
                'message', r.message, 'iterations', 0, 'residual_history', [], ...
                'D', [], 'nu', NaN, 'residual', [], 'base_change', r.base_change, ...
                'unfolding', NaN, 'integral', NaN, 'mu', NaN, 'repetitions', NaN, ...
                'N', Ns(end), 'Order', opts.Order, 'grids', Ns, 'time', 0, 'solver', fname, ...
                'names', {reshape(ode.states, 1, [])});
  if (isfield (r, 'y') && ~isempty (r.y))
    N = size (r.y, 1);
    sol.T = 2 * pi * mean (r.y(:, n + 1));
    sol.t = sol.T * (0:N)' / N;
    sol.y = r.y([1:N, 1], 1:n);
    sol.D = r.D;
    sol.nu = r.nu;
    sol.residual = r.residual;
    sol.residual_history = r.residual_history;
    if (size (r.y, 2) > n + 1)
      sol.unfolding = mean (r.y(:, n + 2));
      sol.integral = r.integral;
      sol.mu = r.mu;
    end
  end
end

% sol.output: the orbit at the times tq (any real times, taken modulo T), by the trigonometric
% interpolant of the N nodes (the one interpft resamples the orbit with between the grids); NaN
% without an orbit.  Cost O(K N), in blocks of about 1e6 entries.
function out = orbit_at (sol, tq)
  tq = tq(:);
  n = numel (sol.names);
  out = struct ('t', tq, 'y', NaN (numel (tq), n));
  if (isempty (sol.y) || ~isfinite (sol.T))
    return;
  end
  out.y = vm_trig_eval (sol.y(1:end-1, :), sol.T, tq);
end

% sol.repetitions: the largest k <= 12 such that the orbit closes k times in T (its Fourier
% coefficients of orders not divisible by k hold less than 1e-6 of its amplitude: only a
% k-fold traversal, such as a guess that went round the orbit k times, gives that); the message
% gives the minimal period T/k then
function sol = repetitions (sol)
  N = size (sol.y, 1) - 1;
  Y = fft (sol.y(1:N, :));
  e = sum (abs (Y(2:(N + 1) / 2, :)).^2, 2);   % harmonics 1 .. (N-1)/2 (N odd)
  j = (1:numel (e))';
  sol.repetitions = 1;
  for k = 2:min (12, numel (e))
    if (sqrt (sum (e(mod (j, k) ~= 0)) / sum (e)) < 1e-6)
      sol.repetitions = k;
    end
  end
  if (sol.repetitions > 1)
    sol.message = sprintf (['%s; note: the orbit closes %d times in T (the guess went round it %d ' ...
                            'times): its minimal period is T/%d = %.15g'], sol.message, ...
                           sol.repetitions, sol.repetitions, sol.repetitions, ...
                           sol.T / sol.repetitions);
  end
end

% The Floquet multipliers and the closure: the transfer matrices of one period from the orbit's
% first point (vm_periodic_factors: K chained pieces of condition number about 10, DOP853 at
% FlowTol), and the eigenvalues of their product from the factors (vm_periodic_eig: the product
% QR iteration), each to relative accuracy; eig of the formed M would find a multiplier only to
% about eps max |mu| absolute.  periodic_continue shares the factors' code.
function sol = floquet (sol, ode, opts)
  x0 = sol.y(1, :);
  n = numel (x0);
  [F, x, msg] = vm_periodic_factors (ode, x0, sol.T, opts.FlowTol, amplitudes (sol.y, n));
  if (~isempty (msg))
    sol.message = sprintf ('%s; the closure integration failed: %s', sol.message, msg);
    return;
  end
  sol.closure = max (abs (x - x0));
  sol.closure_components = abs (x - x0);
  M = eye (n);
  for k = 1:size (F, 3)
    M = F(:, :, k) * M;
  end
  sol.monodromy = M;
  sol.floquet = vm_periodic_eig (F);
end

% The independent check of a converged orbit: integrated over T from its first point, state i
% must come back within its error allowance times the largest Floquet multiplier's modulus (an
% error of the orbit grows at most by it in one period).  The allowance is sqrt (PeriodTol) of
% its amplitude (peak-to-peak over the orbit) plus 10 times the discretization error estimated
% from the last two grids, state_error + period_error max |dx_i/dt| (a given N on few nodes or at
% a low order closes only to that; NaN estimates: no check).  A converged orbit closes far tighter
% (1e-13 to 1e-9 in the tests).  Otherwise Newton's result is not an orbit of the ODE
% (exitflag 0): a badly scaled problem (time in units of 1e6 s) can converge to the guess's
% period, and only the closure shows it (doc/periodic.md).
function sol = closure_check (sol, opts)
  if (isempty (sol.closure_components) || isempty (sol.floquet) ...
      || ~isfinite (sol.state_error) || ~isfinite (sol.period_error))
    return;
  end
  N = size (sol.y, 1) - 1;
  amp = max (sol.y, [], 1) - min (sol.y, [], 1);
  amp(amp == 0) = max ([amp, 1]);
  rate = max (abs (diff (sol.y, 1, 1)), [], 1) / (sol.T / N);
  disc = 10 * (sol.state_error + abs (sol.period_error) * rate);
  lim = (sqrt (opts.PeriodTol) * amp + disc) * max (1, max (abs (sol.floquet)));
  [worst, i] = max (sol.closure_components ./ lim);
  if (worst > 1)
    sol.exitflag = 0;
    sol.message = sprintf (['the orbit found does not close when integrated over its period: ' ...
                            '|%s(T) - %s(0)| = %.2e against %.2e allowed (sqrt (PeriodTol) ' ...
                            'times its amplitude, plus the discretization error, times the ' ...
                            'largest Floquet multiplier), so it is ' ...
                            'not a periodic orbit of the ODE (Newton: %s); give a closer ' ...
                            'guess, a larger N, or other weights "c"'], sol.names{i}, ...
                           sol.names{i}, sol.closure_components(i), lim(i), sol.message);
  end
end

%!shared vdp, t, yg
%! vdp = odesys ('states', {'x', 'v'}, 'parameters', struct ('mu', 1), ...
%!   'rhs', {'v', 'mu*(1 - x^2)*v - x'});
%! t = linspace (0, 6.5, 60)';
%! yg = [2*cos(2*pi*t/6.5), -2*sin(2*pi*t/6.5)];

%!test
%! % Van der Pol, mu = 1: the orbit closes when integrated over T by ode45 (RelTol 1e-12; its own
%! % error here is about 1e-12: closure 3e-13 measured); |F| >= 0.5 on the orbit, so a period
%! % error dT would leave a gap of at least 0.5 dT
%! sol = periodic_orbit (vdp, t, yg);
%! assert (sol.exitflag, 1);
%! assert (sol.period_error <= 1e-10 * sol.T);
%! assert (sol.closure <= 1e-9);
%! assert (size (sol.y), [sol.N + 1, 2]);
%! assert (sol.y(end, :), sol.y(1, :));
%! assert (sol.t([1 end]), [0; sol.T]);
%! y0 = sol.y(1, :)';
%! f = @(t, y) [y(2); (1 - y(1)^2)*y(2) - y(1)];
%! o = odeset ('RelTol', 1e-12, 'AbsTol', 1e-12);
%! [~, yy] = ode45 (f, [0 sol.T], y0, o);
%! assert (max (abs (yy(end, :)' - y0)) <= 1e-9);
%! % against the published period 6.663286859323130 (the cross-check the closure cannot give:
%! % a stable cycle closes for nearby T too, but only to |F| dT)
%! assert (abs (sol.T - 6.663286859323130) <= 1e-10 * sol.T);
%! % Floquet: one multiplier is 1, the other exp (int div F dt) < 1
%! assert (abs (sol.floquet(1) - 1) <= 1e-8);
%! assert (abs (sol.floquet(2)) < 1e-2);
%! % the duals vanish after the base-state replacement
%! assert (max (abs (sol.D(:))) <= 1e-8);
%!test
%! % OutputTimes: any real times, taken modulo T, by the orbit's trigonometric interpolant;
%! % against the orbit's first point integrated to those times by ode45 (RelTol 1e-12): within
%! % the orbit's own error (10 state_error, the change from the grid before, which bounds the
%! % coarser orbit's error) plus 10 times ode45's tolerance over a period
%! tq = [-3.1; 0; 0.25; 2.5; 6.0; 9.7; 20.3];
%! sol = periodic_orbit (vdp, t, yg, 'OutputTimes', tq');
%! assert (sol.exitflag, 1);
%! assert (sol.output.t, tq);
%! assert (size (sol.output.y), [numel(tq), 2]);
%! assert (~isfield (sol.output, 'q'));
%! f = @(t, y) [y(2); (1 - y(1)^2)*y(2) - y(1)];
%! tm = mod (tq, sol.T);
%! [ts, is] = sort (tm);
%! [tt, ~, j] = unique ([0; ts; sol.T]);
%! [~, yy] = ode45 (f, tt, sol.y(1, :)', odeset ('RelTol', 1e-12, 'AbsTol', 1e-12));
%! yr(is, :) = yy(j(2:end - 1), :);
%! tol = 10 * sol.state_error + 10 * 1e-12 * max (abs (sol.y(:)));
%! assert (max (max (abs (sol.output.y - yr))) <= tol);
%! % at the nodes themselves the interpolant returns the orbit
%! s2 = periodic_orbit (vdp, t, yg, 'OutputTimes', sol.t(1:10:end));
%! assert (s2.output.y, s2.y(1:10:end, :), 1e-12 * max (abs (s2.y(:))));
%!error <OutputTimes must be finite> periodic_orbit (vdp, t, yg, 'OutputTimes', [0 Inf])

%!test
%! % a fixed N: the estimate from the half grid; order 4 is less accurate than order 8
%! s8 = periodic_orbit (vdp, t, yg, 'N', 201);
%! s4 = periodic_orbit (vdp, t, yg, 'N', 201, 'Order', 4);
%! assert ([s8.exitflag, s4.exitflag], [1 1]);
%! assert (s8.grids, [101 201]);
%! ref = periodic_orbit (vdp, t, yg);
%! assert (abs (s8.T - ref.T) < abs (s4.T - ref.T));
%! % the estimate (the change from N = 101) bounds the error of the finer grid
%! assert (abs (s4.T - ref.T) <= s4.period_error);

%!test
%! % from a rough guess: T 1% off, states 3e-3 off
%! ref = periodic_orbit (vdp, t, yg);
%! t2 = ref.t(1:4:end) * 1.01;
%! y2 = ref.y(1:4:end, :) + 3e-3;
%! sol = periodic_orbit (vdp, t2, y2);
%! assert (sol.exitflag, 1);
%! assert (abs (sol.T - ref.T) <= 1e-10 * ref.T);

%!test
%! % the pendulum at a given energy: T = 4 K(k), k = sin (amp/2)
%! pend = odesys ('states', {'th', 'w'}, 'parameters', struct ('g', 1), 'rhs', {'w', '-g*sin(th)'});
%! for amp = [0.5 2]
%!   Tex = 4 * ellipke (sin (amp/2)^2);
%!   tg = linspace (0, 1.01 * Tex, 80)';
%!   yg2 = [amp*cos(2*pi*tg/tg(end)), -amp*sin(2*pi*tg/tg(end))] + 3e-3;
%!   sol = periodic_orbit (pend, tg, yg2, 'Integral', 'w^2/2 - g*cos(th)', 'Level', -cos (amp), ...
%!                         'Unfolding', {'g*sin(th)', 'w'});
%!   assert (sol.exitflag, 1);
%!   assert (abs (sol.T - Tex) <= 1e-10 * Tex);
%!   assert (abs (sol.unfolding) <= 1e-10);
%!   % a conservative orbit: both multipliers 1 (a Jordan block: they split by sqrt (error))
%!   assert (abs (sol.floquet - 1) <= 1e-4);
%! end

%!test
%! % Lotka-Volterra from a candidate that nearly closes: without the integral the member nearest
%! % the guess, with a note on the family; with it, the member of the given level
%! lv = odesys ('states', {'u', 'v'}, 'parameters', struct ('a', 1, 'b', 1, 'c', 1, 'd', 1), ...
%!   'rhs', {'a*u - b*u*v', '-c*v + d*u*v'});
%! c = periodic_guesses (lv, [2 1], 50, 'MaxLoops', 1);
%! s1 = periodic_orbit (lv, c(1));
%! assert (s1.exitflag, 1);
%! assert (~isempty (strfind (s1.message, 'belongs to a family')));
%! E = 2 - log (2) + 1;
%! s2 = periodic_orbit (lv, c(1), 'Integral', 'd*u - c*log(u) + b*v - a*log(v)', 'Level', E, ...
%!                      'Unfolding', {'d - c/u', 'b - a/v'});
%! assert (s2.exitflag, 1);
%! assert (isempty (strfind (s2.message, 'belongs to a family')));
%! Ivals = s2.y(:, 1) - log (s2.y(:, 1)) + s2.y(:, 2) - log (s2.y(:, 2));
%! assert (max (abs (Ivals - E)) <= 1e-9);
%! assert (s2.closure <= 1e-9);

%!test
%! % without the integral condition the pendulum's family makes Newton fail, with a message
%! pend = odesys ('states', {'th', 'w'}, 'parameters', struct ('g', 1), 'rhs', {'w', '-g*sin(th)'});
%! tg = linspace (0, 8.3, 80)';
%! sol = periodic_orbit (pend, tg, [2*cos(2*pi*tg/8.3), -1.5*sin(2*pi*tg/8.3)]);
%! assert (sol.exitflag, 0);
%! assert (~isempty (sol.message));
%! assert (isnan (sol.closure));

%!test
%! % Van der Pol mu = 5 from its orbit with T + 3 % and the states + 3e-3, without the warm
%! % start: the automatic weights stall on the first grid, the retry (P's weight / 1e4) converges
%! % (with T + 1 % the automatic weights converged once they had a scale per state; with one
%! % scale for all they did not); with the warm start (default) no retry is needed;
%! % checked independently: ode45 at 1e-12 from the orbit's first point closes over sol.T (the
%! % period error dT leaves a gap of about |F| dT; 1e-7 allows |F| up to 100 with dT = 1e-9)
%! mu = 5;
%! vdp = odesys ('states', {'x', 'v'}, 'parameters', struct ('mu', mu), 'rhs', {'v', 'mu*(1 - x^2)*v - x'});
%! f = @(t, y) [y(2); mu*(1 - y(1)^2)*y(2) - y(1)];
%! o = odeset ('RelTol', 1e-12, 'AbsTol', 1e-12);
%! [~, y] = ode45 (f, [0 100], [2; 0], o);
%! T0 = 11.6122306;   % the period to 1e-7 (the test's own run: 11.61223066772)
%! tq = linspace (0, T0, 400)';
%! [~, yq] = ode45 (f, tq, y(end, :)', o);
%! s = 2 * pi * tq / T0;
%! sol = periodic_orbit (vdp, 1.03 * tq, yq + 3e-3 * [sin(s), cos(2*s)], 'WarmStart', 'off');
%! assert (sol.exitflag, 1);
%! assert (~isempty (strfind (sol.message, 'retried with c')));
%! sw = periodic_orbit (vdp, 1.03 * tq, yq + 3e-3 * [sin(s), cos(2*s)]);
%! assert (sw.exitflag, 1);
%! assert (isempty (strfind (sw.message, 'retried with c')));
%! assert (abs (sw.T - sol.T) <= 2e-10 * sol.T);
%! assert (sol.c(3) / sol.c(2) < 1e-2);
%! [~, yc] = ode45 (f, [0 sol.T], sol.y(1, :)', o);
%! assert (max (abs (yc(end, :) - sol.y(1, :))) <= 1e-7);
%! assert (abs (sol.T - T0) <= 1e-6);
%!test
%! % a guess near an equilibrium of a damped oscillator (no periodic orbit): exitflag 0
%! osc = odesys ('states', {'x', 'v'}, 'rhs', {'v', '-x - 0.5*v'});
%! tg = linspace (0, 6, 50)';
%! sol = periodic_orbit (osc, tg, [cos(tg), -sin(tg)]);
%! assert (sol.exitflag, 0);
%! assert (~isempty (strfind (sol.message, 'equilibrium')));
%! % the warm start found no orbit either, and the message says so after the search's
%! assert (~isempty (strfind (sol.message, 'the warm start (multiple shooting from the guess) did not converge either')));
%! id = '';
%! try
%!   periodic_orbit (osc, tg, [cos(tg), -sin(tg)]);
%! catch err
%!   id = err.identifier;
%! end
%! assert (id, 'varmech:periodic_orbit:noconv');

%!test
%! % a guess that goes round a limit cycle twice (the Brusselator, a = 1, b = 3, not a paper's
%! % example) converges to the twofold traversal: repetitions 2, and the message's minimal period
%! % T/2 is the period of the one-loop solve (both to 1e-10 by PeriodTol); one loop: repetitions 1
%! bru = odesys ('states', {'x', 'y'}, 'parameters', struct ('a', 1, 'b', 3), ...
%!               'rhs', {'a - (b+1)*x + x^2*y', 'b*x - x^2*y'});
%! f = @(t, u) [1 - 4*u(1) + u(1)^2*u(2); 3*u(1) - u(1)^2*u(2)];
%! o = odeset ('RelTol', 1e-10, 'AbsTol', 1e-10);
%! [~, u0] = ode45 (f, [0 50], [1 1], o);
%! t2 = linspace (0, 14.3, 200)';
%! [~, y2] = ode45 (f, t2, u0(end, :), o);
%! s2 = periodic_orbit (bru, t2, y2);
%! t1 = linspace (0, 7.1, 100)';
%! [~, y1] = ode45 (f, t1, u0(end, :), o);
%! s1 = periodic_orbit (bru, t1, y1);
%! assert ([s1.exitflag s2.exitflag], [1 1]);
%! assert ([s1.repetitions s2.repetitions], [1 2]);
%! assert (abs (s2.T / 2 - s1.T) <= 1e-9 * s1.T);
%! assert (~isempty (strfind (s2.message, sprintf ('minimal period is T/2 = %.15g', s2.T / 2))));
%! assert (isempty (strfind (s1.message, 'minimal period')));

%!error <ode must be a system made by odesys> periodic_orbit (struct ('a', 1), 1:5, ones (5, 2))
%!error <the system has algebraic states or equations> periodic_orbit (odesys ('states', {'x', 'l'}, 'rhs', {'-x*l'}, 'algebraic', {'l - 1'}), 1:5, ones (5, 2))
%!error <depends on t> periodic_orbit (odesys ('states', {'x', 'v'}, 'rhs', {'v', '-x + cos(t)'}), 1:5, ones (5, 2))
%!error <expected a guess> periodic_orbit (vdp)
%!error <expected t_guess and y_guess> periodic_orbit (vdp, t)
%!error <t_guess must be a vector of times, or a candidate of periodic_guesses> periodic_orbit (vdp, struct ('t', 1))
%!error <t_guess must be a real finite vector of at least 4 times> periodic_orbit (vdp, [0 1 2], ones (3, 2))
%!error <t_guess must be increasing> periodic_orbit (vdp, [0 2 1 3], ones (4, 2))
%!error <y_guess must be a real finite matrix with one row per entry of t_guess \(60\) and one column per state \(2\)> periodic_orbit (vdp, t, ones (60, 3))
%!error <c must be \[\] \(automatic\), a positive scalar or 3 positive values> periodic_orbit (vdp, t, yg, 'c', [1 -1 1])
%!error <N must be odd and at least 19 for order 8; got 100> periodic_orbit (vdp, t, yg, 'N', 100)
%!error <Integral must be a formula> periodic_orbit (vdp, t, yg, 'Integral', 3)
%!error <with an Integral, Unfolding must be 2 formulas> periodic_orbit (vdp, t, yg, 'Integral', 'x^2', 'Unfolding', {'x'})
%!error <Level must be a finite real scalar> periodic_orbit (vdp, t, yg, 'Integral', 'x^2', 'Unfolding', {'x', 'v'}, 'Level', [1 2])
%!error <the Integral \(x\^2 \+ q\) or an Unfolding formula is not a formula> periodic_orbit (vdp, t, yg, 'Integral', 'x^2 + q', 'Unfolding', {'x', 'v'})
%!error <Unfolding is used only with an Integral> periodic_orbit (vdp, t, yg, 'Unfolding', {'x', 'v'})
%!error <unknown option 'Bogus'> periodic_orbit (vdp, t, yg, 'Bogus', 1)
%!error <WarmStart> periodic_orbit (vdp, t, yg, 'WarmStart', 'maybe')

%!demo
%! % the Van der Pol limit cycles for mu = 1 and mu = 3, from the same rough circle
%! t = linspace (0, 7, 60)';
%! for mu = [1 3]
%!   vdp = odesys ('states', {'x', 'v'}, 'parameters', struct ('mu', mu), ...
%!     'rhs', {'v', 'mu*(1 - x^2)*v - x'});
%!   tg = t * (1 + (mu > 1) * 0.2);
%!   sol = periodic_orbit (vdp, tg, [2*cos(2*pi*t/7), -2*sin(2*pi*t/7)]);
%!   plot (sol.y(:, 1), sol.y(:, 2));  hold on;
%!   fprintf ('mu = %g: %s\n', mu, sol.message);
%! end
%! hold off;  xlabel ('x');  ylabel ('v = dx/dt');
%! title ('Van der Pol limit cycles (periodic\_orbit)');

%!test
%! % Van der Pol written in other units of time (Ts) and of x (Ls): the same period in units of
%! % Ts, to the PeriodTol of every run.  Before the solver's scaling (doc/periodic.md, "Units")
%! % Ts = 1e6 returned the guess's period with exitflag 1 (stopped by the closure check since),
%! % and Ts = 1e-6 or Ls = 1e-6 failed with the DtP map's message.
%! for u = [1e-6 1; 1e4 1; 1 1e-6; 1 1e6; 1e-6 1e-6]'
%!   Ls = u(1);  Ts = u(2);
%!   ode = odesys ('states', {'x', 'v'}, 'parameters', struct ('L', Ls, 'T', Ts), ...
%!     'rhs', {'v', '((1 - (x/L)^2)*v*T - x)/T^2'});
%!   tt = linspace (0, 6.5, 60)' * Ts;
%!   sol = periodic_orbit (ode, tt, Ls * [2*cos(2*pi*tt/(6.5*Ts)), -2/Ts*sin(2*pi*tt/(6.5*Ts))]);
%!   assert (sol.exitflag, 1);
%!   assert (abs (sol.T / Ts - 6.663286859323130) <= 1e-10 * 6.66);
%!   % each state closes relative to its own amplitude (x: 4 Ls, v: 5.3 Ls / Ts)
%!   assert (all (sol.closure_components ./ [4*Ls, 5.3*Ls/Ts] <= 1e-9));
%! end

%!test
%! % a conservative system with an Integral in time units of 1e-6 s and 1e6 s: the unfolding
%! % parameter's scale is taken from F and g (here g = grad I, whose components have other units
%! % than F's), so the pendulum's period comes out the same
%! for Ts = [1e-6 1e6]
%!   pend = odesys ('states', {'th', 'w'}, 'parameters', struct ('T', Ts), ...
%!     'rhs', {'w', '-sin(th)/T^2'});
%!   tg = linspace (0, 8.3, 80)' * Ts;
%!   sol = periodic_orbit (pend, tg, [2*cos(2*pi*tg/(8.3*Ts)), -1.5/Ts*sin(2*pi*tg/(8.3*Ts))], ...
%!     'Integral', 'w^2*T^2/2 - cos(th)', 'Level', -cos (2), 'Unfolding', {'sin(th)', 'w*T^2'});
%!   assert (sol.exitflag, 1);
%!   assert (abs (sol.T / Ts - 4 * ellipke (sin (1)^2)) <= 1e-10 * 8.35);
%! end
