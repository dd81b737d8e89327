% Acceptance test of demos/demo_pars: Pars' particle x3 v1 - v2 = 0 (Acharya & Sengupta Sec. 4.1, 5)
% under four reaction laws, integrated by gauss_integrate (dopri5, RelTol 1e-10):
%   (a) ideal (default) against the closed form of eq. 44 (and ode45 on eq. 44);
%   (b) eq. 45 with nu = 0 and nu = 0.5 (forces -(a x v) - nu v, ideal multiplier) against ode45
%       (RelTol 1e-12) on eq. 47 and its nu > 0 generalization, both re-derived;
%   (c) the minimal reaction of Sec. 5 (Reaction = [0 1 0]) against ode45 on eq. 51 and its
%       closed form.
% Tolerances (justified at the demo's tol struct): 1e-8 = 100 RelTol for trajectories, residuals,
% multipliers, powers and energies; 1e-12 for the formula checks at random states; 0.1 for
% "differs".  Also asserted: the misprint of eq. 48 (sign of the v1 equation) is detected, and
% the minimal reaction of Sec. 5 does negative power (-x3 v1^2 v3) once x3 changes sign.

%!shared r, tol
%! r = demo_pars ('quiet');
%! tol = 1e-8;

%!test
%! % every run reached the final time; every trajectory keeps the constraint
%! assert ([r.cases.exitflag], [1 1 1 1]);
%! assert (all ([r.cases.residual] <= tol));

%!test
%! % every trajectory matches its independent reference (and the cross-check for (a) and (c))
%! assert (all ([r.cases.dev_ref] <= tol));
%! assert (r.cases(1).dev_alt <= tol);
%! assert (r.cases(4).dev_alt <= tol);
%! assert (all (isnan ([r.cases(2:3).dev_alt])));

%!test
%! % multipliers: -lam* of the paper for (a), (b); mu = v1 v3 for (c)
%! assert (all ([r.cases.dev_multiplier] <= tol));

%!test
%! % the kinetic energy: conserved for (a) and (b, nu = 0), K0 exp(-2 nu t) for nu > 0,
%! % (v1^2 (1 + x3^2) + v3^2)/2 for (c)
%! assert (all ([r.cases.energy_dev] <= tol));

%!test
%! % the power Q.v of the reaction: 0 (a), 0 (b, nu = 0), nu |v|^2 > 0 (b, nu > 0): never negative
%! c = r.cases;
%! assert (all ([c.power_dev] <= tol));
%! assert (abs (c(1).power_min) <= tol);
%! assert (abs (c(2).power_min) <= tol);
%! assert (c(3).power_min > 0);
%! assert (c(3).power_min, r.nu * min (sum (c(3).v .^ 2, 2)), tol);
%! assert (r.pass.power_nonneg);

%!test
%! % the minimal reaction (c) does work: Q.v = -x3 v1^2 v3 with v1, v3 constant and x3 linear,
%! % minimum at t = T where x3 = x3^0 + v3^0 T
%! x0 = r.x0;
%! v0 = r.v0;
%! pmin = -(x0(3) + v0(3) * r.T) * v0(1)^2 * v0(3);
%! assert (r.cases(4).power_min, pmin, tol);
%! assert (pmin < -0.1);

%!test
%! % x3 differs (O(1)) between the ideal case and (45) for both nu, and between the two nu;
%! % (a) and (c) have the same x3 (x3'' = 0 in both) but different x1, x2
%! d = r.x3_diff;
%! assert (d(1, 2) >= 0.1);
%! assert (d(1, 3) >= 0.1);
%! assert (d(2, 3) >= 0.1);
%! assert (d(1, 4) <= tol);
%! assert (r.x_diff(1, 4) >= 0.1);
%! assert (d, d');

%!test
%! % hand-derived scalar equations (44), (47), (47') and lam* equal the vector derivation
%! f = r.formula_dev;
%! assert ([f.eq44, f.eq47, f.eq47nu, f.lam] <= 1e-12);

%!test
%! % eq. 48 as printed (vdot1 - v1 z v3/(1+z^2) = 0) leaves the constraint and departs from (44);
%! % with the sign corrected it reproduces (44)
%! assert (r.misprint48_printed_dev >= 0.1);
%! assert (r.misprint48_printed_residual >= 0.1);
%! assert (r.misprint48_corrected_dev <= tol);

%!test
%! assert (all (cell2mat (struct2cell (r.pass))));

%!test
%! % the printed table ends with the overall verdict
%! s = evalc ('demo_pars ();');
%! assert (~isempty (strfind (s, 'all checks: yes')));

%!test
%! d = tempname ();
%! unwind_protect
%!   demo_pars ('quiet', 'png', d);
%!   f = dir (fullfile (d, '*.png'));
%!   assert (numel (f), 1);
%!   assert (f(1).name, 'demo_pars.png');
%!   assert (f(1).bytes > 1000);
%! unwind_protect_cleanup
%!   if exist (d, 'dir')
%!     confirm_recursive_rmdir (false, 'local');
%!     rmdir (d, 's');
%!   end
%! end_unwind_protect

%!error <unknown option "foo"> demo_pars ('foo')
%!error <nu and T must be positive scalars> demo_pars ('quiet', 'nu', 0)
