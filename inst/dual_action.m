% -*- texinfo -*-
% @deftypefn  {} {S =} dual_action (ode, tspan, y0, z)
% @deftypefnx {} {S =} dual_action (ode, tspan, y0, z, name, value, ...)
% @deftypefnx {} {S =} dual_action (ode, tspan, y0, z, opts)
% @deftypefnx {} {[S, g] =} dual_action (...)
% @deftypefnx {} {[S, g, H] =} dual_action (...)
% @deftypefnx {} {[S, g, H, y] =} dual_action (...)
% The discrete dual action of @code{dual_solve} at the duals @var{z}, for inspection (one slab,
% the strong final dual of the paper): its value @var{S}, gradient @var{g}, sparse Hessian
% @var{H} and the recovered primal @var{y}.
%
% @var{ode} is made by @code{odesys} (nd differential states, ng = numel (ode.algebraic)
% algebraic equations, ny states in all), @var{tspan} = [t0 tf], @var{y0} the initial values of
% the differential states (nd entries).  The action is that of @code{dual_solve} with
% "FinalDual", "strong":
% @code{S = sum_k H_kk L_H(y^H_k, D_k, Ddot_k, t_k) - D_d(t0) . y0} with
% @code{L_H = -Ddot_d . y_d - D_d . F(t, y) + D_a . G(t, y) + H(y, ybar)},
% @code{H = 1/2 sum_i c_i (y_i - ybar_i)^2}, Ddot_d = Dm D_d (SBP operator of order "Order" on N
% equispaced points) and y^H the dual-to-primal map (dL_H/dy = 0 at every grid point).  The sign
% conventions are those of @code{dual_solve}: D_d multiplies ydot_d - F, D_a the algebraic
% equations G as written in @code{odesys}; the D are not reaction forces.
%
% @var{z} lists the duals time-point major: at every grid point but the last, D_d then D_a
% (nd + ng values); at the last point only D_a (D_d(tf) is prescribed, option "DT").  So
% @code{numel (z) = N*(nd+ng) - nd}.  From the N-by-(nd+ng) duals D of a @code{dual_solve}
% solution on the same grid: @code{z = reshape (D', [], 1); z(end-ng-nd+1:end-ng) = [];}.
%
% Options (name/value pairs or one struct @var{opts}), as for @code{dual_solve}:
% @table @asis
% @item "N"
% nodes of the grid (default 65).
% @item "Order"
% interior order of the SBP operator (default 4).
% @item "c"
% the weights of H, a positive scalar or one weight per state (default 10).
% @item "BaseState"
% [] for zero, a constant vector with ny entries or an N-by-ny matrix on the grid.
% @item "DT"
% the prescribed D_d(tf), default 0.
% @end table
%
% Outputs:
% @table @code
% @item S
% the value of the discrete action (a scalar; the unit of H times time).
% @item g
% dS/dz, a column like z.  Its D_d entry at node j < N is H_jj ((Dm y^H_d)_j - F_j) plus,
% at the first node, the SAT term y^H_d(t0) - y0; its D_a entry at node j is H_jj G(t_j, y^H_j).
% g = 0 is the SBP-SAT discretization of the primal problem at every node but the last.
% @item H
% the exact Hessian d2S/dz2, sparse and symmetric (numel (z)-by-numel (z)).  Where the DtP matrix
% diag (c) - D_d . F_yy + D_a . G_yy is positive definite at every node, H is negative
% semidefinite (@file{doc/dual.md}).
% @item y
% the recovered primal y^H (the DtP map) at every grid point, N-by-ny, columns in the order of
% @code{ode.states}.
% @end table
%
% Example (a damped oscillator: the duals of a @code{dual_solve} solution are a critical point):
% @verbatim
% ode = odesys ('states', {'x', 'v'}, 'rhs', {'v', '-x - 0.2*v'});
% sol = dual_solve (ode, [0 1], [1 0], 'N', 33, 'Slabs', 1, 'FinalDual', 'strong');
% z = reshape (sol.D', [], 1);  z(end-1:end) = [];   % D_d(tf) = DT = 0 is not an unknown
% [S, g, H, y] = dual_action (ode, [0 1], [1 0], z, 'N', 33);
% fprintf ('S = %.6g (sol.S = %.6g), |g| = %.1e, max |y - sol.y| = %.1e\n', ...
%   S, sol.S, norm (g), max (abs (y(:) - sol.y(:))));
% @end verbatim
%
% Numbers of another real class than double (single, int32, ...) are converted to double;
% sparse, complex, logical, char, cell and other arrays where numbers are expected are refused
% with an error that names the argument, what it must be and the class and size received.
% @seealso{dual_solve, odesys, sbp_operator}
% @end deftypefn

function [S, g, H, y] = dual_action (ode, tspan, y0, z, varargin)
  fname = 'dual_action';
  if (nargin < 4)
    vm_badarg (fname, 'expected at least 4 inputs: ode, tspan, y0, z (see help dual_action)');
  end
  if (~isstruct (ode) || ~isfield (ode, 'type') || ~strcmp (ode.type, 'odesys'))
    vm_badarg (fname, 'ode must be a system made by odesys');
  end
  opts = vm_options (fname, varargin);   % names, defaults, rules: csrc/base/vm_schema.c
  tspan = vm_check_value (fname, 'tspan', tspan, {'interval'});
  ny = ode.ny;
  nd = ode.nd;
  N = opts.N;
  minN = vm_dual_mex ('min_n', opts.Order, 0);   % the fact lives in csrc/march/march.c
  if (N < minN)
    vm_badarg (fname, 'N must be an integer >= %d for order %d', minN, opts.Order);
  end
  c = opts.c;
  if (~isnumeric (c) || ~isreal (c) || issparse (c) || ~(isscalar (c) || numel (c) == ny) || ~all (c(:) > 0))
    vm_badarg (fname, 'c must be a positive scalar or a vector with %d positive entries; got %s', ny, vm_describe (c));
  end
  c = double (c(:)') .* ones (1, ny);
  yb = vm_double (opts.BaseState);
  if (isempty (yb))
    yb = zeros (N, ny);
  elseif (isnumeric (yb) && numel (yb) == ny)
    yb = repmat (yb(:)', N, 1);
  elseif (~isnumeric (yb) || ~isequal (size (yb), [N ny]))
    vm_badarg (fname, 'BaseState must be empty, a vector with %d entries or a %d-by-%d matrix; got %s', ...
               ny, N, ny, vm_describe (yb));
  end
  DT = vm_double (opts.DT);
  if (isempty (DT))
    DT = zeros (1, nd);
  end
  % y0, z and DT are checked by the gateway (class, size, finiteness) under these names
  setup = struct ('t0', tspan(1), 'tf', tspan(2), 'N', N, 'order', opts.Order, ...
                  'c', c, 'ybar', yb, 'y0', {vm_double(y0)}, 'DT', {DT}, 'z', {vm_double(z)}, 'tol', 1, ...
                  'max_iter', 0, 'kernel', 'general', 'kpar', []);
  try
    [S, g, H, y] = vm_dual_mex ('action', ode, setup);
  catch err
    vm_rethrow (err, fname);
  end
end

%!test
%! % gradient against central differences, Hessian against differences of the gradient
%! ode = odesys ('states', {'x', 'y', 'z'}, 'parameters', struct ('A', 10, 'R', 28, 'B', 8/3), ...
%!   'rhs', {'A*(y - x)', 'x*(R - z) - y', 'x*y - B*z'});
%! N = 9;
%! z = 0.3 * sin (1:(3*N-3))';
%! [S, g, H] = dual_action (ode, [0 0.3], [1 2 3], z, 'N', N, 'Order', 2, 'c', 20);
%! e = 1e-6;
%! gd = zeros (size (g));
%! Hd = zeros (numel (g));
%! for j = 1:numel (z)
%!   zp = z; zp(j) = zp(j) + e;
%!   zm = z; zm(j) = zm(j) - e;
%!   [Sp, gp] = dual_action (ode, [0 0.3], [1 2 3], zp, 'N', N, 'Order', 2, 'c', 20);
%!   [Sm, gm] = dual_action (ode, [0 0.3], [1 2 3], zm, 'N', N, 'Order', 2, 'c', 20);
%!   gd(j) = (Sp - Sm) / (2*e);
%!   Hd(:, j) = (gp - gm) / (2*e);
%! end
%! assert (max (abs (gd - g)) < 1e-7 * max (1, max (abs (g))));
%! assert (max (max (abs (Hd - H))) < 1e-6 * max (1, max (abs (H(:)))));
%! assert (issparse (H));
%!error <z must be a real full double vector with 24 entries; got double 5x1> dual_action (odesys ('states', {'x', 'y', 'z'}, 'rhs', {'y', 'z', 'x'}), [0 1], [1 2 3], zeros (5, 1), 'N', 9, 'Order', 2)
%!shared ode3
%! ode3 = odesys ('states', {'x', 'y', 'z'}, 'rhs', {'y', 'z', 'x'});
%!test
%! % integer and single classes are converted
%! S1 = dual_action (ode3, [0 1], [1 2 3], zeros (24, 1), 'N', 9, 'Order', 2);
%! S2 = dual_action (ode3, int8 ([0 1]), single ([1 2 3]), zeros (24, 1, 'int32'), 'N', int32 (9), 'Order', int8 (2));
%! assert (S1, S2);
%!error <dual_action: z must be a real full double vector with 24 entries; got sparse double 24x1> dual_action (ode3, [0 1], [1 2 3], sparse (zeros (24, 1)), 'N', 9, 'Order', 2)
%!error <dual_action: z must be a real full double vector with 24 entries; got complex double 24x1> dual_action (ode3, [0 1], [1 2 3], complex (zeros (24, 1)), 'N', 9, 'Order', 2)
%!error <dual_action: z must be a real full double vector with 24 entries; got logical 24x1> dual_action (ode3, [0 1], [1 2 3], false (24, 1), 'N', 9, 'Order', 2)
%!error <dual_action: z must be a real full double vector with 24 entries; got cell 1x1> dual_action (ode3, [0 1], [1 2 3], {0}, 'N', 9, 'Order', 2)
%!error <dual_action: y0 must be a real full double vector with 3 entries; got sparse double 1x3> dual_action (ode3, [0 1], sparse ([1 2 3]), zeros (24, 1), 'N', 9, 'Order', 2)
%!error <dual_action: y0 must be a real full double vector with 3 entries; got cell 1x3> dual_action (ode3, [0 1], {1 2 3}, zeros (24, 1), 'N', 9, 'Order', 2)
%!error <dual_action: tspan must be a real full vector with 2 entries; got sparse double 1x2> dual_action (ode3, sparse ([0 1]), [1 2 3], zeros (24, 1), 'N', 9, 'Order', 2)
%!error <dual_action: N must be an integer in \[2, 100000000\]; got double 1x1 \(2147483651\)> dual_action (ode3, [0 1], [1 2 3], zeros (24, 1), 'N', 2^31 + 3)
%!error <dual_action: Order must be one of 2, 4, 6, 8; got double 1x1 \(5\)> dual_action (ode3, [0 1], [1 2 3], zeros (24, 1), 'Order', 5)
%!error <dual_action: N must be an integer .= 8 for order 4> dual_action (ode3, [0 1], [1 2 3], zeros (24, 1), 'N', 5)
%!error <dual_action: c must be a positive scalar or a vector with 3 positive entries; got cell 1x1> dual_action (ode3, [0 1], [1 2 3], zeros (24, 1), 'c', {1})

%!demo
%! % the dual action of a damped oscillator along a line through its critical point z*:
%! % S is stationary at s = 0 (a maximum here: the Hessian is negative definite)
%! ode = odesys ('states', {'x', 'v'}, 'rhs', {'v', '-x - 0.2*v'});
%! sol = dual_solve (ode, [0 1], [1 0], 'N', 33, 'Slabs', 1, 'FinalDual', 'strong');
%! zs = reshape (sol.D', [], 1);  zs(end-1:end) = [];
%! dz = sin ((1:numel (zs))' / 5);  dz = dz / norm (dz) * norm (zs);
%! s = linspace (-1, 1, 41);  S = zeros (size (s));  gs = zeros (size (s));
%! for k = 1:numel (s)
%!   [S(k), g] = dual_action (ode, [0 1], [1 0], zs + s(k) * dz, 'N', 33);
%!   gs(k) = g' * dz;
%! end
%! figure ();
%! subplot (2, 1, 1);
%! plot (s, S, '-o', 0, sol.S, 'rx', 'markersize', 12);
%! xlabel ('s');  ylabel ('S(z^* + s dz)');
%! legend ({'dual action', 'sol.S of dual_solve'}, 'interpreter', 'none', 'location', 'south');
%! title ('the discrete dual action along a line through its critical point');
%! subplot (2, 1, 2);
%! plot (s, gs, '-o');
%! xlabel ('s');  ylabel ('dS/ds = g'' dz');  title ('its derivative vanishes at s = 0');
