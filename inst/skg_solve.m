% -*- texinfo -*-
% @deftypefn  {} {sol =} skg_solve (sys, tspan, q0, qdot0)
% @deftypefnx {} {sol =} skg_solve (sys, tspan, q0, qdot0, name, value, ...)
% @deftypefnx {} {sol =} skg_solve (sys, tspan, q0, qdot0, opts)
% Trajectory of a @code{mechsys} system as the critical point of the discrete
% Schwinger-Keldysh-Galley (SKG) action.  For motion with dissipation (forces), constraints of
% any velocity dependence (with their multipliers) and contacts with friction.  Options:
% @multitable @columnfractions .2 .8
% @item "RelTol" @tab relative error tolerance (default 1e-6; "AbsTol": 1e-8)
% @item "Order" @tab order of the time discretization: 2, 4 (default), 6 or 8
% @item "N" @tab nodes per window (default 33; 81 on a fixed grid)
% @item "Windows" @tab fixed grid of this many windows (no error control)
% @item "OutputTimes" @tab times for @code{sol.output} (.t, .q, .qdot, .lambda)
% @end multitable
% Fields: @code{sol.t} (N-by-1), @code{sol.q}, @code{sol.qdot} (N-by-n, columns as in
% @code{sys.coordinates}), @code{sol.lambda} (multipliers), @code{sol.energy}, @code{sol.exitflag}
% (1: converged), @code{sol.message}.  Example (a damped pendulum, th = 1 released from rest;
% ode45 on d2th/dt2 = -g sin(th) - c dth/dt gives the same th(t) to the tolerance):
% @verbatim
% pend = mechsys ('coordinates', {'th'}, 'parameters', struct ('g', 9.81, 'c', 0.5), ...
%   'lagrangian', 'dot(th)^2/2 + g*cos(th)', 'forces', {'-c*dot(th)'});
% sol = skg_solve (pend, [0 10], 1, 0, 'RelTol', 1e-8);
% fprintf ('%s\nth(10) = %.6f\n', sol.message, sol.q(end));
% plot (sol.t, sol.q);  xlabel ('t');  ylabel ('th')
% @end verbatim
%
% @strong{Reference.}  @var{sys} is a system made by @code{mechsys}, @var{tspan} = [t0 tf] with
% t0 < tf, @var{q0} and @var{qdot0} the initial position and velocity (n entries each, in the order
% of @code{sys.coordinates}).  Options are name/value pairs (names are case-insensitive) or one struct
% @var{opts} whose fields are the options.
%
% The action of the doubled coordinates q1, q2 (q+ = (q1+q2)/2, q- = q1 - q2) is discretized in
% time with a summation-by-parts operator on N points over @var{tspan} = [t0 tf]:
% @code{S = sum_k H_kk [L(q1, Da q1) - L(q2, Da q2) + q- . F(q+, Da q+) + lambda- . g - lambda+ . (q- . dg/dqdot)] - q-_1 . (p+_1 - p_i) - q-_N . p+_N},
% with @code{Da q = D q + H^-1 e1 (q_1 - q0)} and p = dL/dqdot: the boundary formulation "F4" of
% @file{doc/skg_boundary.md}, whose critical point has q- = 0, lambda- = 0 and whose q+ equations
% are the SBP-SAT discretization of the equations of motion.  It is built symbolically from the
% model (never expanded by hand) and solved by Newton's method with the exact sparse Hessian
% (line search, Levenberg-Marquardt fallback), factored by a banded LU or by UMFPACK
% (option "LinearSolver").
%
% @strong{Equations of motion and signs.}  The trajectory solves, to the discretization error,
% @code{d/dt dL/dqdot = dL/dq + F + sum_a lambda_a dg_a/dqdot}, that is
% @code{M qddot = f + sum_a lambda_a dg_a/dqdot} with @code{M = d2L/dqdot2} and f of
% @code{mechsys_eval} (@code{f = dL/dq - (d2L/dqdot dq) qdot - d2L/dqdot dt + F}).  The forces F
% of @code{mechsys} are @emph{added} to dL/dq: a force along +q_i pushes q_i up, and a damping
% force is written @code{-c*dot(x)}.  A contact's h(q) >= 0 is the allowed side: its normal force
% acts along +grad h, back into h > 0 (friction opposes the sliding velocity).  A constraint that
% does not depend on the velocities, g(t, q) = 0, is kept at position level at every node.
%
% @strong{Holonomic (position) constraints in the action.}  A constraint g_a(t, q) in which no
% velocity occurs (structurally) is holonomic.  It enters the doubled action as the augmented
% Lagrangians L(q1) - lambda1_a g_a(t, q1) and L(q2) - lambda2_a g_a(t, q2) of the two branches
% (lambda1,2 = lambda+ -/+ lambda-/2), linearized at q- = 0, so that it has the same slot as a
% velocity constraint with @code{dg_a/dq} in place of @code{dg_a/dqdot}; at every node k of
% every window the density gets
% @code{lambda-_a g_a(t_k, q+_k) - lambda+_a (q-_k . dg_a/dq(t_k, q+_k))}.
% The omitted terms are O(|q-|^3 |lambda+| + |q-|^2 |lambda-|), so the gradient and the Hessian
% at the critical point (q- = lambda- = 0) are those of the exact form.  The lambda- equations
% impose @code{g_a(t_k, q+_k) = 0} at every node (the first and last included), and the q-
% equations are the SBP-SAT equations of motion with the term @code{-lambda+_a dg_a/dq}.  A model
% may mix position and velocity constraints (@file{doc/skg.md}, "Holonomic constraints").
% Multiplier convention (eq. 3 of the rolling-disk paper, the same in every varmech solver):
% @code{M qddot = dL/dq + F + sum_a lambda_a dg_a/dqdot} for a constraint with velocities, and
% @code{+ lambda_a dg_a/dq} for a position constraint; @code{sol.lambda} = -lambda+ in both
% cases (below).
%
% @strong{Time marching.}  The trajectory is computed window after window, each window an SKG
% problem on N nodes started from the previous window's end state (position and scheme
% velocity).  By default the window lengths are chosen by error control, as ode45 chooses its
% steps: each window is solved at the order p and, starting from that solution, at the companion
% order (p+2; 6 for p = 8) on the same nodes; the largest difference over the nodes, relative to
% @code{AbsTol + RelTol * max|x|} for each component of q and qdot, is the window's error
% estimate.  A window is accepted when it is at most 1 (the order-p solution is returned), and
% the next one grows or shrinks from it; a rejected window, or one where Newton does not
% converge, is retried shorter.  A fixed grid is used instead when @code{Windows} is given, or
% @code{N} without @code{RelTol}/@code{AbsTol}, or a guess matrix.  In every window the unknowns are the
% displacements from its initial position (the equations are the same): the motion does not
% depend on where the origin of the coordinates is, and short windows (stiff contacts, tight
% tolerances) keep the precision of the displacements (@file{doc/skg.md}, "The origin of the
% unknowns").
%
% @strong{Contacts.}  The regularized contact force acts within a few sigma of h = 0, and a
% window whose nodes step over that layer would not feel it at either order (the estimate then
% passes with the particle through the wall).  With error control every window is also checked:
% between two consecutive nodes the change of each contact's gap h (at least the time step times
% the larger |dh/dt| at the two nodes) must be at most sigma wherever it may come within
% 6 sigma of h = 0; a window that fails is rejected (reason @code{"contact"} in
% @code{sol.rejected}) and retried shorter in proportion.  Intervals away from the wall, and
% resting or sliding on it, are not restricted (@file{doc/skg.md}, "Contact check").  On a fixed
% grid the same check runs on each window, which is kept: @code{sol.unresolved_windows} counts
% the windows that fail it, the message names the first, and a warning
% (@code{varmech:skg_solve:unresolved}) says that the grid does not resolve the contact.
%
% @strong{Multipliers.}  @code{sol.lambda} is in the convention of eq. 3 of the rolling-disk
% paper, the same as @code{gauss_integrate}:
% @code{M qddot = dL/dq + F + sum_a lambda_a dg_a/dqdot} (for a position constraint g(t, q):
% @code{+ lambda_a dg_a/dq}).  The reaction of constraint a is thus
% @code{lambda_a dg_a/dqdot}, and its sign depends on how g is written (g and -g give opposite
% multipliers): for a pendulum held by @code{x^2 + y^2 - l^2}, the tension is @code{-2 l lambda}.
% It is the multiplier of the ideal reaction evaluated at the
% solution's own states (q, qdot) at every node (and at OutputTimes), so it is as accurate as
% they are.  The action's own multiplier lambda+ (@code{sol.lambda_plus}) is its negative to the
% discretization error: at the interior nodes of a window the two agree to order p (their
% largest difference there is @code{sol.lambda_gap}), while at the first and last few nodes of
% every window (the SBP closures) -lambda+ converges at a lower order (@file{doc/skg.md}).
%
% @strong{Initial data} are checked first, with the words of @code{gauss_integrate}: q0 against
% the position constraints, qdot0 against every constraint at velocity level, and the rank of the
% constraint Jacobian at t0 (contradictory, redundant or constant constraints are named).
%
% Options:
% @table @asis
% @item "RelTol", "AbsTol"
% error control (defaults 1e-6 and 1e-8).  The error of the returned trajectory is of the order
% of these tolerances times the number of windows' accumulation (as for ode45).
% @item "N"
% grid points per window (default 33 with error control, 81 on a fixed grid).
% @item "Windows"
% a fixed grid of this many windows of equal length (Ntot = Windows*(N-1)+1 points).
% @item "Order"
% interior order of the SBP operator: 2, 4 (default), 6 or 8.
% @item "Mode"
% @code{"reduced"} (default: the q- and lambda- equations at q- = lambda- = 0, half the
% unknowns) or @code{"full"} (all unknowns; reports max |q-| and |lambda-|).
% @item "Tol", "MaxIter"
% Newton's residual tolerance (default 1e-10) and iteration limit per window (default 15 with
% error control, where a window that needs more is halved; 50 on a fixed grid).  The residual is
% that of the discrete equations of motion in the quadrature norm
% @code{||r||_H = sqrt (sum_k H_kk r_k^2)}, independent of N, with every residual an
% acceleration: the equations of motion per unit of the mass scale @code{max |M_ij|} of the mass
% matrix at the initial state, constraint a's equations per @code{gscale_a tau^2} (holonomic) or
% @code{gscale_a tau} (the others), with gscale_a the size of its gradient at the initial state
% and tau the window's length; the multipliers are solved for as the displacement
% @code{lambda gscale_a tau^2 / mscale} their force causes over the window.  So the result does
% not depend on the units of mass (L and c*L give the same motion, and multipliers c times as
% large), of time, of length (with AbsTol scaled) or of the constraints.  Converged when
% @code{||r||_H <= Tol * max (f, ||r(guess)||_H)} with the floor
% @code{f = min (1, ell / tau^1.5)}, ell the size max(|q|, tau |qdot|) of the window's initial
% state, when ||r||_H is at the rounding level of its own evaluation, or when a full Newton
% correction is below @code{1e-12 (min (1, ell) + ||x||_inf)} and contracting
% (@file{doc/skg.md}, "Stopping", "Units of time and length").
% @item "Guess"
% the start of each window's Newton iteration for q+:
% @table @code
% @item "marching"
% predicted from the previous window: the first window at constant velocity from (q0, qdot0),
% a later one by a quadratic Taylor step from the previous end state, multipliers held.  No
% equation-of-motion integrator is involved.
% @item "auto"
% (default) "marching"; on a fixed grid, the integrator for systems with contacts or constraints
% nonlinear in the velocities, and otherwise the marching start with at most 6 Newton iterations
% (or MaxIter, if fewer; for one window of more than 516 nodes tried first on 129 nodes, then
% with MaxIter), then a retry from the integrator with MaxIter when Newton has not converged by
% then (@code{sol.guess} says so): a constant-velocity start is far from a motion that swings
% over the window, and Newton then needs many more iterations than from the integrator's start
% (@file{bench/README_skg.md}).
% @item "constant"
% q0 at every node (fixed grid only).
% @item "integrator"
% the trajectory of @code{gauss_integrate} (dop853, RelTol 1e-10) on the grid (fixed grid only).
% @item an Ntot-by-n matrix
% q+ on the fixed grid.
% @end table
% @item "OutputTimes"
% times in tspan where the solution is wanted: @code{sol.output} (t, q, qdot, lambda) from the
% SBP solution's own interpolant (degree p+1 on the nodes of the window that holds each time).
% @item "MaxWindows"
% with error control: the most windows attempted, accepted or rejected (default 100000); the
% message of a march that stops there estimates how many more it would need.  A march whose
% window length has not doubled over 1000 windows stops early when, at that length, the rest of
% tspan would need over 100 times the windows left (an oscillator over [0 1e300]).  A tspan
% shorter than the shortest window that N nodes resolve (rounding of t) is refused.
% @item "InitialWindow", "MaxWindow"
% the first and the longest window length with error control (default automatic, tf - t0).
% @item "ConstraintTol"
% tolerance of the initial-data check (default 1e-8).
% @item "LinearSolver"
% the LU factorization of Newton's linear systems: @code{"auto"} (default), @code{"banded"} or
% @code{"umfpack"}.  The unknowns are ordered by grid point, so the Jacobian is banded, with
% bandwidths of about 5 (order 4) to 11 (order 8) times the unknowns per node; "banded" factors the
% whole band (LU with partial pivoting: the package's own for bandwidths below 32, where it is
% faster than LAPACK's dgbtrf, and dgbtrf above; at order 4 with the first two and the last
% two grid points exchanged, which narrows the band from 5 to 4 times the unknowns per node),
% "umfpack" only the entries the elimination fills (UMFPACK's sparse LU, natural order).  "auto"
% takes the banded LU when at least 1/16 of the band is nonzero, the density above which the
% band is the faster of the two (@file{bench/README_band.md} has the measurements).
% When that band would take 1 GiB or more (a long single window of a many-coordinate system),
% "auto" keeps U only: the factorization applies L to the right-hand side as it
% goes and stores U's columns from their first nonzero row, which takes less than half the
% memory and no pass over L, but leaves no
% factors for the chord steps of option "ReuseFactorization"; "banded" keeps L and U at any size.
% Both give the same trajectory to rounding; @code{sol.linear_solver} says which was used.
% @item "ReuseFactorization"
% at most this many consecutive chord steps per LU factorization (default 2; 0: every Newton
% step evaluates and factors the Jacobian).  After a full step that reduced the residual 4 times,
% Newton tries the next step with the previous factors; it keeps that step only when it reduces
% the residual 4 times too, and otherwise factors the Jacobian at the same point.  The result
% passes the same stopping tests; it saves factorizations where Newton needs several steps
% (the rolling disk with "umfpack": 2 factorizations become 1; @file{bench/README_skg.md}).
% @code{sol.timing.reused_factorizations} counts the steps taken with reused factors.
% @item "ErrorEstimate"
% on a fixed grid: @code{"off"} (default) or @code{"on"}: each window is solved at the companion
% order too, as with error control (about twice the time), and @code{sol.windows.error} and the
% message give the estimate relative to RelTol/AbsTol (defaults 1e-6, 1e-8); above 1 the message
% says that the grid does not resolve the motion to the tolerance.  Without it the message says
% that a fixed grid has no error estimate.  (The pendulum of doc/tutorial.md on [0, 10] with
% @code{"N", 100}: error 2.3e-2, estimate 2.2e4 of the tolerance; @code{"N", 4000}: 1.6e-7 and
% 0.11.)  Error control has its estimate always.
% @item "Display"
% @code{"off"} (default), @code{"final"} (one line) or @code{"iter"}: every Newton iteration
% (||r||_H, the step, its kind) and every window (accepted or rejected, why), printed while the
% solve runs.
% @end table
%
% @var{sol} is a struct with these fields (times in the unit of @var{tspan}, q in the units of
% the coordinates, N the number of grid points, n coordinates, m constraints):
% @table @code
% @item solver
% @code{'skg_solve'}.
% @item names
% the coordinate names, 1-by-n cellstr (those of @code{sys.coordinates}).
% @item t
% N-by-1, the nodes of all windows (the shared end of two windows once).
% @item q, qdot
% N-by-n: the positions q+ and the scheme's velocities @code{Da q+} (units of q per time unit).
% @item lambda
% N-by-m multipliers, one column per constraint, in the convention above (N-by-0 without
% constraints); the reaction of constraint a is @code{lambda(:,a) dg_a/dqdot}.
% @item lambda_plus, lambda_gap
% the action's own multiplier lambda+ (N-by-m, about -lambda) and the largest |lambda + lambda+|
% at the windows' interior nodes (NaN without constraints).
% @item residual
% N-by-m velocity-level constraint residuals at the nodes, as in @code{gauss_integrate}: g itself
% for a constraint that depends on the velocities, @code{dg/dt = g_q qdot + g_t} for a position
% constraint g(t, q).
% @item residual_position
% N-by-m: the position constraints g(t, q) at the nodes; the columns of the constraints that
% depend on the velocities hold 0 (as in @code{gauss_integrate}).
% @item energy
% N-by-1, @code{qdot . dL/dqdot - L + contact_energy} (units of L) on the grid, NaN after a
% failed window: constant along a motion without friction, drag or time-dependent L.
% @item contact_energy
% N-by-1, the potential of the contacts' normal forces, @code{sum_c V0/2 erfc(h/(sqrt(2) sigma))}
% (@code{FN = -grad} of it; zeros without contacts).
% @item exitflag, message
% @code{exitflag} 1 on convergence, 0 otherwise (also, with the whole trajectory, when Newton's
% rounding level somewhere reached the residual scale of its test, so that the error estimate
% does not bound the error: the message then begins "not resolved to the tolerance");
% @code{message} says how the solve ended.
% @item adaptive, guess
% true with error control, false on a fixed grid; the start of Newton's iteration that was used
% (@code{'marching'}, @code{'integrator'}, @code{'constant'}, @code{'matrix'}, or
% @code{'integrator (after the marching start failed)'}).
% @item windows
% one entry per accepted window (struct of column vectors): @code{t0}, @code{t1}, @code{N},
% @code{error} (the estimate relative to the tolerance; NaN on a fixed grid without
% "ErrorEstimate"), @code{iterations},
% @code{companion_iterations}.
% @item rejected
% one entry per rejected window: @code{t0}, @code{length}, @code{reason} (@code{"error"},
% @code{"newton"}, @code{"companion"} or @code{"contact"}), @code{error} (the estimate, which
% passed for "contact").
% @item unresolved_windows
% the windows of a fixed grid that fail the contact check (0 with error control).
% @item iterations, window_iterations
% Newton steps in all (both orders, all windows) and per accepted window (main order).
% @item residual_history, step_history, step_kind, step_factor, history_window
% per Newton iterate of the accepted windows: ||r||_H, the step's max-norm, its kind
% (@code{"start"}, @code{"newton"}, @code{"damped"}, @code{"lm"} or @code{"chord"}: a full step
% with the factorization of an earlier iterate's Jacobian, csrc/newton/newton.h), the line-search factor
% (1: a full step; the Levenberg-Marquardt parameter for an @code{"lm"} step; 0 at the start)
% and the window's index.
% @item max_qminus, max_lambdaminus
% max |q-| and |lambda-| over the windows (Mode "full"; 0 in reduced mode).
% @item max_gradient
% the largest ||grad S||_inf of the full action at the returned point: a cross-check.
% @item timing
% wall-clock seconds in the kernel (@code{build}, @code{residual}, @code{jacobian}, @code{tape},
% @code{hessian}, @code{symbolic}, @code{numeric}, @code{solve}, @code{total}) and the counts
% @code{factorizations}, @code{tape_evaluations}, @code{reused_factorizations} (chord steps,
% option "ReuseFactorization").
% @item linear_solver
% the LU of Newton's linear systems (option "LinearSolver"), a struct: @code{kind}
% (@code{'banded'} or @code{'umfpack'}: the choice made, also under "auto"), @code{kl} and
% @code{ku} (the lower and upper bandwidths of the Jacobian of the main order), @code{factors}
% (@code{'LU'}, or @code{'U'} when "auto" kept U only, see "LinearSolver"), @code{cholesky} and
% @code{not_definite} (0: the SKG Jacobians are saddles, never factored by Cholesky; the fields of
% the duals' solvers), @code{factor_time} and @code{solve_time} (seconds in the factorizations
% and solves, all windows and orders).
% @item output
% only with @code{"OutputTimes"}: the solution at the K requested times, a struct with @code{t}
% (K-by-1, the requested times as a column) and, for a mechanical system, @code{q}, @code{qdot}
% (K-by-n) and @code{lambda} (K-by-m), for a first-order system @code{y} (K-by-ny) (dual_solve
% adds @code{D}, the duals); the same names in skg_solve, gauss_integrate, dual_solve and
% periodic_orbit.  Here: the SBP solution's own interpolant, NaN after a failed solve.
% @end table
% When the solve does not succeed the best iterate is returned with @code{exitflag} 0 (on a
% fixed grid: NaN after the failed window); with no output argument that is an error.  The
% message leads with the cause: a singular mass matrix d2L/dqdot2 where the solve stopped, with
% the coordinates that have no kinetic term (a Lagrangian written without @code{dot()}).  A march
% with error control that stalls at the default Order (its window length below the floor, or
% more windows than MaxWindows allows: a tight tolerance) is solved again at the next higher
% order, and when that converges its solution is returned (@code{exitflag} 1) with a message that
% names the order to pass; with "Order" given, the message names the higher order instead.
%
% Example (a pendulum of length 1 in Cartesian coordinates, held by the position constraint
% x^2 + y^2 - l^2 = 0; against @code{gauss_integrate} and the tension at rest, g cos(1)):
% @verbatim
% pend = mechsys ('coordinates', {'x', 'y'}, 'parameters', struct ('g', 9.81, 'l', 1), ...
%   'lagrangian', '(dot(x)^2 + dot(y)^2)/2 - g*y', 'constraints', {'x^2 + y^2 - l^2'});
% sol = skg_solve (pend, [0 3], [sin(1) -cos(1)], [0 0], 'RelTol', 1e-8);
% ref = gauss_integrate (pend, [0 3], [sin(1) -cos(1)], [0 0], 'RelTol', 1e-12, ...
%                        'AbsTol', 1e-12, 'OutputTimes', sol.t);
% fprintf ('max |q - q_ref| = %.1e, max |x^2 + y^2 - 1| = %.1e\n', ...
%          max (abs (sol.q(:) - ref.output.q(:))), max (abs (sum (sol.q .^ 2, 2) - 1)));
% fprintf ('tension -2 l lambda at t = 0: %.4f (g cos(1) = %.4f)\n', ...
%          -2 * sol.lambda(1), 9.81 * cos (1));
% @end verbatim
%
% Numbers of another real class than double (single, int32, ...) are converted to double;
% sparse, complex, logical, char, cell and other arrays where numbers are expected are refused
% with an error that names the argument, what it must be and the class and size received.
% @seealso{varmech_plot, gauss_integrate, mechsys, mechsys_eval, skg_action, sbp_operator}
% @end deftypefn

function sol = skg_solve (sys, tspan, q0, qdot0, varargin)
  fname = 'skg_solve';
  if (nargin < 4)
    vm_badarg (fname, 'expected at least 4 inputs: sys, tspan, q0, qdot0 (see help skg_solve)');
  end
  if (~isstruct (sys) || ~isfield (sys, 'type') || ~strcmp (sys.type, 'mechsys'))
    vm_badarg (fname, 'sys must be a system made by mechsys');
  end
  % the call without options: one crossing with the options struct that the path below made for
  % the first such call (it depends on no argument); the gateway's checks of tspan, q0 and qdot0
  % accept what the path below accepts (2-D real double vectors of the right sizes), and any
  % argument it refuses (varmech:badarg), or work too large for it (ask_memory), goes the path
  % below, which phrases the refusal or solves
  persistent o_default
  if (nargin == 4 && ~isempty (o_default) && ndims (tspan) == 2 && ndims (q0) == 2 ...
      && ndims (qdot0) == 2 && numel (q0) == sys.n && numel (qdot0) == sys.n)
    try
      sol = vm_skg_mex ('solve', sys, tspan, q0, qdot0, o_default);
      done = true;
    catch err
      done = false;
      if (~any (strcmp (err.identifier, {'varmech:badarg', 'varmech:skg_solve:ask_memory'})))
        vm_rethrow (err, fname);
      end
    end
    if (done)
      sol.guess = 'marching';   % the error-controlled default's start (the path below: kind)
      if (sol.exitflag ~= 1)
        p = initial_value_problem (sys, tspan, q0, qdot0);
        sol = explain_failure (sol, p, {}, struct ('adaptive', true, 'Order', o_default.Order, ...
                                                   'N', o_default.N, 'gave_order', false));
      end
      if (sol.exitflag == 0 && nargout == 0)
        error ('varmech:skg_solve:failed', 'skg_solve: %s', sol.message);
      end
      return;
    end
  end
  opts = vm_options (fname, varargin);   % names, defaults, rules: csrc/base/vm_schema.c
  % tspan, q0, qdot0: finite real double vectors of the right sizes are taken as they are (the
  % common case, with builtins only); anything else goes through vm_check_value, which converts
  % or refuses
  if (isa (tspan, 'double') && isreal (tspan) && ~issparse (tspan) && isvector (tspan) ...
      && numel (tspan) == 2 && all (isfinite (tspan)) && tspan(2) > tspan(1))
    tspan = [tspan(1) tspan(2)];
  else
    tspan = vm_check_value (fname, 'tspan', tspan, {'interval'});
  end
  n = sys.n;
  if (isa (q0, 'double') && isreal (q0) && ~issparse (q0) && isvector (q0) && numel (q0) == n ...
      && all (isfinite (q0)))
    q0 = q0(:);
  else
    q0 = vm_check_value (fname, 'q0', q0, {'vector', n});
  end
  if (isa (qdot0, 'double') && isreal (qdot0) && ~issparse (qdot0) && isvector (qdot0) ...
      && numel (qdot0) == n && all (isfinite (qdot0)))
    qdot0 = qdot0(:);
  else
    qdot0 = vm_check_value (fname, 'qdot0', qdot0, {'vector', n});
  end
  % fixed grid when Windows is given, or N without a tolerance, or a guess matrix; else adaptive
  adaptive = isempty (opts.Windows) && ~(isnumeric (opts.Guess) && ~isempty (opts.Guess)) ...
             && (isempty (opts.N) || ~isempty (opts.RelTol) || ~isempty (opts.AbsTol));
  if (isempty (opts.N) && adaptive)
    opts.N = 33;
  elseif (isempty (opts.N))
    opts.N = 81;
  end
  estimate = adaptive || strcmp (opts.ErrorEstimate, 'on');
  minN = min_n (opts.Order, estimate);   % the fact lives in csrc/march/march.c
  if (opts.N < minN)
    if (estimate)
      vm_badarg (fname, 'N must be an integer >= %d for order %d with an error estimate (the companion order of the estimate needs it)', ...
                 minN, opts.Order);
    end
    vm_badarg (fname, 'N must be an integer >= %d for order %d', minN, opts.Order);
  end
  % the defaults that depend on the grid's kind (RelTol, AbsTol, InitialWindow, MaxWindow and
  % ReuseFactorization left [] take the kernel's defaults, csrc/base/vm_schema.c)
  if (isempty (opts.Windows))
    opts.Windows = 1;
  end
  if (isempty (opts.MaxIter))
    opts.MaxIter = 50 - 35 * adaptive;   % a window needing more is halved
  end
  tout = opts.OutputTimes;
  if (any (tout < tspan(1)) || any (tout > tspan(2)))
    vm_badarg (fname, 'OutputTimes must be real times within tspan [%.15g, %.15g]', tspan(1), tspan(2));
  end
  % the initial state is checked first (ConstraintTol), by the gateway on the model it loads
  % from sys.compiled for the solve; an error raised here before that (memory, Guess, the integrator's guess) runs
  % the check in vm_check_initial first, so that a bad initial state is always what is reported
  ntot = opts.Windows * (opts.N - 1) + 1;
  % the marching start without a retry (the error-controlled default, or Guess 'marching'): the
  % memory check goes to the gateway with the solve (thin_solve); the other starts are prepared
  % here first
  g = opts.Guess;
  thin = (adaptive && isempty (g)) || (ischar (g) && size (g, 1) == 1 && ndims (g) == 2 ...
         && (strcmpi (g, 'marching') || (adaptive && strcmpi (g, 'auto'))));
  if (thin)
    kind = 'marching';
    opts.Guess = [];
  else
    try
      [opts, kind, retry] = prepare_guess (fname, sys, tspan, q0, qdot0, opts, adaptive, ntot);
    catch err
      vm_check_initial (fname, sys, tspan(1), q0', qdot0', opts.ConstraintTol);
      rethrow (err);
    end
  end
  % the options as vm_options made them, by their public names (mex/vm_skg_mex.c, solve_opts),
  % with the grid, the guess and the initial check's tolerance
  o = opts;
  o.Windows = opts.Windows * ~adaptive;
  o.Guess = vm_double (opts.Guess);
  o.estimate = double (~adaptive && estimate);
  o.constraint_tol = double (opts.ConstraintTol);
  if (thin)
    [sol, o] = thin_solve (fname, sys, tspan, q0, qdot0, o, opts, ntot);
    if (nargin == 4)
      o_default = o;
    end
  else
    try
      [sol, kind] = solve_fixed (initial_value_problem (sys, tspan, q0, qdot0), o, opts, ntot, ...
                                 kind, retry);
    catch err
      vm_rethrow (err, fname);
    end
  end
  sol.guess = kind;   % the other fields: the gateway's schema (mex/vm_skg_mex.c), filled in C
  if (sol.exitflag ~= 1)
    sol = explain_failure (sol, initial_value_problem (sys, tspan, q0, qdot0), varargin, ...
                           struct ('adaptive', adaptive, 'Order', opts.Order, 'N', opts.N, ...
                                   'gave_order', vm_option_given (varargin, 'Order')));
  end
  if (~adaptive && sol.exitflag == 1)
    unresolved_warning (fname, sol, sys, tspan, q0, qdot0);
    if (sol.unresolved_windows > 0)
      warning (['varmech:' fname ':unresolved'], '%s: %s', fname, sol.message);
    end
  end
  if (sol.exitflag == 0 && nargout == 0)
    error ('varmech:skg_solve:failed', 'skg_solve: %s', sol.message);
  end
end

function [sol, o] = thin_solve (fname, sys, tspan, q0, qdot0, o, opts, ntot)
  % one crossing: the gateway checks the initial state, then refuses (ask_memory) work whose
  % memory estimate reaches the size from which check_memory asks the system; only then is the
  % system asked here, and the refusal phrased, or the work solved without the limit.  o: the
  % options struct as first sent (with max_bytes)
  persistent max_bytes
  if (isempty (max_bytes))
    max_bytes = vm_check_memory ();
  end
  o.max_bytes = max_bytes;
  try
    sol = vm_skg_mex ('solve', sys, tspan, q0, qdot0, o);
  catch err
    if (~strcmp (err.identifier, 'varmech:skg_solve:ask_memory'))
      vm_rethrow (err, fname);
    end
    check_memory (fname, sys, opts, ntot);   % the initial state passed: this refuses or not
    o2 = o;
    o2.max_bytes = Inf;
    try
      sol = vm_skg_mex ('solve', sys, tspan, q0, qdot0, o2);
    catch err
      vm_rethrow (err, fname);
    end
  end
end

function minN = min_n (order, estimate)
  % vm_skg_mex ('min_n', order, estimate), asked once per order and kept (a fact of the library)
  persistent known
  if (isempty (known))
    known = NaN (2, 64);
  end
  minN = known(estimate + 1, order);
  if (isnan (minN))
    minN = vm_skg_mex ('min_n', order, double (estimate));
    known(estimate + 1, order) = minN;
  end
end

function [opts, kind, retry] = prepare_guess (fname, sys, tspan, q0, qdot0, opts, adaptive, ntot)
  % the memory check and the start of Newton's iteration (opts.Guess: [] or a matrix; kind its name)
  check_memory (fname, sys, opts, ntot);
  if (isempty (opts.Guess))
    opts.Guess = 'auto';
  end
  retry = false;
  if (ischar (opts.Guess))
    % a 1-by-n char row only (a char N-D array would fail in strcmp without naming Guess)
    if (~vm_isrow_string (opts.Guess) || ~any (strcmpi (opts.Guess, {'auto', 'marching', 'constant', 'integrator'})))
      vm_badarg (fname, 'Guess must be an Ntot-by-n matrix, ''auto'', ''marching'', ''constant'' or ''integrator''; got %s', ...
                 vm_describe (opts.Guess));
    end
    kind = lower (opts.Guess);
    if (adaptive && any (strcmp (kind, {'constant', 'integrator'})))
      vm_badarg (fname, 'Guess ''%s'' needs a fixed grid (give Windows, or N without RelTol/AbsTol); with error control the guess is ''marching''', kind);
    end
    if (strcmp (kind, 'auto'))
      if (adaptive)
        kind = 'marching';
      elseif (needs_integrator (sys))
        kind = 'integrator';
      else
        kind = 'marching';
        retry = true;
      end
    end
    G = [];
    if (strcmp (kind, 'integrator'))
      [G, msg] = integrator_guess (sys, tspan, q0, qdot0, ntot, true);
      if (isempty (G))
        if (~any (strcmpi (opts.Guess, {'auto'})))
          vm_badarg (fname, 'the reference integrator could not provide a guess: %s', msg);
        end
        kind = 'marching';
      end
    elseif (strcmp (kind, 'constant'))
      G = ones (ntot, 1) * q0(:)';   % exact (x * 1 = x); repmat costs 50 us
    end
    opts.Guess = G;
  else
    kind = 'matrix';   % the gateway checks it (class, size) under the name Guess
  end
end

function check_memory (fname, sys, opts, ntot)
  % refuse before allocating: one window (csrc's estimate) and the output arrays (t, q, qdot,
  % lambda, lambda_plus, a guess, the march's trajectory: about 4 copies of 2n + m columns)
  mode = double (strcmpi (opts.Mode, 'reduced'));
  need = vm_skg_mex ('memory', sys.n, sys.m, opts.N, opts.Order, mode, vm_linsolve_code (opts)) ...
         + 8 * 4 * ntot * (2 * sys.n + sys.m + 1);
  vm_check_memory (fname, need, 'window', opts.N, ntot, ['use fewer nodes per window (N, with ' ...
                   'Windows for a fixed grid) or the error-controlled default (RelTol)']);
end

function unresolved_warning (fname, sol, sys, tspan, q0, qdot0)
  % a fixed grid far too coarse for the motion meets its equations with a trajectory that ignores
  % the weakly imposed initial position (an oscillator over 1e20 s comes back as q = 0); the
  % error-controlled default rejects such windows, a fixed grid can only say so
  d = max (abs (sol.q(1, :) - q0(:)') ./ max (max (abs (sol.q), [], 1), abs (q0(:)')));
  if (d > 0.1)
    warning (['varmech:' fname ':unresolved'], ['%s: the first node is %.3g (relative) away ' ...
             'from q0: the grid does not resolve the motion; give more nodes (N, Windows) or ' ...
             'use the error-controlled default (RelTol)%s'], fname, d, ...
             semicolon (degenerate_hint (sys, tspan, q0, qdot0)));
  end
end

function hint = degenerate_hint (sys, tspan, q0, qdot0, ref)
  % '' or why the equations of motion are not an ODE at (tspan(1), q0, qdot0): the mass matrix
  % M = d2L/dqdot2 singular (a coordinate without kinetic energy, L = xdot^2/2 - y^2/2, where the
  % Euler-Lagrange equations are algebraic in some coordinates and q0 may not satisfy them), or,
  % with ref (vm_mass_hint), degenerate along the run
  if (nargin < 5)
    ref = [];
  end
  hint = vm_mass_hint (sys, tspan(1), q0, qdot0, ref);
  if (isempty (hint))
    return;
  end
  if (isempty (strfind (hint, 'has no kinetic term')))
    hint = [hint, '. The motion cannot be continued through this state (choose coordinates in ' ...
            'which the kinetic energy stays positive definite)'];
  else
    hint = [hint, end_sentence(hint), 'Give each coordinate a kinetic term, or eliminate it (a ' ...
            'coordinate without one is solved as an algebraic coordinate, from a q0 that ' ...
            'satisfies its Euler-Lagrange equation)'];
  end
end

function sol = explain_failure (sol, p, args, run)
  % the failed solve sol of the problem p (initial_value_problem), called with the options args:
  % its message led by the cause.  A singular mass matrix leads when there is one.  Else a
  % stalled adaptive march (its window length below the floor, or more windows than MaxWindows
  % allows) at the default order is solved again at the next higher SBP order, whose windows can
  % be longer at the same tolerance (error O(L^(p+2)) per window): its solution is returned when
  % it converges, with a message that names the remedy (else its failed attempt, with a message
  % that names both); when the order was given (run.gave_order) the higher order is named as
  % advice, without a retry.  run: adaptive, Order, N, gave_order.
  msg = lead_with_mass (sol, p.sys, p.tspan, p.q0, p.qdot0);
  if (~strcmp (msg, sol.message) || ~run.adaptive)
    sol.message = msg;
    return;
  end
  [where, next] = vm_march_stall (sol.message, run.Order);
  if (isempty (where) || isempty (next) || run.N < min_n (next, true))
    return;
  end
  if (run.gave_order)
    sol.message = vm_march_retry_message ('advice', sol.message, run.Order, next, where);
    return;
  end
  if (numel (args) == 1 && isstruct (args{1}))
    a = args{1};
    a.Order = next;
    args = {a};
  else
    args = [args, {'Order', next}];
  end
  % the higher order's attempt is returned either way (its data match the message that leads)
  sol = skg_solve (p.sys, p.tspan, p.q0, p.qdot0, args{:});
  if (sol.exitflag == 1)
    sol.message = vm_march_retry_message ('solved', sol.message, run.Order, next, where);
  else
    sol.message = vm_march_retry_message ('failed', sol.message, run.Order, next, where);
  end
end

function msg = lead_with_mass (sol, sys, tspan, q0, qdot0)
  % the failure message of sol led by the singular mass matrix, when it is singular at the
  % initial state (nothing accepted) or at the last point reached with finite values (there
  % also when it has degenerated against its initial size: vm_mass_hint)
  msg = sol.message;
  k = find (all (isfinite ([sol.q, sol.qdot]), 2), 1, 'last');
  if (isempty (k))
    hint = degenerate_hint (sys, tspan, q0, qdot0);
  else
    ref = struct ('t0', tspan(1), 'q0', q0, 'qdot0', qdot0);
    if (k > 1 && isfield (sol, 'windows') && ~isempty (sol.windows.t1))
      % the node before, and the last window's length: a singular M right ahead of the stall
      ref.tp = sol.t(k - 1);
      ref.qp = sol.q(k - 1, :);
      ref.qdotp = sol.qdot(k - 1, :);
      ref.L = sol.windows.t1(end) - sol.windows.t0(end);
    end
    hint = degenerate_hint (sys, [sol.t(k), tspan(2)], sol.q(k, :), sol.qdot(k, :), ref);
  end
  if (~isempty (hint))
    msg = [hint, '. The solve: ', msg];
  end
end

function s = end_sentence (h)
  % what ends the sentence h before the next one: ' ' after a question mark, '. ' otherwise
  if (h(end) == '?')
    s = ' ';
  else
    s = '. ';
  end
end

function s = semicolon (s)
  % '' or '; ' followed by s
  if (~isempty (s))
    s = ['; ', s];
  end
end

function tf = needs_integrator (sys)
  % contacts, or a constraint whose second derivative in the velocities is not identically zero:
  % read from the compiled constraint block's list of structurally nonzero outputs (the fields of
  % mechsys_eval's compact layout), without evaluating it (an evaluation compiles the model
  % again, a large part of a small solve)
  tf = sys.nc > 0;
  if (~tf && sys.m > 0)
    blk = sys.blocks.constraints;
    tf = any (strcmp (blk.field_names(double (blk.out_field) + 1), 'lg_qdotqdot'));
  end
end

function p = initial_value_problem (sys, tspan, q0, qdot0)
  % the system, the interval and the initial state, as one argument of solve_fixed
  p.sys = sys;
  p.tspan = tspan;
  p.q0 = q0;
  p.qdot0 = qdot0;
end

function [sol, kind] = solve_fixed (p, o, opts, ntot, kind, retry)
  % the solve; under Guess 'auto' with the marching start (retry), that start gets at most 6 Newton
  % iterations -- on a grid of 129 nodes first when the one window has more than 516, so that a
  % poor start costs no iteration at full size -- and the integrator's trajectory otherwise, or
  % without one the marching start again with MaxIter (help, "Guess")
  sys = p.sys;
  tspan = p.tspan;
  q0 = p.q0;
  qdot0 = p.qdot0;
  if (~retry)
    sol = vm_skg_mex ('solve', sys, tspan, q0, qdot0, o);
    return;
  end
  budget = min (opts.MaxIter, 6);
  probe_n = 129;
  where = '';
  if (opts.Windows == 1 && ntot > 4 * probe_n)
    op = o;
    op.N = probe_n;  op.MaxIter = budget;  op.Display = 'off';  op.OutputTimes = [];
    first = vm_skg_mex ('solve', sys, tspan, q0, qdot0, op);   % it checks the initial state
    o = rmfield (o, 'constraint_tol');
    if (first.exitflag == 1)
      first = vm_skg_mex ('solve', sys, tspan, q0, qdot0, o);
    else
      where = sprintf (' on a grid of %d nodes', probe_n);
    end
  else
    o.MaxIter = budget;
    first = vm_skg_mex ('solve', sys, tspan, q0, qdot0, o);
    o = rmfield (o, 'constraint_tol');   % checked by the first solve
    o.MaxIter = opts.MaxIter;
  end
  sol = first;
  if (isempty (where) && first.exitflag ~= 0)
    return;
  end
  [G, msg] = integrator_guess (sys, tspan, q0, qdot0, ntot, true);
  if (~isempty (G))
    o.Guess = double (G);
    kind = 'integrator (after the marching start failed)';
    sol = vm_skg_mex ('solve', sys, tspan, q0, qdot0, o);
    sol.message = sprintf ('%s [from the integrator guess; from the marching start%s: %s]', ...
                           sol.message, where, first.message);
  elseif (~isempty (where) || o.MaxIter > first.iterations)
    sol = vm_skg_mex ('solve', sys, tspan, q0, qdot0, o);
    sol.message = sprintf ('%s [no integrator guess (%s); the marching start again with MaxIter %d]', ...
                           sol.message, msg, o.MaxIter);
  end
end

function [G, msg] = integrator_guess (sys, tspan, q0, qdot0, ntot, wanted)
  % gauss_integrate's trajectory on the grid (regularized contacts, as in the action); [] when it
  % fails (msg says why) or is not wanted
  G = [];  msg = '';
  if (~wanted)
    return;
  end
  tg = linspace (tspan(1), tspan(2), ntot);
  try
    ref = gauss_integrate (sys, tspan, q0, qdot0, 'Method', 'dop853', 'RelTol', 1e-10, ...
                           'AbsTol', 1e-12, 'Contacts', 'soft', 'OutputTimes', tg, ...
                           'MaxStep', (tspan(2) - tspan(1)) / (ntot - 1));
  catch err
    msg = err.message;
    return;
  end
  if (ref.exitflag ~= 1 || ~all (isfinite (ref.output.q(:))))
    msg = ref.message;
    return;
  end
  G = ref.output.q;
end

%!shared osc, damp
%! osc = mechsys ('coordinates', {'q'}, 'lagrangian', 'dot(q)^2/2 - q^2/2');
%! damp = mechsys ('coordinates', {'q'}, 'parameters', struct ('c', 0.25), ...
%!   'lagrangian', 'dot(q)^2/2 - q^2/2', 'forces', {'-c*dot(q)'});
%!test
%! % the constraint residuals in gauss_integrate's definitions: residual at velocity level
%! % (dg/dq qdot + dg/dt for a holonomic constraint), residual_position the holonomic ones at
%! % position level and 0 for a constraint in the velocities; the solver and coordinate names
%! s = mechsys ('coordinates', {'x', 'y', 'z'}, 'parameters', struct ('g', 9.81), ...
%!   'lagrangian', '(dot(x)^2+dot(y)^2+dot(z)^2)/2 - g*y', ...
%!   'constraints', {'x^2+y^2-1-t^2/10', 'dot(z)-x*dot(y)'});
%! sol = skg_solve (s, [0 1], [1 0 0], [0 0 0], 'RelTol', 1e-8);
%! assert (sol.exitflag, 1);
%! assert (sol.solver, 'skg_solve');
%! assert (sol.names, {'x', 'y', 'z'});
%! q = sol.q;
%! v = sol.qdot;
%! assert (sol.residual_position(:, 1), q(:, 1).^2 + q(:, 2).^2 - 1 - sol.t.^2/10, 1e-14);
%! assert (sol.residual_position(:, 2), zeros (numel (sol.t), 1));
%! assert (sol.residual(:, 1), 2*q(:, 1).*v(:, 1) + 2*q(:, 2).*v(:, 2) - sol.t/5, 1e-13);
%! assert (sol.residual(:, 2), v(:, 3) - q(:, 1).*v(:, 2), 1e-14);
%! assert (max (abs (sol.residual_position(:, 1))) < 1e-8);
%! g = gauss_integrate (s, [0 1], [1 0 0], [0 0 0]);
%! assert (g.solver, 'gauss_integrate');
%! assert (g.names, {'x', 'y', 'z'});
%! assert (size (g.residual_position), size (g.residual));
%!test
%! % harmonic oscillator: full and reduced modes agree, q- = 0, error at the SBP-SAT level
%! T = 4*pi;
%! sr = skg_solve (osc, [0 T], 1, 0.5, 'N', 81, 'Order', 4);
%! sf = skg_solve (osc, [0 T], 1, 0.5, 'N', 81, 'Order', 4, 'Mode', 'full');
%! assert (sr.exitflag == 1 && sf.exitflag == 1);
%! assert (max (abs (sr.q - sf.q)) < 1e-12);
%! assert (sf.max_qminus < 1e-12);
%! ex = cos (sr.t) + 0.5 * sin (sr.t);
%! err = max (abs (sr.q - ex));
%! assert (err < 3e-3 && err > 1e-4);   % F4, order 4, N = 81: 2.1e-3 (doc/skg_boundary.md)
%!test
%! % observed max-norm order p+1 = 3 for interior order 4 on the damped oscillator
%! T = 4*pi; c = 0.25; w = sqrt (1 - c^2/4);
%! e = zeros (1, 2);
%! Ns = [81 161];
%! for k = 1:2
%!   s = skg_solve (damp, [0 T], 1, 0, 'N', Ns(k), 'Order', 4);
%!   ex = exp (-c*s.t/2) .* (cos (w*s.t) + c/(2*w) * sin (w*s.t));
%!   e(k) = max (abs (s.q - ex));
%! end
%! rate = log (e(1)/e(2)) / log (2);
%! assert (abs (rate - 3) < 0.3);
%!test
%! % the nonlinear pendulum converges; windows give the same grid solution up to the discretization
%! pend = mechsys ('coordinates', {'th'}, 'lagrangian', 'dot(th)^2/2 + cos(th)');
%! s1 = skg_solve (pend, [0 5], 1, 0, 'N', 161, 'Order', 6);
%! s4 = skg_solve (pend, [0 5], 1, 0, 'N', 41, 'Order', 6, 'Windows', 4);
%! ref = gauss_integrate (pend, [0 5], 1, 0, 'RelTol', 1e-12, 'AbsTol', 1e-14, 'OutputTimes', s1.t);
%! assert (s1.exitflag == 1 && s4.exitflag == 1);
%! assert (max (abs (s1.q - ref.output.q)) < 1e-4);
%! assert (max (abs (s4.q - ref.output.q)) < 1e-3);
%!test
%! % a window that does not converge: exitflag 0, the best iterate, NaN after it (no error)
%! disk = mechsys ('coordinates', {'x', 'y', 'theta', 'phi'}, ...
%!   'parameters', struct ('M', 1, 'g', 9.8, 'alpha', pi/6, 'R', 1, 'IS', 1/2, 'ID', 1/4), ...
%!   'lagrangian', 'M/2*(dot(x)^2 + dot(y)^2) + IS/2*dot(theta)^2 + ID/2*dot(phi)^2 + M*g*x*sin(alpha)', ...
%!   'constraints', {'dot(x)^2 + dot(y)^2 - R^2*dot(theta)^2', 'dot(x)*sin(phi) - dot(y)*cos(phi)'});
%! s = skg_solve (disk, [0 2*pi], [0 0 0 0], [5 0 5 1], 'N', 9, 'Order', 4, 'Windows', 2, 'MaxIter', 3, ...
%!                'Guess', 'constant');
%! assert (s.exitflag, 0);
%! assert (any (isnan (s.q(:))));
%! assert (~isempty (s.message));
%!test
%! % the quadratic constraint of the disk converges from the integrator's guess
%! disk = mechsys ('coordinates', {'x', 'y', 'theta', 'phi'}, ...
%!   'parameters', struct ('M', 1, 'g', 9.8, 'alpha', pi/6, 'R', 1, 'IS', 1/2, 'ID', 1/4), ...
%!   'lagrangian', 'M/2*(dot(x)^2 + dot(y)^2) + IS/2*dot(theta)^2 + ID/2*dot(phi)^2 + M*g*x*sin(alpha)', ...
%!   'constraints', {'dot(x)^2 + dot(y)^2 - R^2*dot(theta)^2', 'dot(x)*sin(phi) - dot(y)*cos(phi)'});
%! s = skg_solve (disk, [0 2*pi], [0 0 0 0], [5 0 5 1], 'N', 64, 'Order', 4, 'Guess', 'integrator');
%! assert (s.exitflag, 1);
%! assert (max (abs (s.q(:,4) - s.t)) < 1e-10);   % phi = t exactly
%!test
%! % Display 'iter': one line per Newton iterate and one per window, printed while the solve runs
%! out = evalc ('s = skg_solve (osc, [0 2*pi], 1, 0, ''N'', 41, ''Windows'', 2, ''Display'', ''iter'');');
%! assert (s.exitflag, 1);
%! assert (numel (s.residual_history), numel (s.step_history));
%! assert (numel (s.step_kind), numel (s.residual_history));
%! assert (s.history_window(:)', [ones(1, s.window_iterations(1) + 1), 2 * ones(1, s.window_iterations(2) + 1)]);
%! assert (numel (regexp (out, 'window \d of 2 \[[^\]]*\]: \d+ Newton iterations')), 2);
%! assert (numel (regexp (out, 'iter +\d+ +\|\|r\|\| \d\.\d{3}e[-+]\d+')), numel (s.residual_history));
%! assert (~isempty (strfind (out, 'newton')));
%!test
%! % error control: the oscillator from the defaults, within 10x the tolerance of the closed form
%! % (q and qdot, relative to AbsTol + RelTol max|x|), also at RelTol 1e-9; windows and their
%! % estimates are reported
%! for tol = [1e-6 1e-9]
%!   s = skg_solve (osc, [0 20], 1, 0.5, 'RelTol', tol);
%!   assert (s.exitflag, 1);
%!   assert (s.adaptive);
%!   assert (s.guess, 'marching');
%!   e = max (abs ([s.q - (cos(s.t) + 0.5*sin(s.t)), s.qdot - (-sin(s.t) + 0.5*cos(s.t))]));
%!   assert (all (e ./ (1e-8 + tol * sqrt (1.25)) < 10));
%!   assert (all (s.windows.error <= 1));
%!   assert (abs (s.windows.t1(end) - 20) < 1e-12 && s.windows.t0(1) == 0);
%!   assert (all (abs (s.windows.t0(2:end) - s.windows.t1(1:end-1)) == 0));
%! end
%!test
%! % dense output: the SBP interpolant between the nodes is as accurate as the nodes
%! tq = linspace (0, 20, 1001);
%! s = skg_solve (osc, [0 20], 1, 0.5, 'RelTol', 1e-8, 'OutputTimes', tq);
%! assert (size (s.output.q), [1001 1]);
%! ex = cos (tq(:)) + 0.5 * sin (tq(:));
%! en = max (abs (s.q - (cos (s.t) + 0.5 * sin (s.t))));
%! assert (max (abs (s.output.q - ex)) < 2 * max (en, 1e-9));
%!test
%! % a fixed grid that steps over a thin contact layer (the tumbler at sigma = 1/1000, 33 nodes):
%! % converged, but the contact check fails: counted, named in the message, and a warning
%! tb = mechsys ('coordinates', {'x', 'y'}, 'parameters', struct ('g', 9.8, 'sig', 1/1000), ...
%!   'lagrangian', '(dot(x)^2 + dot(y)^2)/2 - g*y', ...
%!   'contacts', struct ('h', '1 - x^2 - y^2', 'sigma', 'sig', 'V0', 5));
%! warning ('off', 'varmech:skg_solve:unresolved', 'local');
%! s = skg_solve (tb, [0 0.5], [-1/2 -3/4], [0 0], 'N', 33);
%! assert (s.unresolved_windows, 1);
%! assert (~isempty (strfind (s.message, 'the contact check fails in 1 of the 1 windows')));
%!warning <the contact check fails in 1 of the 1 windows>
%! tb = mechsys ('coordinates', {'x', 'y'}, 'parameters', struct ('g', 9.8, 'sig', 1/1000), ...
%!   'lagrangian', '(dot(x)^2 + dot(y)^2)/2 - g*y', ...
%!   'contacts', struct ('h', '1 - x^2 - y^2', 'sigma', 'sig', 'V0', 5));
%! skg_solve (tb, [0 0.5], [-1/2 -3/4], [0 0], 'N', 33);
%!warning <the first node is 1 .relative. away from q0: the grid does not resolve the motion> skg_solve (osc, [0 1e20], 1, 0, 'N', 33);
%!test
%! % with error control such an interval is marched, and stops with an estimate of what it needs
%! s = skg_solve (osc, [0 1e20], 1, 0, 'MaxWindows', 200);
%! assert (s.exitflag, 0);
%! assert (~isempty (strfind (s.message, 'more windows than allowed')));
%!test
%! % an interval that would need about 1e300 windows: stopped early (a few thousand windows, a
%! % fraction of a second), exitflag 0, with the estimate of the windows it would need
%! OSC = mechsys ('coordinates', {'x'}, 'parameters', struct ('k', 1), ...
%!   'lagrangian', 'dot(x)^2/2 - k*x^2/2');
%! s = skg_solve (OSC, [0 1e300], 1, 0);
%! assert (s.exitflag, 0);
%! assert (~isempty (strfind (s.message, 'stopped early')));
%! assert (~isempty (strfind (s.message, 'more windows than allowed')));
%! assert (numel (s.windows.t0) + numel (s.rejected.t0) <= 2000);
%! % the accepted windows are correct up to where it stopped
%! assert (max (abs (s.q - cos (s.t))) < 1e-3);
%!error <skg_solve: tspan = \[0, 1e-300\] is 1e-300 long, below the shortest window that 33 nodes can resolve>
%! % an interval shorter than any window that the nodes resolve: refused before the first window
%! OSC = mechsys ('coordinates', {'x'}, 'parameters', struct ('k', 1), ...
%!   'lagrangian', 'dot(x)^2/2 - k*x^2/2');
%! skg_solve (OSC, [0 1e-300], 1, 0);
%!error <skg_solve: N = 68719476736 nodes per window \(68719476736 grid points\) need about [0-9.e+]* GB \(an estimate\), more than the>
%! % a window that cannot fit: refused before anything is allocated
%! OSC = mechsys ('coordinates', {'x'}, 'lagrangian', 'dot(x)^2/2 - x^2/2');
%! skg_solve (OSC, [0 1], 1, 0, 'N', 2^36, 'Windows', 1);
%!test
%! % the estimate follows the linear solver: the band's model for 'auto' and 'banded' (n + m <= 12),
%! % UMFPACK's, larger here, for 'umfpack' (the figure of the refusal, in GB); at this size 'auto'
%! % keeps U only (csrc/skg/skg_solve.h: per node 1094 + 8 (2 b + 1) bytes against 1094 + 8 (3 b + 1),
%! % b = 5.5; the figures are printed to 3 digits)
%! OSC = mechsys ('coordinates', {'x'}, 'lagrangian', 'dot(x)^2/2 - x^2/2');
%! gb = zeros (1, 3);
%! ls = {'auto', 'umfpack', 'banded'};
%! for k = 1:3
%!   try
%!     skg_solve (OSC, [0 1], 1, 0, 'N', 2^36, 'Windows', 1, 'LinearSolver', ls{k});
%!   catch err
%!     gb(k) = str2double (regexp (err.message, 'need about (\S+) GB', 'tokens', 'once'));
%!   end
%! end
%! assert (all (gb > 0));
%! assert (gb(1) / gb(3), 1190 / 1234, 5e-3);
%! assert (gb(2) > 1.2 * gb(3));
%!error <skg_solve: the windows of \[0, 1e-300\] are 1e-300 long, below the shortest that 81 nodes can resolve>
%! OSC = mechsys ('coordinates', {'x'}, 'parameters', struct ('k', 1), ...
%!   'lagrangian', 'dot(x)^2/2 - k*x^2/2');
%! skg_solve (OSC, [0 1e-300], 1, 0, 'Windows', 1);
%!test
%! % a Tol below the rounding level of the residual: converged where rounding stops Newton, and
%! % the message says that Tol was not reached
%! s = skg_solve (osc, [0 10], 1, 0, 'N', 257, 'Tol', 1e-15);
%! assert (s.exitflag, 1);
%! assert (~isempty (strfind (s.message, 'rounding level')));
%! s = skg_solve (osc, [0 10], 1, 0, 'N', 257, 'Tol', 1e-10);
%! assert (isempty (strfind (s.message, 'rounding level')));
%!test
%! % the multipliers are in gauss_integrate's convention (M qddot = dL/dq + lambda dg/dqdot),
%! % as accurate as the states (within 10x AbsTol + RelTol max|lambda|, like q and qdot), at the
%! % nodes and at OutputTimes; the action's -lambda+ agrees with them at the windows' interior
%! % nodes to the discretization error (lambda_gap, 8e-9 measured)
%! sled = mechsys ('coordinates', {'x', 'y', 'th'}, 'parameters', struct ('a', 0.3), ...
%!   'lagrangian', '(dot(x)^2 + dot(y)^2)/2 + dot(th)^2/4', ...
%!   'constraints', {'-sin(th)*dot(x) + cos(th)*dot(y) - a*dot(th)'});
%! s = skg_solve (sled, [0 3], [0 0 0], [1 0.3 1], 'RelTol', 1e-8, 'OutputTimes', 0:0.5:3);
%! r = gauss_integrate (sled, [0 3], [0 0 0], [1 0.3 1], 'RelTol', 1e-12, 'AbsTol', 1e-12, ...
%!                      'OutputTimes', s.t);
%! ro = gauss_integrate (sled, [0 3], [0 0 0], [1 0.3 1], 'RelTol', 1e-12, 'AbsTol', 1e-12, ...
%!                       'OutputTimes', s.output.t);
%! assert (s.exitflag, 1);
%! tol = 10 * (1e-8 + 1e-8 * max (abs (r.output.lambda)));
%! assert (max (abs (s.lambda - r.output.lambda)) <= tol);
%! assert (max (abs (s.output.lambda - ro.output.lambda)) <= tol);
%! assert (s.lambda_gap <= tol);
%! assert (isfinite (s.lambda_gap));
%!test
%! % a window that is too long for Newton is halved (reason 'newton'); its estimate is recorded
%! s = skg_solve (osc, [0 20], 1, 0.5, 'InitialWindow', 20, 'MaxIter', 1);
%! assert (s.exitflag, 1);
%! assert (numel (s.rejected.t0) >= 1);
%! assert (any (strcmp (s.rejected.reason, 'error')) || any (strcmp (s.rejected.reason, 'newton')));
%!error <RelTol must be a real scalar in \[1e-14, 1\)> skg_solve (osc, [0 1], 1, 0, 'RelTol', 0)
%!error <AbsTol must be a finite real scalar . 0> skg_solve (osc, [0 1], 1, 0, 'AbsTol', -1)
%!error <Guess 'constant' needs a fixed grid> skg_solve (osc, [0 1], 1, 0, 'Guess', 'constant')
%!error <OutputTimes must be real times within tspan> skg_solve (osc, [0 1], 1, 0, 'OutputTimes', 2)
%!error <InitialWindow must be a finite real scalar . 0> skg_solve (osc, [0 1], 1, 0, 'InitialWindow', 0)
%!error <skg_solve: N = 1073741824 nodes per window .1073741824 grid points. need about> skg_solve (osc, [0 1], 1, 0, 'N', 2^30)
%!error <MaxWindows must be an integer in \[1, 2147483647\]; got double 1x1 \(0\)> skg_solve (osc, [0 1], 1, 0, 'MaxWindows', 0)
%!error <N must be an integer .= 12 for order 4 with an error estimate> skg_solve (osc, [0 1], 1, 0, 'N', 9, 'RelTol', 1e-6)
%!error <N must be an integer .= 12 for order 4 with an error estimate> skg_solve (osc, [0 1], 1, 0, 'N', 9, 'ErrorEstimate', 'on')
%!error <ErrorEstimate must be one of 'off', 'on'; got char 1x3 \('yes'\)> skg_solve (osc, [0 1], 1, 0, 'N', 20, 'ErrorEstimate', 'yes')
%!test
%! % a fixed grid says that it has no error estimate, or gives it with ErrorEstimate 'on': the
%! % oscillator x'' = -x on [0, 2 pi] in one window; the estimate (the companion order's
%! % difference) is of the size of the error or above it (a difference of two orders), and says
%! % when the grid falls short of the tolerance
%! o1 = mechsys ('coordinates', {'x'}, 'lagrangian', 'dot(x)^2/2 - x^2/2');
%! s = skg_solve (o1, [0 2*pi], 1, 0, 'N', 41);
%! assert (s.exitflag, 1);
%! assert (~isempty (strfind (s.message, 'no error estimate (a fixed grid')));
%! assert (isnan (s.windows.error));
%! for N = [41 1601]   % 1.2e3 and 0.02 of the tolerance: both messages
%!   s = skg_solve (o1, [0 2*pi], 1, 0, 'N', N, 'ErrorEstimate', 'on');
%!   assert (s.exitflag, 1);
%!   e = max (max (abs ([s.q - cos(s.t), s.qdot + sin(s.t)]))) / (1e-8 + 1e-6);
%!   assert (s.windows.error >= e / 3);
%!   assert (~isempty (strfind (s.message, 'largest error estimate')));
%!   assert (isempty (strfind (s.message, 'does not resolve')) == (s.windows.error <= 1));
%! end
%!error <Display must be one of 'off', 'final', 'iter'; got char 1x2 \('on'\)> skg_solve (osc, [0 1], 1, 0, 'Display', 'on')
%!error <LinearSolver must be one of 'auto', 'umfpack', 'banded'; got char 1x6 \('lapack'\)> skg_solve (osc, [0 1], 1, 0, 'LinearSolver', 'lapack')
%!error <ReuseFactorization must be an integer in \[0, 1000000\]; got double 1x1 \(-1\)> skg_solve (osc, [0 1], 1, 0, 'ReuseFactorization', -1)
%!test
%! % ReuseFactorization: the pendulum takes 14 Newton steps from its guess; with chord steps
%! % (the default, 2 per factorization) fewer factorizations, every chord step counted, and the
%! % same root: both stop at Newton's tests with 'Tol' 1e-12, so the trajectories differ by far
%! % less than 1e-10 (1e-15 measured)
%! pend = mechsys ('coordinates', {'x', 'y'}, 'parameters', struct ('g', 9.81, 'l', 1), ...
%!   'lagrangian', '(dot(x)^2 + dot(y)^2)/2 - g*y', 'constraints', {'x^2 + y^2 - l^2'});
%! a = {pend, [0 3], [sin(1) -cos(1)], [0 0], 'N', 301, 'Windows', 1, 'Tol', 1e-12};
%! s0 = skg_solve (a{:}, 'ReuseFactorization', 0);
%! out = evalc ('s2 = skg_solve (a{:}, ''Display'', ''iter'');');
%! assert ([s0.exitflag s2.exitflag], [1 1]);
%! % the live lines name each chord step as sol.step_kind does (they once printed 'start')
%! assert (numel (regexp (out, 'iter +\d+ [^\n]* chord t=1')), sum (strcmp (s2.step_kind, 'chord')));
%! assert (numel (regexp (out, 'iter +\d+ [^\n]* start')), 0);
%! assert (s0.timing.reused_factorizations, 0);
%! assert (~any (strcmp (s0.step_kind, 'chord')));
%! assert (s2.timing.reused_factorizations, sum (strcmp (s2.step_kind, 'chord')));
%! assert (s2.timing.reused_factorizations >= 1);
%! assert (s2.timing.factorizations < s0.timing.factorizations);
%! assert (max (abs (s2.q(:) - s0.q(:))) < 1e-10);
%!test
%! % LinearSolver: UMFPACK and the banded LU solve the same Newton systems, each to rounding, so
%! % the iterations take the same steps and end at the same root of the discrete equations: the
%! % trajectories differ by the rounding of the last steps (2e-15 measured; 1e-10 is the
%! % tolerance of Newton's own stopping, 'Tol' 1e-12 times the conditioning, far above it).
%! % 'auto' picks the banded LU for this node-major Jacobian (3 unknowns per node in reduced
%! % mode, 6 in full mode, order 4) and reports its bandwidths
%! pend = mechsys ('coordinates', {'x', 'y'}, 'parameters', struct ('g', 9.81, 'l', 1), ...
%!   'lagrangian', '(dot(x)^2 + dot(y)^2)/2 - g*y', 'constraints', {'x^2 + y^2 - l^2'});
%! for md = {'reduced', 'full'}
%!   a = {pend, [0 3], [sin(1) -cos(1)], [0 0], 'N', 301, 'Windows', 1, 'Tol', 1e-12, 'Mode', md{1}};
%!   su = skg_solve (a{:}, 'LinearSolver', 'umfpack');
%!   sb = skg_solve (a{:}, 'LinearSolver', 'banded');
%!   sa = skg_solve (a{:});
%!   assert ([su.exitflag sb.exitflag sa.exitflag], [1 1 1]);
%!   assert ({su.linear_solver.kind, sb.linear_solver.kind, sa.linear_solver.kind}, ...
%!           {'umfpack', 'banded', 'banded'});
%!   bw = 15 + 17 * strcmp (md{1}, 'full');
%!   assert ([sa.linear_solver.kl sa.linear_solver.ku su.linear_solver.kl], [bw bw bw]);
%!   assert (sa.linear_solver.factor_time > 0 && sa.linear_solver.solve_time > 0);
%!   % L and U kept: the band of 'auto' takes 0.1 MB, below the 1 GiB of the U-only variant
%!   assert ({su.linear_solver.factors, sb.linear_solver.factors, sa.linear_solver.factors}, ...
%!           {'LU', 'LU', 'LU'});
%!   assert (sb.iterations, su.iterations);
%!   assert (sb.q, su.q, 1e-10);
%!   assert (sb.qdot, su.qdot, 1e-10 * max (abs (su.qdot(:))));
%!   assert (sb.lambda, su.lambda, 1e-10 * max (abs (su.lambda(:))));
%! end
%! % the adaptive march reports the main order's Jacobian
%! s = skg_solve (pend, [0 1], [sin(1) -cos(1)], [0 0], 'RelTol', 1e-6, 'LinearSolver', 'umfpack');
%! assert (s.exitflag, 1);
%! assert (s.linear_solver.kind, 'umfpack');
%!test
%! % Guess 'auto' (the default): the integrator for the disk's quadratic constraint, and for the
%! % tumbler's sharp contact at sigma = 1/110, N = 256 (which the constant start cannot solve);
%! % the marching start for the oscillator and for the disk's form linear in the velocities
%! dp = struct ('M', 1, 'g', 9.8, 'alpha', pi/6, 'R', 1, 'IS', 1/2, 'ID', 1/4);
%! dpar = {'coordinates', {'x', 'y', 'theta', 'phi'}, 'parameters', dp, 'lagrangian', ...
%!   'M/2*(dot(x)^2 + dot(y)^2) + IS/2*dot(theta)^2 + ID/2*dot(phi)^2 + M*g*x*sin(alpha)'};
%! disk = mechsys (dpar{:}, 'constraints', ...
%!   {'dot(x)^2 + dot(y)^2 - R^2*dot(theta)^2', 'dot(x)*sin(phi) - dot(y)*cos(phi)'});
%! s = skg_solve (disk, [0 2*pi], [0 0 0 0], [5 0 5 1], 'N', 64);
%! assert (s.exitflag, 1);
%! assert (s.guess, 'integrator');
%! contact = struct ('h', 'R^2 - x^2 - y^2', 'sigma', 'sig', 'V0', 'V0');
%! tumbler = mechsys ('coordinates', {'x', 'y'}, 'parameters', ...
%!   struct ('m', 1, 'g', 9.8, 'R', 1, 'sig', 1/110, 'V0', 5), ...
%!   'lagrangian', 'm/2*(dot(x)^2 + dot(y)^2) - m*g*y', 'contacts', contact);
%! s = skg_solve (tumbler, [0 0.5], [-1/2 -3/4], [0 0], 'N', 256);
%! assert (s.exitflag, 1);
%! assert (s.guess, 'integrator');
%! assert (s.iterations <= 5);
%! sc = skg_solve (tumbler, [0 0.5], [-1/2 -3/4], [0 0], 'N', 256, 'Guess', 'constant');
%! assert (sc.exitflag, 0);
%! s = skg_solve (osc, [0 1], 1, 0, 'N', 41);
%! assert (s.guess, 'marching');
%! lin = mechsys (dpar{:}, 'constraints', ...
%!   {'dot(x) - R*cos(phi)*dot(theta)', 'dot(y) - R*sin(phi)*dot(theta)'});
%! s = skg_solve (lin, [0 2*pi], [0 0 0 0], [5 0 5 1], 'N', 64);
%! assert (s.exitflag, 1);
%! assert (s.guess, 'marching');
%!test
%! % 'auto' gives the marching start 6 iterations: the spherical pendulum in Cartesian coordinates
%! % over two swings needs 31 from it (damped steps that barely reduce the residual), and 4 from
%! % the integrator's trajectory; both end at the same root of the discrete equations (to Newton's
%! % tolerance: 1e-10 relative residual, a conditioning of about 1e2 here)
%! sph = mechsys ('coordinates', {'x', 'y', 'z'}, 'parameters', struct ('g', 9.81), ...
%!   'lagrangian', '(dot(x)^2 + dot(y)^2 + dot(z)^2)/2 - g*z', 'constraints', {'x^2 + y^2 + z^2 - 1'});
%! a = {sph, [0 5], [0.6 0 -0.8], [0 1.5 0], 'N', 513, 'Windows', 1};
%! sa = skg_solve (a{:});
%! sm = skg_solve (a{:}, 'Guess', 'marching');
%! assert ([sa.exitflag sm.exitflag], [1 1]);
%! assert (sa.guess, 'integrator (after the marching start failed)');
%! assert (sa.iterations <= 5 && sm.iterations > 6);
%! assert (~isempty (strfind (sa.message, 'from the marching start: ')));
%! assert (sa.q, sm.q, 1e-8);
%! % one window of more than 516 nodes: the marching start is tried on 129 nodes first
%! s2 = skg_solve (a{1:4}, 'N', 1025, 'Windows', 1);
%! assert (s2.exitflag, 1);
%! assert (s2.guess, 'integrator (after the marching start failed)');
%! assert (~isempty (strfind (s2.message, 'from the marching start on a grid of 129 nodes: ')));
%! assert (s2.iterations <= 5 && size (s2.q, 1) == 1025);
%! % and where the marching start converges there, it is taken at full size: the oscillator
%! s3 = skg_solve (osc, [0 1], 1, 0, 'N', 1025, 'Windows', 1);
%! assert ([s3.exitflag size(s3.q, 1)], [1 1025]);
%! assert (s3.guess, 'marching');
%! assert (s3.q, cos (s3.t), 1e-9);
%!test
%! % 'auto' retries from the integrator when the marching start fails (here: too few iterations)
%! s = skg_solve (damp, [0 4*pi], 1, 0, 'N', 81, 'MaxIter', 0);
%! assert (s.exitflag, 0);   % MaxIter 0 fails from any start but a converged one
%! assert (s.guess, 'integrator (after the marching start failed)');
%! assert (~isempty (strfind (s.message, 'from the marching start')));
%!error <Guess must be an Ntot-by-n matrix, 'auto', 'marching', 'constant' or 'integrator'> skg_solve (osc, [0 1], 1, 0, 'Guess', 'euler')
%!error <Guess must be an Ntot-by-n matrix, 'auto', 'marching', 'constant' or 'integrator'; got char 1x4x2> skg_solve (osc, [0 1], 1, 0, 'Guess', repmat ('auto', [1 1 2]))
%!error <Order must be one of 2, 4, 6, 8; got double 1x1 \(3\)> skg_solve (osc, [0 1], 1, 0, 'Order', 3)
%!error <N must be an integer> skg_solve (osc, [0 1], 1, 0, 'N', 5)
%!error <Mode must be one of 'full', 'reduced'> skg_solve (osc, [0 1], 1, 0, 'Mode', 'half')
%!error <q0 must be a real full vector with 1 entry; got double 1x2> skg_solve (osc, [0 1], [1 2], 0)
%!error <q0 must be a real full vector with 1 entry; got sparse double 1x1> skg_solve (osc, [0 1], sparse (1), 0)
%!error <q0 must be a real full vector with 1 entry; got complex double 1x1> skg_solve (osc, [0 1], 1i, 0)
%!error <q0 must be a real full vector with 1 entry; got logical 1x1> skg_solve (osc, [0 1], true, 0)
%!error <q0 must be a real full vector with 1 entry; got cell 1x1> skg_solve (osc, [0 1], {1}, 0)
%!error <qdot0 must be finite; entry 1 is NaN> skg_solve (osc, [0 1], 1, NaN)
%!error <tspan must be a real full vector with 2 entries; got sparse double 1x2> skg_solve (osc, sparse ([0 1]), 1, 0)
%!error <tspan must be a real full vector with 2 entries; got int32 1x3> skg_solve (osc, int32 ([0 1 2]), 1, 0)
%!error <MaxIter must be an integer in \[0, 1000000\]; got double 1x1 \(1000000000000\)> skg_solve (osc, [0 1], 1, 0, 'MaxIter', 1e12)
%!error <N must be an integer in \[2, 9007199254740992\]; got double 1x1 \(1e\+300\)> skg_solve (osc, [0 1], 1, 0, 'N', 1e300)
%!error <Windows must be an integer in \[1, 1000000\]; got int64 1x1 \(4294967300\)> skg_solve (osc, [0 1], 1, 0, 'Windows', int64 (2^32 + 4))
%!error <Order must be an integer in \[1, 64\]; got double 1x1 \(4294967300\)> skg_solve (osc, [0 1], 1, 0, 'Order', 2^32 + 4)
%!error <Guess must be a real full double matrix; got sparse double 41x1> skg_solve (osc, [0 1], 1, 0, 'N', 41, 'Guess', sparse (ones (41, 1)))
%!error <OutputTimes must be a real full vector; got complex double 1x1> skg_solve (osc, [0 1], 1, 0, 'OutputTimes', 0.5i)
%!test
%! % integer and single classes are converted to double (the same solution)
%! s1 = skg_solve (osc, [0 1], 1, 0, 'N', 41);
%! s2 = skg_solve (osc, int32 ([0 1]), int8 (1), single (0), 'N', int32 (41), 'Order', uint8 (4));
%! assert (isequal (s1.q, s2.q));
%!test
%! % a degenerate Lagrangian (y has no kinetic term: its equation -y = 0 is algebraic, and y0 = 1
%! % violates it): the failure at t0, and a fixed grid's warning, name the singular mass matrix
%! deg = mechsys ('coordinates', {'x', 'y'}, 'lagrangian', 'dot(x)^2/2 - y^2/2');
%! s = skg_solve (deg, [0 1], [0 1], [1 0]);
%! assert (s.exitflag, 0);
%! assert (strncmp (s.message, 'the mass matrix d2L/dqdot2 is singular at t = 0, q = [0 1]', 58));
%! assert (~isempty (strfind (s.message, 'y has no kinetic term (the Lagrangian does not contain dot(y)): did you mean dot(y)?')));
%! s = skg_solve (osc, [0 1], 1, 0);
%! assert (isempty (strfind (s.message, 'mass matrix')));
%!warning <the grid does not resolve the motion.*; the mass matrix d2L/dqdot2 is singular at t = 0>
%! deg = mechsys ('coordinates', {'x', 'y'}, 'lagrangian', 'dot(x)^2/2 - y^2/2');
%! skg_solve (deg, [0 1], [0 1], [1 0], 'Windows', 4);
%!error <tspan must be \[t0 tf\]> skg_solve (osc, [1 0], 1, 0)
%!error <unknown option 'Tolerance'> skg_solve (osc, [0 1], 1, 0, 'Tolerance', 1)
%!error <skg_solve: the initial state violates constraint 1 .x.dot.x. . y.dot.y.. by 1 .ConstraintTol = 1e-08.>
%! % an initial velocity that violates a velocity constraint (checked before any solve)
%! pv = mechsys ('coordinates', {'x', 'y'}, 'parameters', struct ('g', 9.81), ...
%!   'lagrangian', '(dot(x)^2 + dot(y)^2)/2 - g*y', 'constraints', {'x*dot(x) + y*dot(y)'});
%! skg_solve (pv, [0 1], [0 -1], [0 1]);
%!error <skg_solve: the initial state violates constraint 1 .x.2 . y.2 - 1. by 1 .ConstraintTol = 1e-08.>
%! % an initial position that violates a position constraint (the Cartesian pendulum from (1, 1))
%! pend = mechsys ('coordinates', {'x', 'y'}, 'parameters', struct ('g', 9.81), ...
%!   'lagrangian', '(dot(x)^2 + dot(y)^2)/2 - g*y', 'constraints', {'x^2 + y^2 - 1'});
%! skg_solve (pend, [0 1], [1 1], [0 0]);
%!error <skg_solve: the initial state violates constraint 1 .x.2 . y.2 - 1. at velocity level .dg/dq qdot . dg/dt. by 2 .ConstraintTol = 1e-08.>
%! % a consistent position with a velocity off the tangent of the position constraint (its
%! % velocity level dg/dq qdot = 2 x xdot + 2 y ydot)
%! pend = mechsys ('coordinates', {'x', 'y'}, 'parameters', struct ('g', 9.81), ...
%!   'lagrangian', '(dot(x)^2 + dot(y)^2)/2 - g*y', 'constraints', {'x^2 + y^2 - 1'});
%! skg_solve (pend, [0 1], [1 0], [1 0]);
%!error <skg_solve: the constraint Jacobian is rank-deficient at the initial state: constraints 1 .x. and 2 .x-1. are contradictory>
%! % contradictory constraints: named as such, not reported as a Newton stall
%! c2 = mechsys ('coordinates', {'x', 'y'}, 'lagrangian', '(dot(x)^2 + dot(y)^2)/2', ...
%!   'constraints', {'x', 'x-1'});
%! skg_solve (c2, [0 1], [0 0], [0 0]);
%!error <skg_solve: the constraint Jacobian is rank-deficient at the initial state: constraints 1 .x. and 2 .2.x. are redundant>
%! red = mechsys ('coordinates', {'x', 'y'}, 'lagrangian', '(dot(x)^2 + dot(y)^2)/2', ...
%!   'constraints', {'x', '2*x'});
%! skg_solve (red, [0 1], [0 0], [0 0]);
%!error <skg_solve: the constraint Jacobian is rank-deficient: constraint 1 .1. is a constant .it contains neither the coordinates nor their velocities.>
%! c1 = mechsys ('coordinates', {'x'}, 'lagrangian', 'dot(x)^2/2', 'constraints', {'1'});
%! skg_solve (c1, [0 1], 0, 0);
%!demo
%! % A pendulum (m = 1 kg, l = 1 m) in Cartesian coordinates, held on the circle by the position
%! % constraint x^2 + y^2 - l^2 = 0, released at rest 1 rad from the vertical.  The reaction is
%! % lambda dg/dq = 2 lambda (x, y): the tension of the rod is -2 l lambda.
%! pend = mechsys ('coordinates', {'x', 'y'}, 'parameters', struct ('g', 9.81, 'l', 1), ...
%!   'lagrangian', '(dot(x)^2 + dot(y)^2)/2 - g*y', 'constraints', {'x^2 + y^2 - l^2'});
%! sol = skg_solve (pend, [0 5], [sin(1) -cos(1)], [0 0], 'RelTol', 1e-8);
%! fprintf ('%d windows, max |x^2 + y^2 - 1| = %.1e, energy drift %.1e J\n', ...
%!          numel (sol.windows.t0), max (abs (sum (sol.q .^ 2, 2) - 1)), ...
%!          max (abs (sol.energy - sol.energy(1))));
%! varmech_plot (sol, 'Units', {'m', 'm'}, 'EnergyUnit', 'J', ...
%!               'Title', 'skg_solve: a pendulum on x^2 + y^2 = l^2');
