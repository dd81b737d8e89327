% -*- texinfo -*-
% @deftypefn  {} {@var{sol} =} dual_solve (@var{ode}, @var{tspan}, @var{y0})
% @deftypefnx {} {@var{sol} =} dual_solve (@dots{}, @var{name}, @var{value}, @dots{})
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
% @code{S = sum_k H_kk L_H(y^H_k, D_k, (Dm D)_k, t_k) - D_d(t0) . y0}, with the SBP operator
% Dm = H^-1 Q and D_d(tf) prescribed, is made stationary by Newton's method with its exact
% sparse Hessian (UMFPACK).  Its stationarity equations are the SBP-SAT discretization of the
% primal problem at every node but the last, so the recovered primal y^H converges at the
% order of the SBP-SAT scheme (see @file{doc/dual.md}).
%
% Options:
% @table @asis
% @item "N"
% grid points per slab (default 65).
% @item "Order"
% interior order of the SBP operator: 2, 4 (default), 6 or 8.
% @item "c"
% the weights of H: a positive scalar or one per state (default 10).  The DtP map needs
% the matrix d2L_H/dy2 = diag (c) - D_d . F_yy + D_a . G_yy to stay nonsingular; the duals
% grow like c |y - ybar| times the slab length, so for a base state far from the solution the
% slab length must be short (see "Slabs").
% @item "BaseState"
% ybar: [] (zero, default), a constant vector (ny entries), an Ntot-by-ny matrix on the
% grid, or a function handle of t returning ny values.
% @item "DT"
% the prescribed final differential duals D_d(tf) (default 0).
% @item "Slabs"
% consecutive time slabs (default 1), each starting from the previous slab's recovered
% end state: Ntot = Slabs*(N-1)+1 grid points.
% @item "BaseIterations"
% after the solve, replace the base state by the recovered primal and solve again, this many
% times (default 0): at the fixed point the duals vanish (@code{sol.base_change}).
% @item "Guess"
% initial duals, Ntot-by-(nd+ng) (default 0).
% @item "Tol", "MaxIter"
% Newton's tolerance on the RMS of the discrete equations' residuals, relative to
% max (1, the RMS of F and of dybar/dt at the base state) (default 1e-11), and the iteration
% limit per slab (default 50).
% @item "Display"
% "off" (default), "final" or "iter".
% @end table
%
% @var{sol} has @code{t}, @code{y} (the recovered primal y^H, Ntot-by-ny), @code{D} (the
% duals, D_d then D_a), @code{residual} (the discrete primal equations (Dm y_d - F) at every
% node; at a slab's last node it is not an equation of the action and shows how well the ODE
% holds there), @code{G} (the algebraic equations at y^H), @code{hamiltonian} (the dual
% Hamiltonian D_d . F - D_a . G - H at every node, when the base state is constant; a constant
% of motion for an autonomous system), @code{S}, @code{base} (at a node shared by two slabs, the
% later slab's), @code{base_change}, @code{slab_end_y} and @code{slab_end_residual} (each slab's
% last node, which a shared node of @code{y} and @code{residual} does not show),
% @code{slab_start_jump} (|y^H - y0| at each slab's first node: O(h^(p+1)) for a genuine critical
% point; above 1e-2 max(1, |y0|) the solve is reported as not converged: a spurious critical
% point of a slab too long for its base state),
% @code{iterations}, @code{slab_iterations}, @code{residual_history}, @code{exitflag} (1 on
% convergence), @code{message} and @code{time}.  When Newton does not converge the best
% iterate is returned with @code{exitflag} 0; with no output argument that is an error.
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
                     'FinalDual', 'weak');
  opts = vm_options (fname, defaults, varargin);
  sol = vm_dual_driver (fname, 'general', [], ode, [ode.ny ode.nd ode.na], tspan, y0, opts);
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
%!error <ode must be a system made by odesys> dual_solve (struct (), [0 1], 1)
%!error <y0 must be a real finite vector with 3 entries> dual_solve (ode, [0 1], [1 2])
%!error <c must be a positive scalar> dual_solve (ode, [0 1], [1 2 3], 'c', -1)
%!error <tspan must be> dual_solve (ode, [1 0], [1 2 3])
%!error <N must be an integer> dual_solve (ode, [0 1], [1 2 3], 'N', 3)
%!error <BaseState must be> dual_solve (ode, [0 1], [1 2 3], 'BaseState', [1 2])
%!error <unknown option> dual_solve (ode, [0 1], [1 2 3], 'Bogus', 1)
