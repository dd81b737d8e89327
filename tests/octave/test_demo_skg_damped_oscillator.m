% Acceptance test of demos/demo_skg_damped_oscillator: Galley's damped oscillator m q'' + k q =
% -lambda q' (m = k = 1, lambda = 0.2, q0 = 1, v0 = 0, T = 20) as the critical point of the
% discrete SKG action (skg_solve, boundary form F4), against the closed form (itself checked
% against ode45).  Order 4, N = 161: errors within regression bounds (about twice the errors);
% the discrete energy identity E(T) - E(0) = -lambda sum H qdot^2 - SAT remainder to rounding; the action by
% hand equals skg_action, S = 0, grad S = 0 and zero q+q+ / q-q- Hessian blocks at the solution,
% the undamped trajectory is not critical; observed orders p+1 (q, qdot, E) and 2p+2 (SAT
% remainder) within 0.3 for interior orders 2, 4, 6 on N = 641/1281.

%!shared r
%! r = demo_skg_damped_oscillator ('quiet');

%!test
%! assert (r.order, 4);
%! assert (r.N, 161);
%! assert ([r.conv.order], [2 4 6]);
%! assert (r.conv(1).N, [161 321 641 1281]);
%! assert (r.pass);

%!test
%! % the closed form against ode45; the main run against the closed form
%! assert (r.ref_check <= 1e-9);
%! assert (r.err_q <= 4e-4);
%! assert (r.err_qdot <= 1e-3);
%! assert (r.err_E <= 4e-4);

%!test
%! % energy balance: quadrature of the dissipated power, and the exact discrete identity
%! b = r.balance;
%! assert (abs (b.dE - b.work) <= 3e-7);
%! assert (b.sat > 0);
%! assert (b.identity <= 1e-12 * abs (b.work));
%! for k = 1:numel (r.conv)
%!   assert (all (r.conv(k).identity <= 1e-11));
%! end

%!test
%! % doubled variables: q- = 0, full = reduced, one Newton step (linear problem)
%! assert (r.max_qminus <= 1e-11);
%! assert (r.mode_diff <= 1e-11);
%! assert (r.iterations, [1 1]);

%!test
%! % the action: by hand = skg_action; stationary at the solution; bilinear; undamped not critical
%! a = r.action;
%! assert (a.hand_diff <= 1e-12);
%! assert (abs (a.S_sol) <= 1e-12);
%! assert (a.grad_sol <= 1e-10);
%! assert (max (a.Hpp, a.Hmm) <= 1e-12 * a.Hpm);
%! assert (max (abs (a.S_skg)) <= 1e-12);
%! assert (abs (a.slope_undamped) > 1e3 * abs (a.slope_exact));

%!test
%! % observed orders (finest pair)
%! for k = 1:numel (r.conv)
%!   c = r.conv(k);
%!   assert (c.predicted, c.order / 2 + 1);
%!   assert (c.pair_q, [641 1281]);
%!   assert (abs (c.observed_q - c.predicted) <= 0.3);
%!   assert (abs (c.observed_qdot - c.predicted) <= 0.3);
%!   assert (abs (c.observed_E - c.predicted) <= 0.3);
%!   assert (abs (c.observed_sat - c.predicted_sat) <= 0.3);
%! end

%!test
%! d = tempname ();
%! mkdir (d);
%! unwind_protect
%!   demo_skg_damped_oscillator ('quiet', 'png', d);
%!   f = dir (fullfile (d, '*.png'));
%!   assert (numel (f), 3);
%!   assert (all ([f.bytes] > 1000));
%! unwind_protect_cleanup
%!   confirm_recursive_rmdir (false, 'local');
%!   rmdir (d, 's');
%! end_unwind_protect
