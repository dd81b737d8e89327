% -*- texinfo -*-
% @deftypefn  {} {S =} skg_action (sys, tspan, q0, qdot0, N, order, z)
% @deftypefnx {} {[S, g] =} skg_action (sys, tspan, q0, qdot0, N, order, z)
% @deftypefnx {} {[S, g, Hs] =} skg_action (sys, tspan, q0, qdot0, N, order, z)
% The discrete SKG action of @code{skg_solve} on one window, its gradient @var{g} and its sparse
% Hessian @var{Hs} at the unknowns @var{z}, for inspection and tests.
%
% @var{sys} is a system made by @code{mechsys} (n coordinates, m constraints), @var{tspan} =
% [t0 tf] with t0 < tf, @var{q0} and @var{qdot0} the initial position and velocity (n entries
% each), @var{N} the number of grid points and @var{order} the interior order of the SBP operator
% (2, 4, 6 or 8; N at least 2, 8, 12, 16 for them).  The action is the one of @code{skg_solve}
% (formulation "F4" of @file{doc/skg_boundary.md}):
% @code{S = sum_k H_kk [L(q1, Da q1) - L(q2, Da q2) + q- . F(q+, Da q+) + lambda- . g - lambda+ . (q- . dg/dqdot)] - q-_1 . (p+_1 - p_i) - q-_N . p+_N},
% with @code{Da q = D q + H^-1 e1 (q_1 - q0)}, p = dL/dqdot, and for a position constraint
% g(t, q) the term @code{lambda- g(t, q+) - lambda+ q- . dg/dq(t, q+)} (@file{doc/skg.md},
% "Holonomic constraints").
%
% @var{z} (N*(2n + 2m) entries) is ordered by grid point: at each of the @var{N} points q+
% (n values), q- (n), lambda+ (m), lambda- (m).  The forces F are added to dL/dq as in
% @code{mechsys}.  At the critical point q- = 0, lambda- = 0, and lambda+ is about the negative of
% the physical multiplier lambda of eq. 3 of the rolling-disk paper
% (@code{M qddot = dL/dq + F + sum_a lambda_a dg_a/dqdot}): @code{skg_solve} reports both, as
% @code{sol.lambda} and @code{sol.lambda_plus}.
%
% Outputs: @var{S} the action (a scalar, units of L times time), @var{g} its gradient with respect
% to @var{z} (a column of numel (z) entries), @var{Hs} its Hessian (sparse, numel (z) square).
% The Hessian is exact (symbolic derivatives of the model, chain rule through the SBP operator)
% and symmetric; its pattern does not depend on @var{z}.
%
% Example (a harmonic oscillator: the action is quadratic, so one Newton step from z = 0 lands on
% the critical point, the solution of @code{skg_solve} on the same grid):
% @verbatim
% osc = mechsys ('coordinates', {'x'}, 'lagrangian', 'dot(x)^2/2 - x^2/2');
% N = 41;  z = zeros (2*N, 1);              % per node: q+, q- (no constraints)
% [S, g, H] = skg_action (osc, [0 2*pi], 1, 0, N, 4, z);
% z = z - H \ g;                            % one Newton step
% [S, g] = skg_action (osc, [0 2*pi], 1, 0, N, 4, z);
% sol = skg_solve (osc, [0 2*pi], 1, 0, 'N', N, 'Windows', 1, 'Order', 4);
% fprintf ('|grad S| = %.1e, max |q+ - sol.q| = %.1e, max |q+ - cos t| = %.1e\n', ...
%          norm (g), max (abs (z(1:2:end) - sol.q)), max (abs (z(1:2:end) - cos (sol.t))));
% @end verbatim
%
% Numbers of another real class than double (single, int32, ...) are converted to double;
% sparse, complex, logical, char, cell and other arrays where numbers are expected are refused
% with an error that names the argument, what it must be and the class and size received.
% @seealso{skg_solve, mechsys, sbp_operator, mechsys_eval}
% @end deftypefn

function [S, g, Hs] = skg_action (sys, tspan, q0, qdot0, N, order, z)
  fname = 'skg_action';
  if (nargin ~= 7)
    vm_badarg (fname, 'expected 7 inputs: sys, tspan, q0, qdot0, N, order, z');
  end
  if (~isstruct (sys) || ~isfield (sys, 'type') || ~strcmp (sys.type, 'mechsys'))
    vm_badarg (fname, 'sys must be a system made by mechsys');
  end
  % the gateway checks every argument (class, size, range); other real classes become double
  args = {sys, vm_double(tspan), vm_double(q0), vm_double(qdot0), N, order, vm_double(z)};
  try
    if (nargout <= 1)
      S = vm_skg_mex ('action', args{:});
    else
      [S, g, Hs] = vm_skg_mex ('action', args{:});
    end
  catch err
    vm_rethrow (err, fname);
  end
end

