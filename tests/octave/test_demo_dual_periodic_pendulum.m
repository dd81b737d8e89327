% Acceptance test of demos/demo_dual_periodic_pendulum: the pendulum th'' = -g sin th (g = 1) by
% periodic_orbit (the dual action on a circle, Acharya & Sengupta Remark 5), a conservative system
% with a family of orbits, against T = 4 K(m)/sqrt (g), m = sin^2 (a/2), for a = 0.5, 2, 3.
% (1) with "Integral" E = w^2/2 - g cos th, "Level" -g cos a and "Unfolding" grad E, from the true
%     orbit (ode45 1e-12) with T + 1 % and the states + 3e-3: T to 1e-10, e = 0 to 1e-10, the
%     energy at the nodes to 1e-9, the ode45 (1e-12) closure <= 1e-9, both Floquet multipliers 1
%     to 1e-4 (a Jordan block: M = I - T'(E) F grad E', checked to 1e-6 relative, det M = 1);
%     the shooting matrices from ode45: [M - I, F] and its phase-conditioned square form singular
%     (s_min/s_max <= 1e-9) with the family's direction as null vector, regular (>= 1e-7) with the
%     energy row and the unfolding column.
% (2) the same from a circle: a = 0.5 and 2 converge (a = 3, far from the circle, is not asserted).
% (3) without "Integral": from the true orbit exitflag 1 with the note on the family, and T is the
%     closed form at the energy of the member found to 1e-10 (that energy differs from the
%     guess's).  From the rough guess Newton stalls (not asserted).

%!shared r, d
%! d = tempname ();
%! mkdir (d);
%! r = demo_dual_periodic_pendulum ('quiet', 'png', d);

%!test
%! % the verdict
%! assert (r.pass);

%!test
%! % the closed forms (independent of the demo's code): T = 4 K(m), m = sin^2 (a/2), E = -cos a
%! assert (r.amplitudes, [0.5 2 3]);
%! assert ([r.exact.T], 4 * ellipke (sin ([0.5 2 3] / 2) .^ 2), 1e-13);
%! assert ([r.exact.E], -cos ([0.5 2 3]), 1e-15);
%! % a = 2: 4 K(sin^2 1) = 8.34975292691849 (doc/periodic.md)
%! assert (abs (r.exact(2).T - 8.3497529269) < 1e-9);

%!test
%! % (1) with the energy condition, from the rough guess
%! for k = 1:3
%!   s = r.integral(k);
%!   assert (s.exitflag, 1);
%!   assert (s.T_err <= 1e-10);
%!   assert (abs (s.unfolding) <= 1e-10);
%!   assert (s.energy_err <= 1e-9);
%!   assert (s.closure_ode45 <= 1e-9);
%!   % both multipliers 1 (a Jordan block: they split by about sqrt (error))
%!   assert (numel (s.floquet), 2);
%!   assert (max (abs (s.floquet - 1)) <= 1e-4);
%!   assert (s.monodromy_err <= 1e-6);
%!   assert (s.jordan > 0.1);
%!   assert (s.det_err <= 1e-9);
%!   % the family: singular without, regular with the energy condition
%!   assert (s.sv_closure <= 1e-9);
%!   assert (s.sv_phase <= 1e-9);
%!   assert (s.null_err <= 1e-6);
%!   assert (s.sv_energy >= 1e-7);
%! end

%!test
%! % (2) from a circle: converges for a = 0.5 and 2
%! for k = 1:2
%!   c = r.circle(k);
%!   assert (c.exitflag, 1);
%!   assert (c.T_err <= 1e-10);
%! end

%!test
%! % (3) without the energy condition, from the true orbit: a member of the family, with the note
%! for k = 1:3
%!   f = r.free(k);
%!   assert (f.exitflag, 1);
%!   assert (f.note);
%!   assert (max (abs (f.floquet - 1)) <= 1e-4);
%!   assert (f.T_family_err <= 1e-10);
%!   % T is 4 K at the member's own energy, recomputed here
%!   assert (abs (f.T - 4 * ellipke ((1 + f.E) / 2)) <= 1e-10 * f.T);
%! end

%!error <unknown option> demo_dual_periodic_pendulum ('quiet', 'Bogus', 1)

%!test
%! unwind_protect
%!   f = dir (fullfile (d, '*.png'));
%!   assert (numel (f), 1);
%!   assert (f(1).name, 'demo_dual_periodic_pendulum.png');
%!   assert (f(1).bytes > 1000);
%! unwind_protect_cleanup
%!   confirm_recursive_rmdir (false, 'local');
%!   rmdir (d, 's');
%! end_unwind_protect
