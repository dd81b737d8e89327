% Acceptance test of demos/demo_incline: a particle sliding on the incline y = x tan(alpha),
% alpha = pi/6, with and without kinetic friction mu = 0.4 (Rothkopf & Horowitz Fig. 4).
% Reference: the closed form s = 1 + a t^2/2, a = -g (sin(alpha) - mu cos(alpha)), plus the
% corrections derived in the demo: the speed gain of the smoothed friction law
% (epsv m log(2 s_a/(s_a - m))/(s_a + m) for tanh, epsv m J(m) for v/sqrt(v^2 + epsv^2)), the exact
% coupling mu (d - d0) of the normal oscillation of the soft contact into s, the equilibrium offset
% d* of the regularized barrier and the turning points of the normal motion from energy conservation.
% Integration tolerances are 10 * RelTol * S (S the scale of the quantity), plus the sampling bound
% |ddot| (dt/2)^2/2 where a maximum over output times is compared with a turning point.

%!shared r, p, rt, Ss, Sv, SN
%! r = demo_incline ('quiet');
%! p = r.params;
%! rt = r.reltol;
%! Ss = 1.45;
%! Sv = 4.9;
%! SN = p.M * p.g * cos (p.alpha);

%!test
%! assert (rt, 1e-10);
%! assert ([p.M, p.g, p.alpha, p.mu, p.T, p.V0], [1, 9.8, pi/6, 0.4, 1, 5]);
%! % the paper's start is on the side x tan(alpha) - y = -delta < 0: the admissible side is <= 0
%! assert (r.paper_force.x_tan_minus_y, -1/30, 1e-15);
%! % varmech's contact force for h = d >= 0, sigma_h = sigma cos(alpha) equals the paper's F_N and F_R
%! assert (r.paper_force.FN, r.paper_force.FN_paper, 1e3 * eps * norm (r.paper_force.FN_paper));
%! assert (r.paper_force.FR, r.paper_force.FR_paper, 1e3 * eps * norm (r.paper_force.FR_paper));
%! assert (r.paper_force.FN, [-5.2987, 9.1777], 1e-4);

%!test
%! % (a) frictionless, holonomic line, ideal reaction: closed form s(1) = -1.45, v(1) = -4.9;
%! % the multiplier is the normal force M g cos(alpha)
%! L = r.line(1);
%! assert (L.mu, 0);
%! assert (abs (L.s(end) - (1 - p.g * sin (p.alpha) / 2)) <= 10 * rt * Ss);
%! assert (abs (L.v(end) + p.g * sin (p.alpha)) <= 10 * rt * Sv);
%! assert (max (abs (L.lambda - SN)) <= 10 * rt * SN);
%! assert (L.residual_position <= 10 * rt * Ss);

%!test
%! % (b) friction as an explicit force mu M g cos(alpha) tanh(sdot/epsv): the closed form up to the
%! % derived smoothing gain (0.7668 epsv in speed), and exactly the corrected closed form
%! L = r.line(2);
%! sa = sin (p.alpha);
%! m = p.mu * cos (p.alpha);
%! a = -p.g * (sa - m);
%! gain = p.epsv_line * m * log (2 * sa / (sa - m)) / (sa + m);
%! assert (L.gain_v, gain, 1e-15);
%! assert (L.gain_v / p.epsv_line, 0.7668, 1e-4);
%! assert (L.gain_s < L.gain_v && L.gain_v - L.gain_s < 3e-9);
%! assert (abs (L.v(end) - (a - L.gain_v)) <= 10 * rt * Sv);
%! assert (abs (L.s(end) - (1 + a / 2 - L.gain_s)) <= 10 * rt * Ss);
%! assert (abs (L.v(end) - a) > 0.9 * gain);
%! assert (max (abs (L.lambda - SN)) <= 10 * rt * SN);

%!test
%! % (c) soft contact with the paper's sigma = 1/70, V0 = 5, delta = 1/30
%! S0 = r.soft(1);
%! S1 = r.soft(2);
%! sa = sin (p.alpha);
%! % the paper's delta is within 4% of the equilibrium offset delta* = d*/cos(alpha) (M = 1)
%! assert (S0.dstar / cos (p.alpha), 0.03467, 1e-5);
%! assert (abs (S0.dstar / cos (p.alpha) - p.delta_paper) < 0.04 * p.delta_paper);
%! % mu = 0: the tangential motion is the closed form whatever the normal oscillation
%! assert (abs (S0.s(end) - S0.s(1) + p.g * sa / 2) <= 10 * rt * Ss);
%! assert (abs (S0.v(end) + p.g * sa) <= 10 * rt * Sv);
%! % mu = 0.4: s - s0 - mu (d - d0) is the closed form less the smoothing gain
%! a = -p.g * (sa - p.mu * cos (p.alpha));
%! assert (abs (S1.s(end) - S1.s(1) - p.mu * (S1.d(end) - S1.d0) - (a / 2 - S1.gain)) <= 10 * rt * Ss);
%! assert (abs (S1.v(end) - p.mu * S1.ddot(end) - (a - S1.gain)) <= 10 * rt * Sv);
%! % the normal motion oscillates between d0 and the turning point d1 of U(d1) = U(d0)
%! dt = r.t(2) - r.t(1);
%! sh = p.sigma_paper * cos (p.alpha);
%! for k = 1:2
%!   S = r.soft(k);
%!   assert (S.d0, p.delta_paper * cos (p.alpha), 1e-15);
%!   assert (min (S.d) >= S.d0 - 10 * rt * Ss);
%!   assert (max (S.d) <= S.d1 + 10 * rt * Ss);
%!   acc1 = abs (p.V0 / (sqrt (2 * pi) * sh) * exp (-S.d1 ^ 2 / (2 * sh ^ 2)) / p.M - p.g * cos (p.alpha));
%!   assert (S.d1 - max (S.d) <= acc1 * (dt / 2) ^ 2 / 2 + 10 * rt * Ss);
%! end

%!test
%! % sigma sweep started at delta*(sigma): the error at t = 1 is the offset, |delta* y - gain e|,
%! % and decreases with sigma; the particle stays at the equilibrium d*
%! w = r.sweep;
%! assert (numel (w.sigma), 6);
%! assert (all (abs (w.err - w.pred) <= 10 * rt * Ss));
%! assert (all (diff (w.sigma) < 0));
%! assert (all (diff (w.err) < 0));
%! assert (all (abs (w.err - w.delta) < 1e-7));
%! assert (all (w.dev <= 10 * rt * Ss));

%!test
%! % started on the incline, the regularized barrier throws the mass up to U(d1) = V0/2
%! dt = r.t(2) - r.t(1);
%! assert (r.launch.d1, 0.29457, 1e-5);
%! assert (abs (r.launch.dmax - r.launch.d1) <= p.g * cos (p.alpha) * (dt / 2) ^ 2 / 2 + 10 * rt * Ss);

%!test
%! assert (numel (r.checks), 34);
%! assert (all ([r.checks.pass]));
%! assert (r.pass);
%! r6 = demo_incline ('quiet', 'RelTol', 1e-6);
%! assert (r6.pass);

%!test
%! d = tempname ();
%! mkdir (d);
%! unwind_protect
%!   demo_incline ('quiet', 'png', d);
%!   f = dir (fullfile (d, '*.png'));
%!   assert (numel (f), 3);
%!   assert (all ([f.bytes] > 1000));
%! unwind_protect_cleanup
%!   confirm_recursive_rmdir (false, 'local');
%!   rmdir (d, 's');
%! end_unwind_protect
