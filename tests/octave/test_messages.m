% Messages that lead with the cause and name the remedy that works: a coordinate without kinetic
% term, a conservative system in periodic_orbit, a march that stalls at a tight tolerance, and a
% fixed-step run that loses energy.  Each test makes the failure, reads the message's lead and
% checks that the remedy it names works.

%!test
%! % a Lagrangian written without dot(): the singular mass matrix leads, with the coordinates
%! % and the slip; skg_solve and gauss_integrate alike
%! bad = mechsys ('coordinates', {'x', 'y'}, 'parameters', struct ('g', 9.81), ...
%!   'lagrangian', '(x^2 + y^2)/2 - g*y');
%! s = skg_solve (bad, [0 1], [0 1], [1 0]);
%! assert (s.exitflag, 0);
%! assert (strncmp (s.message, 'the mass matrix d2L/dqdot2 is singular at t = 0, q = [0 1]', 58));
%! assert (~isempty (strfind (s.message, 'x has no kinetic term (the Lagrangian does not contain dot(x))')));
%! assert (~isempty (strfind (s.message, 'did you mean dot(x), dot(y)?')));
%! s = gauss_integrate (bad, [0 1], [0 1], [1 0]);
%! assert (s.exitflag, 0);
%! assert (strncmp (s.message, 'the mass matrix d2L/dqdot2 is singular', 38));
%! assert (~isempty (strfind (s.message, 'did you mean dot(x), dot(y)?')));
%! % the remedy: the same model with dot() solves
%! good = mechsys ('coordinates', {'x', 'y'}, 'parameters', struct ('g', 9.81), ...
%!   'lagrangian', '(dot(x)^2 + dot(y)^2)/2 - g*y');
%! s = skg_solve (good, [0 1], [0 1], [1 0]);
%! assert (s.exitflag, 1);

%!test
%! % one coordinate missing its dot: only that one is named
%! bad = mechsys ('coordinates', {'x', 'y'}, 'parameters', struct ('g', 9.81), ...
%!   'lagrangian', '(dot(x)^2 + y^2)/2 - g*y');
%! s = skg_solve (bad, [0 1], [0 1], [1 0]);
%! assert (s.exitflag, 0);
%! assert (strncmp (s.message, 'the mass matrix d2L/dqdot2 is singular', 38));
%! assert (~isempty (strfind (s.message, 'did you mean dot(y)?')));
%! assert (isempty (strfind (s.message, 'x has no kinetic term')));

%!test
%! % a coordinate without kinetic term that skg_solve integrates is not refused: an algebraic
%! % coordinate (y = x/3, x'' = -2/3 x) and a velocity constraint's integral (y' = x)
%! alg = mechsys ('coordinates', {'x', 'y'}, 'lagrangian', 'dot(x)^2/2 - (x - y)^2/2 - y^2');
%! s = skg_solve (alg, [0 1], [1 1/3], [0 0]);
%! assert (s.exitflag, 1);
%! assert (s.q(end, 1), cos (sqrt (2/3)), 1e-5);
%! assert (s.q(end, 2), cos (sqrt (2/3)) / 3, 1e-5);
%! int = mechsys ('coordinates', {'x', 'y'}, 'lagrangian', 'dot(x)^2/2 - x^2/2', ...
%!   'constraints', {'dot(y) - x'});
%! s = skg_solve (int, [0 1], [1 0], [0 1]);
%! assert (s.exitflag, 1);
%! assert (s.q(end, :), [cos(1), sin(1)], 1e-5);

