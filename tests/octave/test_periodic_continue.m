% test_periodic_continue.m -- periodic_continue (issue 44, item 5) against the shooting reference
% of bench/ (po_shoot with po_flow: multiple shooting, Gragg-Bulirsch-Stoer of order 12, written
% independently of the package), at several points of each branch:
% (a) Van der Pol x' = v, v' = mu (1 - x^2) v - x, mu from 0.1 to 10 (a smooth cycle becoming a
%     relaxation oscillation): T at the points nearest mu = 1 and 3 against po_shoot, at the
%     last (mu = 10 exactly) against the shooting period of demo_dual_periodic_vdp;
% (c) Lorenz (10, 28, 8/3), the orbit AB continued in rho from 28 to 24: T at rho = 28 against
%     the published 1.5586522107162 and at three points against shooting; the leading multiplier
%     against the shooting's;
% The fold (a closed form) is checked in periodic_continue's own tests, a period doubling (a
% multiplier through -1, Rossler's period-1 orbit, against an ode45 monodromy) in
% test_demo_periodic_continuation.
%
% Tolerances.  Each point of a branch is a periodic_orbit solve with PeriodTol 1e-10: its period
% is within 1e-10 T of the exact one up to the estimate's factor (the change from the coarser
% grid bounds that grid's error; the finer is about 2^8 times better), so 1e-9 T.  The shooting
% reference is accurate to its T_err (its own estimate, which bounds the finer run's error 4096
% times over) plus Newton's 1e-11 relative step, squared.  The sum of both is the tolerance.

%!function J = vdp_jac (x, mu)
%!  m = size (x, 2);
%!  J = zeros (2, 2, m);
%!  J(1, 2, :) = 1;
%!  J(2, 1, :) = reshape (-2 * mu * x(1, :) .* x(2, :) - 1, 1, 1, m);
%!  J(2, 2, :) = reshape (mu * (1 - x(1, :).^2), 1, 1, m);
%!endfunction

%!function x0 = crossing (y, normal, value)
%!  % the node of the closed orbit y just after an upward crossing of normal . x = value
%!  h = y * normal(:) - value;
%!  k = find (h(1:end-1) < 0 & h(2:end) >= 0, 1);
%!  x0 = y(k + 1, :)';
%!endfunction

%!test
%! % (a) Van der Pol from mu = 0.1 to 10
%! vdp = odesys ('states', {'x', 'v'}, 'parameters', struct ('mu', 0.1), ...
%!               'rhs', {'v', 'mu*(1 - x^2)*v - x'});
%! t = linspace (0, 2*pi, 60)';
%! po = periodic_orbit (vdp, t, [2*cos(t), -2*sin(t)]);
%! br = periodic_continue (vdp, po, 'mu', [0.1 10], 'MaxStep', 0.5);
%! assert (br.exitflag, 1);
%! assert (br.p([1 end]), [0.1; 10], 1e-12);
%! assert (all (diff (br.p) > 0));
%! assert (all (br.stable));
%! assert (isempty (br.special));
%! % at mu = 10 the period of the shooting of demo_dual_periodic_vdp (ode45 at 1e-13, checked
%! % there to 1e-12), 19.078369566939 to its 14 digits
%! assert (abs (br.T(end) - 19.078369566939) <= 1e-9 * br.T(end) + 1e-12);
%! % at the points nearest mu = 1 and 3, po_shoot (its step H = 0.04: T_err, in the tolerance,
%! % says how accurate it still is)
%! sec = struct ('normal', [0; 1], 'value', 0);
%! for m = [1 3]
%!   [~, k] = min (abs (br.p - m));
%!   mu = br.p(k);
%!   f = @(x) [x(2, :); mu * (1 - x(1, :).^2) .* x(2, :) - x(1, :)];
%!   ref = po_shoot (f, @(x) vdp_jac (x, mu), crossing (br.y{k}, [0 1], 0), br.T(k), sec, ...
%!                   struct ('H', 0.04));
%!   assert (ref.converged);
%!   assert (abs (br.T(k) - ref.T) <= 1e-9 * ref.T + ref.T_err, sprintf ('mu = %g', mu));
%! end

%!test
%! % (c) Lorenz, the orbit AB from rho = 28 to 24
%! lor = odesys ('states', {'x', 'y', 'z'}, 'parameters', struct ('s', 10, 'r', 28, 'b', 8/3), ...
%!               'rhs', {'s*(y - x)', 'x*(r - z) - y', 'x*y - b*z'});
%! c = periodic_guesses (lor, [1 1 1], 300);
%! c = c([c.loops] == 2);
%! po = periodic_orbit (lor, c(1));
%! br = periodic_continue (lor, po, 'r', [28 24], 'MaxStep', 0.25);
%! assert (br.exitflag, 1);
%! assert (br.p([1 end]), [28; 24], 1e-12);
%! assert (abs (br.T(1) - 1.5586522107162) <= 1e-9 * br.T(1) + 5e-14);
%! assert (~any (br.stable));
%! assert (isempty (br.special));
%! K = numel (br.p);
%! for k = unique ([1, round(K/2), K])
%!   r = br.p(k);
%!   [f, J, sec] = po_lorenz (r);
%!   ref = po_shoot (f, J, crossing (br.y{k}, [0 0 1], r - 1), br.T(k), sec);
%!   assert (ref.converged);
%!   assert (abs (br.T(k) - ref.T) <= 1e-9 * ref.T + ref.T_err, sprintf ('rho = %g', r));
%!   % the unstable multiplier: the shooting's monodromy is accurate to about 1e-12 of its norm
%!   assert (abs (br.floquet(k, 1) - ref.multipliers(1)) <= 1e-8 * ref.multipliers(1));
%! end
