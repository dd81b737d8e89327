% Acceptance test of demos/demo_rolling_disk: the rolling-spinning disk on an incline
% (Rothkopf & Horowitz eq. 10) integrated by gauss_integrate with the quadratic rolling constraint
% g1 = xdot^2 + ydot^2 - R^2 thetadot^2 (a) and its linear branch
% g1lin = xdot cos(phi) + ydot sin(phi) - R thetadot (b), both with g2 = xdot sin(phi) - ydot cos(phi).
% Reference: the closed-form rolling motion (v = c + k/Omega sin(phi)) and its multipliers
% (vm_disk_closed_form).  Every tolerance is 10 * RelTol * S(Q) with S(Q) the scale of the quantity
% (dopri5's global error is proportional to RelTol * S(Q)).

%!shared r
%! r = demo_rolling_disk ('quiet');

%!test
%! % the linear branch is the one of the initial data: v - R thetadot = 0, v + R thetadot = 10
%! assert (r.branch, [0, 10]);
%! assert (r.reltol, 1e-10);
%! assert (numel (r.checks), 21);

%!test
%! % same trajectory from both forms, and both equal to the closed form
%! tolq = 10 * r.reltol * max (abs (r.ref.q(:)));
%! assert (r.diff_q_forms <= tolq);
%! assert (all (r.err_q <= tolq));
%! assert (all (r.err_qdot <= 10 * r.reltol * max (abs (r.ref.qdot(:)))));

%!test
%! % multipliers against their closed forms: mu1 = -IS k cos(phi)/R^2, mu2 = -M Omega v - M g sin(alpha) sin(phi),
%! % lambda1 = mu1/(2 v), lambda2 = mu2
%! v = r.ref.qdot(:, 3) * r.params.R;
%! Smu1 = max (abs (r.ref.mu(:, 1)));
%! Smu2 = max (abs (r.ref.mu(:, 2)));
%! assert (r.err_mult(1) <= 10 * r.reltol * Smu1 / (2 * min (v)));
%! assert (r.err_mult(2) <= 10 * r.reltol * Smu2);
%! assert (r.err_mult(3) <= 10 * r.reltol * Smu1);
%! assert (r.err_mult(4) <= 10 * r.reltol * Smu2);
%! % at t = 0 (values derived by hand): mu1 = -1.6333, lambda1 = -0.16333, mu2 = lambda2 = -5
%! assert (r.linear.lambda(1, :), [-0.5 * 9.8 * 0.5 / 1.5, -5], 1e-12);
%! assert (r.quadratic.lambda(1, :), [-0.5 * 9.8 * 0.5 / 1.5 / 10, -5], 1e-12);

%!test
%! % the multipliers of g1 differ (by a factor 2 R thetadot in [3.47, 16.53]) but give the same reaction
%! assert (r.diff_lambda1 > 1);
%! % (the extremes 2 (5 -/+ k) sit where cos(phi) = 0 and both multipliers vanish; the demo leaves out
%! % points with |lambda1| < 1e-3 max |lambda1|, so the sampled range is slightly inside)
%! bounds = 2 * (5 + [-1, 1] * 9.8 * 0.5 / 1.5);
%! assert (r.ratio_mu1_lambda1(1) >= bounds(1) && r.ratio_mu1_lambda1(2) <= bounds(2));
%! assert (r.ratio_mu1_lambda1, bounds, 1e-2);
%! assert (r.err_relation <= 10 * r.reltol * max (abs (r.ref.mu(:, 1))));

%!test
%! % energy conservation and constraint residuals; every row of the table passes
%! P = r.params;
%! qd = r.ref.qdot;
%! kin = P.M / 2 * sum (qd(:, 1:2) .^ 2, 2) + P.IS / 2 * qd(:, 3) .^ 2 + P.ID / 2 * qd(:, 4) .^ 2;
%! SE = max (kin + abs (P.M * P.g * sin (P.alpha) * r.ref.q(:, 1)));
%! assert (all (r.energy_drift <= 10 * r.reltol * SE));
%! assert (all (r.max_residual(:) <= 10 * r.reltol * max (r.ref.qdot(:, 3) .^ 2)));
%! assert (all ([r.checks.pass]));
%! assert (r.pass);

%!test
%! % the tolerances are proportional to RelTol, and the checks hold at a coarser tolerance too
%! r6 = demo_rolling_disk ('quiet', 'RelTol', 1e-6);
%! assert (r6.pass);
%! assert (r6.diff_q_forms > 100 * r.diff_q_forms);

%!test
%! d = tempname ();
%! mkdir (d);
%! unwind_protect
%!   demo_rolling_disk ('quiet', 'png', d);
%!   f = dir (fullfile (d, '*.png'));
%!   assert (numel (f), 3);
%!   assert (all ([f.bytes] > 1000));
%! unwind_protect_cleanup
%!   confirm_recursive_rmdir (false, 'local');
%!   rmdir (d, 's');
%! end_unwind_protect