%!test
%! % a mass matrix that degenerates along the motion (L = (1 - x^2) xdot^2/2 + ydot^2/2 from x = 0
%! % at unit speed: xdot = 1/sqrt(1 - x^2) reaches x = 1 at t = pi/4): both solvers stop there, and
%! % their messages lead with the singular M and the coordinate, not with the step or window
%! % length (skg_solve tries no higher order: the cause is not the tolerance)
%! deg = mechsys ('coordinates', {'x', 'y'}, 'lagrangian', '(1 - x^2)*dot(x)^2/2 + dot(y)^2/2');
%! s = skg_solve (deg, [0 3], [0 0], [1 1]);
%! assert (s.exitflag, 0);
%! assert (~isempty (regexp (s.message, '^the mass matrix d2L/dqdot2 is singular at t = 0.7853', 'once')));
%! assert (~isempty (strfind (s.message, 'the kinetic energy degenerates along x')));
%! assert (isempty (strfind (s.message, 'Order')));
%! s = gauss_integrate (deg, [0 3], [0 0], [1 1]);
%! assert (s.exitflag, 0);
%! assert (~isempty (regexp (s.message, '^the mass matrix d2L/dqdot2 is singular at t = 0.7853', 'once')));
%! assert (~isempty (strfind (s.message, 'The run: stopped at t = 0.7853')));

%!test
%! % a conservative system in periodic_orbit: the family leads the message, and the remedy it
%! % names (Integral, Level, Unfolding) converges from the same guess
%! pend = odesys ('states', {'th', 'w'}, 'parameters', struct ('g', 1), 'rhs', {'w', '-g*sin(th)'});
%! t = linspace (0, 7, 60)';
%! y = [cos(2*pi*t/7), -sin(2*pi*t/7)];
%! s = periodic_orbit (pend, t, y);
%! assert (s.exitflag, 0);
%! assert (strncmp (s.message, 'the orbits of this system come in families (two Floquet multipliers are 1', 73));
%! assert (~isempty (strfind (s.message, 'give "Integral" (a first integral I(x)), "Level" and "Unfolding"')));
%! s = periodic_orbit (pend, t, y, 'Integral', 'w^2/2 - g*cos(th)', 'Level', -cos (1), ...
%!                     'Unfolding', {'g*sin(th)', 'w'});
%! assert (s.exitflag, 1);

%!test
%! % a failure of a non-conservative system (Van der Pol from a small circle: the search falls to
%! % the equilibrium) does not claim a family
%! vdp = odesys ('states', {'x', 'v'}, 'parameters', struct ('mu', 1), ...
%!   'rhs', {'v', 'mu*(1 - x^2)*v - x'});
%! t = linspace (0, 3, 60)';
%! s = periodic_orbit (vdp, t, [0.5*cos(2*pi*t/3), -0.5*sin(2*pi*t/3)]);
%! assert (s.exitflag, 0);
%! assert (isempty (strfind (s.message, 'families')));
%! assert (isempty (strfind (s.message, 'Integral')));

%!test
%! % a march that stalls at a tight tolerance (the Chaplygin sleigh at RelTol 1e-12 needs more
%! % windows than MaxWindows allows at the default Order 4): solved again at Order 6, which the
%! % message names; the same run at Order 6 directly gives the same trajectory
%! sleigh = mechsys ('coordinates', {'x', 'y', 'th'}, ...
%!   'lagrangian', '(dot(x)^2 + dot(y)^2)/2 + dot(th)^2/2', ...
%!   'constraints', {'dot(y)*cos(th) - dot(x)*sin(th)'});
%! args = {'RelTol', 1e-12, 'AbsTol', 1e-12, 'MaxWindows', 1000};
%! s = skg_solve (sleigh, [0 10], [0 0 0], [1 0 1], args{:});
%! assert (s.exitflag, 1);
%! assert (~isempty (regexp (s.message, ['^the default Order 4 stalled at t = \S+ \(the rest of ' ...
%!                                       'the interval needed more windows than MaxWindows ' ...
%!                                       'allows\); solved with ''Order'', 6: pass it'], 'once')));
%! s6 = skg_solve (sleigh, [0 10], [0 0 0], [1 0 1], args{:}, 'Order', 6);
%! assert (s6.exitflag, 1);
%! assert (isequal (s.q, s6.q));
%! % the order given by the caller: no retry, the higher order named as advice
%! s4 = skg_solve (sleigh, [0 10], [0 0 0], [1 0 1], args{:}, 'Order', 4);
%! assert (s4.exitflag, 0);
%! assert (~isempty (strfind (s4.message, 'The next higher order, ''Order'', 6, takes longer windows')));
%! % both orders stall: the message says so and leads with the higher order's stop
%! s = skg_solve (sleigh, [0 10], [0 0 0], [1 0 1], 'RelTol', 1e-12, 'AbsTol', 1e-12, 'MaxWindows', 200);
%! assert (s.exitflag, 0);
%! assert (strncmp (s.message, 'the march stalled at both orders tried: with ''Order'', 6 stopped', 63));

