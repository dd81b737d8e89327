% Acceptance test of demos/demo_dual_periodic_lorenz: the shortest periodic orbits of the Lorenz
% attractor (s = 10, r = 28, b = 8/3) found by periodic_orbit (the dual action on a circle,
% Acharya & Sengupta Sec. 3, Remark 5) from the candidates of periodic_guesses (trajectory from
% (1, 1, 1) over [0, 2000], MaxLoops 5), against references independent of varmech.
% (1) all 7 primitive itineraries of length 2..5 (up to rotation and A<->B) are found; 1-loop
%     candidates end with exitflag 0 (there is no 1-loop orbit); candidates converging to the same
%     orbit agree on T to PeriodTol = 1e-10; the labels are re-derived here by another rule (the
%     sign of x at the crossings of z = 27 with |x| > 8.49 instead of at the maxima of z).
% (2) every orbit: |T - T_shoot|/T <= 1e-10 (shooting: Newton on the ode45 flow map at 1e-13; both
%     periods are accurate to ~1e-12), the ode45 closure (1e-13) <= 1e-9 (orbit error amplified by
%     mu_1 <= 44 plus ode45's error), mu_1 against the central-difference
%     monodromy (h = 1e-5) to 1e-6 relative (the difference error, estimated from 2h, <= 1e-8).
% (3) from the AB and AAB orbits with T + 1 % and the states + 3e-3: the same T to 1e-10; the other
%     5 orbits (AAAB, AABB, AAAAB, AAABB, AABAB) from the same kind of rough guess, made here: the
%     same T to 1e-10 and the shooting period to 1e-10.

%!shared r, d
%! d = tempname ();
%! mkdir (d);
%! r = demo_dual_periodic_lorenz ('quiet', 'png', d);

%!test
%! % the verdict
%! assert (r.pass);

%!test
%! % (1) the list of itineraries (combinatorics), all found, the success rate as reported
%! assert (r.expected, {'AB', 'AAB', 'AAAB', 'AABB', 'AAAAB', 'AAABB', 'AABAB'});
%! assert (all ([r.orbits.found]));
%! assert (all (ismember (r.expected, r.distinct)));
%! c = r.candidates;
%! assert (r.tried, numel (c));
%! assert (r.converged, sum ([c.exitflag] == 1));
%! assert (r.success_rate, r.converged / r.tried, eps);
%! % no 1-loop orbit: all 1-loop candidates fail (and there are some)
%! one = [c.loops] == 1;
%! assert (any (one));
%! assert (all ([c(one).exitflag] == 0));
%! assert (r.one_loop_converged, 0);
%! % a converged candidate of p loops has p symbols (one maximum of z per loop)
%! ok = [c.exitflag] == 1;
%! assert (all (cellfun ('length', {c(ok).label}) == [c(ok).loops]));
%! assert (r.same_label_spread <= 1e-10);

%!test
%! % (1) the labels by another rule: the sign of x where the orbit crosses the plane z = r - 1 = 27
%! % of the fixed points C+- = (+-8.49, +-8.49, 27) on the outer side, |x| > sqrt (b (r - 1)) (once
%! % per loop around a wing; the inner crossings are not unique: a wide loop around C+ can cross
%! % z = 27 on its inner side at x < 0)
%! for i = 1:numel (r.orbits)
%!   o = r.orbits(i);
%!   z = o.y(1:end - 1, 3) - 27;
%!   x = o.y(1:end - 1, 1);
%!   k = find (sign (z) ~= sign (circshift (z, -1)) & abs (x) > sqrt (8 / 3 * 27));
%!   assert (numel (k), numel (o.label));
%!   w = repmat ('A', 1, numel (k));
%!   w(x(k) < 0) = 'B';
%!   n = numel (w);
%!   words = {};
%!   for s = 0:n - 1
%!     words{end + 1} = circshift (w, [0, -s]);
%!     words{end + 1} = char ('A' + 'B' - circshift (w, [0, -s]));
%!   end
%!   words = sort (words);
%!   assert (words{1}, o.label);
%! end

%!test
%! % (2) independent references: shooting period, ode45 closure, FD monodromy
%! for i = 1:numel (r.orbits)
%!   o = r.orbits(i);
%!   assert (o.T_rel_err <= 1e-10, '%s: T %.15g vs shooting %.15g', o.label, o.T, o.T_shoot);
%!   assert (o.closure_ode45 <= 1e-9, '%s: ode45 closure %.3g', o.label, o.closure_ode45);
%!   assert (o.mu1_rel_err <= 1e-6, '%s: mu_1 %.12g vs FD %.12g', o.label, real (o.mu1), ...
%!           real (o.mu1_fd));
%!   % the tolerances' premises: shooting converged, FD error small, the period converged
%!   assert (o.shoot_dT <= 1e-9 * o.T);
%!   assert (o.fd_estimate <= 1e-8);
%!   assert (o.period_error <= 1e-10 * o.T);
%!   assert (abs (imag (o.mu1)), 0);
%!   assert (real (o.mu1) > 1);
%! end
%! % the periods increase with the number of loops (sanity)
%! n = cellfun ('length', {r.orbits.label});
%! T = [r.orbits.T];
%! for p = 3:5
%!   assert (min (T(n == p)) > max (T(n == p - 1)));
%! end

%!test
%! % (3) from a rough guess: T + 1 %, states + 3e-3
%! q = r.rough;
%! assert ({q.label}, {'AB', 'AAB'});
%! assert ([q.exitflag], [1, 1]);
%! assert (all ([q.rel_diff] <= 1e-10));
%! assert ([q.T_guess], 1.01 * [q.T_ref], 1e-12);

%!test
%! % (3) the other 5 orbits from a rough guess: time stretched by 1 % (T + 1 %), the states
%! % perturbed by 3e-3 (sin s, cos 2s, sin (3s + 1)), s = 2 pi t/T, as the demo does for AB and AAB
%! lor = odesys ('states', {'x', 'y', 'z'}, 'parameters', struct ('s', 10, 'r', 28, 'b', 8/3), ...
%!               'rhs', {'s*(y - x)', 'x*(r - z) - y', 'x*y - b*z'});
%! labels = {'AAAB', 'AABB', 'AAAAB', 'AAABB', 'AABAB'};
%! for i = 1:numel (labels)
%!   o = r.orbits(strcmp ({r.orbits.label}, labels{i}));
%!   assert (o.found);
%!   sarg = 2 * pi * o.t / o.T;
%!   yg = o.y + 3e-3 * [sin(sarg), cos(2 * sarg), sin(3 * sarg + 1)];
%!   s = periodic_orbit (lor, o.t * 1.01, yg);
%!   assert (s.exitflag == 1, '%s: %s', o.label, s.message);
%!   assert (abs (s.T - o.T) <= 1e-10 * o.T, '%s: T %.15g vs %.15g', o.label, s.T, o.T);
%!   assert (abs (s.T - o.T_shoot) <= 1e-10 * o.T_shoot, '%s: T %.15g vs shooting %.15g', ...
%!           o.label, s.T, o.T_shoot);
%! end

%!error <unknown option> demo_dual_periodic_lorenz ('quiet', 'Bogus', 1)

%!test
%! unwind_protect
%!   f = dir (fullfile (d, '*.png'));
%!   assert (numel (f), 1);
%!   assert (f(1).name, 'demo_dual_periodic_lorenz.png');
%!   assert (f(1).bytes > 1000);
%! unwind_protect_cleanup
%!   confirm_recursive_rmdir (false, 'local');
%!   rmdir (d, 's');
%! end_unwind_protect
