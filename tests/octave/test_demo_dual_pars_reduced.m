% Acceptance test of demos/demo_dual_pars_reduced: the reduced Pars dual (Acharya & Sengupta
% eqs. 48-49 with the sign of eq. 48 corrected), H = |v|^2/2 (c = 1, zero base state), t in [0, 5]:
% the recovered (v1, v2) against the closed form v1 = v1^0 sqrt((1 + z0^2)/(1 + z^2)), v2 = z v1;
% max-norm orders p+1 = 2, 3, 4 for Orders 2, 4, 6; the printed sign of eq. 48 breaks the
% constraint (ode45 and the dual of the printed system); the general engine on the same odesys
% equals the closed-form kernel to rounding.  Tolerances are justified at the demo's
% tol struct.

%!shared r, t
%! r = demo_dual_pars_reduced ('quiet');
%! t = r.tol;

%!test
%! % the closed form against ode45 on eq. 44 and on the corrected eq. 48
%! assert (r.eq44_dev <= 1e-9);
%! assert (r.corrected_dev <= 1e-9);

%!test
%! % the misprint of eq. 48: the printed sign leaves the constraint and departs from eq. 44
%! assert (r.printed.constraint >= 0.1);
%! assert (r.printed.v1_dev >= 0.1);
%! assert (r.printed_dual.exitflag, 1);
%! assert (r.printed_dual.constraint >= 0.1);
%! assert (r.printed_dual.dev <= t.traj);

%!test
%! % the corrected DtP map and eq. 49 at the computed duals; the printed DtP map misses
%! assert (r.dtp.y_dev <= 1e-10 * r.dtp.y_scale);
%! assert (r.dtp.S_dev <= 1e-10 * r.dtp.S_scale);
%! assert (r.dtp.printed_dev >= 0.1);

%!test
%! % the main run: linear (one Newton step), h^3 accurate, keeps the constraint to h^3
%! h = r.T / (r.N - 1);
%! assert (r.exitflag, 1);
%! assert (r.iterations, 1);
%! assert (r.err_max <= h ^ 3);
%! assert (r.constraint <= h ^ 3);
%! assert (r.residual <= 1e-10);

%!test
%! % the general engine on the reduced odesys equals the closed-form kernel (all orders and N)
%! assert ([r.engine.dy, r.engine.dD, r.engine.dS] <= 1e-10);

%!test
%! % max-norm orders p+1 for Orders 2, 4, 6; one Newton step everywhere
%! assert ([r.conv.order], [2 4 6]);
%! for io = 1:3
%!   c = r.conv(io);
%!   assert (all (c.exitflag(:) == 1));
%!   assert (all (c.iterations(:) == 1));
%!   assert (abs (c.observed_max - c.predicted) <= 0.3);
%! end

%!test
%! assert (r.pass);

%!test
%! % the printed table ends with the verdict; the figure is written
%! d = tempname ();
%! unwind_protect
%!   s = evalc ('demo_dual_pars_reduced (''png'', d);');
%!   assert (~isempty (regexp (s, 'all \d+ checks pass', 'once')));
%!   f = dir (fullfile (d, '*.png'));
%!   assert (numel (f), 1);
%!   assert (f(1).name, 'demo_dual_pars_reduced.png');
%!   assert (f(1).bytes > 1000);
%! unwind_protect_cleanup
%!   if exist (d, 'dir')
%!     confirm_recursive_rmdir (false, 'local');
%!     rmdir (d, 's');
%!   end
%! end_unwind_protect

%!error <unknown option "foo"> demo_dual_pars_reduced ('foo')
%!error <N must be an integer> demo_dual_pars_reduced ('quiet', 'N', 5)
%!error <T must be a positive scalar> demo_dual_pars_reduced ('quiet', 'T', -1)
