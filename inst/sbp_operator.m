% -*- texinfo -*-
% @deftypefn  {} {D =} sbp_operator (N, order)
% @deftypefnx {} {D =} sbp_operator (N, order, [t0 tf])
% @deftypefnx {} {[D, H] =} sbp_operator (N, order, [t0 tf])
% @deftypefnx {} {[D, H, Q] =} sbp_operator (N, order, [t0 tf])
% Diagonal-norm summation-by-parts (SBP) first-derivative operator on a uniform grid.
%
% The grid has @var{N} points @code{t(k) = t0 + (k-1)*h}, @code{h = (tf - t0)/(N - 1)}, on the
% interval @code{[@var{t0} @var{tf}]} (default, also for @code{[]}: @code{[0 1]}).  @var{order} is the interior order
% 2, 4, 6 or 8; the boundary closure has order @code{@var{order}/2} (the operators SBP121, SBP242,
% SBP363 and SBP484 of Mattsson and Nordstr@"om, 2004; order 8 uses the free parameters of
% @file{doc/sbp.md}, chosen for SBP in time: @code{h*max(abs(eig(D)))} is 2.00 and the smallest
% |eigenvalue| of @code{h*(D + H \ e1*e1')} is 0.205 at N = 64, so SBP-SAT time integration
% reaches its design orders on coarse grids).
%
% Outputs, all sparse @var{N}-by-@var{N}:
% @table @var
% @item D
% the derivative, @code{D = H \ Q};
% @item H
% the diagonal norm (quadrature weights, including @code{h}): @code{sum (H * f)} integrates
% @code{f} exactly for polynomials of degree up to @code{@var{order} - 1};
% @item Q
% with @code{Q + Q' = diag ([-1, 0, @dots{}, 0, 1])} (summation by parts).
% @end table
%
% @var{D} differentiates polynomials of degree up to @code{@var{order}/2} exactly on every row and up
% to @var{order} on the interior rows.  The smallest admissible @var{N} is 2, 8, 12 and 16 for orders
% 2, 4, 6 and 8.
%
% Example (differentiate and integrate @code{sin} on @code{[0 pi]} with the 6th-order operator;
% the derivative error is largest at the boundary closures, of order 3):
% @verbatim
% N = 101;  t = linspace (0, pi, N)';
% [D, H] = sbp_operator (N, 6, [0 pi]);
% fprintf ('max |D sin(t) - cos(t)| = %.1e\n', max (abs (D * sin (t) - cos (t))));
% fprintf ('sum (H sin(t)) - 2 = %.1e (the quadrature of sin over [0 pi])\n', ...
%          full (sum (H * sin (t))) - 2);
% @end verbatim
%
% @seealso{sbp_apply, skg_solve, skg_action}
% @end deftypefn

function [D, H, Q] = sbp_operator (N, order, tspan)
  if (nargin < 2)
    error ('varmech:sbp_operator:nargin', ...
           'sbp_operator: expected at least 2 inputs, N and ORDER (see help sbp_operator)');
  end
  if (nargin < 3 || (isnumeric (tspan) && isempty (tspan)))
    tspan = [0 1];
  end
  tspan = vm_double (tspan);   % other real classes; the gateway checks every argument
  try
    if (nargout <= 1)
      D = vm_sbp_mex ('operator', N, order, tspan);
    elseif (nargout == 2)
      [D, H] = vm_sbp_mex ('operator', N, order, tspan);
    else
      [D, H, Q] = vm_sbp_mex ('operator', N, order, tspan);
    end
  catch err
    vm_rethrow (err, 'sbp_operator');
  end
end

%!shared orders, nmin, nbs
%! orders = [2 4 6 8];
%! nmin = [2 8 12 16];
%! nbs = [1 4 6 8];   % closure rows on each side

%!test
%! % summation by parts, D = H\Q, row sums, for every order and several N
%! for o = 1:4
%!   for N = [nmin(o), nmin(o)+1, 33, 100]
%!     [D, H, Q] = sbp_operator (N, orders(o), [-0.5 2]);
%!     assert (issparse (D) && issparse (H) && issparse (Q));
%!     assert (size (D), [N N]);
%!     B = sparse ([1 N], [1 N], [-1 1], N, N);
%!     assert (full (max (max (abs (Q + Q' - B)))) <= 8 * eps);
%!     assert (isdiag (H));
%!     assert (full (max (max (abs (H * D - Q)))) <= 8 * eps);
%!     assert (max (abs (sum (D, 2))) <= 64 * eps * max (sum (abs (D), 2)));
%!   end
%! end

%!test
%! % polynomial exactness: degree <= p on all rows, <= 2p on interior rows; quadrature <= 2p-1
%! for o = 1:4
%!   p = orders(o) / 2;
%!   for N = [nmin(o), 2*nmin(o)+3, 64]
%!     t0 = -0.7;  tf = 1.3;
%!     [D, H] = sbp_operator (N, orders(o), [t0 tf]);
%!     t = linspace (t0, tf, N)';
%!     rows_in = (nbs(o)+1):(N-nbs(o));
%!     for k = 0:orders(o)
%!       e = D * t.^k - k * t.^max (k-1, 0);
%!       s = abs (D) * abs (t).^k + k * abs (t).^max (k-1, 0);
%!       if (k <= p)
%!         assert (all (abs (e) <= 64 * eps * s));
%!       else
%!         assert (all (abs (e(rows_in)) <= 64 * eps * s(rows_in)));
%!       end
%!     end
%!     for k = 0:(2*p - 1)
%!       q = full (sum (H * t.^k));
%!       assert (q, (tf^(k+1) - t0^(k+1)) / (k+1), 64 * eps * full (sum (H * abs (t).^k)));
%!     end
%!   end
%! end

%!test
%! % spectral radius of h*D below 3 (well-conditioned operators)
%! for o = 1:4
%!   for N = [nmin(o), 64, 200]
%!     D = sbp_operator (N, orders(o), [0 1]);
%!     h = 1 / (N - 1);
%!     assert (max (abs (eig (full (h * D)))) < 3);
%!   end
%! end

%!test
%! % the spectral facts of doc/sbp.md at N = 64, to the digits printed there: h*rho(D) and the
%! % smallest |eig| of h*(D + H^-1 e1 e1') (order 8: the closure chosen for SBP in time)
%! rho_doc = [1.00 1.37 1.80 2.00];
%! lmin_doc = [0.098 0.144 0.165 0.205];
%! for o = 1:4
%!   [D, H] = sbp_operator (64, orders(o), [0 63]);
%!   Ds = full (D);
%!   Ds(1, 1) = Ds(1, 1) + 1 / H(1, 1);
%!   assert (abs (max (abs (eig (full (D)))) - rho_doc(o)) <= 0.005);
%!   assert (abs (min (abs (eig (Ds))) - lmin_doc(o)) <= 0.0005);
%! end

%!test
%! % the default interval is [0 1]; integer-class N is accepted
%! [D1, H1] = sbp_operator (20, 4);
%! [D2, H2] = sbp_operator (int32 (20), 4, [0 1]);
%! assert (isequal (D1, D2) && isequal (H1, H2));
%! assert (isequal (sbp_operator (20, 4, []), D1));
%! assert (full (sum (diag (H1))), 1, 4 * eps);

%!error <expected at least 2 inputs> sbp_operator (10)
%!error <called with too many inputs> sbp_operator (10, 4, [0 1], 1)
%!error <called with too many outputs> [a, b, c, d] = sbp_operator (10, 4)
%!error <N = 7 is too small: the order-4 operator needs N> sbp_operator (7, 4)
%!error <N = 15 is too small: the order-8 operator needs N> sbp_operator (15, 8)
%!error <N = 1 is too small> sbp_operator (1, 2)
%!error <ORDER must be one of 2, 4, 6, 8; got double 1x1 \(3\)> sbp_operator (10, 3)
%!error <ORDER must be one of 2, 4, 6, 8; got double 1x1 \(10\)> sbp_operator (40, 10)
%!error <ORDER must be an integer in \[1, 64\]; got double 1x1 \(4.5\)> sbp_operator (40, 4.5)
%!error <N must be an integer in \[1, 100000000\]; got double 1x1 \(40.5\)> sbp_operator (40.5, 4)
%!error <N must be an integer in \[1, 100000000\]; got double 1x1 \(NaN\)> sbp_operator (NaN, 4)
%!error <N must be an integer in \[1, 100000000\]; got double 1x1 \(Inf\)> sbp_operator (Inf, 4)
%!error <N must be an integer in \[1, 100000000\]; got double 1x2> sbp_operator ([10 20], 4)
%!error <N must be an integer in \[1, 100000000\]; got char 1x1 \('a'\)> sbp_operator ('a', 4)
%!error <N must be an integer in \[1, 100000000\]; got logical 1x1 \(1\)> sbp_operator (true, 4)
%!error <N must be an integer in \[1, 100000000\]; got complex double 1x1> sbp_operator (10+1i, 4)
%!error <ORDER must be an integer in \[1, 64\]; got cell 1x1> sbp_operator (10, {4})
%!error <TSPAN must be a real full double vector \[t0 tf\] with t0 . tf; got \[1 0\]> sbp_operator (10, 4, [1 0])
%!error <TSPAN must be a real full double vector \[t0 tf\] with t0 . tf; got \[1 1\]> sbp_operator (10, 4, [1 1])
%!error <TSPAN must be finite; entry 2 is Inf> sbp_operator (10, 4, [0 Inf])
%!error <TSPAN must be finite; entry 1 is NaN> sbp_operator (10, 4, [NaN 1])
%!error <TSPAN must be a real full double vector \[t0 tf\] with t0 . tf; got double 1x3> sbp_operator (10, 4, [0 1 2])
%!error <TSPAN must be a real full double vector \[t0 tf\] with t0 . tf; got char 1x2 \('ab'\)> sbp_operator (10, 4, 'ab')
%!error <TSPAN must be a real full double vector \[t0 tf\] with t0 . tf; got complex double 1x2> sbp_operator (10, 4, [0 1i])
%!error <TSPAN must be a real full double vector \[t0 tf\] with t0 . tf; got double 2x2> sbp_operator (10, 4, [0; 1] * [1 1])
%!error <TSPAN must be a real full double vector \[t0 tf\] with t0 . tf; got sparse double 1x2> sbp_operator (10, 4, sparse ([0 1]))
%!error <N must be an integer in \[1, 100000000\]; got double 1x1 \(2147483651\)> sbp_operator (2^31 + 3, 4)
%!error <ORDER must be an integer in \[1, 64\]; got double 1x1 \(4294967300\)> sbp_operator (100, 2^32 + 4)
%!error <N must be an integer in \[1, 100000000\]; got sparse double 1x1> sbp_operator (sparse (10), 4)
%!error <the time interval must be finite> sbp_operator (10, 4, [-1e308 1e308])
%!error <grid spacing \(tf - t0\)/\(N - 1\) is too small> sbp_operator (1000, 8, [0 1e-305])

%!demo
%! % Convergence of the SBP derivative of sin(3 t) on [0 2]: the max-norm error falls as N^-(p/2)
%! % for interior order p (the boundary closures of order p/2 dominate; the interior rows are
%! % accurate to order p).  The printed rates are measured between the two finest grids.
%! orders = [2 4 6 8];  Ns = round (logspace (log10 (20), log10 (640), 6));
%! err = zeros (numel (Ns), numel (orders));
%! for j = 1:numel (orders)
%!   for k = 1:numel (Ns)
%!     t = linspace (0, 2, Ns(k))';
%!     D = sbp_operator (Ns(k), orders(j), [0 2]);
%!     err(k, j) = max (abs (D * sin (3*t) - 3 * cos (3*t)));
%!   end
%! end
%! rates = -diff (log (err(end-1:end, :))) / diff (log (Ns(end-1:end)))
%! figure ();
%! loglog (Ns, err, 'o-');
%! xlabel ('N (grid points)');  ylabel ('max |D sin(3t) - 3 cos(3t)|');
%! legend ('order 2', 'order 4', 'order 6', 'order 8', 'Location', 'southwest');
%! title ('sbp_operator: derivative error against N on [0 2]', 'Interpreter', 'none');
