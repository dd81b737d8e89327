% Holonomic (position) constraints in the SKG action (csrc/skg/skg.c, doc/skg.md "Holonomic
% constraints"): the spherical pendulum with x^2+y^2+z^2-1 = 0 at position level and a knife edge
% on an incline with a holonomic and a nonholonomic constraint, against gauss_integrate (dop853,
% RelTol = AbsTol = 1e-12), on [0, 5] with 50 windows, order 4, N = 17 and 33.
%
% Tolerances from the measured convergence (tools/skg_holonomic/skg_holonomic_study.m, doc/skg.md):
% q converges at the max-norm design order p+1 = 3 (measured 2.99: 4.45e-6 -> 5.59e-7).  The
% action's own multiplier -lambda+ (sol.lambda_plus) converges at order p+1 = 3 away from the
% window ends and at order p-1 = 1 at the SBP closure nodes of each window (index 3: two
% differences of q), 9.1e-2 -> 4.5e-2; sol.lambda, the multiplier of the ideal reaction at the
% solution's states (csrc/reference/mech_points.h), converges with the states at every node (order 3:
% 2.98e-5 -> 3.79e-6).  The tests bound the rates from below with a margin of 0.3 and the errors
% at N = 33 by twice the measured value; a wrong sign of the multiplier gives an error of
% 2 |lambda| ~ 20 and fails both.

