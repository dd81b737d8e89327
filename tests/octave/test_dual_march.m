% Acceptance tests of the marching dual solver (dual_solve with defaults: adaptive windows of
% N = 33 nodes, order 4 with the order-6 companion, weak final dual, RK4-predicted base states).
% The five problems of bench/dual_march_problems.m (Lorenz from (1,1,1) on [0,1] and [0,10], the
% pendulum th'' = -10 sin th from th = 2 at rest on [0,20], the bead on a hoop rotating at
% Omega = 6 on [0,4], Van der Pol mu = 5 from (2,0) on [0,20]) at RelTol 1e-6 and 1e-9
% (AbsTol = RelTol/100): exitflag 1; the error on the whole grid against ode45 (RelTol = AbsTol =
% 1e-12, 1e-13 for Lorenz on [0,10]) within 10 times the requested tolerance
% (RelTol max|y| + AbsTol: the controller bounds each window's estimated error by the tolerance,
% the factor 10 leaves room for the accumulation over the windows); Lorenz on [0,10] (chaotic: the
% error grows like exp(0.9 t) whatever the method) no larger at tf than ode45's at the same
% tolerances.  The references' own errors (against 10x their tolerance) are below 3e-9, two
% decades under the smallest bound tested here (1e-8 max|y|).

%!shared P, S
%! P = dual_march_problems ();
%! rts = [1e-6 1e-9];
%! S = cell (numel (P), 2);
%! for k = 1:numel (P)
%!   for j = 1:2
%!     S{k, j} = dual_solve (P(k).ode, P(k).tspan, P(k).y0, 'RelTol', rts(j), 'AbsTol', rts(j)/100);
%!   end
%! end

