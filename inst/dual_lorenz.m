% -*- texinfo -*-
% @deftypefn  {} {sol =} dual_lorenz (tspan, y0)
% @deftypefnx {} {sol =} dual_lorenz (tspan, y0, name, value, ...)
% @deftypefnx {} {sol =} dual_lorenz (tspan, y0, opts)
% @deftypefnx {} {} dual_lorenz (...)
% The Lorenz system xdot = A (y - x), ydot = x (R - z) - y, zdot = x y - B z as the critical
% point of the closed-form dual Lorenz action of Acharya and Sengupta (their eq. 31 with the
% dual-to-primal map of eq. 30): duals (lambda, mu, gamma), potential
% @code{H = c/2 |U - Ubar(t)|^2}, @code{S = int (-1/2 p . BB p - Ubar . p - mu xbar zbar + gamma xbar ybar) dt - lambda(0) x0 - mu(0) y0 - gamma(0) z0}
% with @code{U^H = Ubar + BB p}, discretized with the SBP operator exactly as
% @code{dual_solve} with "FinalDual", "strong" (which gives the same numbers from the Lorenz
% formulas through the general engine: tested).
%
% @var{tspan} is [t0 tf] (t0 < tf), @var{y0} = [x0 y0 z0].  The grid is fixed: "Slabs" windows
% of "N" nodes, the final dual strong (D(tf) = "DT", the paper's recipe); there is no adaptive
% mode (use @code{dual_solve} on the Lorenz formulas for error control).  Called without an
% output argument, a solve that does not converge is an error
% (@code{varmech:dual_lorenz:noconv}).
%
% Example (a short slab from the zero base state, against ode45):
% @verbatim
% sol = dual_lorenz ([0 0.1], [1 2 3]);      % one slab of 65 nodes, c = 50
% f = @(t, u) [10*(u(2) - u(1)); u(1)*(28 - u(3)) - u(2); u(1)*u(2) - 8/3*u(3)];
% [~, ur] = ode45 (f, sol.t, [1 2 3], odeset ('RelTol', 1e-12, 'AbsTol', 1e-12));
% fprintf ('%s; max error against ode45: %.1e\n', sol.message, max (max (abs (sol.y - ur))));
% @end verbatim
%
% Options (name/value pairs or one struct @var{opts}):
% @table @asis
% @item "A", "R", "B"
% the parameters of the system (defaults 10, 28 and 8/3).
% @item "c"
% the weight of H, a positive scalar (default 50).
% @item "N", "Slabs", "Order"
% nodes per slab, slabs and the interior order (defaults 65, 1 and 4).
% @item "BaseState"
% Ubar: [] for zero (default), a constant 3-vector, an Ntot-by-3 matrix on the grid or a
% function handle of t.
% @item "DT"
% D(tf) (default 0).
% @item "BaseIterations"
% passes of the base state (default 0).
% @item "Guess"
% "auto" or an Ntot-by-3 matrix of initial duals; "marching" is refused, it needs the weak final
% dual of @code{dual_solve}.
% @item "Tol", "MaxIter", "Display", "LinearSolver"
% as for @code{dual_solve} (defaults 1e-11, 50, "off" and "auto").
% @item "RelTol", "AbsTol"
% the tolerances of the error control of @code{dual_solve} (defaults 1e-6 and 1e-8 there): accepted,
% but the fixed grid of @code{dual_lorenz} has no error control, and the message of the solution
% says so, naming them.
% @end table
% From a zero
% base state a slab must stay short, roughly |U| times the slab length below 1 (the DtP matrix
% @code{c I + [0 -gamma mu; -gamma 0 0; mu 0 0]} is singular when gamma^2 + mu^2 = c^2;
% @file{doc/dual.md}): use "Slabs" for longer intervals.
%
% Accuracy: with the strong final dual each slab's last node has no equation of the action
% (@code{slab_end_residual}, Dm y - F there, is O(1)), and the end value it passes to the next
% slab carries that error, so over many slabs the motion converges only at first order in the
% slab length, whatever "Order" (Lorenz on [0 2] from (1, 2, 3), N = 65: max error 4.1e-4,
% 2.4e-4, 1.2e-4 with 100, 200, 400 slabs; "BaseIterations" does not change it).  For an
% accurate long solution use @code{dual_solve} on the Lorenz formulas (its weak final dual has
% the equation at every node, and error control: 2.9e-6, 4.2e-7, 5.4e-8 on the same slabs).
%
% The solution struct is that of @code{dual_solve} on a fixed grid with a given base state:
% @code{t} (Ntot-by-1, Ntot = Slabs*(N-1)+1), @code{y} (Ntot-by-3: x, y, z), @code{D}
% (Ntot-by-3: lambda, mu, gamma, the duals of the x, y and z equations in the sign of
% @code{dual_solve}: they multiply xdot - A (y - x), ydot - x (R - z) + y, zdot - x y + B z in
% the pre-dual Lagrangian; not reaction forces), @code{residual} (Ntot-by-3, Dm U - F; at each
% slab's last node not an equation of the action), @code{G} (Ntot-by-0), @code{hamiltonian}
% (the dual Hamiltonian D . F - H, Ntot-by-1, for a constant base state, else []), @code{S},
% @code{base}, @code{base_change}, @code{slab_end_y}, @code{slab_end_residual},
% @code{slab_start_jump}, @code{iterations}, @code{slab_iterations}, @code{residual_history},
% @code{exitflag}, @code{message} and @code{time} (see @code{help dual_solve}).
%
% Numbers of another real class than double (single, int32, ...) are converted to double;
% sparse, complex, logical, char, cell and other arrays where numbers are expected are refused
% with an error that names the argument, what it must be and the class and size received.
% @seealso{dual_solve, dual_pars, dual_action, odesys}
% @end deftypefn

function sol = dual_lorenz (tspan, y0, varargin)
  fname = 'dual_lorenz';
  if (nargin < 2)
    vm_badarg (fname, 'expected at least 2 inputs: tspan, y0 (see help dual_lorenz)');
  end
  opts = vm_options (fname, varargin);   % names, defaults, rules: csrc/base/vm_schema.c
  % A, R, B, c: real scalars, c > 0 (vm_option_rule); the driver reads only its own fields, and
  % no tolerance: a fixed grid without error control
  [opts, unused] = vm_fixed_grid_tolerances (opts);
  sol = vm_dual_driver (fname, 'lorenz', [opts.A opts.R opts.B opts.c], [], [3 3 0], tspan, y0, opts);
  if (~isempty (unused))
    sol.message = vm_fixed_grid_tolerances (fname, sol.message, unused);
  end
  if (sol.exitflag ~= 1 && nargout == 0)
    error (['varmech:' fname ':noconv'], '%s: %s', fname, sol.message);
  end
end

%!test
%! % RelTol and AbsTol: accepted, checked as dual_solve's, and named by the message (no error
%! % control on the fixed grid of the closed form); the solution is that without them
%! s0 = dual_lorenz ([0 0.05], [1 2 3]);
%! s1 = dual_lorenz ([0 0.05], [1 2 3], 'RelTol', 1e-9, 'AbsTol', 1e-12);
%! assert (s1.y, s0.y);
%! assert (~isempty (strfind (s1.message, 'RelTol and AbsTol are not used: dual_lorenz has no error control')));
%! s2 = dual_lorenz ([0 0.05], [1 2 3], 'AbsTol', 1e-12);
%! assert (~isempty (strfind (s2.message, '; AbsTol is not used')));
%!error <dual_lorenz: RelTol must be a finite real scalar .= 0;> dual_lorenz ([0 0.05], [1 2 3], 'RelTol', -1)

%!test
%! % the closed form equals the general engine on the same problem
%! ode = odesys ('states', {'x', 'y', 'z'}, 'parameters', struct ('A', 10, 'R', 28, 'B', 8/3), ...
%!   'rhs', {'A*(y - x)', 'x*(R - z) - y', 'x*y - B*z'});
%! s1 = dual_lorenz ([0 0.1], [1 2 3], 'N', 33, 'c', 40, 'BaseState', [0.5 1 2]);
%! s2 = dual_solve (ode, [0 0.1], [1 2 3], 'N', 33, 'c', 40, 'BaseState', [0.5 1 2], 'FinalDual', 'strong');
%! assert (s1.exitflag, 1);
%! assert (s2.exitflag, 1);
%! assert (s1.y, s2.y, 1e-10 * max (abs (s2.y(:))));
%! assert (s1.D, s2.D, 1e-9 * max (abs (s2.D(:))));
%!error <c must be a finite real scalar . 0; got double 1x3> dual_lorenz ([0 1], [1 2 3], 'c', [1 2 3])
%!error <A must be a finite real scalar; got double 1x1 \(NaN\)> dual_lorenz ([0 1], [1 2 3], 'A', NaN)
%!error <Slabs must be an integer in \[1, 1000000\]; got double 1x1 \(1000000000\)> dual_lorenz ([0 1], [1 2 3], 'Slabs', 1e9)
%!error <dual_lorenz: tspan \[0, 1e-300\] is too short for the grid> dual_lorenz ([0 1e-300], [1 2 3])
%!error <y0 must be a real full vector with 3 entries; got sparse double 1x3> dual_lorenz ([0 1], sparse ([1 2 3]))

%!demo
%! % Lorenz on [0, 2] from (1, 1, 1): 100 slabs of 33 nodes from the zero base state
%! sol = dual_lorenz ([0 2], [1 1 1], 'Slabs', 100, 'N', 33);
%! disp (sol.message);
%! f = @(t, u) [10*(u(2) - u(1)); u(1)*(28 - u(3)) - u(2); u(1)*u(2) - 8/3*u(3)];
%! [~, ur] = ode45 (f, sol.t, [1 1 1], odeset ('RelTol', 1e-12, 'AbsTol', 1e-12));
%! figure ();
%! subplot (2, 1, 1);
%! plot (sol.t, sol.y, '-', sol.t, ur, 'k:');
%! xlabel ('t');  ylabel ('x, y, z');  legend ('x', 'y', 'z', 'ode45', 'location', 'northeast');
%! title ('dual Lorenz action (Acharya and Sengupta, eq. 31): 100 slabs of 33 nodes');
%! subplot (2, 1, 2);
%! semilogy (sol.t, abs (sol.y - ur) + eps);
%! xlabel ('t');  ylabel ('|error|');  legend ('x', 'y', 'z', 'location', 'southeast');
%! title ('error against ode45 (order 4 operator, strong final dual)');
