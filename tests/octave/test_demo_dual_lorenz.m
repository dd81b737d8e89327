% Acceptance test of demos/demo_dual_lorenz: the dual Lorenz action of Acharya & Sengupta (Sec. 3,
% eqs. 29-31) through dual_lorenz, against ode45 (RelTol 1e-12) on the hand-written Lorenz field,
% A = 10, R = 28, B = 8/3, U0 = (1, 1, 1), T = 2, c = 50.
% (1) zero base state, 100 slabs of N = 65: max error per coordinate <= 1e-3 (O(h^3)); the DtP ratio
%     sqrt(mu^2 + gamma^2)/c follows L max|U| and must stay below 1.
% (2) base state = the R = 28.5 solution, 10 slabs on the same grid: errors <= 1e-5.
% (3) the base-state iteration makes the duals vanish (<= 1e-8 c): in the driver with 10 slabs,
%     with per-slab base states written in the demo, and for one slab.
% (4) the dual Hamiltonian D.F - c/2|U - Ubar|^2 for a constant base state: equals -c/2|U(T) - Ubar|^2
%     to O(h^(p+1)), variation of order p+1 (orders 2, 4, 6), duals against the adjoint equation.
% (5) closed form = general engine (dual_solve) to rounding; eqs. 30, 31 and the Legendre transform
%     in m-code reproduce sol.y, sol.S, sol.hamiltonian; the misprinted expansion is off by exactly
%     -2 B gamma (z^H - zbar).
% (6) max-norm orders p+1 (2, 3, 4) within 0.3 for orders 2, 4, 6, 100 slabs, N = 17..129.

%!shared r
%! r = demo_dual_lorenz ('quiet');

%!test
%! % the verdict
%! assert (r.pass);

%!test
%! % reference against a tighter run
%! assert (r.ref_check <= 1e-9);

%!test
%! % (1) zero base state: errors, convergence, the DtP ratio below the singular value 1
%! z = r.zero_base;
%! assert (z.S, 100);
%! assert (z.N, 65);
%! assert (all (z.err <= 1e-3));
%! assert (z.exitflag, 1);
%! assert (z.dtp_ratio < 1);
%! assert (abs (z.dtp_ratio - z.dtp_estimate) < 0.05 * z.dtp_estimate);
%! % the scan: 100 and 200 slabs (no crossing of the singular set) are right at N = 33
%! k = find ([z.scan.S] >= 100);
%! assert (all ([z.scan(k).err] < 1e-2));
%! assert (all ([z.scan(k).dtp_ratio] < 1));
%! assert (all ([z.scan(k).exitflag] == 1));

%!test
%! % (2) a base state 3-5 % away: 10 slabs on the same grid, much more accurate than (1)
%! p = r.perturbed;
%! assert (p.S, 10);
%! assert (all (p.err <= 1e-5));
%! assert (p.exitflag, 1);
%! assert (p.dtp_ratio < 1);

%!test
%! % (3) base-state iteration: one slab and per-slab base states reach D = 0
%! b = r.base_iter;
%! assert (b.one_slab_maxD <= 1e-8 * r.params.c);
%! assert (b.maxD_slab(2) <= 1e-8 * r.params.c);
%! assert (b.first_pass_diff <= 1e-9);
%! assert (all (b.exitflag == 1));

%!test
%! % (3) the driver's iteration with 10 slabs: "at the fixed point the duals vanish" (a node shared
%! % by two slabs keeps the base state of each slab)
%! b = r.base_iter;
%! assert (b.maxD(end) <= 1e-8 * r.params.c);
%! assert (b.base_change(end) <= 1e-8 * max (abs (r.zero_base.yref(:))));

%!test
%! % (4) the dual constant of motion
%! h = r.hamiltonian;
%! assert (h.exitflag, 1);
%! assert (h.max_err(2, 2) <= 1e-5);
%! assert (abs (h.observed - [2 3 4]) <= 0.3);
%! assert (abs (h.D_observed - 3) <= 0.3);
%! assert (h.formula_err <= 1e-12);
%! assert (h.legendre_err <= 1e-12);

%!test
%! % (5) closed form vs general engine, the paper's formulas, the misprint
%! e = r.engines;
%! assert (e.exitflag, 1);
%! assert (e.y_diff <= 1e-10);
%! assert (e.D_diff <= 1e-10);
%! assert (e.dtp30_err <= 1e-12);
%! assert (e.action31_err <= 1e-12);
%! assert (e.inverse_err <= 1e-12);
%! assert (e.expansion_err <= 1e-12);
%! assert (e.printed_vs_pred <= 1e-12);
%! assert (e.printed_dev > 1e-3);

%!test
%! % (6) max-norm orders p+1 within 0.3 from the finest pair; final-time rate p+1 too (no 2p)
%! c = r.convergence;
%! assert ([c.order], [2 4 6]);
%! assert ([c.predicted_max], [2 3 4]);
%! for k = 1:3
%!   assert (abs (c(k).observed_max - c(k).predicted_max) <= 0.3);
%!   assert (c(k).pair_max, [65 129]);
%!   assert (all (c(k).exitflag == 1));
%!   assert (abs (c(k).observed_final - c(k).predicted_max) <= 0.3);
%! end

%!test
%! d = tempname ();
%! mkdir (d);
%! unwind_protect
%!   demo_dual_lorenz ('quiet', 'png', d);
%!   f = dir (fullfile (d, '*.png'));
%!   assert (numel (f), 3);
%!   assert (all ([f.bytes] > 1000));
%! unwind_protect_cleanup
%!   confirm_recursive_rmdir (false, 'local');
%!   rmdir (d, 's');
%! end_unwind_protect
