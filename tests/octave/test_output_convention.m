% test_output_convention.m -- one output convention for the option OutputTimes: every solver
% (skg_solve, gauss_integrate, dual_solve, periodic_orbit) returns sol.output, a struct with t
% (K-by-1, the requested times) and q, qdot, lambda (mechanical systems) or y (first-order
% systems; dual_solve adds D), of the sizes stated, with values against a reference computed
% without the solver (ode45 at RelTol 1e-12, or a closed form).  gauss_integrate keeps its steps:
% sol.t and every per-step field are those of the run without OutputTimes.
%
% Tolerances: an adaptive solver's global error is its local tolerance (AbsTol + RelTol |x|)
% accumulated over the run; "within 10x" as in test_skg_march and test_dual_march for the
% window solvers, 100x for gauss_integrate's steps (some thousand steps, each within the
% tolerance, and the dense output's own error of the same order); ode45 at 1e-12 adds nothing
% visible.  periodic_orbit: 10 times its own error estimate (state_error).

%!function [t, q, qd, lam] = pendulum_ref (th0, tq)
%!  % the Cartesian pendulum (m = 1, l = 1, g = 9.81) from rest at angle th0, by ode45 on the
%!  % angle; lambda of the constraint x^2 + y^2 - 1 in gauss_integrate's convention (the tension
%!  % is -2 l lambda = g cos(th) + l thdot^2)
%!  g = 9.81;
%!  o = odeset ('RelTol', 1e-12, 'AbsTol', 1e-12);
%!  [t, z] = ode45 (@(t, z) [z(2); -g * sin(z(1))], tq(:), [th0; 0], o);
%!  th = z(:, 1);  w = z(:, 2);
%!  q = [sin(th), -cos(th)];
%!  qd = [cos(th) .* w, sin(th) .* w];
%!  lam = -(g * cos (th) + w .^ 2) / 2;
%!endfunction

%!function e = within (x, xref, rtol, atol)
%!  % max |error| in units of the local tolerance atol + rtol max |xref| (per column)
%!  e = max (max (abs (x - xref)) ./ (atol + rtol * max (abs (xref))));
%!endfunction

%!shared pend, q0, tq, mech, first
%! pend = mechsys ('coordinates', {'x', 'y'}, 'parameters', struct ('g', 9.81), ...
%!   'lagrangian', '(dot(x)^2 + dot(y)^2)/2 - g*y', 'constraints', {'x^2 + y^2 - 1'});
%! q0 = [sin(0.8) -cos(0.8)];
%! tq = [0 0.13 0.5 1.01 1.7 2.2 2.95 3];
%! mech = {'t'; 'q'; 'qdot'; 'lambda'};   % the names of a mechanical system's output
%! first = {'t'; 'y'};                    % ... and of a first-order system's

%!test
%! % gauss_integrate: the names and sizes, the values against ode45, and the steps unchanged
%! [~, qr, qdr, lr] = pendulum_ref (0.8, tq);
%! for meth = {'dopri5', 'dop853'}
%!   o = {'Method', meth{1}, 'RelTol', 1e-10, 'AbsTol', 1e-12};
%!   s = gauss_integrate (pend, [0 3], q0, [0 0], o{:}, 'OutputTimes', tq);
%!   r = gauss_integrate (pend, [0 3], q0, [0 0], o{:});
%!   assert (s.exitflag, 1);
%!   assert (fieldnames (s.output), mech);
%!   assert (s.output.t, tq(:));
%!   assert ([size(s.output.q); size(s.output.qdot); size(s.output.lambda)], ...
%!           [numel(tq) 2; numel(tq) 2; numel(tq) 1]);
%!   assert (within ([s.output.q s.output.qdot], [qr qdr], 1e-10, 1e-12) <= 100);
%!   assert (within (s.output.lambda, lr, 1e-10, 1e-12) <= 100);
%!   % the steps: the same as without OutputTimes, bit for bit, in every per-step field
%!   assert (~isfield (r, 'output'));
%!   for f = {'t', 'q', 'qdot', 'lambda', 'lambda_rate', 'power', 'energy', 'residual', ...
%!            'residual_position'}
%!     assert (isequal (s.(f{1}), r.(f{1})), sprintf ('%s: sol.%s changed by OutputTimes', meth{1}, f{1}));
%!   end
%!   assert ([s.stats.nsteps s.stats.naccept], [r.stats.nsteps r.stats.naccept]);
%! end

