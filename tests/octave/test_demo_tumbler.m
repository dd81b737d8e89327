% Acceptance test of demos/demo_tumbler: a point mass in a circular tumbler with hard walls
% (Rothkopf & Horowitz, eq. 11, Fig. 3) against a semi-analytic chain of parabolas and reflections.
% The free flights are exact for dopri5, so every error comes from the event location, whose
% bracket tolerance is tau_ev = 1e-12 max(1, |t|) with the result on the far side: the local
% impact-time errors must lie in [0, tau_ev] (plus 1e-14 rounding), the global ones within the
% propagation of these local errors through the reference chain (finite differences), energy for
% e = 1 within RelTol m g R, and the impulse algebra (normal ratio -e, tangential jump 0, energy loss
% (1-e^2) m vn^2/2, M-metric impulse = reflection) to 1e-12.  Part D (e < 1 towards the accumulation
% of impacts) needs every impact, also one whose whole flight fits into the first step after the
% previous impact (the restart point lies on the far side, h < 0, and moves inwards).

%!shared r
%! r = demo_tumbler ('quiet');

%!test
%! % A: the paper's grid (N = 256 points on [0, 1/2]); two impacts, as in the paper's text
%! A = r.paper;
%! assert (A.N, 256);
%! assert (A.nimpacts, 2);
%! assert (A.nimpacts_ref, 2);
%! assert (A.nrows, A.N);
%! assert (all (A.grid_err <= A.grid_tol));
%! assert (max (A.grid_tol) < 1e-10);

%!test
%! % B: e = 1 on [0, 3]: impact times and positions, energy, impulse
%! B = r.elastic;
%! assert (B.nimpacts, B.nimpacts_ref);
%! assert (B.nimpacts, 12);
%! assert (B.tol_local, 1e-12 * max (1, abs (B.t)) + 1e-14, 1e-20);
%! assert (all (B.err_local <= B.tol_local));
%! assert (all (B.err_local >= -1e-14));
%! assert (all (abs (B.err_global) <= B.tol_global));
%! assert (max (B.tol_global) < 1e-10);
%! assert (all (B.err_pos <= B.tol_pos));
%! assert (max (B.tol_pos) < 1e-10);
%! assert (B.energy_drift <= B.energy_tol);
%! assert (B.energy_tol, 1e-10 * 9.8, 1e-20);
%! assert (B.impulse_err <= 1e-12);
%! assert (B.normal_ratio, -ones (size (B.normal_ratio)), 1e-12);

%!test
%! % C: e = 0.8 on [0, 1.05]: as B, plus the e^2 loss of normal kinetic energy
%! C = r.inelastic;
%! assert (C.e, 0.8);
%! assert (C.nimpacts, C.nimpacts_ref);
%! assert (C.nimpacts, 10);
%! assert (all (C.err_local <= C.tol_local));
%! assert (all (C.err_local >= -1e-14));
%! assert (all (abs (C.err_global) <= C.tol_global));
%! assert (all (C.err_pos <= C.tol_pos));
%! assert (all (C.err_E <= C.tol_E));
%! assert (max (C.tol_E) < 1e-10);
%! assert (C.kn_ratio, 0.64 * ones (size (C.kn_ratio)), 1e-12);
%! assert (max (C.tangential_jump) <= 1e-12);
%! assert (C.energy_loss, C.energy_loss_ref, 1e-12 * max (abs (C.E_before)));
%! assert (all (C.energy_loss > 0));
%! assert (C.impulse_err <= 1e-12);
%! assert (C.flight_energy_dev <= 1e-10 * 9.8);

%!test
%! % D: towards the accumulation point every impact must be found and the particle stay in the disc
%! D = r.accumulation;
%! assert (D.nimpacts, D.nimpacts_ref);
%! assert (D.overshoot <= D.overshoot_tol);

%!test
%! % E: the paper's regularized wall; misprint of the force (barrier V0/2), convergence in sigma
%! E = r.soft;
%! assert (E.barrier, E.V0_paper / 2, 1e-9 * E.V0_paper);
%! assert (E.force_diff <= 1e-12);
%! assert (all (diff (E.deviation) < 0));
%! assert (E.deviation(end) < 1e-2);
%! assert (E.energy_return(end) <= E.energy_tol);

%!test
%! % every row of the printed table outside part D passes
%! c = r.checks(~strcmp ({r.checks.part}, 'D'));
%! assert (all ([c.pass]));

%!test
%! d = tempname ();
%! mkdir (d);
%! unwind_protect
%!   demo_tumbler ('quiet', 'png', d);
%!   f = dir (fullfile (d, '*.png'));
%!   assert (numel (f), 2);
%!   assert (all ([f.bytes] > 1000));
%! unwind_protect_cleanup
%!   confirm_recursive_rmdir (false, 'local');
%!   rmdir (d, 's');
%! end_unwind_protect
