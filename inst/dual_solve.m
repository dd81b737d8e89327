% -*- texinfo -*-
% @deftypefn  {} {sol =} dual_solve (ode, tspan, y0)
% @deftypefnx {} {sol =} dual_solve (ode, tspan, y0, name, value, ...)
% @deftypefnx {} {sol =} dual_solve (ode, tspan, y0, opts)
% @deftypefnx {} {} dual_solve (...)
% Solve a first-order system as the critical point of the discrete dual action of Acharya and
% Sengupta: any @code{odesys}, ydot = F(t, y) with algebraic equations G(t, y) = 0 (DAEs of
% index 1, underdetermined systems).  Options:
% @multitable @columnfractions .2 .8
% @item "RelTol" @tab relative error tolerance (default 1e-6; "AbsTol": 1e-8)
% @item "Order" @tab order of the time discretization: 2, 4 (default), 6 or 8
% @item "N" @tab nodes per window (default 33; 65 on a fixed grid)
% @item "Slabs" @tab fixed grid of this many windows (no error control)
% @item "OutputTimes" @tab times for @code{sol.output} (.t, .y, .D)
% @end multitable
% Fields: @code{sol.t} (a column), @code{sol.y} (a row per time, columns as in @code{ode.states}),
% @code{sol.D} (the duals), @code{sol.exitflag} (1: converged), @code{sol.message}.  Example (the
% Lorenz system; ode45 agrees to the tolerance times the chaotic growth of errors):
% @verbatim
% lor = odesys ('states', {'x', 'y', 'z'}, 'parameters', struct ('s', 10, 'r', 28, 'b', 8/3), ...
%   'rhs', {'s*(y - x)', 'x*(r - z) - y', 'x*y - b*z'});
% sol = dual_solve (lor, [0 5], [1 1 1], 'RelTol', 1e-8);
% fprintf ('%s\ny(5) = %s\n', sol.message, mat2str (sol.y(end,:), 6));
% plot3 (sol.y(:,1), sol.y(:,2), sol.y(:,3));  xlabel ('x');  ylabel ('y');  zlabel ('z')
% @end verbatim
%
% @strong{Reference.}  @var{ode} is made by @code{odesys}: nd differential states y_d with
% ydot_d = F(t, y), algebraic states and algebraic equations G(t, y) = 0 (their numbers may differ:
% odesys option "square", false).  @var{tspan} is [t0 tf] with t0 < tf.  @var{y0} holds the
% initial values of the differential states only (nd entries); the algebraic states are unknowns
% at every node, t0 included.  Options are name/value pairs or one struct @var{opts} with the
% option names as fields.  Called without an output argument, a solve that does not converge is
% an error (@code{varmech:dual_solve:noconv}); with one, check @code{sol.exitflag}.
%
% With duals D = (D_d, D_a) and the shifted quadratic potential
% @code{H = 1/2 sum_i c_i (y_i - ybar_i(t))^2} the pre-dual Lagrangian is
% @code{L_H = -Ddot_d . y_d - D_d . F(t, y) + D_a . G(t, y) + H}; the dual-to-primal (DtP) map
% y^H(D, Ddot, t) solves dL_H/dy = 0 at every grid point (one linear solve when F and G are at
% most quadratic in y, such as Lorenz; Newton per point otherwise).  The discrete dual action
% @code{S = sum_k H_kk L_H(y^H_k, D_k, Ddot_k, t_k) - D_d(t0) . y0} on a grid with the SBP
% operator Dm = H^-1 Q is made stationary by Newton's method with its exact sparse Hessian
% (a banded LU or UMFPACK, option "LinearSolver").  By default the final dual is weak:
% @code{Ddot_d = Dm D_d - H^-1 e_N (D_d(tf) - DT)} (a SAT at tf); then the stationarity
% equations are the SBP-SAT discretization of the primal problem at every node, and the
% recovered primal y^H is the SBP-SAT solution whatever the base state ybar (which only decides
% how large the duals are, hence Newton's convergence).  With
% "FinalDual", "strong" D_d(tf) is prescribed as in the paper (no primal equation at the last
% node).  See @file{doc/dual.md}.
%
% Example (Van der Pol oscillator, mu = 2, against ode45):
% @verbatim
% ode = odesys ('states', {'x', 'v'}, 'parameters', struct ('mu', 2), ...
%   'rhs', {'v', 'mu*(1 - x^2)*v - x'});
% sol = dual_solve (ode, [0 10], [2 0]);          % adaptive, RelTol 1e-6
% f = @(t, y) [y(2); 2*(1 - y(1)^2)*y(2) - y(1)];
% [~, yr] = ode45 (f, sol.t, [2 0], odeset ('RelTol', 1e-10, 'AbsTol', 1e-12));
% fprintf ('%s\nmax error against ode45: %.1e\n', sol.message, max (max (abs (sol.y - yr))));
% @end verbatim
%
% Example (a DAE: the pendulum in Cartesian coordinates, l = m = 1, released horizontally; the
% multiplier lam is an algebraic state fixed by the index-1 condition d2/dt2 (x^2 + y^2)/2 = 0):
% @verbatim
% ode = odesys ('states', {'x', 'y', 'u', 'v', 'lam'}, 'parameters', struct ('g', 9.81), ...
%   'rhs', {'u', 'v', '-lam*x', '-lam*y - g'}, ...
%   'algebraic', {'u^2 + v^2 - lam*(x^2 + y^2) - g*y'});
% sol = dual_solve (ode, [0 2], [1 0 0 0]);
% [~, th] = ode45 (@(t, z) [z(2); -9.81*sin(z(1))], sol.t, [pi/2 0], ...
%   odeset ('RelTol', 1e-10, 'AbsTol', 1e-12));   % theta from the downward vertical
% fprintf ('max |x - sin(theta)| = %.1e, max |lam - 3 g cos(theta)| = %.1e\n', ...
%   max (abs (sol.y(:,1) - sin (th(:,1)))), max (abs (sol.y(:,5) - 3*9.81*cos (th(:,1)))));
% @end verbatim
%
% @strong{Sign conventions.}
% @itemize
% @item The duals D are the multipliers of the primal equations in the pre-dual Lagrangian:
% before the integration by parts L_H reads @code{D_d . (ydot_d - F) + D_a . G + H}, so D_d
% multiplies the residual ydot_d - F of the differential equations and D_a the algebraic
% equations exactly as written in @code{odesys} (writing -G instead of G flips the sign of D_a
% and changes nothing else).  They are the duals of the action, not reaction forces or
% constraint multipliers of a mechanical system: their size depends on the base state and on c
% (D = 0 when the base state solves the discrete problem, "BaseIterations").  Units: D_d(i) has
% the unit of H times time divided by the unit of y_d(i), D_a(j) the unit of H divided by the
% unit of G(j) (H has the unit of c times y^2).
% @item G(t, y) = 0 holds at every node for the G written in @code{odesys}; @code{sol.G} (fixed
% grid) reports its value at y^H.
% @item A mechanical multiplier is a primal unknown: write it as an algebraic state and read it
% from @code{sol.y}, with the sign of your own formulas.  The package-wide convention (eq.@: 3 of
% the rolling-disk paper; @code{sol.lambda} of @code{gauss_integrate} and @code{skg_solve}) is
% @code{M qddot = dL/dq + F + sum_a lambda_a dg_a/dqdot}, for a position constraint g(t, q)
% @code{+ lambda_a dg_a/dq}: accelerations written with @code{+ lambda*dg/dq} give lambda in that
% convention.  The pendulum example writes @code{udot = -lam*x}, @code{vdot = -lam*y - g}, so
% for g = (x^2 + y^2 - 1)/2 its lam = -lambda = T/(m l), the tension per mass and length
% (the @code{sol.lambda} of @code{gauss_integrate} is -lam to the integration error).
% @item The dual Hamiltonian (the Legendre transform of L_H in Ddot_d) is
% @code{D_d . F - D_a . G - H}; for a constant base state and an autonomous system it is a
% constant of motion, discretely to the scheme's order (@code{sol.hamiltonian}).
% @end itemize
%
% @strong{Modes.}  @emph{Adaptive} (the default; also when "RelTol" or "AbsTol" is given): the
% interval is marched in windows of N nodes whose lengths an error controller chooses: each window
% is solved at the interior order "Order" and, from that solution, at the companion order
% (Order + 2; 6 for Order 8) on the same nodes; the window is accepted when max |y_p - y_c| /
% (AbsTol + RelTol max (|y_p|, |y_c|)) <= 1 over its nodes and differential states, and the
% order-p solution is kept; its final value (superconvergent) starts the next window.  Each
% window's base state is predicted by one classical RK4 step per node interval of the system's
% own right-hand side ("Guess", "marching"), so the duals stay small and Newton needs one or
% two iterations; from the first node interval where an RK4 step would leave its stability
% region (a stiff system on a window longer than its fast time scales, detected from the RK4
% stages) the prediction is held constant instead (@code{sol.predict_stiff} counts those
% windows), and Newton's line search may accept full steps that raise the residual (a
% non-monotone search with a watchdog).  In a square system the algebraic states of the base state solve G = 0: at t0
% from G(t0, y0, ya) = 0 (Newton from 0, then from a few other starts; an algebraic equation that
% is a constant or does not involve the algebraic states, dG/dya singular -- index above 1 --, and
% equations without a real solution are refused with an error that says which), and at every
% RK4 stage and node of the prediction; in a nonsquare system they are held at the previous
% window's last values (0 in the first window).  @emph{Fixed grid} ("Slabs", or "N" without a tolerance): Slabs windows of N nodes
% each; the base state is "BaseState" (default 0) unless "Guess" is "marching".
%
% Options:
% @table @asis
% @item "RelTol", "AbsTol"
% the error tolerance of the adaptive mode (defaults 1e-6 and 1e-8).  Newton stops each window
% when the time-RMS of the residuals of the discrete equations is below 1e-3 of the tolerance
% divided by the window's length.
% @item "N"
% nodes per window (adaptive default 33; fixed-grid default 65).
% @item "Order"
% interior order of the SBP operator: 2, 4 (default), 6 or 8.
% @item "Slabs"
% a fixed grid: this many consecutive windows (slabs) of N nodes, each starting from the previous
% one's recovered end state: Ntot = Slabs*(N-1)+1 grid points.  Every slab and base-state pass runs
% in one C loop (csrc/dual/dual_slabs.h) with the model loaded once.  A tspan too short for the grid
% (slabs whose node spacing would be lost to the rounding of t) is refused.
% @item "Guess"
% "auto" (default): "marching" in the adaptive mode, the given or zero base state with zero duals
% on a fixed grid; "marching": the RK4-predicted base states (either mode); or, on a fixed grid,
% an Ntot-by-(nd+ng) matrix of initial duals.
% @item "c"
% the weights of H: a positive scalar or one per state.  Default [] (automatic): in the adaptive
% and marching modes of a square system (as many algebraic equations as algebraic states), per
% window @code{c_i = 10 / X_i^2} with X_i = max |y_i| over the window's predicted base state plus
% AbsTol/RelTol (the size below which the error control treats state i absolutely); elsewhere
% (a fixed grid, a nonsquare system) 10.  A square system's discrete solution does not depend on
% c: the weights only decide how far the DtP map is from linear along Newton's path, and weights
% in the states' own units make the march the same in any units of time and of the states (Van
% der Pol in time units of 1e-6 s or 1e6 s: the windows and Newton iterations of SI) and keep
% the duals of a small state from dominating (Robertson's kinetics on [0, 1000]: 85 windows and
% 890 Newton iterations, against 322 and 4675 with c = 10; @file{doc/dual.md}, "Stiff systems").
% Given, c is used as it is on every window.  The DtP map needs
% the matrix d2L_H/dy2 = diag (c) - D_d . F_yy + D_a . G_yy to stay nonsingular; the duals
% grow like c |y - ybar| times the slab length, so for a base state far from the solution the
% slab length must be short (see "Slabs").  An algebraic state that the base state predicts
% poorly (on a fixed grid, or in a nonsquare system where it is held constant over a window)
% needs a small weight.  For a nonsquare system, whose solution the weights select, give one
% weight per state for states of very different sizes (units), c_i ~ 10 / X_i^2 with X_i the
% size of state i (x and v = dx/dt with time in units of 1e-6 s: c = [10, 1e-11]).
% @item "BaseState"
% fixed grid only: ybar: [] (zero, default), a constant vector (ny entries), an Ntot-by-ny
% matrix on the grid, or a function handle of t returning ny values.
% @item "FinalDual"
% "weak" (default) or "strong" (D_d(tf) = DT prescribed, the paper's recipe; fixed grid only).
% @item "DT"
% the final differential duals D_d(tf) (default 0; with the weak final dual they do not enter
% the primal equations).
% @item "BaseIterations"
% after the solve, replace the base state by the recovered primal and solve again, this many
% times (default 0): at the fixed point the duals vanish (@code{sol.base_change}).
% @item "OutputTimes"
% adaptive or marching mode: times within tspan where y and D are also returned
% (@code{sol.output}: @code{t}, @code{y}, @code{D}, below), by each window's Lagrange
% interpolant of degree Order + 1.
% @item "Tol", "MaxIter"
% Newton's tolerance on a fixed grid without "Guess" "marching" (the RMS of the discrete
% equations' residuals, relative to max (1, the RMS of F and of dybar/dt at the base state);
% default 1e-11), and the iteration limit per window (default 50).
% @item "ErrorEstimate"
% on a fixed grid (N without RelTol/AbsTol, or Slabs): "off" (default) or "on": the grid's Slabs
% windows of N nodes are solved as with error control (predicted base states, the weak final
% dual), each also at the companion order, and @code{sol.windows.error} and the message give the
% estimate relative to RelTol/AbsTol (defaults 1e-6, 1e-8); above 1 the message says that the
% grid does not resolve the motion to the tolerance.  Without it the message says that a fixed
% grid has no error estimate.  It excludes BaseState, a Guess matrix and FinalDual "strong".
% With more than one slab the windows start from the previous window's final value, as in the
% march, so the solution is one of the same order as the slab loop's, not the same.  (The
% oscillator x'' = -x on [0, 2 pi] with N = 41: error 1.3e-3, estimate 1.9e3 of the tolerance;
% N = 1601: 2.0e-8 and 0.020.)  Error control has its estimate always.
% @item "Display"
% "off" (default), "final" or "iter" (every Newton iteration and every window, printed while
% the solve runs).
% @item "LinearSolver"
% the LU factorization of Newton's linear systems: "auto" (default), "banded" or "umfpack".  The
% unknowns are ordered by grid point, so the Hessian is banded (bandwidths about 5 (order 4) to
% 11 (order 8) times nd + ng), and its band is dense: "auto" takes the banded LU (the package's
% own below a bandwidth of 32, LAPACK's dgbtrf above) when at least 1/16 of the band is nonzero
% (here about 3/4), the density above which the band beats UMFPACK's sparse LU
% (@file{bench/README_band.md} has the measurements); when the band would take
% 1 GiB or more, "auto" keeps U only (less than half the memory, no chord steps; "banded" keeps
% L and U).  The Hessian of the dual action is symmetric, and negative definite where the DtP
% matrices are definite (near the solution, and on the measured problems on the whole way to it):
% the banded backend factors it by Cholesky (half the band, a quarter of the LU's arithmetic),
% and by the LU where it is not definite.
% All give the same solution to rounding; @code{sol.linear_solver} says which was used.
% @end table
%
% @strong{The solution} @var{sol} (times in the unit of @var{tspan}, states in their own units;
% ny states, nd differential states, ng = numel (ode.algebraic) algebraic equations).  In every
% mode:
% @table @code
% @item t
% the grid, a column (Ntot-by-1).
% @item y
% the recovered primal y^H, Ntot-by-ny, columns in the order of @code{ode.states}; in the
% adaptive and marching modes a node shared by two windows holds the earlier window's value.
% @item D
% the duals, Ntot-by-(nd+ng): D_d (one column per differential equation), then D_a (one per
% algebraic equation, not per algebraic state).
% @item names
% the state names, @code{ode.states} (1-by-ny cellstr): the labels of the columns of y.
% @item solver
% "dual_solve".
% @item iterations
% the Newton iterations (adaptive/marching: all solves, companion and rejected ones included;
% fixed grid: the last base pass, summed over the slabs).
% @item residual_history
% Newton's residual norms: adaptive/marching, a column over the accepted windows' order-p solves,
% initial residual included, with @code{history_window} (the window of each entry); fixed grid, a
% cell with one vector per slab and base pass.
% @item exitflag, message, time
% 1 on convergence, else 0 (fixed grid: the best Newton iterate is returned; adaptive: the
% windows accepted up to the time where the march stopped; also 0, with the whole trajectory,
% when Newton's rounding level somewhere reached the error tolerance, so that the error estimate
% does not bound the error: the message then begins "not resolved to the tolerance" and says
% what to change), a sentence that says what happened (where and why it stopped), and the
% wall-clock seconds.  An adaptive march that stalls at the default Order (its window length
% below the floor: a tight tolerance) is solved again at the next higher order; when that
% converges its solution is returned (exitflag 1) with a message that names the order to pass.
% With "Order" given, the message names the higher order instead.
% @item linear_solver
% the factorization of Newton's linear systems (option "LinearSolver"), a struct: @code{kind}
% (@code{'banded'} or @code{'umfpack'}: the choice made, also under "auto"), @code{kl} and
% @code{ku} (the lower and upper bandwidths of the Hessian), @code{factors} (@code{'Cholesky'}
% when every Hessian was negative definite, @code{'Cholesky, LU'} when some were not,
% @code{'LU'} with UMFPACK, or @code{'U'} when "auto" kept U only), @code{cholesky} and
% @code{not_definite} (the Cholesky factorizations, and the Hessians found not definite and
% factored by the LU), @code{factor_time} and @code{solve_time} (seconds in the factorizations
% and solves, all windows or slabs).
% @end table
% In the adaptive and marching modes also:
% @table @code
% @item mode
% "adaptive", or "fixed" (a fixed grid with "Guess", "marching").
% @item guess, final_dual, N, order, companion_order
% "marching", "weak", the nodes per window, the interior order and that of the
% error estimate.
% @item windows
% the accepted windows, a struct of columns: @code{t0}, @code{t1}, @code{N}, @code{error} (the
% estimate as a fraction of the tolerance), @code{iterations}, @code{companion_iterations}.
% @item rejected
% the rejected attempts, a struct of columns: @code{t0}, @code{length}, @code{reason}
% ("error", "newton" or "companion"), @code{error}.
% @item output
% only with @code{"OutputTimes"}: the solution at the K requested times, a struct with @code{t}
% (K-by-1, the requested times as a column) and, for a mechanical system, @code{q}, @code{qdot}
% (K-by-n) and @code{lambda} (K-by-m), for a first-order system @code{y} (K-by-ny) (dual_solve
% adds @code{D}, the duals); the same names in skg_solve, gauss_integrate, dual_solve and
% periodic_orbit.  Here: @code{y} (K-by-ny) and @code{D} (K-by-m, m = nd + ng) by the windows'
% interpolants, NaN outside the solved part.
% @item predict_fallbacks
% the number of windows whose RK4 prediction was not finite and fell back to a constant base
% state.
% @item predict_stiff
% the number of windows whose RK4 prediction met a step outside RK4's stability region (a stiff
% system on a window longer than its fast time scales) and was held constant from there on
% (@file{doc/dual.md}, "Marching").
% @end table
% On a fixed grid with the base state given or zero also:
% @table @code
% @item residual
% the discrete primal equations (Dm y_d - F) at every node, Ntot-by-nd (unit of y_d per time);
% with the strong final dual the slab's last node is not an equation of the action and shows how
% well the ODE holds there.
% @item G
% the algebraic equations at y^H, Ntot-by-ng.
% @item hamiltonian
% the dual Hamiltonian D_d . F - D_a . G - H at every node (Ntot-by-1) when the base state is
% constant, else [].
% @item S
% the value of the discrete dual action, summed over the slabs.
% @item base, base_change
% the base state ybar on the grid (Ntot-by-ny; the last one used), and max |change of ybar| of
% each base iteration.
% @item slab_end_y, slab_end_residual
% each slab's last node: y (Slabs-by-ny) and Dm y_d - F there (Slabs-by-nd).
% @item slab_start_jump
% |y^H - y0| at each slab's first node: O(h^(p+1)) for a genuine critical point; above 1e-2
% max (1, |y0|) the solve is reported as not converged (a spurious critical point of a slab too
% long for its base state).
% @item slab_iterations
% Newton iterations per slab (last base pass).
% @end table
%
% Numbers of another real class than double (single, int32, ...) are converted to double;
% sparse, complex, logical, char, cell and other arrays where numbers are expected are refused
% with an error that names the argument, what it must be and the class and size received.
% @seealso{odesys, odesys_eval, dual_action, dual_lorenz, dual_pars, varmech_plot, skg_solve, gauss_integrate}
% @end deftypefn

function sol = dual_solve (ode, tspan, y0, varargin)
  fname = 'dual_solve';
  if (nargin < 3)
    vm_badarg (fname, 'expected at least 3 inputs: ode, tspan, y0 (see help dual_solve)');
  end
  if (~isstruct (ode) || ~isfield (ode, 'type') || ~strcmp (ode.type, 'odesys'))
    vm_badarg (fname, 'ode must be a system made by odesys');
  end
  if (ode.nd < 1)
    vm_badarg (fname, 'the system has no differential state; expected at least one right-hand side');
  end
  % the call without options, on a system without algebraic states: one crossing with the march's
  % setup that vm_dual_driver made for the first such call of a system of these sizes (it depends
  % on the sizes, tspan and y0 only, and its memory estimate is below the size from which
  % vm_check_memory asks the system), for tspan and y0 that vm_dual_driver takes as they are;
  % any refusal goes the path below, which phrases it (in its order of checks)
  persistent setup_default sizes_default
  if (nargin == 3 && ~isempty (setup_default) && ode.na == 0 && ode.ny == sizes_default(1) ...
      && ode.nd == sizes_default(2) && isa (tspan, 'double') && isreal (tspan) ...
      && ~issparse (tspan) && numel (tspan) == 2 && isvector (tspan) && tspan(2) > tspan(1) ...
      && all (isfinite (tspan)) && isa (y0, 'double') && isreal (y0) && ~issparse (y0) ...
      && numel (y0) == ode.nd && isvector (y0) && all (isfinite (y0)))
    setup = setup_default;
    setup.t0 = tspan(1);
    setup.tf = tspan(2);
    setup.y0 = y0(:)';
    try
      sol = vm_dual_mex ('march', ode, setup);
      done = true;
    catch
      done = false;
    end
    if (done)
      if (sol.exitflag ~= 1 && nargout == 0)
        error (['varmech:' fname ':noconv'], '%s: %s', fname, sol.message);
      end
      return;
    end
  end
  opts = vm_options (fname, varargin);   % names, defaults, rules: csrc/base/vm_schema.c
  % whether the caller set Order (vm_dual_driver retries a stalled march at a higher order if not)
  opts.OrderGiven = vm_option_given (varargin, 'Order');
  % every field of sol, solver and names included, comes from the gateway's schema
  % (mex/vm_dual_sol_mx.h); the fixed slabs' grid t from vm_dual_driver
  [sol, setup] = vm_dual_driver (fname, 'general', [], ode, [ode.ny ode.nd ode.na], tspan, y0, opts);
  if (nargin == 3 && ode.na == 0 && ~isempty (setup) ...
      && vm_dual_mex ('memory', ode.nd, 0, setup.N, setup.order, vm_linsolve_code (opts), ...
                      ode.ny, setup.N) < vm_check_memory ())
    setup_default = setup;
    sizes_default = [ode.ny ode.nd];
  end
  if (sol.exitflag ~= 1 && nargout == 0)
    error (['varmech:' fname ':noconv'], '%s: %s', fname, sol.message);
  end
end

%!error <N must be an integer .= 12 for order 4 with an error estimate> dual_solve (odesys ('states', {'x', 'v'}, 'rhs', {'v', '-x'}), [0 1], [1 0], 'N', 9, 'ErrorEstimate', 'on')
%!error <ErrorEstimate must be one of 'off', 'on'; got char 1x3 \('yes'\)> dual_solve (odesys ('states', {'x', 'v'}, 'rhs', {'v', '-x'}), [0 1], [1 0], 'N', 20, 'ErrorEstimate', 'yes')
%!error <ErrorEstimate 'on' solves the fixed grid with the marching driver .* it excludes BaseState, a Guess matrix and FinalDual 'strong'> dual_solve (odesys ('states', {'x', 'v'}, 'rhs', {'v', '-x'}), [0 1], [1 0], 'N', 20, 'ErrorEstimate', 'on', 'BaseState', [1 0])
%!test
%! % a fixed grid says that it has no error estimate, or gives it with ErrorEstimate 'on': the
%! % oscillator x'' = -x on [0, 2 pi]; the estimate (the companion order's difference, window by
%! % window) is of the size of the error or above it (a difference of two orders), and says when
%! % the grid falls short of the tolerance (measured: estimate / error 1.5, 1.0, 1.0)
%! o1 = odesys ('states', {'x', 'v'}, 'rhs', {'v', '-x'});
%! s = dual_solve (o1, [0 2*pi], [1 0], 'N', 41);
%! assert (s.exitflag, 1);
%! assert (~isempty (strfind (s.message, 'no error estimate')));
%! assert (~isempty (strfind (s.message, 'ErrorEstimate ''on'' gives one')));
%! for N = [41 1601]   % 1.2e3 and 0.02 of the tolerance: both messages
%!   s = dual_solve (o1, [0 2*pi], [1 0], 'N', N, 'ErrorEstimate', 'on');
%!   assert (s.exitflag, 1);
%!   assert (s.mode, 'fixed');
%!   e = max (max (abs ([s.y(:, 1) - cos(s.t), s.y(:, 2) + sin(s.t)]))) / (1e-8 + 1e-6);
%!   assert (s.windows.error >= e / 3);
%!   assert (~isempty (strfind (s.message, 'largest error estimate')));
%!   assert (isempty (strfind (s.message, 'does not resolve')) == (s.windows.error <= 1));
%! end
%! % Slabs windows, each with its estimate, which bounds the error as above (measured: error
%! % 1.29e-6, estimates 1.28 of the tolerance).  The windows start as in the march, from the
%! % previous window's final value, so the solution is one of the same order as the slab loop's
%! % (measured 1.27e-6 from the slabs' one and 1.27e-6 from the exact one), not the same
%! s4 = dual_solve (o1, [0 2*pi], [1 0], 'N', 101, 'Slabs', 4, 'ErrorEstimate', 'on');
%! assert (numel (s4.windows.error), 4);
%! e4 = max (max (abs ([s4.y(:, 1) - cos(s4.t), s4.y(:, 2) + sin(s4.t)]))) / (1e-8 + 1e-6);
%! assert (max (s4.windows.error) >= e4 / 3);

%!shared ode
%! ode = odesys ('states', {'x', 'y', 'z'}, 'parameters', struct ('A', 10, 'R', 28, 'B', 8/3), ...
%!   'rhs', {'A*(y - x)', 'x*(R - z) - y', 'x*y - B*z'});
%!test
%! % Lorenz from the zero base state on a short slab: the recovered primal against ode45 converges
%! % at the SBP-SAT max-norm order of the order-4 operator (boundary order 2, so 3)
%! err = zeros (1, 2);
%! Ns = [41 81];
%! for k = 1:2
%!   sol = dual_solve (ode, [0 0.1], [1 2 3], 'N', Ns(k), 'c', 50);
%!   assert (sol.exitflag, 1);
%!   [~, yr] = ode45 (@(t, y) [10*(y(2)-y(1)); y(1)*(28-y(3))-y(2); y(1)*y(2)-8/3*y(3)], sol.t, [1 2 3], ...
%!                    odeset ('RelTol', 1e-13, 'AbsTol', 1e-13));
%!   err(k) = max (abs (sol.y(:) - yr(:)));
%!   assert (max (max (abs (sol.residual(1:end-1, :)))) < 1e-8);
%! end
%! assert (log2 (err(1) / err(2)) > 2.7);
%!test
%! % the base state that solves the problem makes D = 0 the critical point
%! sol = dual_solve (ode, [0 0.1], [1 2 3], 'N', 33, 'c', 50, 'BaseIterations', 1);
%! assert (sol.exitflag, 1);
%! assert (max (abs (sol.D(:))) < 1e-8 * 50);
%!test
%! % slabs: each starts from the previous end state
%! s1 = dual_solve (ode, [0 0.2], [1 2 3], 'N', 33, 'c', 50, 'Slabs', 4);
%! assert (s1.exitflag, 1);
%! assert (size (s1.y), [4*32+1 3]);
%!test
%! % the dual Hamiltonian is a constant of motion for a constant base state: its variation over
%! % the grid falls at the scheme's order (3 for order 4)
%! v = zeros (1, 2);
%! Ns = [65 129];
%! for k = 1:2
%!   sol = dual_solve (ode, [0 0.1], [1 2 3], 'N', Ns(k), 'c', 50, 'BaseState', [0 0 0]);
%!   v(k) = (max (sol.hamiltonian) - min (sol.hamiltonian)) / max (abs (sol.hamiltonian));
%! end
%! assert (v(2) < 1e-5);
%! assert (log2 (v(1) / v(2)) > 2.7);
%! sol = dual_solve (ode, [0 0.1], [1 2 3], 'N', 33, 'c', 50, 'BaseState', @(t) [t 0 0]);
%! assert (isempty (sol.hamiltonian));
%!test
%! % the weak final dual (default): the discrete primal equations hold at every node, the last
%! % included; with the strong final dual the last node has no equation
%! sol = dual_solve (ode, [0 0.1], [1 2 3], 'N', 41, 'c', 50);
%! assert (max (abs (sol.residual(:))) < 1e-8);
%! s2 = dual_solve (ode, [0 0.1], [1 2 3], 'N', 41, 'c', 50, 'FinalDual', 'strong');
%! assert (max (abs (s2.residual(end, :))) > 1e-3);
%!test
%! % issue 11: the defaults march Lorenz from (1, 1, 1) on [0, 1] (adaptive, RelTol 1e-6)
%! sol = dual_solve (ode, [0 1], [1 1 1]);
%! assert (sol.exitflag, 1);
%! assert (strcmp (sol.mode, 'adaptive'));
%! assert (all (sol.windows.error <= 1));
%!error <dual_solve: N = 100000000 nodes per slab .99999999000001 grid points. need about> dual_solve (ode, [0 1], [1 1 1], 'N', 1e8, 'Slabs', 1e6)
%!error <dual_solve: N = 100000000 nodes per slab .100000000 grid points. need about> dual_solve (ode, [0 1], [1 1 1], 'N', 1e8, 'RelTol', 1e-6)
%!test
%! % the estimate follows the order and the linear solver (the refusal's figure, in GB): the band's
%! % model grows with the order (the bandwidth does), UMFPACK's fit is larger at order 4 (u = 3)
%! fig = zeros (1, 4);
%! runs = {{'Order', 4}, {'Order', 8}, {'Order', 4, 'LinearSolver', 'umfpack'}, ...
%!         {'Order', 4, 'LinearSolver', 'banded'}};
%! for k = 1:4
%!   try
%!     dual_solve (ode, [0 1], [1 1 1], 'N', 1e8, 'Slabs', 1, runs{k}{:});
%!   catch err
%!     fig(k) = str2double (regexp (err.message, 'need about (\S+) GB', 'tokens', 'once'));
%!   end
%! end
%! assert (all (fig > 0));
%! assert (fig(2) > 1.5 * fig(1));
%! assert (fig(3) > 1.2 * fig(1));
%! assert (fig(4), fig(1));
%!error <dual_solve: the right-hand side 1 .sqrt.x.. is NaN at the initial state .t0 = 0, y0 = -1.: start where it is real and finite> dual_solve (odesys ('states', {'x'}, 'rhs', {'sqrt(x)'}), [0 1], -1)
%!error <dual_solve: slab 1 of 1: no convergence in 1 iterations.*; use more slabs or a base state closer to the solution> dual_solve (ode, [0 1], [1 1 1], 'N', 33, 'Slabs', 1, 'MaxIter', 1)
%!error <ode must be a system made by odesys> dual_solve (struct (), [0 1], 1)
%!error <y0 must be a real full vector with 3 entries; got double 1x2> dual_solve (ode, [0 1], [1 2])
%!error <y0 must be a real full vector with 3 entries; got sparse double 1x3> dual_solve (ode, [0 1], sparse ([1 2 3]))
%!error <y0 must be a real full vector with 3 entries; got complex double 1x3> dual_solve (ode, [0 1], [1 2 3i])
%!error <y0 must be a real full vector with 3 entries; got logical 1x3> dual_solve (ode, [0 1], true (1, 3))
%!error <y0 must be a real full vector with 3 entries; got cell 1x3> dual_solve (ode, [0 1], {1 2 3})
%!error <y0 must be finite; entry 3 is Inf> dual_solve (ode, [0 1], [1 2 Inf])
%!error <dual_solve: y0 must hold the 2 differential states \(a, b\) only; got 3 entries: the algebraic states \(c\) are not given, they are computed from G\(t0, y0, ya\) = 0> dual_solve (odesys ('states', {'a', 'b', 'c'}, 'rhs', {'-a', 'a - b'}, 'algebraic', {'a + b + c - 1'}), [0 1], [1 0 0])
%!error <tspan must be a real full vector with 2 entries; got sparse double 1x2> dual_solve (ode, sparse ([0 1]), [1 2 3])
%!error <tspan must be a real full vector with 2 entries; got cell 1x2> dual_solve (ode, {0 1}, [1 2 3])
%!error <Slabs must be an integer in \[1, 1000000\]; got double 1x1 \(1000000000\)> dual_solve (ode, [0 1], [1 2 3], 'Slabs', 1e9)
%!error <N must be an integer in \[2, 100000000\]; got double 1x1 \(2147483651\)> dual_solve (ode, [0 1], [1 2 3], 'N', 2^31 + 3)
%!error <MaxIter must be an integer in \[0, 1000000\]; got double 1x1 \(1000000000000\)> dual_solve (ode, [0 1], [1 2 3], 'MaxIter', 1e12)
%!error <Order must be one of 2, 4, 6, 8; got double 1x1 \(7\)> dual_solve (ode, [0 1], [1 2 3], 'Order', 7)
%!error <DT must be a real full vector with 3 entries; got sparse double 1x3> dual_solve (ode, [0 1], [1 2 3], 'Slabs', 1, 'FinalDual', 'strong', 'DT', sparse ([0 0 1]))
%!error <Guess must be 'marching', 'auto' or a matrix of initial duals; got char 1x4x2> dual_solve (ode, [0 1], [1 2 3], 'Guess', repmat ('auto', [1 1 2]))
%!test
%! % a DAE with its defaults (issue 14): a damped pendulum in Cartesian coordinates with the rod
%! % tension T as the algebraic state, from the index-1 equation.  The first base state has T
%! % from G(t0, y0, T) = 0 and the prediction solves G = 0 at every node, so the duals of G start
%! % near 0.  Against gauss_integrate (ideal reaction, lambda dg/dq = -T (x, y)/l with
%! % g = (x^2 + y^2 - l^2)/2): the error is of the order of the tolerance times the ~400 windows
%! p = struct ('m', 1, 'g', 9.81, 'l', 1, 'c', 0.5);
%! pd = odesys ('states', {'x', 'y', 'u', 'v', 'T'}, 'parameters', p, ...
%!   'rhs', {'u', 'v', '(-c*u - T*x/l)/m', '(-m*g - c*v - T*y/l)/m'}, ...
%!   'algebraic', {'u^2 + v^2 + x*(-c*u - T*x/l)/m + y*(-m*g - c*v - T*y/l)/m'});
%! y0 = [sin(pi/3) -cos(pi/3) 0 0];
%! d = dual_solve (pd, [0 3], y0);
%! assert (d.exitflag, 1);
%! assert (d.y(1, 5), p.m * p.g * cos (pi/3), 1e-6);   % the recovered primal: to the tolerance
%! pm = mechsys ('coordinates', {'x', 'y'}, 'parameters', p, ...
%!   'lagrangian', 'm/2*(dot(x)^2 + dot(y)^2) - m*g*y', 'forces', {'-c*dot(x)', '-c*dot(y)'}, ...
%!   'constraints', {'(x^2 + y^2 - l^2)/2'});
%! r = gauss_integrate (pm, [0 3], y0(1:2), y0(3:4), 'RelTol', 1e-12, 'AbsTol', 1e-14, 'OutputTimes', d.t);
%! assert (max (max (abs (d.y(:, 1:4) - [r.output.q r.output.qdot]))) < 1e-4);
%! assert (max (abs (d.y(:, 5) / p.l + r.output.lambda)) < 1e-3);
%!error <dual_solve: the algebraic equations do not determine the algebraic states at t0 = 0 .dG/dya is singular> dual_solve (odesys ('states', {'x', 'y', 'u', 'v', 'T'}, 'rhs', {'u', 'v', '-T*x', '-1 - T*y'}, 'algebraic', {'x^2 + y^2 - 1'}), [0 1], [1 0 0 0])
%!error <dual_solve: found no algebraic states with G.t0, y0, ya. = 0 at t0 = 0> dual_solve (odesys ('states', {'x', 'a'}, 'rhs', {'-x'}, 'algebraic', {'exp(a) + 1'}), [0 1], 1)
%!error <dual_solve: found no algebraic states with G.t0, y0, ya. = 0 at t0 = 0: the algebraic equations have no real solution there> dual_solve (odesys ('states', {'x', 'a'}, 'rhs', {'-x'}, 'algebraic', {'a^2 + 1'}), [0 1], 1)
%!error <dual_solve: the algebraic equation 1 .3. is a constant .3; it contains none of the states., so it cannot determine the algebraic states a> dual_solve (odesys ('states', {'x', 'a'}, 'rhs', {'-x'}, 'algebraic', {'3'}), [0 1], 1)
%!error <the algebraic equation 1 .x - 1. does not involve the algebraic states a.: the system has index above 1> dual_solve (odesys ('states', {'x', 'a'}, 'rhs', {'-x'}, 'algebraic', {'x - 1'}), [0 1], 1)
%!error <the algebraic state b appears in no algebraic equation.: the system has index above 1> dual_solve (odesys ('states', {'x', 'a', 'b'}, 'rhs', {'-x'}, 'algebraic', {'a - 1', 'a + x'}), [0 1], 1)
%!test
%! % dG/dya = 2a is singular at ya = 0 by coincidence: a^2 = 1 has real solutions (other starts find them)
%! s = dual_solve (odesys ('states', {'x', 'a'}, 'rhs', {'-x'}, 'algebraic', {'a^2 - 1'}), [0 1], 1, 'N', 17, 'Slabs', 2);
%! assert (isstruct (s));
%!test
%! % an interval the march cannot cross: [0 1e300] (its first windows overflow the discrete
%! % equations' scales, so they are halved like a failed solve) stops early with an estimate
%! % of the windows it would need, exitflag 0, and the part it did march is right
%! osc = odesys ('states', {'x', 'v'}, 'rhs', {'v', '-x'});
%! s = dual_solve (osc, [0 1e300], [1 0]);
%! assert (s.exitflag, 0);
%! assert (~isempty (strfind (s.message, 'more windows than allowed')));
%! assert (s.t(end) > 10 && s.t(end) < 1e4);
%! assert (max (abs (s.y(:, 1) - cos (s.t))) < 1e-3);
%!error <dual_solve: tspan \[0, 1e-300\] is too short for the grid: its 1 slab.s. of N = 65 nodes are 1e-300 long> dual_solve (odesys ('states', {'x'}, 'rhs', {'-x'}), [0 1e-300], 1, 'Slabs', 1)
%!error <dual_solve: tspan \[1, 1\] is too short for the grid: its 4 slab.s. of N = 17 nodes are 5.55e-17 long> dual_solve (odesys ('states', {'x'}, 'rhs', {'-x'}), [1 1 + 2.2e-16], 1, 'Slabs', 4, 'N', 17)
%!test
%! % every solution names its solver and its states (varmech_plot reads them)
%! s = dual_solve (ode, [0 0.1], [1 2 3]);
%! assert (s.solver, 'dual_solve');
%! assert (s.names, {'x', 'y', 'z'});
%! s = dual_solve (ode, [0 0.1], [1 2 3], 'N', 33, 'c', 50, 'Slabs', 1);
%! assert (s.names, {'x', 'y', 'z'});
%!test
%! % integer and single classes are converted (the same solution)
%! s1 = dual_solve (ode, [0 0.1], [1 2 3], 'N', 33, 'c', 50, 'Slabs', 1);
%! s2 = dual_solve (ode, [0 0.1], int32 ([1 2 3]), 'N', int16 (33), 'c', single (50), 'Slabs', uint8 (1));
%! assert (s1.y, s2.y, 1e-12);
%!error <c must be a positive scalar> dual_solve (ode, [0 1], [1 2 3], 'c', -1)
%!error <tspan must be> dual_solve (ode, [1 0], [1 2 3])
%!error <N must be an integer> dual_solve (ode, [0 1], [1 2 3], 'N', 3)
%!error <BaseState must be> dual_solve (ode, [0 1], [1 2 3], 'BaseState', [1 2])
%!error <unknown option> dual_solve (ode, [0 1], [1 2 3], 'Bogus', 1)
%!error <LinearSolver must be one of 'auto', 'umfpack', 'banded'; got char 1x4 \('band'\)> dual_solve (ode, [0 1], [1 2 3], 'LinearSolver', 'band')
%!test
%! % LinearSolver on a fixed grid: UMFPACK and the banded LU solve the same Newton systems to
%! % rounding, so the iterations take the same steps to the same critical point; y and D differ by
%! % the rounding of the last step (5e-14 and 1e-14 measured, against |y| 6 and |D| 20; 1e-10 is
%! % Newton's tolerance, Tol 1e-11, and far above it).  'auto' picks the banded LU (3 duals per
%! % node, order 4: kl = ku = 17)
%! a = {ode, [0 0.1], [1 2 3], 'N', 33, 'c', 40, 'BaseState', [0.5 1 2], 'FinalDual', 'strong'};
%! su = dual_solve (a{:}, 'LinearSolver', 'umfpack');
%! sb = dual_solve (a{:}, 'LinearSolver', 'banded');
%! sa = dual_solve (a{:});
%! assert ([su.exitflag sb.exitflag sa.exitflag], [1 1 1]);
%! assert ({su.linear_solver.kind, sb.linear_solver.kind, sa.linear_solver.kind}, ...
%!         {'umfpack', 'banded', 'banded'});
%! assert ([sa.linear_solver.kl sa.linear_solver.ku], [17 17]);
%! % the banded backend factors the (negative definite) Hessians by Cholesky, UMFPACK by LU
%! assert ({su.linear_solver.factors, sb.linear_solver.factors, sa.linear_solver.factors}, ...
%!         {'LU', 'Cholesky', 'Cholesky'});
%! assert ([su.linear_solver.cholesky, sa.linear_solver.not_definite], [0 0]);
%! assert (sa.linear_solver.cholesky >= 1);
%! assert (sb.iterations, su.iterations);
%! assert (sb.y, su.y, 1e-10 * max (abs (su.y(:))));
%! assert (sb.D, su.D, 1e-10 * max (abs (su.D(:))));
%!test
%! % Hessians that are not definite (three slabs from a constant base state: the duals start far
%! % from the solution) are factored by the LU; the solution is UMFPACK's to the Newton tolerance
%! a = {ode, [0 0.3], [1 2 3], 'N', 17, 'c', 50, 'Slabs', 3, 'BaseState', [1 2 3]};
%! sa = dual_solve (a{:});
%! su = dual_solve (a{:}, 'LinearSolver', 'umfpack');
%! assert ([sa.exitflag su.exitflag], [1 1]);
%! assert (sa.linear_solver.factors, 'Cholesky, LU');
%! assert (sa.linear_solver.cholesky > 0 && sa.linear_solver.not_definite > 0);
%! assert (sa.y, su.y, 1e-10 * max (abs (su.y(:))));
%!test
%! % a march that crawls stops early with what it measured: the generalized Pars system
%! % (non-square algebraic equations) with weights 1e4 on the force and slack takes windows of
%! % 1e-8 to 4e-6 at the default tolerances; at that pace [0, 0.5] would need 1e7 windows, and
%! % the march stops at the first check where its longest window has stopped doubling (a check
%! % every 1000 attempts, csrc/march/march.h), not after the 100000 of MaxWindows.  (With the default
%! % c = 10 it crawled alike until Newton weighted each state's equations by that state's own
%! % tolerance, csrc/dual/dual_march.c; it now takes 4 windows, next test.)
%! pars = odesys ('states', {'x1', 'x2', 'x3', 'v1', 'v2', 'v3', 'Q1', 'Q2', 'Q3', 's'}, ...
%!   'rhs', {'v1', 'v2', 'v3', '-Q1', '-Q2', '-Q3'}, ...
%!   'algebraic', {'x3*v1 - v2', 'Q1*v1 + Q2*v2 + Q3*v3 - s^2/2'}, 'square', false);
%! s = dual_solve (pars, [0 0.5], [0 0 0.5 1 0.5 0.3], 'c', [10 10 10 10 10 10 1e4 1e4 1e4 1e4]);
%! assert (s.exitflag, 0);
%! assert (~isempty (strfind (s.message, 'stopped early')));
%! assert (~isempty (strfind (s.message, 'at that pace')));
%! assert (numel (s.windows.t0) + numel (s.rejected.t0) <= 10000);

%!test
%! % the same Pars system with the default weights: 4 windows, and the motion satisfies the
%! % constraint x3 v1 = v2 and the power statement Q . v = s^2/2 to Newton's tolerance (measured
%! % 8e-11 and 1e-11)
%! pars = odesys ('states', {'x1', 'x2', 'x3', 'v1', 'v2', 'v3', 'Q1', 'Q2', 'Q3', 's'}, ...
%!   'rhs', {'v1', 'v2', 'v3', '-Q1', '-Q2', '-Q3'}, ...
%!   'algebraic', {'x3*v1 - v2', 'Q1*v1 + Q2*v2 + Q3*v3 - s^2/2'}, 'square', false);
%! s = dual_solve (pars, [0 0.5], [0 0 0.5 1 0.5 0.3]);
%! assert (s.exitflag, 1);
%! y = s.y;
%! assert (max (abs (y(:, 3) .* y(:, 4) - y(:, 5))) <= 1e-8);
%! assert (max (abs (sum (y(:, 7:9) .* y(:, 4:6), 2) - y(:, 10).^2 / 2)) <= 1e-8);
%!test
%! % the same in the adaptive march (the main order's Hessian is reported)
%! su = dual_solve (ode, [0 0.2], [1 1 1], 'RelTol', 1e-8, 'LinearSolver', 'umfpack');
%! sb = dual_solve (ode, [0 0.2], [1 1 1], 'RelTol', 1e-8, 'LinearSolver', 'banded');
%! sa = dual_solve (ode, [0 0.2], [1 1 1], 'RelTol', 1e-8);
%! assert ([su.exitflag sb.exitflag sa.exitflag], [1 1 1]);
%! assert ({su.linear_solver.kind, sb.linear_solver.kind, sa.linear_solver.kind}, ...
%!         {'umfpack', 'banded', 'banded'});
%! assert (size (sb.y), size (su.y));
%! assert (sb.y, su.y, 1e-10 * max (abs (su.y(:))));
%! assert ({su.linear_solver.factors, sa.linear_solver.factors}, {'LU', 'Cholesky'});

%!demo
%! % Van der Pol (mu = 2), adaptive: the recovered primal and the duals of the action
%! ode = odesys ('states', {'x', 'v'}, 'parameters', struct ('mu', 2), ...
%!   'rhs', {'v', 'mu*(1 - x^2)*v - x'});
%! sol = dual_solve (ode, [0 15], [2 0]);
%! disp (sol.message);
%! % (varmech_plot (sol) draws this panel set)
%! figure ();
%! subplot (2, 1, 1);
%! plot (sol.t, sol.y);
%! xlabel ('t');  ylabel ('y');  legend ('x', 'v');
%! title ('dual_solve: Van der Pol oscillator, mu = 2', 'interpreter', 'none');
%! xlim ([0 15]);
%! subplot (2, 1, 2);
%! plot (sol.t, sol.D);
%! xlabel ('t');  ylabel ('D');  legend ({'D_x', 'D_v'}, 'interpreter', 'none');
%! title ('duals (small: the RK4-predicted base state is close to the solution)');
%! xlim ([0 15]);
%!
%! % a DAE: the pendulum in Cartesian coordinates (l = m = 1) with its multiplier lam as an
%! % algebraic state, against gauss_integrate's multiplier (lambda = -lam for g = (x^2+y^2-1)/2)
%! ode = odesys ('states', {'x', 'y', 'u', 'v', 'lam'}, 'parameters', struct ('g', 9.81), ...
%!   'rhs', {'u', 'v', '-lam*x', '-lam*y - g'}, ...
%!   'algebraic', {'u^2 + v^2 - lam*(x^2 + y^2) - g*y'});
%! sol = dual_solve (ode, [0 3], [1 0 0 0]);
%! sys = mechsys ('coordinates', {'x', 'y'}, 'parameters', struct ('g', 9.81), ...
%!   'lagrangian', '(dot(x)^2 + dot(y)^2)/2 - g*y', 'constraints', {'(x^2 + y^2 - 1)/2'});
%! gs = gauss_integrate (sys, [0 3], [1 0], [0 0]);
%! % (varmech_plot (sol) draws the states and duals)
%! figure ();
%! subplot (2, 1, 1);
%! plot (sol.t, sol.y(:, 1:2), gs.t, gs.q, '--');
%! xlabel ('t (s)');  ylabel ('position (m)');
%! legend ({'x (dual_solve)', 'y (dual_solve)', 'x (gauss_integrate)', 'y (gauss_integrate)'}, ...
%!   'interpreter', 'none', 'location', 'eastoutside');
%! title ('pendulum released horizontally');
%! subplot (2, 1, 2);
%! plot (sol.t, sol.y(:, 5), gs.t, -gs.lambda, '--');
%! xlabel ('t (s)');  ylabel ('lam = T/(m l) (1/s^2)', 'interpreter', 'none');
%! legend ({'lam (dual_solve)', '-lambda (gauss_integrate)'}, 'interpreter', 'none', ...
%!   'location', 'eastoutside');
%! title ('multiplier: lam = -lambda (eq. 3 sign)');