%!test
%! % gauss_integrate, fixed steps and Projection: the steps unchanged; an output time on a step
%! % end is that step's state
%! for o = {{'Method', 'gl6', 'Step', 0.01}, {'Method', 'rk4', 'Step', 0.01}, {'Projection', 'on'}}
%!   s = gauss_integrate (pend, [0 3], q0, [0 0], o{1}{:}, 'OutputTimes', tq);
%!   r = gauss_integrate (pend, [0 3], q0, [0 0], o{1}{:});
%!   assert (fieldnames (s.output), mech);
%!   assert (s.output.t, tq(:));
%!   assert (isequal ([s.t s.q s.qdot s.lambda s.energy], [r.t r.q r.qdot r.lambda r.energy]));
%!   [~, k] = min (abs (r.t - 3));
%!   assert ([s.output.q(end, :) s.output.qdot(end, :)], [r.q(k, :) r.qdot(k, :)]);
%! end

%!test
%! % gauss_integrate with impacts (a ball dropped from y = 1 on the floor y = 0, e = 1): the steps
%! % unchanged (each impact twice), the output between the impacts the closed form
%! ball = mechsys ('coordinates', {'x', 'y'}, 'parameters', struct ('g', 9.81), ...
%!   'lagrangian', '(dot(x)^2 + dot(y)^2)/2 - g*y', 'contacts', struct ('h', 'y', 'sigma', 1, 'V0', 1));
%! tb = linspace (0, 2, 41);
%! o = {'RelTol', 1e-10, 'AbsTol', 1e-12};
%! s = gauss_integrate (ball, [0 2], [0 1], [0 0], o{:}, 'OutputTimes', tb);
%! r = gauss_integrate (ball, [0 2], [0 1], [0 0], o{:});
%! assert (numel (s.impacts.t), 2);
%! assert (isequal ([s.t s.q s.qdot], [r.t r.q r.qdot]));
%! assert (size (s.output.lambda), [41 0]);
%! ti = sqrt (2 / 9.81);
%! tau = tb(:) - 2 * ti * round (tb(:) / (2 * ti));   % time from the nearest top
%! assert (within ([s.output.q(:, 2) s.output.qdot(:, 2)], [1 - 9.81 / 2 * tau .^ 2, -9.81 * tau], ...
%!                 1e-10, 1e-12) <= 100);

