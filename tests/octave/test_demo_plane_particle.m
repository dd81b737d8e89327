% Acceptance test of demos/demo_plane_particle: a free particle on the plane x3 = 0 (Acharya &
% Sengupta, Sec. 2).  (a) The ideal reaction (x3 = 0 or dot(x3) = 0, also as the reaction direction
% [0 0 1], also under gravity gz) gives the straight line x0 + v0 t, which Runge-Kutta reproduces up
% to rounding (10 eps max|x| per step); its reaction is lambda = m gz and does no work.  (b) The
% constraint force kappa e3 x v (+ the ideal x3 part, or 'explicit') also keeps x3 = 0 and
% expends no power, but gives the circle of radius m|v0|/kappa about x0 + (e3 x v0)/(kappa/m),
% within the dopri5 bound nsteps (RelTol max|y| + AbsTol)(1 + omega T); its power on the admissible
% velocity e3 x v is kappa |v|^2 (not 0), as d'Alembert's principle would require.

%!shared r
%! r = demo_plane_particle ('quiet');

%!test
%! assert (numel (r.runs), 7);
%! assert (r.omega, r.kappa / r.m);
%! assert (r.circle.radius, norm (r.v0) * r.m / r.kappa, 1e-15);
%! assert (r.circle.center, r.x0(1:2) + [-r.v0(2), r.v0(1)] / r.omega, 1e-15);

%!test
%! % (a): straight lines, no work, constraint kept, lambda = m gz
%! for k = find (strcmp ({r.runs.kind}, 'line'))
%!   s = r.runs(k);
%!   assert (s.err <= s.tol);
%!   assert (s.tol < 1e-12);
%!   assert (isnan (s.radius));
%!   assert (s.power <= 1e-12);
%!   assert (s.energy_err <= s.energy_tol);
%!   assert (s.residual <= 1e-12);
%!   assert (s.lambda_err <= 1e-12 * max (1, r.m * s.gz));
%! end

%!test
%! % (b): circles (pointwise, fitted radius and center), zero power, nonzero virtual power
%! v2 = norm (r.v0)^2;
%! for k = find (strcmp ({r.runs.kind}, 'circle'))
%!   s = r.runs(k);
%!   assert (s.err <= s.tol);
%!   assert (s.tol < 1e-5);
%!   assert (abs (s.radius - r.circle.radius) <= s.tol);
%!   assert (abs (s.center - r.circle.center) <= s.tol);
%!   assert (abs (s.sep_T - s.sep_T_ref) <= s.tol);
%!   assert (s.sep_T > 1);
%!   assert (s.power <= 1e-12 * r.kappa * v2);
%!   assert (s.energy_err <= s.energy_tol);
%!   assert (s.residual <= 1e-12);
%!   assert (abs (s.virtual_power - r.kappa * v2) <= 1e-12 * r.kappa * v2 + s.energy_tol);
%!   assert (abs (s.gauss_Z - (r.kappa^2 * v2 + (r.m * s.gz)^2) / r.m) <= 1e-10 * s.gauss_Z + 2 * r.kappa * s.energy_tol);
%!   if s.gz > 0
%!     assert (s.lambda_err <= 1e-12 * r.m * s.gz);
%!   end
%! end

%!test
%! % paper eq. 10 with n in place of a: f^c = -gz e3, i.e. varmech's reaction (0, 0, m gz)
%! assert (r.fc_eq10, [0, 0, -9.8]);
%! assert (all ([r.checks.pass]));
%! assert (r.pass);

%!test
%! d = tempname ();
%! mkdir (d);
%! unwind_protect
%!   demo_plane_particle ('quiet', 'png', d);
%!   f = dir (fullfile (d, '*.png'));
%!   assert (numel (f), 1);
%!   assert (f(1).bytes > 1000);
%! unwind_protect_cleanup
%!   confirm_recursive_rmdir (false, 'local');
%!   rmdir (d, 's');
%! end_unwind_protect
