% -*- texinfo -*-
% @deftypefn  {} {sol =} dual_pars (tspan, x0, v0)
% @deftypefnx {} {sol =} dual_pars (tspan, x0, v0, name, value, ...)
% @deftypefnx {} {sol =} dual_pars (tspan, x0, v0, opts)
% @deftypefnx {} {} dual_pars (...)
% The generalized Pars system of Acharya and Sengupta (their eq. 32, unit masses):
% @code{xdot = v, vdot = -Q, (b + L x) . v = 0, Q . v - s^2/2 = 0} with the constraint force Q
% and the slack s left free, as the critical point of the closed-form dual action (their
% eqs. 34-37: duals rho, lambda (M each), mu, Lambda; potential
% @code{H = 1/2 (cx |x - xbar|^2 + cv |v - vbar|^2 + cQ |Q - Qbar|^2 + cs (s - sbar)^2)}, the
% dual-to-primal map in closed form).  The system is underdetermined (M + 1 algebraic unknowns,
% 2 equations): the base state selects the motion.  With the Gauss (ideal-reaction) solution
% as base state the duals vanish; other base states give other admissible motions that keep
% the constraint and the power inequality Q . v >= 0 (Secs. 4-5 of the paper).
%
% With "Reduced", true: the reduced Pars dual of eqs. 48-49 for the paper's constraint
% x3 v1 - v2 = 0 (x3 = v30 t + x30, duals lambda1, lambda2 of v1, v2; H = c/2 |v - vbar|^2),
% with the sign of eq. 48 corrected (see @file{doc/misprints.md}).  Its primal is the Gauss
% motion (eq. 44).
%
% @var{tspan} is [t0 tf] (t0 < tf); @var{x0}, @var{v0} the initial position and velocity (M
% entries each, M = rows of L), which must satisfy the constraint (b + L x0) . v0 = 0.  The
% grid is fixed ("Slabs" windows of "N" nodes) and the final dual strong, as in the paper; the
% equations are those of @code{dual_solve} on the system written with @code{odesys} (states x, v,
% Q, s; "square", false), which gives the same numbers (tested).  With the strong final dual
% each slab's last node has no equation of the action (@code{slab_end_residual}), so over many
% slabs the motion converges only at first order in the slab length (@code{help dual_lorenz},
% "Accuracy"; @file{doc/dual.md}, "Limitations").  Called without an output
% argument, a solve that does not converge is an error (@code{varmech:dual_pars:noconv}).
%
% Example (Pars' particle, a constant base state on a short interval: the selected motion keeps
% the constraint and dissipates kinetic energy K = |v|^2/2 at the rate Q . v = s^2/2):
% @verbatim
% x0 = [0 0 0.5];  v0 = [1 0.5 0.3];            % x3 v1 - v2 = 0 at t = 0
% sol = dual_pars ([0 0.5], x0, v0, 'BaseState', [x0 v0 0 0 0 0.1]);
% x = sol.y(:,1:3);  v = sol.y(:,4:6);  Q = sol.y(:,7:9);  s = sol.y(:,10);
% fprintf ('%s\nmax |x3 v1 - v2| = %.1e, max |Q.v - s^2/2| = %.1e, K(0) - K(T) = %.2e\n', ...
%   sol.message, max (abs (x(:,3).*v(:,1) - v(:,2))), max (abs (sum (Q.*v, 2) - s.^2/2)), ...
%   (sum (v(1,:).^2) - sum (v(end,:).^2)) / 2);
% @end verbatim
%
% Example (the reduced dual against the closed-form Gauss motion, z = x3 = 0.5 + 0.3 t):
% @verbatim
% sol = dual_pars ([0 1], [0 0 0.5], [1 0.5 0.3], 'Reduced', true);
% z = 0.5 + 0.3*sol.t;  v1 = sqrt (1.25 ./ (1 + z.^2));   % v1(0) = 1, v2 = z v1
% fprintf ('%s; max error: %.1e\n', sol.message, max (max (abs (sol.y - [v1, z.*v1]))));
% @end verbatim
%
% Options (name/value pairs or one struct @var{opts}):
% @table @asis
% @item "L"
% M-by-M, default the paper's L13 = 1.
% @item "b"
% default [0 -1 0].
% @item "c"
% the four weights [cx cv cQ cs], default [20 20 20 20]; for "Reduced" one scalar, default 1.
% @item "Reduced"
% the reduced dual (default false).
% @item "N", "Slabs", "Order"
% nodes per slab, slabs and the interior order (defaults 65, 1 and 4).
% @item "BaseState"
% [] for zero, a constant vector or an Ntot-by-(3M+1) matrix with columns x, v, Q, s, or a
% function handle of t; for "Reduced" 2 columns v1, v2.
% @item "DT", "BaseIterations"
% as for @code{dual_solve} (default 0 for both).
% @item "Guess"
% "auto" or a matrix of initial duals; "marching" is refused, it needs the weak final dual of
% @code{dual_solve}.
% @item "Tol", "MaxIter", "Display", "LinearSolver"
% as for @code{dual_solve} (defaults 1e-11, 50, "off" and "auto").
% @item "RelTol", "AbsTol"
% the tolerances of the error control of @code{dual_solve} (defaults 1e-6 and 1e-8 there): accepted,
% but the fixed grid of @code{dual_pars} has no error control, and the message of the solution
% says so, naming them.
% @end table
% From the zero base state Newton may not converge (the duals grow with the
% distance of the base state from the motion times the slab length): give a base state near the
% motion, or short slabs with a base state that follows it.
%
% @strong{Conventions.}  Q is minus the force on the particle (vdot = -Q, A&S eq. 42b), so the
% package's reaction is R = -Q.  For the ideal (Gauss) motion Q = -lambda (b + L x), with lambda
% the multiplier of @code{gauss_integrate} and @code{skg_solve} for the constraint
% g = (b + L x) . v = 0 in the package-wide convention (eq.@: 3 of the rolling-disk paper,
% @code{M qddot = dL/dq + F + lambda dg/dqdot}); for the paper's constraint
% lambda = -v1 v3/(1 + x3^2) = -lam* of A&S eq. 44.  The duals multiply the equations as written:
% the pre-dual Lagrangian is @code{rho . (xdot - v) + lambda . (vdot + Q) + mu (b + L x) . v +
% Lambda (Q . v - s^2/2) + H} (eq. 34, before the integration by parts), the sign convention of
% @code{dual_solve}; they are not reaction forces.
%
% The solution struct is that of @code{dual_solve} on a fixed grid with a given base state
% (see @code{help dual_solve}): @code{t} (Ntot-by-1), @code{y} (Ntot-by-(3M+1): x, v, Q, s; or
% Ntot-by-2: v1, v2), @code{D} (Ntot-by-(2M+2): rho, lambda, mu, Lambda; or lambda1, lambda2),
% @code{residual} (xdot - v and vdot + Q by the SBP operator, Ntot-by-2M; or Ntot-by-2),
% @code{G} (Ntot-by-2: (b + L x) . v and Q . v - s^2/2 at y^H; Ntot-by-0 for "Reduced"),
% @code{hamiltonian} (D_d . F - D_a . G - H, for a constant base state, else []), @code{S},
% @code{base}, @code{base_change}, @code{slab_end_y}, @code{slab_end_residual},
% @code{slab_start_jump}, @code{iterations}, @code{slab_iterations}, @code{residual_history},
% @code{exitflag}, @code{message} and @code{time}.
%
% Numbers of another real class than double (single, int32, ...) are converted to double;
% sparse, complex, logical, char, cell and other arrays where numbers are expected are refused
% with an error that names the argument, what it must be and the class and size received.
% @seealso{dual_solve, dual_lorenz, dual_action, gauss_integrate, odesys}
% @end deftypefn

