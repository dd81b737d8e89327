% Acceptance test of demos/demo_skg_rolling_disk: the rolling-spinning disk (Rothkopf & Horowitz eq. 10,
% quadratic g1 and g2) solved by skg_solve, against the closed form (q) and gauss_integrate dop853
% (ideal multipliers).  Orders: q and energy p+1, multipliers p (boundary closure), within 0.3; N = 64
% regression bounds about twice the errors; constraints at Newton tolerance.

%!shared r
%! r = demo_skg_rolling_disk ('quiet');

%!test
%! % the constant start fails (dg1/dqdot = 0 there): the demo starts from the linear branch
%! assert (r.default_guess.exitflag, 0);
%! assert ([r.runs.order], [4 4 4 6 6]);
%! assert ([r.runs.N], [64 128 256 128 256]);

%!test
%! % order 4, N = 64 against the closed form; phi = t exactly
%! s = r.runs(1);
%! assert (all (s.err_q <= [0.01, 0.01, 0.02, 1e-11]));
%! assert (s.err_ref_lambda <= 1e-9);

%!test
%! % lambda+ = -lambda_ideal
%! for k = 1:numel (r.runs)
%!   assert (abs (r.runs(k).sign + 1) <= 1e-2);
%! end
%! assert (all (r.runs(1).err_lambda <= [0.01, 0.1]));

%!test
%! % constraints on the grid, q- and lambda-, same discrete motion as the linear branch, energy
%! for k = 1:numel (r.runs)
%!   assert (all (r.runs(k).max_g <= 1e-10 * r.runs(k).scale_g));
%! end
%! assert (r.runs(1).max_qminus <= 1e-10 && r.runs(1).max_lambdaminus <= 1e-10);
%! assert (r.runs(1).diff_forms <= 1e-10);
%! assert (r.runs(1).energy_drift <= 0.05);

%!test
%! % observed orders
%! for k = 1:numel (r.rates)
%!   rt = r.rates(k);
%!   assert (abs (rt.q - rt.predicted) <= 0.3);
%!   assert (abs (rt.energy - rt.predicted) <= 0.3);
%!   assert (abs (rt.lambda - rt.predicted_lambda) <= 0.3);
%! end
%! assert (r.pass);

%!test
%! d = tempname ();
%! mkdir (d);
%! unwind_protect
%!   demo_skg_rolling_disk ('quiet', 'png', d);
%!   f = dir (fullfile (d, '*.png'));
%!   assert (numel (f), 4);
%!   assert (all ([f.bytes] > 1000));
%! unwind_protect_cleanup
%!   confirm_recursive_rmdir (false, 'local');
%!   rmdir (d, 's');
%! end_unwind_protect

%!test
%! % error control (issue 11): order 8, RelTol 1e-10, defaults otherwise, within 1e-9 of the
%! % closed form in q, qdot and (relative to its size) lambda (1.2e-10, 1.8e-10, 1.8e-10 measured)
%! a = r.adaptive;
%! assert (a.exitflag, 1);
%! assert (a.err_q <= 1e-9 && a.err_qdot <= 1e-9);
%! assert (a.err_lambda <= 1e-9 * a.lambda_scale);
