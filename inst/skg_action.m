% -*- texinfo -*-
% @deftypefn  {} {S =} skg_action (sys, tspan, q0, qdot0, N, order, z)
% @deftypefnx {} {[S, g, Hs] =} skg_action (...)
% The discrete SKG action of @code{skg_solve}, its gradient @var{g} and its sparse Hessian
% @var{Hs} at the unknowns @var{z}, for inspection and tests.
%
% @var{z} is ordered by grid point: at each of the @var{N} points q+ (n values), q- (n),
% lambda+ (m), lambda- (m).  The Hessian is exact (symbolic derivatives of the model, chain rule
% through the SBP operator) and symmetric; its pattern does not depend on @var{z}.
%
% Numbers of another real class than double (single, int32, ...) are converted to double;
% sparse, complex, logical, char, cell and other arrays where numbers are expected are refused
% with an error that names the argument, what it must be and the class and size received.
% @seealso{skg_solve}
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