%!test
%! % every problem converges at both tolerances, every accepted window within its tolerance
%! for k = 1:numel (P)
%!   for j = 1:2
%!     s = S{k, j};
%!     assert (s.exitflag, 1, sprintf ('%s: %s', P(k).name, s.message));
%!     assert (all (s.windows.error <= 1));
%!     assert (all (s.windows.N == 33));
%!     assert (s.t([1 end])', P(k).tspan);
%!     assert (strcmp (s.mode, 'adaptive') && strcmp (s.guess, 'marching'));
%!     assert (all (ismember (s.rejected.reason, {'error', 'newton', 'companion'})));
%!   end
%! end

%!test
%! % error within 10x the tolerance on the whole grid (all but the chaotic Lorenz [0,10])
%! rts = [1e-6 1e-9];
%! for k = 1:numel (P)
%!   if (P(k).chaotic)
%!     continue;
%!   end
%!   for j = 1:2
%!     s = S{k, j};
%!     yr = P(k).ref (s.t);
%!     tol = rts(j) * max (abs (yr(:))) + rts(j)/100;
%!     err = max (max (abs (s.y - yr)));
%!     assert (err <= 10 * tol, sprintf ('%s RelTol %g: error %.3g > 10 x %.3g', P(k).name, rts(j), err, tol));
%!   end
%! end

%!test
%! % Lorenz on [0,10]: at tf no larger than ode45's error at the same tolerances
%! rts = [1e-6 1e-9];
%! k = 2;
%! for j = 1:2
%!   s = S{k, j};
%!   yr = P(k).ref ([0; 10]);
%!   [~, yo] = ode45 (P(k).f, [0 10], P(k).y0(:), odeset ('RelTol', rts(j), 'AbsTol', rts(j)/100));
%!   e_dual = max (abs (s.y(end, :) - yr(end, :)));
%!   e_ode45 = max (abs (yo(end, :) - yr(end, :)));
%!   assert (e_dual <= e_ode45, sprintf ('RelTol %g: dual %.3g, ode45 %.3g', rts(j), e_dual, e_ode45));
%! end

%!test
%! % Guess 'marching' given explicitly is the default of the adaptive mode
%! s = dual_solve (P(4).ode, P(4).tspan, P(4).y0, 'RelTol', 1e-6, 'AbsTol', 1e-8, 'Guess', 'marching');
%! assert (s.exitflag, 1);
%! assert (s.y, S{4, 1}.y);
%! % (AbsTol as the shared block computes it: 1e-9/100 is one ulp above 1e-11, and a bitwise
%! % comparison needs the same tolerance)
%! s = dual_solve (P(4).ode, P(4).tspan, P(4).y0, 'RelTol', 1e-9, 'AbsTol', 1e-9/100, 'Guess', 'auto');
%! assert (s.y, S{4, 2}.y);

%!test
%! % the defaults alone (RelTol 1e-6, AbsTol 1e-8) solve the problems of issue 11
%! for k = [1 3 4]
%!   s = dual_solve (P(k).ode, P(k).tspan, P(k).y0);
%!   assert (s.exitflag, 1);
%!   yr = P(k).ref (s.t);
%!   assert (max (max (abs (s.y - yr))) <= 10 * (1e-6 * max (abs (yr(:))) + 1e-8));
%! end

%!test
%! % a fixed grid with the marching base states (Slabs windows of N nodes): the pendulum on [0,20];
%! % 400 windows of 33 nodes, h = 1/640: order-4 SBP-SAT, max-norm error O(h^3) ~ 1e-6
%! s = dual_solve (P(3).ode, P(3).tspan, P(3).y0, 'Slabs', 400, 'N', 33, 'Guess', 'marching');
%! assert (s.exitflag, 1);
%! assert (strcmp (s.mode, 'fixed'));
%! assert (numel (s.t), 400 * 32 + 1);
%! yr = P(3).ref (s.t);
%! assert (max (max (abs (s.y - yr))) < 1e-5);

%!test
%! % OutputTimes: the windows' interpolants, as accurate as the nodes (degree order + 1)
%! tq = linspace (0, 4, 37)';
%! s = dual_solve (P(4).ode, P(4).tspan, P(4).y0, 'RelTol', 1e-9, 'AbsTol', 1e-11, 'OutputTimes', tq);
%! yr = P(4).ref ([0; tq(2:end)]);
%! assert (s.output.t, tq);
%! assert (size (s.output.y), [37 2]);
%! assert (max (max (abs (s.output.y - yr))) <= 10 * (1e-9 * max (abs (yr(:))) + 1e-11));
%! assert (size (s.output.D), [37 2]);

%!test
%! % Display 'iter' prints every Newton iteration and window while it runs
%! out = evalc ('dual_solve (P(1).ode, [0 0.05], P(1).y0, ''RelTol'', 1e-4, ''Display'', ''iter'');');
%! assert (! isempty (strfind (out, 'window 1')));
%! assert (! isempty (strfind (out, 'iter   0')));
%! out = evalc ('dual_solve (P(1).ode, [0 0.05], P(1).y0, ''RelTol'', 1e-4, ''Display'', ''final'');');
%! assert (! isempty (strfind (out, 'converged')));

%!error <BaseState needs a fixed grid> dual_solve (P(1).ode, [0 1], [1 1 1], 'BaseState', [0 0 0])
%!error <Guess must be> dual_solve (P(1).ode, [0 1], [1 1 1], 'RelTol', 1e-6, 'Guess', zeros (3))
%!error <FinalDual> dual_solve (P(1).ode, [0 1], [1 1 1], 'FinalDual', 'strong')
%!error <FinalDual must be> dual_solve (P(1).ode, [0 1], [1 1 1], 'FinalDual', 'medium')
%!error <RelTol must be> dual_solve (P(1).ode, [0 1], [1 1 1], 'RelTol', -1)
%!error <OutputTimes must be> dual_solve (P(1).ode, [0 1], [1 1 1], 'OutputTimes', 2)

%!test
%! % a stiff problem whose Newton solves fail above some window length while the estimate allows
%! % longer ones (Van der Pol mu = 1000 on its slow manifold, where the companion's estimate is
%! % near 0): the bound after a failed solve (csrc/march/march.h, VM_MARCH_NEWTON_CAP_GROWTH 1.1) makes
%! % the driver come back to the failing length once per log(2)/log(1.1) = 7.3 accepted windows,
%! % not after every second one (before the bound: 214 failed solves for 226 windows on [0, 30]).
%! % Bound tested: failed solves <= windows/4; and the error within 10x the tolerance, against
%! % ode15s at 1e-12 with the exact Jacobian (it differs from its own run at 1e-10 by 4e-10,
%! % four decades under the bound).
%! ode = odesys ('states', {'x', 'y'}, 'parameters', struct ('mu', 1000), ...
%!               'rhs', {'y', 'mu*(1 - x^2)*y - x'});
%! s = dual_solve (ode, [0 30], [2 0]);
%! assert (s.exitflag, 1, s.message);
%! nfail = sum (ismember (s.rejected.reason, {'newton', 'companion'}));
%! nwin = numel (s.windows.t0);
%! assert (nfail <= nwin / 4, sprintf ('%d failed Newton solves for %d windows', nfail, nwin));
%! f = @(t, u) [u(2); 1000 * (1 - u(1)^2) * u(2) - u(1)];
%! J = @(t, u) [0 1; -2000 * u(1) * u(2) - 1, 1000 * (1 - u(1)^2)];
%! [~, yr] = ode15s (f, s.t, [2 0], odeset ('RelTol', 1e-12, 'AbsTol', 1e-12, 'Jacobian', J, ...
%!                                          'InitialStep', 1e-8));
%! tol = 1e-6 * max (abs (yr(:, 1))) + 1e-8;
%! assert (max (abs (s.y(:, 1) - yr(:, 1))) <= 10 * tol);

%!test
%! % a blow-up: y' = y^2 from y0 = 1 is singular at t = 1; the march stops there (exitflag 0) and
%! % its message says that the state grew by a factor above 1e6 (csrc/march/march.c, blowup_hint), not
%! % only that the window length fell; y' = exp(y) from 0 (a logarithmic singularity, y ~ 22 at
%! % the stop) grows too little for the hint
%! s = dual_solve (odesys ('states', {'y'}, 'rhs', {'y^2'}), [0 2], 1);
%! assert (s.exitflag, 0);
%! assert (~isempty (strfind (s.message, 'the window length fell')));
%! assert (~isempty (strfind (s.message, 'may have a singularity (a blow-up)')));
%! s = dual_solve (odesys ('states', {'y'}, 'rhs', {'exp(y)'}), [0 2], 0);
%! assert (s.exitflag, 0);
%! assert (isempty (strfind (s.message, 'blow-up')));

