% -*- texinfo -*-
% @deftypefn  {} {sol =} dual_lorenz (tspan, y0)
% @deftypefnx {} {sol =} dual_lorenz (..., name, value, ...)
% The Lorenz system xdot = A (y - x), ydot = x (R - z) - y, zdot = x y - B z as the critical
% point of the closed-form dual Lorenz action of Acharya and Sengupta (their eq. 31 with the
% dual-to-primal map of eq. 30): duals (lambda, mu, gamma), potential
% @code{H = c/2 |U - Ubar(t)|^2}, @code{S = int (-1/2 p . BB p - Ubar . p - mu xbar zbar + gamma xbar ybar) dt - lambda(0) x0 - mu(0) y0 - gamma(0) z0}
% with @code{U^H = Ubar + BB p}, discretized with the SBP operator exactly as
% @code{dual_solve} (which gives the same numbers from the Lorenz formulas through the general
% engine).
%
% Options: "A" (10), "R" (28), "B" (8/3), "c" (a positive scalar, default 50), and "N",
% "Order", "BaseState", "DT", "Slabs", "BaseIterations", "Guess", "Tol", "MaxIter",
% "Display", "LinearSolver" as for @code{dual_solve}.  The solution struct is that of @code{dual_solve}.
%
% Numbers of another real class than double (single, int32, ...) are converted to double;
% sparse, complex, logical, char, cell and other arrays where numbers are expected are refused
% with an error that names the argument, what it must be and the class and size received.
% @seealso{dual_solve, dual_pars}
% @end deftypefn

function sol = dual_lorenz (tspan, y0, varargin)
  fname = 'dual_lorenz';
  if (nargin < 2)
    vm_badarg (fname, 'expected at least 2 inputs: tspan, y0 (see help dual_lorenz)');
  end
  defaults = struct ('A', 10, 'R', 28, 'B', 8/3, 'c', 50, 'N', 65, 'Order', 4, 'BaseState', [], ...
                     'DT', [], 'Slabs', 1, 'BaseIterations', 0, 'Guess', [], 'Tol', 1e-11, ...
                     'MaxIter', 50, 'Display', 'off', 'LinearSolver', 'auto');
  opts = vm_options (fname, defaults, varargin);
  p = [opts.A opts.R opts.B];   % A, R, B, c: real scalars, c > 0 (vm_option_rule)
  dopts = rmfield (opts, {'A', 'R', 'B'});
  sol = vm_dual_driver (fname, 'lorenz', [p opts.c], [], [3 3 0], tspan, y0, dopts);
  if (sol.exitflag ~= 1 && nargout == 0)
    error (['varmech:' fname ':noconv'], '%s: %s', fname, sol.message);
  end
end

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
%!error <y0 must be a real full vector with 3 entries; got sparse double 1x3> dual_lorenz ([0 1], sparse ([1 2 3]))
