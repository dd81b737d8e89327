% Acceptance test of demos/demo_quadric_geodesics: geodesics on the quadric (x, A x) = 1 in n = 4
% and n = 6 (Zubelevich eq. 2.4), integrated by gauss_integrate with the
% ideal reaction of the holonomic constraint.  References: eq. 2.4 in closed form (accelerations), exact
% conservation of (x, Omega xdot), phi = 2 (A x, xdot), |xdot| and g, and Octave's ode45 at RelTol 1e-12
% on the hand-coded eq. 2.4 (trajectory).  The tolerances, explained in the demo: rounding
% (1e-12) for the accelerations, the sum of the per-step local error bounds for dopri5, the Newton
% tolerance of the stage equations for gl6's quadratic invariants, the projection tolerance 1e-12,
% 6 +- 0.3 for gl6's observed order, and a last/first-window ratio <= 2 for "no drift" of |xdot|.
% The misprint of Sec. 2.1 (T = ||x||^2/2 instead of ||xdot||^2/2) is asserted as well.

%!shared r
%! r = demo_quadric_geodesics ('quiet');

%!test
%! assert ([r.n], [4 6]);
%! assert (numel (r(1).Omega), 1);
%! assert (numel (r(2).Omega), 2);
%! for k = 1:2
%!   assert (r(k).x0' * r(k).A * r(k).x0, 1, 1e-14);
%!   assert (abs (r(k).x0' * r(k).A * r(k).xdot0) < 1e-14);
%!   assert (norm (r(k).xdot0), 1, 1e-14);
%! end

%!test
%! % every comparison within its justified tolerance
%! for k = 1:numel (r)
%!   c = r(k).checks(~[r(k).checks.info]);
%!   assert (numel (c) >= 20);
%!   for j = 1:numel (c)
%!     if ~(c(j).error <= c(j).tol)
%!       error ('n = %d: %s: error %g > tol %g', r(k).n, c(j).name, c(j).error, c(j).tol);
%!     end
%!   end
%!   assert (r(k).pass);
%! end

%!test
%! % the central claims, by name
%! for k = 1:numel (r)
%!   c = r(k).checks;
%!   names = {c.name};
%!   pick = @(prefix) c(strncmp (names, prefix, numel (prefix)));
%!   a = pick ('accel:');
%!   assert (numel (a), 2);
%!   assert (all ([a.error] <= 1e-12));
%!   % gl6: bilinear invariants to rounding / Newton tolerance, |xdot| without drift, order 6
%!   g = pick ('gl6 T=500: (x, Omega');
%!   assert (numel (g), numel (r(k).Omega));
%!   assert (all ([g.error] <= [g.tol]));
%!   g = pick ('gl6 T=500: |xdot| drift ratio');
%!   assert (g.value <= 2);
%!   g = pick ('gl6 order');
%!   assert (abs (g.value - 6) <= 0.3);
%!   % dopri5 over the same long run drifts: a linear drift gives a ratio >= 9
%!   g = pick ('dopri5 1e-8 T=500: drift ratio');
%!   assert (g.value >= 9);
%!   % projection keeps g below the projection tolerance
%!   g = pick ('dopri5+proj: g');
%!   assert (g.error <= 1e-12);
%!   % trajectory vs ode45 at four times
%!   g = pick ('dopri5 x(');
%!   assert (numel (g), 4);
%!   assert (all ([g.error] <= [g.tol]));
%!   % misprint (Sec. 2.1): ||x||^2/2 is not conserved, |xdot| is
%!   g = pick ('misprint');
%!   assert (g.value > 0.05);
%!   g = pick ('dopri5: |xdot|');
%!   assert (g.error < 1e-6);
%! end

%!test
%! d = tempname ();
%! mkdir (d);
%! unwind_protect
%!   demo_quadric_geodesics ('quiet', 'png', d);
%!   f = dir (fullfile (d, '*.png'));
%!   assert (numel (f), 3);
%!   assert (all ([f.bytes] > 1000));
%! unwind_protect_cleanup
%!   confirm_recursive_rmdir (false, 'local');
%!   rmdir (d, 's');
%! end_unwind_protect