%!function r = run_case (sys, q0, v0, N, col, g)
%!  % errors of skg_solve (order 4, 50 windows) against gauss_integrate at the nodes
%!  sol = skg_solve (sys, [0 5], q0, v0, 'N', N, 'Order', 4, 'Windows', 50, 'Tol', 1e-12);
%!  ref = gauss_integrate (sys, [0 5], q0, v0, 'Method', 'dop853', 'RelTol', 1e-12, ...
%!                         'AbsTol', 1e-12, 'OutputTimes', sol.t);
%!  r.exitflag = sol.exitflag;
%!  r.eq = max (abs (sol.q(:) - ref.output.q(:)));
%!  r.g = max (abs (g (sol.q)));
%!  el = abs (sol.lambda(:, col) - ref.output.lambda(:, col));
%!  er = abs (-sol.lambda_plus(:, col) - ref.output.lambda(:, col));
%!  pos = mod ((0:numel (sol.t) - 1)', N - 1);
%!  inner = pos >= 8 & pos <= N - 9;   % outside the reach of the order-4 closures (4 rows) in D Da
%!  r.el = max (el);
%!  r.er = max (er);
%!  r.eri = max (er(inner));
%!  r.lam_scale = max (abs (ref.lambda(:, col)));
%!endfunction

%!shared sph, q0, v0, r17, r33
%! sph = mechsys ('coordinates', {'x', 'y', 'z'}, 'parameters', struct ('g', 9.81, 'l', 1), ...
%!   'lagrangian', '(dot(x)^2+dot(y)^2+dot(z)^2)/2 - g*z', 'constraints', {'x^2+y^2+z^2-l^2'});
%! q0 = [sin(1) 0 -cos(1)];
%! v0 = [0 1.5 0];
%! g = @(q) sum (q.^2, 2) - 1;
%! r17 = run_case (sph, q0, v0, 17, 1, g);
%! r33 = run_case (sph, q0, v0, 33, 1, g);

%!test
%! % converges; the constraint holds at every node to rounding
%! assert (r17.exitflag == 1 && r33.exitflag == 1);
%! assert (r17.g <= 1e-10 && r33.g <= 1e-10);

%!test
%! % q: max-norm order p+1 = 3
%! rate = log2 (r17.eq / r33.eq);
%! assert (rate > 2.7, sprintf ('q rate %.2f', rate));
%! assert (r33.eq < 1.2e-6, sprintf ('q error %.2e', r33.eq));

%!test
%! % lambda (physical convention) against gauss_integrate: sol.lambda at order 3 at every node;
%! % the action's -lambda+ at order p-1 = 1 in the max norm (the closure nodes), p+1 = 3 away
%! % from them
%! assert (r17.lam_scale > 5);   % the multiplier is of order g + v^2: a sign error cannot pass
%! rate = log2 (r17.el / r33.el);
%! assert (rate > 2.7, sprintf ('lambda rate %.2f', rate));
%! assert (r33.el < 7.6e-6, sprintf ('lambda error %.2e', r33.el));
%! rate = log2 (r17.er / r33.er);
%! assert (rate > 0.7, sprintf ('raw lambda rate %.2f', rate));
%! assert (r33.er < 0.1, sprintf ('raw lambda error %.2e', r33.er));
%! rate = log2 (r17.eri / r33.eri);
%! assert (rate > 2.7, sprintf ('interior raw lambda rate %.2f', rate));
%! assert (r33.eri < 6e-6, sprintf ('interior raw lambda error %.2e', r33.eri));

%!test
%! % full mode: q- = lambda- = 0 and the reduced mode's trajectory and multiplier
%! r = skg_solve (sph, [0 1], q0, v0, 'N', 17, 'Order', 4, 'Windows', 10, 'Tol', 1e-12);
%! f = skg_solve (sph, [0 1], q0, v0, 'N', 17, 'Order', 4, 'Windows', 10, 'Tol', 1e-12, 'Mode', 'full');
%! assert (f.exitflag == 1);
%! assert (f.max_qminus <= 1e-12 && f.max_lambdaminus <= 1e-12);
%! assert (f.q, r.q, 1e-12);
%! assert (f.lambda, r.lambda, 1e-9);
%! assert (f.lambda_plus, r.lambda_plus, 1e-9);

%!test
%! % a holonomic and a nonholonomic constraint together: knife edge on an incline, the angle as a
%! % point (c, s) of the unit circle (measured: q order 3.00, sol.lambda order 2.9 and 3.0,
%! % the action's -lambda+ order 2.00 for both)
%! knife = mechsys ('coordinates', {'x', 'y', 'c', 's'}, ...
%!   'parameters', struct ('g', 9.81, 'alpha', pi / 6, 'I', 0.25), ...
%!   'lagrangian', '(dot(x)^2+dot(y)^2)/2 + I/2*(dot(c)^2+dot(s)^2) + g*sin(alpha)*x', ...
%!   'constraints', {'c^2+s^2-1', 'dot(x)*s - dot(y)*c'});
%! g = @(q) q(:, 3).^2 + q(:, 4).^2 - 1;
%! lmax = [2.8e-8, 6.7e-6];   % twice the measured errors at N = 33 (1.39e-8, 3.36e-6)
%! rmax = [3.5e-5, 4.9e-4];   % the same for -lambda+ (1.71e-5, 2.42e-4)
%! for col = 1:2
%!   a = run_case (knife, [0 0 1 0], [1 0 0 2], 17, col, g);
%!   b = run_case (knife, [0 0 1 0], [1 0 0 2], 33, col, g);
%!   assert (a.exitflag == 1 && b.exitflag == 1);
%!   assert (a.g <= 1e-10 && b.g <= 1e-10);
%!   assert (log2 (a.eq / b.eq) > 2.7, sprintf ('q rate %.2f', log2 (a.eq / b.eq)));
%!   assert (log2 (a.el / b.el) > 2.7, sprintf ('lambda %d rate %.2f', col, log2 (a.el / b.el)));
%!   assert (log2 (a.er / b.er) > 1.7, sprintf ('raw lambda %d rate %.2f', col, log2 (a.er / b.er)));
%!   assert (b.er < rmax(col), sprintf ('raw lambda %d error %.2e', col, b.er));
%!   assert (b.eq < 6.3e-7, sprintf ('q error %.2e', b.eq));
%!   assert (b.el < lmax(col), sprintf ('lambda %d error %.2e', col, b.el));
%! end
