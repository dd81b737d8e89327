% Acceptance test of demos/demo_skg_incline: the particle on the incline with the paper's regularized
% normal force and friction (Rothkopf & Horowitz Fig. 4, sigma = 1/70, delta = 1/30, V0 = 5,
% N = 64, order 4), as the critical point of the SKG action.  References: gauss_integrate dop853 on
% the same soft model and the closed form s - s0 - mu (d - d0) = a t^2/2 - G t (derived in
% demo_incline).  Tolerances: observed order >= 3 - 0.3 (SBP-SAT p+1) between N = 256 and 512;
% N = 64 regression bounds about twice the errors; 1e-10 where SBP-SAT is exact (quadratic
% polynomial motion, mu = 0); the reference against the closed form at 1e-9.

%!shared r
%! r = demo_skg_incline ('quiet');

%!test
%! % Newton converges from the default guess for every case
%! assert (all ([r.runs.exitflag] == 1));
%! assert ([r.runs.N], [64, 256, 512, 64, 256, 512]);

%!test
%! tol_s = [1e-10, 1e-5];
%! tol_v = [1e-10, 1e-2];
%! tol_lin = [1e-10, 1e-7];
%! for im = 1:2
%!   s = r.runs(3 * im - 2);
%!   assert (s.N, 64);
%!   assert (s.err_q <= 6e-4);
%!   assert (s.err_s <= tol_s(im));
%!   assert (s.err_v <= tol_v(im));
%!   assert (abs (s.s_lin - s.s_lin_ref) <= tol_lin(im) + 1e-9);
%!   assert (abs (s.v_lin - s.v_lin_ref) <= tol_lin(im) + 1e-9);
%!   assert (abs (s.ref_s_lin - s.s_lin_ref) <= 1e-9);
%!   assert (abs (s.ref_v_lin - s.v_lin_ref) <= 1e-9);
%!   assert (s.Un_drift <= 1e-3);
%! end
%! % frictionless: the closed form s(1) - s0 = -g sin(alpha)/2
%! assert (r.runs(1).s_lin_ref, -9.8 * sin (pi / 6) / 2, 1e-14);

%!test
%! assert (all (r.rates.q >= 2.7));
%! assert (all (r.rates.Un >= 2.7));
%! assert (r.pass);

%!test
%! d = tempname ();
%! mkdir (d);
%! unwind_protect
%!   demo_skg_incline ('quiet', 'png', d);
%!   f = dir (fullfile (d, '*.png'));
%!   assert (numel (f), 1);
%!   assert (all ([f.bytes] > 1000));
%! unwind_protect_cleanup
%!   confirm_recursive_rmdir (false, 'local');
%!   rmdir (d, 's');
%! end_unwind_protect
