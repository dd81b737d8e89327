% Acceptance test of demos/demo_sbp_convergence: SBP-SAT time integration of the harmonic oscillator.
% SBP-SAT theory predicts max-norm order p+1 and final-time order 2p for interior order 2p.
% Orders 2, 4, 6 reach both within 0.3 on N = 20..640.  Order 8 (the closure of doc/sbp.md) reaches
% max-norm order 5 within 0.3 on the same grids; its final-time rate approaches 8 from above
% (e = a h^8 + b h^9, b/a large) and the error reaches rounding at N = 640, so the test there is
% observed >= 8 - 0.3 on the finest pair above the rounding floor.

%!shared r
%! r = demo_sbp_convergence ('quiet');

%!test
%! assert ([r.order], [2 4 6 8]);
%! assert ([r.predicted_max], [2 3 4 5]);
%! assert ([r.predicted_final], [2 4 6 8]);
%! assert (all ([r.pass]));

%!test
%! % orders 2, 4, 6: both observed orders within 0.3 of the prediction, from the finest pair 320/640
%! for k = 1:3
%!   assert (abs (r(k).observed_max - r(k).predicted_max) <= 0.3);
%!   assert (abs (r(k).observed_final - r(k).predicted_final) <= 0.3);
%!   assert (r(k).pair_max, [320 640]);
%!   assert (r(k).pass);
%! end

%!test
%! % order 8: max-norm rate within 0.3 of p+1 = 5 on the finest pair 320/640; final-time rate at
%! % least 2p - 0.3 on the finest pair whose errors are above the rounding floor
%! r8 = r(4);
%! assert (abs (r8.observed_max - r8.predicted_max) <= 0.3);
%! assert (r8.pair_max, [320 640]);
%! assert (r8.observed_final >= r8.predicted_final - 0.3);
%! assert (r8.err_final(r8.N == r8.pair_final(2)) > r8.floor);

%!test
%! % the finest-grid errors decrease with the order of the operator
%! e = arrayfun (@(s) s.err_max(end), r);
%! assert (all (diff (log (e)) < 0));

%!test
%! d = tempname ();
%! mkdir (d);
%! unwind_protect
%!   demo_sbp_convergence ('quiet', 'png', d);
%!   f = dir (fullfile (d, '*.png'));
%!   assert (numel (f), 1);
%!   assert (f(1).bytes > 1000);
%! unwind_protect_cleanup
%!   confirm_recursive_rmdir (false, 'local');
%!   rmdir (d, 's');
%! end_unwind_protect
