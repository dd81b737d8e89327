% Acceptance test of demos/demo_skg_nonholonomic_damped: the knife edge (closed form) and the
% Chaplygin sled started backwards (gauss_integrate dop853, cross-checked with ode45 on the reduced
% equations), both with viscous drag, blade constraint ydot cos(theta) - xdot sin(theta) = 0,
% solved by skg_solve (full mode, default guess).  Order 4, N = 161: errors within regression
% bounds (about twice the errors), lambda+ = -lambda_ideal, g at the nodes within the bound of Newton's stopping
% test, q- = lambda- = 0, E decreasing, energy balance (exact identity for the knife edge); orders
% p+1 (q, E), p (lambda), 2p+2 (SAT remainder of the knife edge) within 0.3 on N = 641/1281; the
% forward sled from the constant start (its first Newton iterate predicted in closed form).

%!shared r
%! r = demo_skg_nonholonomic_damped ('quiet');

%!test
%! assert (numel (r.cases), 2);
%! assert (r.cases(1).params.a, 0);
%! assert (r.cases(2).params.a, 0.5);
%! assert (r.cases(2).qdot0, [-1 0 0.5]);
%! assert (r.pass);

%!test
%! % references
%! assert (r.cases(1).ref_check <= 1e-9);
%! assert (r.cases(2).ref_check <= 1e-9);

%!test
%! % order 4, N = 161 against the references; theta of the knife edge is exact
%! a = r.cases(1);
%! b = r.cases(2);
%! assert (all (a.err_q <= [1.2e-4, 4e-5, 1e-11]));
%! assert (all (b.err_q <= [8.3e-5, 4.2e-5, 8.2e-5]));
%! assert (a.err_lambda <= 2.8e-3);
%! assert (b.err_lambda <= 2.5e-3);
%! assert (a.err_E <= 9e-5);
%! assert (b.err_E <= 5.5e-5);

%!test
%! % lambda+ = -lambda_ideal; the constraint at every node; q- and lambda- vanish
%! for k = 1:2
%!   c = r.cases(k);
%!   assert (abs (c.sign + 1) <= 1e-2);
%!   assert (c.max_g <= c.g_bound);
%!   assert (c.g_bound <= 1e-8);
%!   assert (c.max_qminus <= 1e-10 && c.max_lambdaminus <= 1e-10);
%! end

%!test
%! % dissipation: E decreasing at the nodes; E(T) - E(0) = sum H qdot . F (knife edge: identity)
%! assert (r.cases(1).energy_rise < 0 && r.cases(2).energy_rise < 0);
%! assert (r.cases(1).balance.error <= 2e-9);
%! assert (r.cases(1).balance.identity <= 1e-10);
%! assert (r.cases(1).balance.sat > 0);
%! assert (r.cases(2).balance.error <= 3.4e-7);

%!test
%! % observed orders (finest pair): q and E p+1, lambda p, SAT remainder 2p+2
%! for k = 1:2
%!   for io = 1:3
%!     v = r.cases(k).conv(io);
%!     assert (v.pair_q, [641 1281]);
%!     assert (abs (v.observed_q - v.predicted) <= 0.3);
%!     assert (abs (v.observed_E - v.predicted) <= 0.3);
%!     assert (abs (v.observed_lambda - v.predicted_lambda) <= 0.3);
%!     if k == 1
%!       assert (abs (v.observed_sat - v.predicted_sat) <= 0.3);
%!     end
%!   end
%! end

%!test
%! % the hard start: the sled started forwards, from the constant start at T = 10; its first
%! % Newton iterate is the linearization at rest, far from the solution; it converges from there
%! % to the solution of the integrator start; the default guess 'auto' converges
%! d = r.default_guess;
%! assert (d.exitflag, 1);
%! assert (d.dq_integrator <= r.tol.same);
%! assert (abs (d.theta_T - d.theta_T_predicted) <= 1e-6);
%! assert (d.exitflag_T5, 1);
%! assert (d.exitflag_integrator, 1);
%! assert (d.exitflag_auto, 1);

%!test
%! d = tempname ();
%! mkdir (d);
%! unwind_protect
%!   demo_skg_nonholonomic_damped ('quiet', 'png', d);
%!   f = dir (fullfile (d, '*.png'));
%!   assert (numel (f), 5);
%!   assert (all ([f.bytes] > 1000));
%! unwind_protect_cleanup
%!   confirm_recursive_rmdir (false, 'local');
%!   rmdir (d, 's');
%! end_unwind_protect
