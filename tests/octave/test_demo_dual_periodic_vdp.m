% Acceptance test of demos/demo_dual_periodic_vdp: the Van der Pol limit cycle by periodic_orbit
% (the dual action on a circle, Acharya & Sengupta Remark 5) against shooting written in the demo
% (Newton on (x0 on v = 0, T), ode45 RelTol = AbsTol = 1e-13, checked against 1e-12).
% (1) mu = 1 from the help example's circle and from a rough guess (circle of radius 2, period
%     off by 1 %, states perturbed by 3e-3), defaults: T to 1e-10 relative, the closure of the
%     orbit integrated by ode45 over T <= 1e-9, the nontrivial Floquet multiplier against
%     exp (int_0^T mu (1 - x^2) dt) (Liouville) to 1e-7 relative, the trivial one 1 to 1e-8.
% (2) mu = 10 (relaxation oscillation): from a circle with the defaults periodic_orbit stalls (not
%     asserted); from the periodic_guesses candidate with the period off by 1 % and the states
%     perturbed by 3e-3 it converges at N = 8193 with the weight of P lowered 1e4 times: T to
%     1e-10, closure 1e-9, trivial multiplier 1, the nontrivial one (3.7e-136) below 1e-10.
% (3) convergence of T with N, mu = 1, orders 2, 4, 6, 8, N = 33 ... 513 from the reference
%     orbit: observed order within 0.3 of the order (error C h^p (1 + O(h^2)), finest pair
%     above the floor 1e-13); every run converges (N = 33 included) and none raises
%     an error.

%!shared r
%! r = demo_dual_periodic_vdp ('quiet');

%!test
%! % the verdict
%! assert (r.pass);

%!test
%! % the references: the 1e-12 check agrees to 1e-12 relative; the periods are the known ones
%! assert ([r.ref.check_T] <= 1e-12);
%! assert (abs (r.ref(1).T - 6.663286859323) < 1e-11);
%! assert (abs (r.ref(2).T - 19.078369566939) < 1e-10);
%! assert (abs (r.ref(1).liouville - 8.59695e-4) < 1e-8);

%!test
%! % (1) mu = 1, defaults, from the help example and from the rough guess
%! for run = {r.mu1.help_example, r.mu1.rough}
%!   s = run{1};
%!   assert (s.exitflag, 1);
%!   assert (s.T_err <= 1e-10);
%!   assert (s.closure_ode45 <= 1e-9);
%!   assert (s.floquet_err <= 1e-7);
%!   assert (s.trivial_err <= 1e-8);
%! end

%!test
%! % (2) mu = 10: the perturbed candidate at N = 8193 with the weight of P lowered
%! w = r.mu10.working;
%! assert (w.exitflag, 1);
%! assert (w.N, 8193);
%! assert (w.T_err <= 1e-10);
%! assert (w.closure_ode45 <= 1e-9);
%! assert (w.trivial_err <= 1e-8);
%! assert (abs (w.floquet(2)) <= 1e-10);

%!test
%! % (3) observed orders of T within 0.3 of the order; every run converges, N = 33 included
%! c = r.convergence;
%! assert (c.orders, [2 4 6 8]);
%! assert (abs (c.observed - c.orders) <= 0.3);
%! assert (all (c.exitflag(:) == 1));
%! assert (isempty (c.errors));

%!test
%! d = tempname ();
%! mkdir (d);
%! unwind_protect
%!   demo_dual_periodic_vdp ('quiet', 'png', d);
%!   f = dir (fullfile (d, '*.png'));
%!   assert (numel (f), 2);
%!   assert (all ([f.bytes] > 1000));
%! unwind_protect_cleanup
%!   confirm_recursive_rmdir (false, 'local');
%!   rmdir (d, 's');
%! end_unwind_protect
