% Convergence of dual_solve at SBP order 8 on the harmonic oscillator, written as the first-order
% system x' = v, v' = -x (odesys), x(0) = 1, v(0) = 1/2, T = 4 pi (two periods), one slab (a
% fixed grid: N without a tolerance), zero base state, c = 10, the weak final dual (the default).
% Reference: the closed form x = cos t + sin t / 2, v = x'.
%
% With the weak final dual the stationarity equations of the discrete dual action are the SBP-SAT
% discretization of the primal problem at every node (doc/dual.md), so the recovered primal
% converges as SBP-SAT does (demo_sbp_convergence): max-norm order p + 1 = 5 (within 0.3; measured
% 5.00 / 5.20 / 4.98 on N = 41..321) and final-time order 2p = 8 (at least 2p - 0.3; measured 8.66
% on 41/81, 8.87 on 81/161, then the rounding of the solve, about eps N^2 max|y| with cond ~ N^2:
% 1.0e-11 to 1.2e-11 at N = 321, 2.3e-11 by that estimate).  The final-time rate is graded on the
% finest pair whose finer error, as order 2p predicts it from the coarser one, is above that
% floor (81/161 here: 161/321 would predict 6e-13; its measured error is the floor's, rate 3.8).

%!shared r
%! ode = odesys ('states', {'x', 'v'}, 'rhs', {'v', '-x'});
%! T = 4 * pi;
%! y0 = [1, 0.5];
%! r.N = [41 81 161 321];
%! r.h = T ./ (r.N - 1);
%! r.emax = zeros (size (r.N));
%! r.efin = zeros (size (r.N));
%! r.exitflag = zeros (size (r.N));
%! r.ysize = 0;
%! for k = 1:numel (r.N)
%!   s = dual_solve (ode, [0 T], y0, 'N', r.N(k), 'Order', 8);
%!   t = s.t(:);
%!   ye = [y0(1) * cos(t) + y0(2) * sin(t), -y0(1) * sin(t) + y0(2) * cos(t)];
%!   r.emax(k) = max (max (abs (s.y - ye)));
%!   r.efin(k) = max (abs (s.y(end, :) - ye(end, :)));
%!   r.exitflag(k) = s.exitflag;
%!   r.ysize = max ([r.ysize; abs(ye(:))]);
%! end
%! r.rate_max = log (r.emax(1:end-1) ./ r.emax(2:end)) ./ log (r.h(1:end-1) ./ r.h(2:end));
%! r.rate_fin = log (r.efin(1:end-1) ./ r.efin(2:end)) ./ log (r.h(1:end-1) ./ r.h(2:end));

%!test
%! assert (all (r.exitflag == 1));
%! % the max-norm errors are far above the rounding of the solve: the finest pair is graded
%! assert (all (r.emax > 1e-11 * r.ysize));

%!test
%! % max norm over the grid (x and v): order p + 1 = 5 within 0.3 on the finest pair
%! assert (abs (r.rate_max(end) - 5) <= 0.3);

%!test
%! % final time: superconvergent, at least 2p - 0.3 on the finest pair above the rounding floor
%! floor_fin = eps * r.N(2:end) .^ 2 * r.ysize;
%! ok = find (r.efin(1:end-1) .* (r.h(2:end) ./ r.h(1:end-1)) .^ 8 > floor_fin, 1, 'last');
%! assert (~isempty (ok));
%! assert (r.rate_fin(ok) >= 8 - 0.3);