function sol = dual_pars (tspan, x0, v0, varargin)
  fname = 'dual_pars';
  if (nargin < 3)
    vm_badarg (fname, 'expected at least 3 inputs: tspan, x0, v0 (see help dual_pars)');
  end
  opts = vm_options (fname, varargin);   % names, defaults, rules: csrc/base/vm_schema.c
  % each argument checked by its own name (numbers of another real class converted to double)
  L = vm_double (opts.L);
  if (~(isnumeric (L) && isreal (L) && ~issparse (L) && ndims (L) == 2 && size (L, 1) >= 1 ...
        && size (L, 1) == size (L, 2)))
    vm_badarg (fname, 'L must be a real full square matrix; got %s', vm_describe (L));
  end
  bad = find (~isfinite (L(:)), 1);
  if (~isempty (bad))
    vm_badarg (fname, 'L must be finite; entry %d is %s', bad, num2str (L(bad)));
  end
  M = size (L, 1);
  b = check_size (fname, 'b', vm_double (opts.b), M);
  x0 = check_size (fname, 'x0', vm_double (x0), M);
  v0 = check_size (fname, 'v0', vm_double (v0), M);
  opts.c = vm_double (opts.c);
  x0 = x0(:)';
  v0 = v0(:)';
  g0 = (b(:)' + x0 * L') * v0';
  ctol = 1e-10 * max (1, norm (v0));
  if (abs (g0) > ctol)
    % in gauss_integrate's words: one wording for a violated initial state in every solver
    error (['varmech:' fname ':initial_state'], ['%s: the initial state violates constraint 1 ' ...
           '((b + L x0) . v0 at the initial x0, v0) by %.3g (ConstraintTol = %.3g)'], fname, abs (g0), ctol);
  end
  dopts = rmfield (opts, {'L', 'b', 'Reduced'});
  [dopts, unused] = vm_fixed_grid_tolerances (dopts);   % no error control: a fixed grid
  if (opts.Reduced)
    if (M ~= 3 || ~isequal (L, [0 0 1; 0 0 0; 0 0 0]) || ~isequal (b(:)', [0 -1 0]))
      vm_badarg (fname, 'Reduced applies to the paper''s constraint x3 v1 - v2 = 0 (the default L and b)');
    end
    if (isempty (dopts.c))
      dopts.c = 1;
    end
    if (~(isnumeric (dopts.c) && isreal (dopts.c) && ~issparse (dopts.c) && isscalar (dopts.c) ...
          && isfinite (dopts.c) && dopts.c > 0))
      vm_badarg (fname, 'c must be a positive finite scalar for the reduced Pars dual; got %s', vm_describe (dopts.c));
    end
    kpar = [v0(3) x0(3) dopts.c];
    sol = vm_dual_driver (fname, 'pars_reduced', kpar, [], [2 2 0], tspan, v0(1:2), dopts);
  else
    if (isempty (dopts.c))
      dopts.c = [20 20 20 20];
    end
    cw = dopts.c;
    if (~(isnumeric (cw) && isreal (cw) && ~issparse (cw) && isvector (cw) && numel (cw) == 4 ...
          && all (isfinite (cw(:))) && all (cw(:) > 0)))
      vm_badarg (fname, 'c must hold the four positive weights [cx cv cQ cs] (a real full finite vector); got %s', ...
                 vm_describe (cw));
    end
    dopts.c = [cw(1)*ones(1, M), cw(2)*ones(1, M), cw(3)*ones(1, M), cw(4)];
    kpar = [M, cw(:)', b(:)', L(:)'];
    sol = vm_dual_driver (fname, 'pars', kpar, [], [3*M+1 2*M 2], tspan, [x0 v0], dopts);
  end
  if (~isempty (unused))
    sol.message = vm_fixed_grid_tolerances (fname, sol.message, unused);
  end
  if (sol.exitflag ~= 1 && nargout == 0)
    error (['varmech:' fname ':noconv'], '%s: %s', fname, sol.message);
  end
end

function x = check_size (fname, name, x, M)
  % a real full finite vector (vm_check_value), then one entry per row of L: a count that does
  % not match is refused naming both, as either may be the wrong one
  x = vm_check_value (fname, name, x, {'vector', []});
  if (numel (x) ~= M)
    vm_badarg (fname, '%s has %d entries but L is %d-by-%d; expected %d (one per coordinate)', ...
               name, numel (x), M, M, M);
  end
end

%!test
%! % RelTol and AbsTol: accepted, checked as dual_solve's, and named by the message
%! s = dual_pars ([0 0.5], [0 0 0.5], [1 0.5 0.3], 'Reduced', true, 'RelTol', 1e-8);
%! assert (~isempty (strfind (s.message, '; RelTol is not used: dual_pars has no error control')));
%!error <dual_pars: AbsTol must be a finite real scalar . 0;> dual_pars ([0 1], [0 0 0.5], [1 0.5 0.3], 'AbsTol', 0)

%!test
%! % the closed form equals the general engine (the Pars system written with odesys)
%! ode = odesys ('states', {'x1', 'x2', 'x3', 'v1', 'v2', 'v3', 'Q1', 'Q2', 'Q3', 's'}, ...
%!   'rhs', {'v1', 'v2', 'v3', '-Q1', '-Q2', '-Q3'}, ...
%!   'algebraic', {'x3*v1 - v2', 'Q1*v1 + Q2*v2 + Q3*v3 - s^2/2'}, 'square', false);
%! x0 = [0 0 0.5]; v0 = [1 0.5 0.3];
%! yb = [x0 v0 0 0 0 0.1];
%! s1 = dual_pars ([0 0.5], x0, v0, 'N', 33, 'BaseState', yb);
%! s2 = dual_solve (ode, [0 0.5], [x0 v0], 'N', 33, 'c', 20, 'BaseState', yb, 'FinalDual', 'strong');
%! assert (s1.exitflag, 1);
%! assert (s2.exitflag, 1);
%! assert (s1.y, s2.y, 1e-10 * max (abs (s2.y(:))));
%!test
%! % the reduced dual against the general engine on the reduced system (eq. 44, corrected eq. 48)
%! ode = odesys ('states', {'v1', 'v2'}, 'parameters', struct ('v30', 0.3, 'x30', 0.5), ...
%!   'rhs', {'-v1*(v30*t + x30)*v30/(1 + (v30*t + x30)^2)', 'v1*v30/(1 + (v30*t + x30)^2)'});
%! s1 = dual_pars ([0 1], [0 0 0.5], [1 0.5 0.3], 'Reduced', true, 'N', 33);
%! s2 = dual_solve (ode, [0 1], [1 0.5], 'N', 33, 'c', 1, 'FinalDual', 'strong');
%! assert (s1.exitflag, 1);
%! assert (s1.y, s2.y, 1e-10);
%!error <dual_pars: the initial state violates constraint 1 ..b \+ L x0. \. v0 at the initial x0, v0. by 1 .ConstraintTol = 1e-10.> dual_pars ([0 1], [0 0 1], [1 0 0])
%!error id=varmech:dual_pars:initial_state dual_pars ([0 1], [0 0 1], [1 0 0])
%!error <Reduced must be true or false; got char 1x3 \('yes'\)> dual_pars ([0 1], [0 0 0.5], [1 0.5 0], 'Reduced', 'yes')
%!error <N must be an integer in \[2, 100000000\]; got double 1x1 \(2147483651\)> dual_pars ([0 1], [0 0 0.5], [1 0.5 0], 'N', 2^31 + 3)
%!error <c must hold the four positive weights> dual_pars ([0 1], [0 0 0.5], [1 0.5 0], 'c', [1 2])
%!error <c must hold the four positive weights \[cx cv cQ cs\] \(a real full finite vector\); got sparse double 1x4> dual_pars ([0 1], [0 0 0.5], [1 0.5 0], 'c', sparse ([1 2 3 4]))
%!error <c must be a positive finite scalar for the reduced Pars dual; got double 1x1 \(-1\)> dual_pars ([0 1], [0 0 0.5], [1 0.5 0], 'Reduced', true, 'c', -1)
%!error <Reduced must be true or false; got double 1x1 \(Inf\)> dual_pars ([0 1], [0 0 0.5], [1 0.5 0], 'Reduced', Inf)
%!error <L must be a real full square matrix; got double 3x3x2> dual_pars ([0 1], [0 0 0.5], [1 0.5 0], 'L', zeros (3, 3, 2))
%!error <L must be finite; entry 2 is NaN> dual_pars ([0 1], [0 0 0.5], [1 0.5 0], 'L', [0 0 1; NaN 0 0; 0 0 0])
%!error <x0 must be a real full vector; got sparse double 1x3> dual_pars ([0 1], sparse ([0 0 0.5]), [1 0.5 0])
%!error <b has 2 entries but L is 3-by-3; expected 3 .one per coordinate.> dual_pars ([0 1], [0 0 0.5], [1 0.5 0], 'b', [0 -1])
%!test
%! % integer and single classes are converted (the same solution)
%! yb = [0 0 1 1 1 0 0 0 0 0.1];
%! s1 = dual_pars ([0 0.2], [0 0 1], [1 1 0], 'N', 17, 'BaseState', yb);
%! s2 = dual_pars ([0 0.2], int32 ([0 0 1]), int32 ([1 1 0]), 'N', 17, 'BaseState', yb, ...
%!   'L', int32 ([0 0 1; 0 0 0; 0 0 0]), 'b', single ([0 -1 0]), 'c', int32 ([20 20 20 20]));
%! assert (s1.exitflag, 1);
%! assert (s2.y, s1.y, 1e-12);

%!demo
%! % two admissible motions of Pars' particle from the same data: the Gauss motion (reduced
%! % dual, K conserved) and the motion a constant base state selects (K decreases)
%! x0 = [0 0 0.5];  v0 = [1 0.5 0.3];
%! sg = dual_pars ([0 0.5], x0, v0, 'Reduced', true);
%! sc = dual_pars ([0 0.5], x0, v0, 'BaseState', [x0 v0 0 0 0 0.1]);
%! Kg = (sum (sg.y.^2, 2) + v0(3)^2) / 2;
%! Kc = sum (sc.y(:, 4:6).^2, 2) / 2;
%! figure ();
%! subplot (2, 1, 1);
%! plot (sg.t, sg.y, '-', sc.t, sc.y(:, 4:5), '--');
%! xlabel ('t');  ylabel ('v_1, v_2');
%! legend ('v_1 Gauss', 'v_2 Gauss', 'v_1 constant base', 'v_2 constant base', ...
%!   'location', 'eastoutside');
%! title ('dual Pars actions: the base state selects the motion');
%! subplot (2, 1, 2);
%! plot (sg.t, Kg, '-', sc.t, Kc, '--');
%! xlabel ('t');  ylabel ('K = |v|^2/2');
%! legend ('Gauss (reduced dual)', 'constant base (full dual)', 'location', 'eastoutside');
%! title ('K: conserved, or dissipated (Q . v = s^2/2)');
