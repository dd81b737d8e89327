% Acceptance test of demos/demo_dual_pars: the generalized Pars dual (Acharya & Sengupta eqs. 32-37)
% for Pars' particle x3 v1 - v2 = 0, N = 65, Order 4, weights 20, t in [0, 2]:
%   (a) base state = the Gauss motion (ode45 on eq. 44): the duals vanish with h, the recovered
%       primal is the Gauss motion (closed form) at the SBP-SAT order;
%   (b1) eq. 45 force on the Gauss motion, (b2) the exact eq. 45 motion, (b3) perturbed xbar, vbar:
%       the constraint and Q.v = s^2/2 >= 0 hold at every node to the solver tolerance, K does not
%       rise beyond its discretization error, and the selected motion differs from Gauss's;
%   (c) the closed-form kernel equals dual_solve on the odesys Pars system to rounding;
%   (d) orders of x, v (p+1), Q (p), interior |D| (p+1), max |D| (p-1) for Orders 2, 4, 6.
% Tolerances: see the tol struct of the demo.  Also asserted: for a base state that is not a
% solution the constraint dual mu has a spike at the last node growing like 1/h (its multiplier of
% a state constraint carries a Dirac mass at T); for Order 2 max |D| = O(1) (mu at the boundary
% closures is O(h^(p-1))); the misprint of eq. 36 (x line: L' v, not L v).

%!shared r, t
%! r = demo_dual_pars ('quiet');
%! t = r.tol;

%!test
%! % every Newton solve converged
%! assert (all ([r.cases.exitflag] == 1));
%! assert (all ([r.engine.exitflag] == 1));
%! assert (all ([r.conv.exitflag] == 1));

%!test
%! % (a): the duals vanish with h, the recovered primal is the Gauss motion (closed form of eq. 44)
%! a = r.cases(1);
%! h = r.T / (r.N - 1);
%! assert (a.maxD <= 20 * h);
%! assert (a.maxD_interior <= 20 * h ^ 3);
%! assert (a.dev_ref(1:2) <= h ^ 3);
%! assert (a.dev_ref(3) <= h ^ 2);
%! assert (all (a.y(:, 10) == 0));
%! assert ([a.constraint, a.power, a.residual] <= 1e-9);
%! assert (r.ref_dev <= 1e-9);

%!test
%! % (b): the constraint and the power statement at every node, Q.v >= 0
%! for ic = 2:4
%!   c = r.cases(ic);
%!   assert ([c.constraint, c.power, c.residual] <= 1e-9);
%!   assert (c.power_min >= -1e-9);
%! end
%! % dissipative for (b1), (b2) (sbar > 0), conservative for (b3) (sbar = 0 => s = 0)
%! assert (r.cases(2).power_min > 0.05);
%! assert (r.cases(3).power_min > 0.05);
%! assert (all (r.cases(4).y(:, 10) == 0));
%! assert (r.cases(2).K(end) < r.cases(2).K(1) - 0.1);
%! assert (abs (r.cases(4).K(end) - r.cases(4).K(1)) <= 1e-3);

%!test
%! % K does not rise beyond twice its Richardson error estimate (2 e_K, first order)
%! for ic = 2:4
%!   c = r.cases(ic);
%!   assert (c.K_increase <= 4 * c.e_K);
%! end

%!test
%! % non-uniqueness: every selected motion differs from Gauss's by far more than its error;
%! % (b2) is an exact solution of eq. 32 too (its base keeps the constraint and the power law)
%! for ic = 2:4
%!   c = r.cases(ic);
%!   assert (c.dev_gauss >= 20 * c.e_x);
%! end
%! assert (r.cases(3).dev_gauss >= 0.5);
%! assert (r.base_b2 <= 1e-9);
%! assert (max (r.cases(3).dev_ref(1:2)) <= 1e-4);

%!test
%! % (c) closed-form kernel = general engine (odesys, 'square', false) to rounding
%! for ic = 1:numel (r.engine)
%!   e = r.engine(ic);
%!   assert (e.dy <= 1e-12 * e.scale_y);
%!   assert (e.dD <= 1e-10 * e.scale_D);
%!   assert (e.dS <= 1e-10 * e.scale_S);
%! end

%!test
%! % (d) observed orders (finest pair) within 0.3 of the predicted
%! for ir = 1:numel (r.conv)
%!   c = r.conv(ir);
%!   k = 1:5;
%!   if ir == numel (r.conv)
%!     k = 1:2;
%!   end
%!   assert (abs (c.observed(k) - c.predicted(k)) <= 0.3);
%! end
%! assert ([r.conv.order], [2 4 6 4]);

%!test
%! % eqs. 34 and 36 (x line corrected) by hand at the computed duals; the L v reading misses
%! assert (r.dtp.y_dev <= 1e-10 * r.dtp.y_scale);
%! assert (r.dtp.S_dev <= 1e-10 * r.dtp.S_scale);
%! assert (r.dtp.misread_dev >= 0.01);

%!test
%! % for a base state that is not a solution the constraint dual mu has a
%! % spike at the last node that grows like 1/h; not for the exact base states (a), (b2);
%! % for Order 2 the duals of the exact base state do not vanish (max |D| ~ 0.8)
%! assert (r.cases(2).mu_end(2) / r.cases(2).mu_end(1) > 1.8);
%! assert (r.cases(4).mu_end(2) / r.cases(4).mu_end(1) > 1.8);
%! assert (r.cases(3).mu_end(2) < r.cases(3).mu_end(1));
%! assert (all (r.conv(1).err(4, :) > 0.5));
%! assert (r.cases(2).rate_x < 1.5);

%!test
%! assert (r.pass);
%! assert (all ([r.checks(~[r.checks.info]).pass]));

%!test
%! % the printed table ends with the verdict; the figure is written
%! d = tempname ();
%! unwind_protect
%!   s = evalc ('demo_dual_pars (''png'', d);');
%!   assert (~isempty (regexp (s, 'all \d+ checks pass', 'once')));
%!   f = dir (fullfile (d, '*.png'));
%!   assert (numel (f), 1);
%!   assert (f(1).name, 'demo_dual_pars.png');
%!   assert (f(1).bytes > 1000);
%! unwind_protect_cleanup
%!   if exist (d, 'dir')
%!     confirm_recursive_rmdir (false, 'local');
%!     rmdir (d, 's');
%!   end
%! end_unwind_protect

%!error <unknown option "foo"> demo_dual_pars ('foo')
%!error <N must be an odd integer> demo_dual_pars ('quiet', 'N', 64)
%!error <T and nu must be positive> demo_dual_pars ('quiet', 'nu', 0)