%!test
%! % gradient and Hessian against central differences at a random point
%! sys = mechsys ('coordinates', {'x', 'y'}, 'parameters', struct ('k', 2), ...
%!   'lagrangian', '(dot(x)^2 + dot(y)^2)/2 - k*x^2/2 + cos(y)', 'forces', {'-0.1*dot(x)', '0'}, ...
%!   'constraints', {'dot(x) + 0.3*dot(y) - 0.2*x'});
%! N = 12;  rand ('seed', 3);
%! z = rand (N * 6, 1) - 0.5;
%! [S, g, H] = skg_action (sys, [0 1], [0.1 0.2], [0.3 -0.1], N, 4, z);
%! h = 1e-6;  gd = zeros (size (g));  Hd = zeros (numel (z));
%! for j = 1:numel (z)
%!   e = zeros (size (z));  e(j) = h;
%!   [Sp, gp] = skg_action (sys, [0 1], [0.1 0.2], [0.3 -0.1], N, 4, z + e);
%!   [Sm, gm] = skg_action (sys, [0 1], [0.1 0.2], [0.3 -0.1], N, 4, z - e);
%!   gd(j) = (Sp - Sm) / (2*h);
%!   Hd(:, j) = (gp - gm) / (2*h);
%! end
%! % central differences: O(h^2) truncation ~ 1e-12, rounding ~ eps |S| / h ~ 1e-10
%! assert (max (abs (g - gd)) < 1e-7 * max (1, max (abs (g))));
%! D = full (H) - Hd;
%! assert (max (abs (D(:))) < 1e-7 * max (1, max (abs (Hd(:)))));
%! assert (issparse (H) && norm (full (H - H'), 1) < 1e-12);
%!shared osc
%! osc = mechsys ('coordinates', {'x'}, 'parameters', struct ('k', 1), 'lagrangian', 'dot(x)^2/2 - k*x^2/2');
%!test
%! % integer and single classes are converted; the action of the rest state is 0
%! assert (skg_action (osc, int32 ([0 1]), single (0), 0, int8 (10), 4, zeros (20, 1, 'int16')), 0);
%!error <z must be a real full double vector; got sparse double 20x1> skg_action (osc, [0 1], 1, 0, 10, 4, sparse (zeros (20, 1)))
%!error <z must be a real full double vector; got complex double 20x1> skg_action (osc, [0 1], 1, 0, 10, 4, complex (zeros (20, 1)))
%!error <z must be a real full double vector; got cell 1x1> skg_action (osc, [0 1], 1, 0, 10, 4, {0})
%!error <z must be finite; entry 2 is Inf> skg_action (osc, [0 1], 1, 0, 10, 4, [0; Inf; zeros(18, 1)])
%!error <order must be an integer in \[1, 64\]; got double 1x1 \(4294967300\)> skg_action (osc, [0 1], 1, 0, 10, 2^32 + 4, zeros (20, 1))
%!error <order must be one of 2, 4, 6, 8; got double 1x1 \(3\)> skg_action (osc, [0 1], 1, 0, 10, 3, zeros (20, 1))
%!error <N must be an integer in \[2, 100000000\]; got double 1x1 \(2147483651\)> skg_action (osc, [0 1], 1, 0, 2^31 + 3, 4, zeros (20, 1))
%!error <N must be an integer in \[2, 100000000\]; got logical 1x1 \(1\)> skg_action (osc, [0 1], 1, 0, true, 4, zeros (20, 1))
%!error <q0 must be a real full double vector with 1 entry; got sparse double 1x1> skg_action (osc, [0 1], sparse (1), 0, 10, 4, zeros (20, 1))
%!error <qdot0 must be a real full double vector with 1 entry; got logical 1x1> skg_action (osc, [0 1], 1, true, 10, 4, zeros (20, 1))
%!error <tspan must be a real full double vector \[t0 tf\] with t0 . tf; got sparse double 1x2> skg_action (osc, sparse ([0 1]), 1, 0, 10, 4, zeros (20, 1))
%!error <tspan must be a real full double vector \[t0 tf\] with t0 . tf; got \[1 0\]> skg_action (osc, [1 0], 1, 0, 10, 4, zeros (20, 1))
%!error <z must be a real full double vector with 72 entries; got double 5x1> skg_action (mechsys ('coordinates', {'x', 'y'}, 'lagrangian', 'dot(x)^2+dot(y)^2', 'constraints', {'dot(x)'}), [0 1], [0 0], [0 0], 12, 4, zeros (5, 1))
%!demo
%! % One Newton step on the discrete action of a harmonic oscillator (x'' = -x, x(0) = 1,
%! % x'(0) = 0; quadratic action, so one step is exact), and the pattern of the Hessian: per node
%! % the unknowns q+, q-, coupled to the neighbours through the SBP operator.
%! osc = mechsys ('coordinates', {'x'}, 'lagrangian', 'dot(x)^2/2 - x^2/2');
%! N = 41;  T = 2*pi;  z = zeros (2*N, 1);
%! [S, g, H] = skg_action (osc, [0 T], 1, 0, N, 4, z);
%! z = z - H \ g;
%! [S, g] = skg_action (osc, [0 T], 1, 0, N, 4, z);
%! fprintf ('after one Newton step: |grad S| = %.1e, max |q-| = %.1e\n', norm (g), ...
%!          max (abs (z(2:2:end))));
%! t = linspace (0, T, N)';
%! figure ();
%! subplot (1, 2, 1);
%! plot (t, z(1:2:end), 'o', t, cos (t), '-');
%! xlabel ('t (s)');  ylabel ('x (m)');  legend ('q+ (critical point)', 'cos t');
%! title ('skg_action: one Newton step', 'Interpreter', 'none');
%! subplot (1, 2, 2);
%! spy (H);
%! xlabel ('column of z');  ylabel ('row of z');
%! title ('pattern of the Hessian');