%!test
%! % a fixed-step run that loses energy (the pendulum at gl6 with too large a step) completes
%! % (exitflag 1) with a message that leads with the energy's change and the remedy; at half
%! % the step the change is below the threshold, and the message gives its size
%! pend = mechsys ('coordinates', {'th'}, 'parameters', struct ('g', 9.81), ...
%!   'lagrangian', 'dot(th)^2/2 + g*cos(th)');
%! s = gauss_integrate (pend, [0 30], 2, 0, 'Method', 'gl6', 'Step', 0.4);
%! assert (s.exitflag, 1);
%! rel = max (abs (s.energy - s.energy(1))) / abs (s.energy(1));
%! assert (rel > 1e-3);
%! assert (~isempty (regexp (s.message, ['^the energy changed by \S+ % over the run \(a conservative ' ...
%!                                       'system: it should stay constant\): the step h = 0.4 is ' ...
%!                                       'too large for this system; halve ''Step'''], 'once')));
%! assert (~isempty (strfind (s.message, 'The run: reached t = 30')));
%! s = gauss_integrate (pend, [0 30], 2, 0, 'Method', 'gl6', 'Step', 0.2);
%! assert (s.exitflag, 1);
%! assert (strncmp (s.message, 'reached t = 30; the energy changed by ', 38));
%! assert (max (abs (s.energy - s.energy(1))) / abs (s.energy(1)) < 1e-3);

%!test
%! % a damped pendulum loses energy by its force: no verdict about the step, only the figure
%! damp = mechsys ('coordinates', {'th'}, 'parameters', struct ('g', 9.81, 'c', 0.5), ...
%!   'lagrangian', 'dot(th)^2/2 + g*cos(th)', 'forces', {'-c*dot(th)'});
%! s = gauss_integrate (damp, [0 30], 2, 0, 'Method', 'rk4', 'Step', 0.1);
%! assert (s.exitflag, 1);
%! assert (strncmp (s.message, 'reached t = 30; the energy changed by ', 38));
%! % with a constraint the message gives the drift against the tolerance scale
%! pl = mechsys ('coordinates', {'x', 'y'}, 'parameters', struct ('g', 9.81), ...
%!   'lagrangian', '(dot(x)^2 + dot(y)^2)/2 - g*y', 'constraints', {'x^2 + y^2 - 1'});
%! s = gauss_integrate (pl, [0 10], [1 0], [0 0], 'Method', 'gl6', 'Step', 0.01);
%! assert (s.exitflag, 1);
%! assert (~isempty (regexp (s.message, '^reached t = 10; the constraints stayed within \S+ times the tolerance scale', 'once')));

%!test
%! % the same remedy in dual_solve's march: the oscillator over 400 time units at RelTol 1e-12
%! % needs more windows than MaxWindows (1e5) allows at the default Order 4 (it stops near
%! % t = 358), and about 1.4e4 at Order 6; the error bound: the windows' count times the local
%! % tolerance (1e-12 per window, with its factor 10 of safety)
%! osc = odesys ('states', {'x', 'v'}, 'rhs', {'v', '-x'});
%! s = dual_solve (osc, [0 400], [1 0], 'RelTol', 1e-12, 'AbsTol', 1e-12);
%! assert (s.exitflag, 1);
%! assert (~isempty (regexp (s.message, ['^the default Order 4 stalled at t = \S+ \(the rest of ' ...
%!                                       'the interval needed more windows than MaxWindows ' ...
%!                                       'allows\); solved with ''Order'', 6: pass it'], 'once')));
%! nwin = str2double (regexp (s.message, 'converged: (\d+) windows', 'tokens', 'once'));
%! assert (max (abs (s.y(end, :) - [cos(400), -sin(400)])) <= 10 * nwin * 1e-12);
