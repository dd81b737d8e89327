% Acceptance test of demos/demo_periodic_continuation: branches of periodic orbits followed by
% periodic_continue (pseudo-arclength on periodic_orbit, the dual action on a circle of Acharya
% & Sengupta Remark 5), each against an independent reference:
% (1) the fold system x' = x (mu + r^2 - r^4) - y (1 + r^2), y' = y (mu + r^2 - r^4) + x (1 + r^2)
%     from mu = 0.1 through its fold: every point on the closed form (mu = u^2 - u, T = 2 pi /
%     (1 + u), multiplier exp (2 u (1 - 2 u) T) with u = r^2), the fold at mu = -1/4 (T = 4 pi/3)
%     within SpecialTol |p1 - p0|, stable exactly on the outer branch;
% (2) Rossler a = b = 0.2, the period-1 orbit from c = 2.5 to 3.2: one period doubling, where
%     the package's multiplier and an ode45 monodromy (1e-12) are -1 to the location's
%     tolerance, stable before and unstable after.
% The tolerances are the demo's (its make_checks says where each comes from); here they are
% asserted again, and the located points against their known values.

%!shared r
%! r = demo_periodic_continuation ('quiet');

%!test
%! % the verdict
%! assert (r.pass);

%!test
%! % (1) the fold, against the closed form
%! f = r.fold;
%! assert (f.mu_err <= 1e-9);
%! assert (f.T_err <= 1e-9);
%! assert (f.floquet_err <= 1e-8);
%! assert (f.stable_ok);
%! assert (f.count, 1);
%! assert (abs (f.p + 1/4) <= 0.6 * 1e-6 + 1e-10);
%! % T off by at most the bracket times T's rate along the arclength (twice the fold segment's)
%! k = f.segment;
%! br = f.branch;
%! rate = abs (br.T(k + 1) - br.T(k)) / (br.s(k + 1) - br.s(k));
%! assert (abs (f.T - 4*pi/3) <= 2 * rate * f.sigma_tol + 1e-9 * f.T);
%! % the branch turns at the fold: mu decreases to it and increases after it
%! k = f.segment;
%! assert (all (diff (br.p(1:k)) < 0) && all (diff (br.p(k+1:end)) > 0));

%!test
%! % (2) the period doubling of Rossler's period-1 orbit: one multiplier -1 there, by the
%! % package and by ode45; the first doubling of the cascade lies between c = 2.8 and 2.9
%! p = r.pd;
%! assert (p.count, 1);
%! assert (abs (p.mu_package + 1) <= p.sigma_tol + 1e-10);
%! assert (abs (p.mu_ode45 + 1) <= p.sigma_tol + 2e-10);
%! assert (p.stable_ok);
%! assert (p.p > 2.8 && p.p < 2.9);
%! assert (p.branch.exitflag, 1);
