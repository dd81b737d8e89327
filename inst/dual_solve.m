% -*- texinfo -*-
% @deftypefn  {} {sol =} dual_solve (ode, tspan, y0)
% @deftypefnx {} {sol =} dual_solve (..., name, value, ...)
% Solve a first-order system as the critical point of the discrete dual action of Acharya and
% Sengupta.
%
% @var{ode} is made by @code{odesys}: differential states y_d with ydot_d = F(t, y),
% algebraic states and algebraic equations G(t, y) = 0 (their numbers may differ: odesys option
% "square", false).  @var{y0} holds the initial values of the differential states.  With duals
% D = (D_d, D_a) and the shifted quadratic potential
% @code{H = 1/2 sum_i c_i (y_i - ybar_i(t))^2} the pre-dual Lagrangian is
% @code{L_H = -Ddot_d . y_d - D_d . F(t, y) + D_a . G(t, y) + H}; the dual-to-primal (DtP) map
% y^H(D, Ddot, t) solves dL_H/dy = 0 at every grid point (one linear solve when F and G are at
% most quadratic in y, such as Lorenz; Newton per point otherwise).  The discrete dual action
% @code{S = sum_k H_kk L_H(y^H_k, D_k, Ddot_k, t_k) - D_d(t0) . y0} on a grid with the SBP
% operator Dm = H^-1 Q is made stationary by Newton's method with its exact sparse Hessian
% (LAPACK's banded LU or UMFPACK, option "LinearSolver").  By default the final dual is weak: @code{Ddot_d = Dm D_d - H^-1 e_N (D_d(tf) - DT)}
% (a SAT at tf); then the stationarity equations are the SBP-SAT discretization of the primal
% problem at every node, and the recovered primal y^H is the SBP-SAT solution whatever the base
% state ybar (which only decides how large the duals are, hence Newton's convergence).  With
% "FinalDual", "strong" D_d(tf) is prescribed as in the paper (no primal equation at the last
% node).  See @file{doc/dual.md}.
%
% The D returned are the duals of the action (the multipliers of the primal equations in the
% pre-dual Lagrangian, with the sign convention above), not reaction forces or constraint
% multipliers of a mechanical system.
%
% Modes.  @emph{Adaptive} (the default; also when "RelTol" or "AbsTol" is given): the interval is
% marched in windows of N nodes whose lengths an error controller chooses: each window is solved
% at the interior order "Order" and, from that solution, at the companion order (Order + 2; 6 for
% Order 8) on the same nodes; the window is accepted when max |y_p - y_c| / (AbsTol + RelTol
% max (|y_p|, |y_c|)) <= 1 over its nodes and differential states, and the order-p solution is
% kept; its final value (superconvergent) starts the next window.  Each window's base state is
% predicted by one classical RK4 step per node interval of the system's own right-hand side
% ("Guess", "marching"), so the duals stay small and Newton needs one or two iterations.
% @emph{Fixed grid} ("Slabs", or "N" without a tolerance): Slabs windows of N nodes each, as
% before; the base state is "BaseState" (default 0) unless "Guess" is "marching".
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
% one's recovered end state: Ntot = Slabs*(N-1)+1 grid points.
% @item "Guess"
% "auto" (default): "marching" in the adaptive mode, the given or zero base state with zero duals
% on a fixed grid; "marching": the RK4-predicted base states (either mode); or, on a fixed grid,
% an Ntot-by-(nd+ng) matrix of initial duals.
% @item "c"
% the weights of H: a positive scalar or one per state (default 10).  The DtP map needs
% the matrix d2L_H/dy2 = diag (c) - D_d . F_yy + D_a . G_yy to stay nonsingular; the duals
% grow like c |y - ybar| times the slab length, so for a base state far from the solution the
% slab length must be short (see "Slabs").
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
% (@code{sol.output}, @code{sol.output_D}), by each window's Lagrange interpolant of degree
% Order + 1.
% @item "Tol", "MaxIter"
% Newton's tolerance on a fixed grid without "Guess" "marching" (the RMS of the discrete
% equations' residuals, relative to max (1, the RMS of F and of dybar/dt at the base state);
% default 1e-11), and the iteration limit per window (default 50).
% @item "Display"
% "off" (default), "final" or "iter" (every Newton iteration and every window, printed while
% the solve runs).
% @item "LinearSolver"
% the LU factorization of Newton's linear systems: "auto" (default), "banded" or "umfpack".  The
% unknowns are ordered by grid point, so the Hessian is banded (bandwidths about 5 (order 4) to
% 11 (order 8) times nd + ng), and its band is dense: "auto" takes LAPACK's banded LU (dgbtrf)
% when at least 1/16 of the band is nonzero -- here about 3/4, where it was measured 4 to 12
% times faster than UMFPACK's sparse LU (@file{bench/README_band.md}).  Both give the same
% solution to rounding; @code{sol.linear_solver} says which was used.
% @end table
%
% In the adaptive and marching modes @var{sol} has @code{t}, @code{y} (the recovered primal,
% one row per node; a node shared by two windows holds the earlier window's value), @code{D},
% @code{mode} ("adaptive" or "fixed"), @code{guess} ("marching"), @code{final_dual}, @code{N},
% @code{order}, @code{companion_order}, @code{windows} (fields t0, t1, N, error -- the estimate
% as a fraction of the tolerance --, iterations, companion_iterations), @code{rejected} (t0,
% length, reason: "error", "newton" or "companion", error), @code{iterations},
% @code{residual_history}, @code{history_window}, @code{output_t}, @code{output},
% @code{output_D}, @code{predict_fallbacks} (windows whose RK4 prediction was not finite and fell
% back to a constant base state), @code{linear_solver}, @code{exitflag}, @code{message} and
% @code{time}.
%
% On a fixed grid (the base state given or zero) @var{sol} has @code{t}, @code{y}, @code{D},
% @code{residual} (the discrete primal equations (Dm y_d - F) at every node; with the strong
% final dual the slab's last node is not an equation of the action and shows how well the ODE
% holds there), @code{G} (the algebraic equations at y^H), @code{hamiltonian} (the dual
% Hamiltonian D_d . F - D_a . G - H at every node, when the base state is constant), @code{S},
% @code{base}, @code{base_change}, @code{slab_end_y} and @code{slab_end_residual} (each slab's
% last node), @code{slab_start_jump} (|y^H - y0| at each slab's first node: O(h^(p+1)) for a
% genuine critical point; above 1e-2 max(1, |y0|) the solve is reported as not converged: a
% spurious critical point of a slab too long for its base state), @code{iterations},
% @code{slab_iterations}, @code{residual_history}, @code{linear_solver}, @code{exitflag} (1 on
% convergence), @code{message} and @code{time}.  When Newton does not converge the best iterate is
% returned with @code{exitflag} 0.
%
% In both modes @code{sol.linear_solver} is the LU of Newton's linear systems (option
% "LinearSolver"), a struct: @code{kind} (@code{'banded'} or @code{'umfpack'}: the choice made,
% also under "auto"), @code{kl} and @code{ku} (the lower and upper bandwidths of the Hessian),
% @code{factor_time} and @code{solve_time} (seconds in the factorizations and solves, all windows
% or slabs).
%
% Numbers of another real class than double (single, int32, ...) are converted to double;
% sparse, complex, logical, char, cell and other arrays where numbers are expected are refused
% with an error that names the argument, what it must be and the class and size received.
% @seealso{odesys, dual_lorenz, dual_pars, skg_solve}
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
  defaults = struct ('N', [], 'Order', 4, 'c', 10, 'BaseState', [], 'DT', [], 'Slabs', [], ...
                     'BaseIterations', 0, 'Guess', 'auto', 'Tol', 1e-11, 'MaxIter', 50, ...
                     'Display', 'off', 'RelTol', [], 'AbsTol', [], 'OutputTimes', [], ...
                     'FinalDual', 'weak', 'LinearSolver', 'auto');
  opts = vm_options (fname, defaults, varargin);
  sol = vm_dual_driver (fname, 'general', [], ode, [ode.ny ode.nd ode.na], tspan, y0, opts);
  sol.solver = fname;
  sol.names = reshape (ode.states, 1, []);
  if (sol.exitflag ~= 1 && nargout == 0)
    error (['varmech:' fname ':noconv'], '%s: %s', fname, sol.message);
  end
end

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
%!error <dual_solve: the right-hand side 1 .sqrt.x.. is NaN at the initial state .t0 = 0, y0 = -1.: start where it is real and finite> dual_solve (odesys ('states', {'x'}, 'rhs', {'sqrt(x)'}), [0 1], -1)
%!error <dual_solve: slab 1 of 1: no convergence in 1 iterations> dual_solve (ode, [0 1], [1 1 1], 'N', 33, 'Slabs', 1, 'MaxIter', 1)
%!error <ode must be a system made by odesys> dual_solve (struct (), [0 1], 1)
%!error <y0 must be a real full vector with 3 entries; got double 1x2> dual_solve (ode, [0 1], [1 2])
%!error <y0 must be a real full vector with 3 entries; got sparse double 1x3> dual_solve (ode, [0 1], sparse ([1 2 3]))
%!error <y0 must be a real full vector with 3 entries; got complex double 1x3> dual_solve (ode, [0 1], [1 2 3i])
%!error <y0 must be a real full vector with 3 entries; got logical 1x3> dual_solve (ode, [0 1], true (1, 3))
%!error <y0 must be a real full vector with 3 entries; got cell 1x3> dual_solve (ode, [0 1], {1 2 3})
%!error <y0 must be finite; entry 3 is Inf> dual_solve (ode, [0 1], [1 2 Inf])
%!error <tspan must be a real full vector with 2 entries; got sparse double 1x2> dual_solve (ode, sparse ([0 1]), [1 2 3])
%!error <tspan must be a real full vector with 2 entries; got cell 1x2> dual_solve (ode, {0 1}, [1 2 3])
%!error <Slabs must be an integer in \[1, 1000000\]; got double 1x1 \(1000000000\)> dual_solve (ode, [0 1], [1 2 3], 'Slabs', 1e9)
%!error <N must be an integer in \[2, 100000000\]; got double 1x1 \(2147483651\)> dual_solve (ode, [0 1], [1 2 3], 'N', 2^31 + 3)
%!error <MaxIter must be an integer in \[0, 1000000\]; got double 1x1 \(1000000000000\)> dual_solve (ode, [0 1], [1 2 3], 'MaxIter', 1e12)
%!error <Order must be one of 2, 4, 6, 8; got double 1x1 \(7\)> dual_solve (ode, [0 1], [1 2 3], 'Order', 7)
%!error <DT must be a real full vector with 3 entries; got sparse double 1x3> dual_solve (ode, [0 1], [1 2 3], 'Slabs', 1, 'FinalDual', 'strong', 'DT', sparse ([0 0 1]))
%!error <Guess must be 'marching', 'auto' or a matrix of initial duals; got char 1x4x2> dual_solve (ode, [0 1], [1 2 3], 'Guess', repmat ('auto', [1 1 2]))
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
%! assert (sb.iterations, su.iterations);
%! assert (sb.y, su.y, 1e-10 * max (abs (su.y(:))));
%! assert (sb.D, su.D, 1e-10 * max (abs (su.D(:))));
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
