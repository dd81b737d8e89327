% -*- texinfo -*-
% @deftypefn  {} {Y =} sbp_apply (X, order)
% @deftypefnx {} {Y =} sbp_apply (X, order, [t0 tf])
% @deftypefnx {} {Y =} sbp_apply (X, order, [t0 tf], mode)
% Apply the SBP derivative operator to the columns of @var{X} without forming a matrix.
%
% @code{sbp_apply (X, order, tspan)} equals @code{D * X} and
% @code{sbp_apply (X, order, tspan, 'transpose')} equals @code{D' * X}, where
% @code{D = sbp_operator (rows (X), order, tspan)}; @var{tspan} defaults to @code{[0 1]} (also
% when given as @code{[]}).  @var{mode} is @code{'transpose'} (or @code{'T'}) or
% @code{'notranspose'} (or @code{'N'}, the default), case-insensitive.
% @var{X} must be a real, full, finite double matrix with one row per grid point and at least as
% many rows as the operator needs (2, 8, 12, 16 for orders 2, 4, 6, 8); each column is one
% function sampled on the grid.  @var{Y} has the size of @var{X} (units of X per time unit).
% The cost is @code{O(numel (X))} with no sparse matrix built.
%
% Example (two derivatives at once, against the exact ones and the sparse product):
% @verbatim
% t = linspace (0, 1, 1000)';
% X = [t.^2, exp(t)];
% Y = sbp_apply (X, 4);                    % columns: 2*t and exp(t)
% fprintf ('max errors: %.1e (t^2, exact to degree 2), %.1e (exp)\n', ...
%          max (abs (Y - [2*t, exp(t)])));
% fprintf ('max |Y - D*X| = %.1e\n', max (max (abs (Y - sbp_operator (1000, 4) * X))));
% @end verbatim
%
% @seealso{sbp_operator, skg_solve}
% @end deftypefn

function Y = sbp_apply (X, order, tspan, mode)
  if (nargin < 2)
    error ('varmech:sbp_apply:nargin', ...
           'sbp_apply: expected at least 2 inputs, X and ORDER (see help sbp_apply)');
  end
  if (nargin < 3 || (isnumeric (tspan) && isempty (tspan)))
    tspan = [0 1];
  end
  tspan = vm_double (tspan);   % other real classes; the gateway checks every argument
  trans = 0;
  if (nargin == 4)
    % a 1-by-n char row only: strcmpi would fail on a char N-D array without naming MODE
    if (vm_isrow_string (mode) && any (strcmpi (mode, {'transpose', 'T'})))
      trans = 1;
    elseif (~(vm_isrow_string (mode) && any (strcmpi (mode, {'notranspose', 'N'}))))
      error ('varmech:sbp_apply:mode', ...
             'sbp_apply: MODE must be ''transpose'' or ''notranspose''; got %s', vm_describe (mode));
    end
  end
  try
    Y = vm_sbp_mex ('apply', X, order, tspan, trans);
  catch err
    vm_rethrow (err, 'sbp_apply');
  end
end

%!test
%! % matrix-free apply equals the sparse products D*X and D'*X, for every order and several N
%! orders = [2 4 6 8];  nmin = [2 8 12 16];
%! for o = 1:4
%!   for N = [nmin(o), nmin(o)+1, 2*nmin(o)+1, 57, 300]
%!     tspan = [-1 2.5];
%!     D = sbp_operator (N, orders(o), tspan);
%!     t = linspace (tspan(1), tspan(2), N)';
%!     X = [sin(3*t), exp(t), mod((1:N)', 5)];
%!     s = abs (D) * abs (X);
%!     assert (abs (sbp_apply (X, orders(o), tspan) - D * X) <= 16 * eps * s);
%!     s = abs (D') * abs (X);
%!     assert (abs (sbp_apply (X, orders(o), tspan, 'transpose') - D' * X) <= 16 * eps * s);
%!   end
%! end

%!test
%! % a row vector of length N >= nmin is one column of N = 1 rows: too small
%! t = linspace (0, 1, 50)';
%! assert (sbp_apply (t, 4), ones (50, 1), 64 * eps);
%! assert (size (sbp_apply (zeros (20, 0), 4)), [20 0]);

%!error <expected at least 2 inputs> sbp_apply (ones (10, 1))
%!error <called with too many inputs> sbp_apply (ones (10, 1), 2, [0 1], 'transpose', 1)
%!error <MODE must be 'transpose' or 'notranspose'> sbp_apply (ones (10, 1), 2, [0 1], 'x')
%!error <MODE must be 'transpose' or 'notranspose'> sbp_apply (ones (10, 1), 2, [0 1], 1)
%!error <MODE must be 'transpose' or 'notranspose'; got char 1x9x2> sbp_apply (ones (10, 1), 2, [0 1], repmat ('transpose', [1 1 2]))
%!error <X must be a real full double matrix; got single 10x1> sbp_apply (single (ones (10, 1)), 2)
%!error <X must be a real full double matrix; got complex double 10x1> sbp_apply (ones (10, 1) * 1i, 2)
%!error <X must be a real full double matrix; got sparse double 10x1> sbp_apply (sparse (ones (10, 1)), 2)
%!error <X must be a real full double matrix; got double 10x2x2> sbp_apply (ones (10, 2, 2), 2)
%!error <X must be a real full double matrix; got cell 1x1> sbp_apply ({1}, 2)
%!error <X must be a real full double matrix; got int32 10x1> sbp_apply (int32 (ones (10, 1)), 2)
%!error <X must be a real full double matrix; got logical 10x1> sbp_apply (true (10, 1), 2)
%!error <ORDER must be an integer in \[1, 64\]; got double 1x1 \(4294967300\)> sbp_apply (ones (20, 1), 2^32 + 4)
%!error <TSPAN must be a real full double vector \[t0 tf\] with t0 . tf; got sparse double 1x2> sbp_apply (ones (20, 1), 4, sparse ([0 1]))
%!error <X must be finite; entry 3 is NaN> sbp_apply ([1; 2; NaN; 4], 2)
%!error <X has 5 rows; the order-4 operator needs at least 8 \(one row per grid point\)> sbp_apply (ones (5, 1), 4)
%!error <X has 1 rows; the order-2 operator needs at least 2> sbp_apply (ones (1, 20), 2)
%!error <X has 0 rows; the order-6 operator needs at least 12> sbp_apply ([], 6)
%!error <ORDER must be one of 2, 4, 6, 8> sbp_apply (ones (20, 1), 5)
%!error <TSPAN must be a real full double vector \[t0 tf\] with t0 . tf; got \[2 1\]> sbp_apply (ones (20, 1), 4, [2 1])

%!demo
%! % The 4th-order SBP derivative of exp(t) sin(4 t) on [0 2], and the error at every grid
%! % point: about h^4 at the interior rows, about h^2 at the boundary closures (4 rows each side).
%! N = 60;  t = linspace (0, 2, N)';
%! x = exp (t) .* sin (4*t);
%! dx = exp (t) .* (sin (4*t) + 4 * cos (4*t));
%! y = sbp_apply (x, 4, [0 2]);
%! figure ();
%! subplot (2, 1, 1);
%! plot (t, dx, '-', t, y, 'o');
%! ylabel ('dx/dt');  legend ('exact', 'SBP derivative, order 4');
%! title ('sbp_apply: the derivative of exp(t) sin(4t), N = 60', 'Interpreter', 'none');
%! subplot (2, 1, 2);
%! semilogy (t, abs (y - dx), 'o-');
%! xlabel ('t (s)');  ylabel ('|error|');  legend ('|D x - dx/dt|');