%!test
%! % units of time: Van der Pol (mu = 1) with time in units of Ts (x'' = ((1 - x^2) x' Ts - x)/Ts^2,
%! % AbsTol scaled with the velocity's unit).  Before the DtP map's test was made per component
%! % (csrc/dual/dual_ode.c, ode_newton_sweep: |r_i| <= 1e-13 (1 + max |c y|), which solved the smaller
%! % state to a fraction of its size only) both stalled with exitflag 0 (at t = 3.2e-6 and 2.2e6).
%! % The bound: 10 times the tolerance RelTol max|x| + AbsTol, as above (measured 2.8e-7, 4.2e-8)
%! for Ts = [1e-6 1e6]
%!   ode = odesys ('states', {'x', 'v'}, 'parameters', struct ('T', Ts), ...
%!                 'rhs', {'v', '((1 - x^2)*v*T - x)/T^2'});
%!   s = dual_solve (ode, [0 10] * Ts, [2 0], 'AbsTol', 1e-8 * min (1, 1/Ts));
%!   assert (s.exitflag, 1);
%!   [~, yr] = ode45 (@(t, y) [y(2); (1 - y(1)^2)*y(2) - y(1)], s.t / Ts, [2 0], ...
%!                    odeset ('RelTol', 1e-12, 'AbsTol', 1e-12));
%!   assert (max (abs (s.y(:, 1) - yr(:, 1))) <= 10 * (1e-6 * 2.1 + 1e-8));
%! end

%!test
%! % the same in units: with weights c of H in the states' own units (c_i ~ 1/X_i^2: 10 and
%! % 10 Ts^2 for x and v = dx/dt) and AbsTol negligible, the march in time units of 1e-6 s and
%! % 1e6 s takes the SI windows, rejections and Newton iterations exactly: Newton weights each
%! % state's equations by its own tolerance (csrc/dual/dual_march.c).  With one weight for all states
%! % it took 376 and 473 windows (40 and 67 rejected by Newton) against 75; with c = 10 for both
%! % states it still takes 91 and 110.  The default (automatic weights c_i = 10 / X_i^2 per
%! % window, X_i the state's size + AbsTol/RelTol; csrc/dual/dual_march.h) does the same by itself:
%! % measured 75 windows, 21 rejected, 193 iterations in all three units
%! n = zeros (3, 3);
%! na = zeros (3, 3);
%! units = [1 1e-6 1e6];
%! for q = 1:3
%!   Ts = units(q);
%!   ode = odesys ('states', {'x', 'v'}, 'parameters', struct ('T', Ts), ...
%!                 'rhs', {'v', '((1 - x^2)*v*T - x)/T^2'});
%!   s = dual_solve (ode, [0 10] * Ts, [2 0], 'AbsTol', 1e-12 * min (1, 1/Ts), 'c', [10, 10*Ts^2]);
%!   assert (s.exitflag, 1);
%!   n(q, :) = [numel(s.windows.t0), numel(s.rejected.t0), s.iterations];
%!   s = dual_solve (ode, [0 10] * Ts, [2 0], 'AbsTol', 1e-12 * min (1, 1/Ts));
%!   assert (s.exitflag, 1);
%!   na(q, :) = [numel(s.windows.t0), numel(s.rejected.t0), s.iterations];
%! end
%! assert (n(2, :), n(1, :));
%! assert (n(3, :), n(1, :));
%! assert (na(2, :), na(1, :));
%! assert (na(3, :), na(1, :));
%! assert (na(1, 1), n(1, 1));   % the same windows as with the weights in the states' units

%!test
%! % a stiff DAE with the defaults: Robertson's kinetics (rate constants 0.04, 3e7, 1e4; c from the
%! % conservation law a + b + c = 1 as an algebraic equation) against the reference values of
%! % Hairer and Wanner at t = 40.  Tolerance: RelTol |a| (7e-7) for a and c, AbsTol (1e-8) for
%! % b, per window; the fast transient is damped, so the errors do not accumulate (measured 2e-11
%! % and 2e-16).  The windows meet RK4's stability limit (sol.predict_stiff) and are predicted
%! % constant there.  On [0, 1000] the automatic weights of H (the default) take fewer than half
%! % the Newton iterations of c = 10 (measured 85 windows and 890 iterations against 322 and 4675;
%! % before the stiff prediction and the non-monotone line search of the windows, 1033 and 24265)
%! ro = odesys ('states', {'a', 'b', 'c'}, 'parameters', struct ('k1', 0.04, 'k2', 3e7, 'k3', 1e4), ...
%!              'rhs', {'-k1*a + k3*b*c', 'k1*a - k3*b*c - k2*b^2'}, 'algebraic', {'a + b + c - 1'});
%! s = dual_solve (ro, [0 40], [1 0]);
%! assert (s.exitflag, 1);
%! yr = [0.7158270687193685, 0.9185534764651102e-05, 0.2841637457458827];
%! assert (abs (s.y(end, :) - yr) <= [7e-7, 1e-8, 7e-7]);
%! assert (s.predict_stiff > 0);
%! sa = dual_solve (ro, [0 1000], [1 0]);
%! sf = dual_solve (ro, [0 1000], [1 0], 'c', 10);
%! assert ([sa.exitflag, sf.exitflag], [1 1]);
%! assert (abs (sa.y(end, :) - sf.y(end, :)) <= 2 * [7e-7, 1e-8, 7e-7]);
%! assert (2 * sa.iterations < sf.iterations);

%!test
%! % a state below AbsTol (doc/dual.md, "Limitations"): a harmonic oscillator in SI units at the
%! % atomic scale, x0 = 1e-10 m, w = 2 pi / 1e-13 s, five periods.  With the defaults x (below
%! % AbsTol 1e-8) is controlled only through v ~ 6e3 m/s; v within its tolerance RelTol max|v| +
%! % AbsTol (per window; the oscillator neither damps nor amplifies the error, measured 0.12).
%! % With weights c eight orders from x's size (AbsTol/RelTol taken as the size) Newton stops at
%! % rounding levels far above its residual scale (measured 5e4 to 4e6) and v was 132 tolerances
%! % off with exitflag 1: now exitflag 0, and the message says that the estimate does not bound
%! % the error and what to change.  With c from the states' own sizes, as the help says, the
%! % march is right again.
%! w = 2 * pi / 1e-13;
%! ho = odesys ('states', {'x', 'v'}, 'parameters', struct ('w', w), 'rhs', {'v', '-w^2*x'});
%! tv = 1e-6 * 1e-10 * w + 1e-8;
%! verr = @(s) max (abs (s.y(:, 2) + 1e-10 * w * sin (w * s.t))) / tv;
%! s = dual_solve (ho, [0 5e-13], [1e-10 0]);
%! assert (s.exitflag, 1);
%! assert (verr (s) <= 1);
%! assert (isempty (strfind (s.message, 'does not bound')));
%! sb = dual_solve (ho, [0 5e-13], [1e-10 0], 'c', 10 ./ [1e-2 6e3].^2);
%! assert (sb.exitflag, 0);
%! assert (strncmp (sb.message, 'not resolved to the tolerance: ', 31));
%! assert (~isempty (strfind (sb.message, 'the error estimate does not bound the error')));
%! assert (~isempty (strfind (sb.message, 'with X_i the size of state i')));
%! sg = dual_solve (ho, [0 5e-13], [1e-10 0], 'c', 10 ./ [1e-10 6e3].^2);
%! assert (sg.exitflag, 1);
%! assert (verr (sg) <= 1);
%! assert (isempty (strfind (sg.message, 'does not bound')));
