% Acceptance test of demos/demo_dual_lorenz_long: the adaptive dual_solve on the Lorenz system
% (A = 10, R = 28, B = 8/3, Acharya & Sengupta Sec. 3) over [0, 20], RelTol 1e-6, 1e-7, 1e-8, 1e-9
% (AbsTol = RelTol/100), against a Taylor-series reference (order 25, h 0.01; checked against
% order 30, h 0.02); ode45 at RelTol 1e-12 and 1e-13 is shown to carry its own, amplified error.
% (A) U0 on the attractor: the error at the window ends grows like exp (rate t) with the rate
%     fitted on [5, 20] within 0.1 of lambda_max = 0.906 and within 0.05 of the tangent-dynamics
%     rate (log sigma_max of the variational matrix) on the same window; the reference resolves
%     the errors (e_ref/e <= 1/3 on the fit window); e(T) ~ RelTol^(4/3) (window length
%     ~ RelTol^(1/3) from the in-window order 3, passed values of order 4): log-log slope within
%     0.3 of 4/3, e(T)/(RelTol^(4/3) exp(lambda T)) within a factor 10).
% (B) U0 = (1, 1, 1): a weakly amplifying stretch (finite-time exponent 0.44 over [0, 20]); info,
%     exitflags checked.
% dual_solve with its defaults converges on [0, 20].  One run, with the figure.

%!shared r, d
%! d = tempname ();
%! mkdir (d);
%! r = demo_dual_lorenz_long ('quiet', 'png', d);

%!test
%! % the verdict and the figure
%! unwind_protect
%!   assert (r.pass);
%!   f = dir (fullfile (d, '*.png'));
%!   assert (numel (f), 1);
%!   assert (f.bytes > 1000);
%! unwind_protect_cleanup
%!   confirm_recursive_rmdir (false, 'local');
%!   rmdir (d, 's');
%! end_unwind_protect

%!test
%! % the references: the Taylor pair agrees at T; ode45's error at T is its tolerance amplified
%! a = r.attractor;
%! assert (a.ref.taylor_check <= 1e-5);
%! assert (a.ref.ode45_12 > 1e-5);
%! assert (a.ref.ode45_12 / a.ref.ode45_13 > 5 && a.ref.ode45_12 / a.ref.ode45_13 < 20);
%! assert (abs (a.ref.ode45_rate - 0.906) < 0.1);
%! assert (r.start111.ref.taylor_check <= 1e-8);

%!test
%! % (A) growth rates, resolution, tolerance scaling
%! a = r.attractor;
%! assert ([a.runs.reltol], [1e-6 1e-7 1e-8 1e-9]);
%! assert (all ([a.runs.exitflag] == 1));
%! assert (abs (a.tangent.rate - 0.906) < 0.1);
%! assert (all (abs ([a.runs.rate] - 0.906) <= 0.1));
%! assert (all (abs ([a.runs.rate] - a.tangent.rate) <= 0.05));
%! assert (all ([a.runs.resolve] <= 1/3));
%! assert (abs (a.q - 4 / 3) <= 0.3);
%! assert (a.C_spread <= 10);
%! % the error at T is far above the tolerance: amplified by 1e4..1e6
%! assert (all ([a.runs.eT] ./ [a.runs.reltol] > 1e3));
%! % the dual at 1e-9 beats ode45 at 1e-12 at T
%! assert (a.runs(end).eT < a.ref.ode45_12 / 10);

%!test
%! % (B) from (1, 1, 1): converges, weak amplification, errors a small multiple of the tolerance
%! b = r.start111;
%! assert (all ([b.runs.exitflag] == 1));
%! assert (b.tangent.ftle < 0.6);
%! assert (all ([b.runs.eT] ./ [b.runs.reltol] < 1e3));

%!test
%! % dual_solve's defaults on [0, 20]
%! assert (r.defaults.exitflag, 1);
%! assert (r.defaults.eT < 1);