%!test
%! % gauss_integrate that stops (impacts accumulate at t = sqrt(2/g) (1+e)/(1-e) = 4.06): the
%! % requested times all there, the states up to the stop, NaN after it
%! ball = mechsys ('coordinates', {'x', 'y'}, 'parameters', struct ('g', 9.81), ...
%!   'lagrangian', '(dot(x)^2 + dot(y)^2)/2 - g*y', 'contacts', struct ('h', 'y', 'sigma', 1, 'V0', 1));
%! s = gauss_integrate (ball, [0 5], [0 1], [0 0], 'Restitution', 0.8, 'OutputTimes', 0:0.5:5);
%! assert (s.exitflag, 0);
%! assert (s.output.t, (0:0.5:5)');
%! after = s.output.t > s.t(end);
%! xa = [s.output.q(after, :), s.output.qdot(after, :)];
%! xb = [s.output.q(~after, :), s.output.qdot(~after, :)];
%! assert (any (after) && all (isnan (xa(:))) && all (isfinite (xb(:))));

%!test
%! % skg_solve: the same names and sizes, the values against ode45 within 10x the tolerance
%! s = skg_solve (pend, [0 3], q0, [0 0], 'RelTol', 1e-8, 'AbsTol', 1e-10, 'OutputTimes', tq);
%! assert (s.exitflag, 1);
%! assert (fieldnames (s.output), mech);
%! assert (s.output.t, tq(:));
%! assert ([size(s.output.q); size(s.output.qdot); size(s.output.lambda)], ...
%!         [numel(tq) 2; numel(tq) 2; numel(tq) 1]);
%! [~, qr, qdr, lr] = pendulum_ref (0.8, tq);
%! assert (within ([s.output.q s.output.qdot s.output.lambda], [qr qdr lr], 1e-8, 1e-10) <= 10);

%!test
%! % dual_solve (a first-order system): t, y and the duals D; y against the closed form
%! osc = odesys ('states', {'x', 'v'}, 'rhs', {'v', '-x'});
%! s = dual_solve (osc, [0 3], [1 0], 'RelTol', 1e-9, 'AbsTol', 1e-11, 'OutputTimes', tq);
%! assert (s.exitflag, 1);
%! assert (fieldnames (s.output), [first; {'D'}]);
%! assert (s.output.t, tq(:));
%! assert ([size(s.output.y); size(s.output.D)], [numel(tq) 2; numel(tq) 2]);
%! assert (within (s.output.y, [cos(tq(:)) -sin(tq(:))], 1e-9, 1e-11) <= 10);
%! assert (~isfield (s, 'output_t') && ~isfield (s, 'output_D'));
%! s = dual_solve (osc, [0 3], [1 0], 'RelTol', 1e-9, 'AbsTol', 1e-11);
%! assert (~isfield (s, 'output'));

%!test
%! % periodic_orbit (a first-order system): t and y, at times taken modulo the period, against
%! % the orbit's first point integrated by ode45
%! vdp = odesys ('states', {'x', 'v'}, 'rhs', {'v', '(1 - x^2)*v - x'});
%! tg = linspace (0, 6.5, 60)';
%! yg = [2*cos(2*pi*tg/6.5), -2*sin(2*pi*tg/6.5)];
%! s = periodic_orbit (vdp, tg, yg, 'OutputTimes', 3 * tq);
%! assert (s.exitflag, 1);
%! assert (fieldnames (s.output), first);
%! assert (s.output.t, 3 * tq(:));
%! assert (size (s.output.y), [numel(tq) 2]);
%! [ts, is] = sort (mod (3 * tq(:), s.T));
%! [tt, ~, j] = unique ([0; ts; s.T]);
%! [~, yy] = ode45 (@(t, y) [y(2); (1 - y(1)^2)*y(2) - y(1)], tt, s.y(1, :)', ...
%!                  odeset ('RelTol', 1e-12, 'AbsTol', 1e-12));
%! yr(is, :) = yy(j(2:end - 1), :);
%! assert (max (max (abs (s.output.y - yr))) <= 10 * s.state_error + 10 * 1e-12 * max (abs (s.y(:))));
%! s = periodic_orbit (vdp, tg, yg);
%! assert (~isfield (s, 'output'));

%!test
%! % the four help texts document sol.output in the same words (their fields tables agree)
%! words = {};
%! for f = {'skg_solve', 'gauss_integrate', 'dual_solve', 'periodic_orbit'}
%!   txt = regexprep (fileread (which (f{1})), '\n%\s*', ' ');
%!   k = strfind (txt, '@item output only with');
%!   assert (numel (k), 1, sprintf ('%s: no "@item output" entry', f{1}));
%!   e = strfind (txt(k:end), 'periodic_orbit.');
%!   words{end + 1} = txt(k:k + e(1));
%! end
%! assert (all (strcmp (words, words{1})), 'the help texts document sol.output differently');
%! assert (~isempty (strfind (words{1}, 'K-by-1, the requested times')));
