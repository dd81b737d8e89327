% skg_solve does not depend on the units of mass: L and c L (with the forces c F) have the same
% motion, and the multipliers of eq. 3 of the rolling-disk paper scale with c.  Before the mass
% scale (csrc/skg/skg_solve.c, mscale; csrc/reference/mech_points.h, vm_mech_points_mass_scale) Newton's
% residual test was absolute below 1, so for a pendulum of mass 1e-10 it accepted the window's
% guess (exitflag 1, error 3.5 rad over [0, 10]); for a mass of 1e12 the multipliers (~1e13)
% made its step test pass after steps of 10 and the LU of the Jacobian nearly singular (exitflag
% 1, error 1.4; at 1e10 a stall of 8000 windows).  Now the equations of motion are measured per
% unit of max |M_ij| at the initial state and the multipliers solved for in that unit, so the
% solver runs the same iteration for every c: the solutions agree to rounding (1e-9 relative, the
% scaling's multiplications in every Newton step), and each is within the tolerance's reach of
% the closed-form reference (error 3e-7 at the defaults, RelTol 1e-6: the bound 1e-5 is the
% default tolerance times the 10 periods' growth, as test_skg_march.m's pendulum).

%!function [q, lam] = pendulum_reference (t, th0, g, l, m)
%!  % theta'' = -(g/l) sin theta from rest at th0 (ode45 at 1e-12), the Cartesian position and
%!  % the multiplier of x^2 + y^2 - l^2 in the convention of eq. 3 (M qddot = dL/dq + lambda
%!  % dg/dq): lambda = -m (l theta'^2 + g cos theta) / (2 l)
%!  f = @(tt, u) [u(2); -(g / l) * sin(u(1))];
%!  [~, y] = ode45 (f, t, [th0 0], odeset ('RelTol', 1e-12, 'AbsTol', 1e-13));
%!  q = [l * sin(y(:, 1)), -l * cos(y(:, 1))];
%!  lam = -m * (l * y(:, 2) .^ 2 + g * cos (y(:, 1))) / (2 * l);

%!function sys = pendulum (m, mode, c)
%!  if (nargin < 3)
%!    c = 0;
%!  end
%!  p = struct ('m', m, 'g', 9.81, 'l', 2, 'c', c);
%!  if (strcmp (mode, 'angle'))
%!    sys = mechsys ('coordinates', {'th'}, 'parameters', p, ...
%!                   'lagrangian', 'm/2*l^2*dot(th)^2 + m*g*l*cos(th)');
%!  else
%!    sys = mechsys ('coordinates', {'x', 'y'}, 'parameters', p, ...
%!                   'lagrangian', 'm/2*(dot(x)^2 + dot(y)^2) - m*g*y', ...
%!                   'forces', {'-c*m*dot(x)', '-c*m*dot(y)'}, 'constraints', {'x^2 + y^2 - l^2'});
%!  end

%!test
%! % the Cartesian pendulum (a position constraint), adaptive windows, reduced and full mode
%! th0 = pi/4;  l = 2;  g = 9.81;  t = linspace (0, 4, 81)';
%! q0 = [l*sin(th0), -l*cos(th0)];
%! for mode = {'reduced', 'full'}
%!   s1 = skg_solve (pendulum (1, 'cart'), [0 4], q0, [0 0], 'OutputTimes', t, 'Mode', mode{1});
%!   [qr, lr] = pendulum_reference (t, th0, g, l, 1);
%!   assert (s1.exitflag, 1);
%!   assert (s1.output.q, qr, 1e-5);
%!   assert (s1.output.lambda, lr, 1e-5 * max (abs (lr)));
%!   for m = [1e-10 1e12]
%!     s = skg_solve (pendulum (m, 'cart'), [0 4], q0, [0 0], 'OutputTimes', t, 'Mode', mode{1});
%!     assert (s.exitflag, 1);
%!     assert (numel (s.windows.t0), numel (s1.windows.t0));
%!     assert (s.output.q, s1.output.q, 1e-9 * l);
%!     assert (s.output.lambda / m, s1.output.lambda, 1e-9 * max (abs (lr)));
%!   end
%! end

%!test
%! % no constraint (the angle): the residual test alone; and fixed windows
%! th0 = pi/4;  t = linspace (0, 4, 41)';
%! [qr] = pendulum_reference (t, th0, 9.81, 2, 1);
%! thr = atan2 (qr(:, 1), -qr(:, 2));
%! s1 = skg_solve (pendulum (1, 'angle'), [0 4], th0, 0, 'OutputTimes', t);
%! f1 = skg_solve (pendulum (1, 'angle'), [0 4], th0, 0, 'OutputTimes', t, 'Windows', 16, 'N', 41);
%! assert (s1.output.q, thr, 1e-5);
%! assert (f1.output.q, thr, 1e-5);
%! for m = [1e-10 1e12]
%!   s = skg_solve (pendulum (m, 'angle'), [0 4], th0, 0, 'OutputTimes', t);
%!   f = skg_solve (pendulum (m, 'angle'), [0 4], th0, 0, 'OutputTimes', t, 'Windows', 16, 'N', 41);
%!   assert ([s.exitflag f.exitflag], [1 1]);
%!   assert (s.output.q, s1.output.q, 1e-9);
%!   assert (f.output.q, f1.output.q, 1e-9);
%! end

%!test
%! % a dissipative force scales with the Lagrangian too: the damped Cartesian pendulum
%! q0 = [sqrt(2), -sqrt(2)];  t = linspace (0, 3, 31)';
%! sys1 = pendulum (1, 'cart', 0.5);
%! sysm = pendulum (1e-8, 'cart', 0.5);
%! s1 = skg_solve (sys1, [0 3], q0, [0 0], 'OutputTimes', t);
%! s = skg_solve (sysm, [0 3], q0, [0 0], 'OutputTimes', t);
%! r = gauss_integrate (sys1, [0 3], q0, [0 0], 'OutputTimes', t, 'RelTol', 1e-12, 'AbsTol', 1e-12);
%! assert ([s1.exitflag s.exitflag], [1 1]);
%! assert (s1.output.q, r.output.q, 1e-5);
%! assert (s.output.q, s1.output.q, 1e-9);

%!test
%! % units of length: the constraint x^2 + y^2 - l^2 with l = 1e3 (its evaluation rounds at
%! % eps l^2 = 2e-10, above the projection's tolerance 1e-12): before the projection's rounding
%! % stop (csrc/reference/motion.c) every projection failed and the solve took 978 windows instead of 102,
%! % accurate to 1.6e-10 instead of the 1e-6 asked; now the same effort as the constraint written
%! % (x^2 + y^2)/l^2 - 1 (103 and 102 windows) and the same accuracy
%! L = 1e3;  g = 9.81;  th0 = pi/4;  T = 10 * sqrt (L / 2);  t = linspace (0, T, 41)';
%! q0 = [L*sin(th0), -L*cos(th0)];
%! [qr] = pendulum_reference (t, th0, g, L, 1);
%! for c = {'x^2 + y^2 - l^2', '(x^2 + y^2)/l^2 - 1'}
%!   sys = mechsys ('coordinates', {'x', 'y'}, 'parameters', struct ('g', g, 'l', L), ...
%!                  'lagrangian', '(dot(x)^2 + dot(y)^2)/2 - g*y', 'constraints', c);
%!   s = skg_solve (sys, [0 T], q0, [0 0], 'OutputTimes', t);
%!   assert (s.exitflag, 1);
%!   assert (s.output.q / L, qr / L, 1e-5);
%!   assert (numel (s.windows.t0) < 150);
%! end

%!test
%! % units of time and length: the Cartesian pendulum with lengths in units of Ls and times in
%! % units of Ts (l = 2 Ls, g = 9.81 Ls / Ts^2; AbsTol scaled with the smaller of the units of
%! % position and velocity) has the SI motion to the tolerance, with the SI number of windows
%! % (within 10 %: Newton's tests keep an absolute 1 as the upper bound of their floors, so the
%! % iterations differ between unit systems; measured 41 windows in each, 142-161 iterations).
%! % Before the multipliers were measured as displacements over the window and the residual
%! % floor and step test by the state's size (csrc/skg/skg_solve.c, act_scales, res_floor): Ts = 1e-6
%! % gave a wrong motion with exitflag 1 (0.28 l; every step Levenberg-Marquardt, the multipliers'
%! % columns 1e16 times smaller), Ls = 1e-9 every guess accepted (exitflag 1, 3.8 l), Ls = 1e-6 a
%! % stall at t = 0.73 s (the projection's absolute tolerance 1e-12 in units of l^2)
%! th0 = pi/4;  t = linspace (0, 4, 41)';
%! s1 = skg_solve (pendulum (1, 'cart'), [0 4], [2*sin(th0) -2*cos(th0)], [0 0], 'OutputTimes', t);
%! [qr] = pendulum_reference (t, th0, 9.81, 2, 1);
%! assert (s1.exitflag, 1);
%! assert (s1.output.q, qr, 1e-5);
%! for u = [1 1e-6; 1 1e5; 1e-9 1; 1e-6 1; 1e6 1]'
%!   Ls = u(1);  Ts = u(2);
%!   p = struct ('g', 9.81 * Ls / Ts^2, 'l', 2 * Ls);
%!   sys = mechsys ('coordinates', {'x', 'y'}, 'parameters', p, 'lagrangian', ...
%!                  '(dot(x)^2 + dot(y)^2)/2 - g*y', 'constraints', {'x^2 + y^2 - l^2'});
%!   s = skg_solve (sys, [0 4*Ts], 2*Ls*[sin(th0) -cos(th0)], [0 0], 'OutputTimes', t*Ts, ...
%!                  'AbsTol', 1e-8 * min (Ls, Ls/Ts));
%!   assert (s.exitflag, 1);
%!   assert (abs (numel (s.windows.t0) - numel (s1.windows.t0)) <= 0.1 * numel (s1.windows.t0));
%!   assert (s.output.q / Ls, qr, 1e-5);
%! end
