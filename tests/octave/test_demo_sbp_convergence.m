% Acceptance test of demos/demo_sbp_convergence: SBP-SAT time integration of the harmonic oscillator
% reaches the orders predicted by SBP-SAT theory (max norm p+1, final time 2p for interior order 2p)
% within 0.3, for orders 2, 4, 6, 8; and the PNG is written when asked.

%!test
%! r = demo_sbp_convergence ('quiet');
%! assert (r.order(:)', [2 4 6 8]);
%! assert (r.predicted_max(:)', [2 3 4 5]);
%! assert (r.predicted_final(:)', [2 4 6 8]);
%! assert (all (abs (r.observed_max(:) - r.predicted_max(:)) <= 0.3));
%! assert (all (abs (r.observed_final(:) - r.predicted_final(:)) <= 0.3));
%! assert (all (r.pass));
%! % the errors of the finest grid are small and ordered by the order of the operator
%! assert (all (diff (log (r.err_max(end, :))) < 0));

%!test
%! d = tempname ();
%! mkdir (d);
%! unwind_protect
%!   demo_sbp_convergence ('quiet', 'png', d);
%!   f = dir (fullfile (d, '*.png'));
%!   assert (numel (f) >= 1);
%!   assert (f(1).bytes > 1000);
%! unwind_protect_cleanup
%!   confirm_recursive_rmdir (false, 'local');
%!   rmdir (d, 's');
%! end_unwind_protect
