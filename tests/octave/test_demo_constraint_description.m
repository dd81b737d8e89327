% Acceptance test of demos/demo_constraint_description: the ideal reaction does not depend on the
% function that describes the constraint set (Zubelevich, Remark 3, Sec. 6, eq. 1.4), shown for the
% random ODE with the energy constraint (Sec. 3, K = 8 Gauss-Hermite nodes) and the geodesics on a
% quadric (Sec. 2.1, n = 4 and 6), each written as phi, h(phi) = phi^3 + 2 phi and k phi (k > 0).
% Predicted (derived in the demo's help): same reaction and motion; lambda_phi = h'(0) lambda_h =
% 2 lambda_h and lambda_phi = k(z) lambda_k on S.  Tolerances (demo's help): 1e-12 relative at
% states on S (rounding); along the dopri5 runs, the sum of the two runs' local error bounds
% B = N sqrt(2n) (AbsTol + RelTol max|y|) for the motions, and for the multipliers
% max||grad lambda_phi||_1 (B_phi + B_sigma) + the measured off-S part of Gauss's formulas + 100 n eps.
% The degenerate phi^3 (Hypothesis 2 fails on S) must be refused at an exact initial state.

%!shared r
%! r = demo_constraint_description ('quiet');

%!test
%! assert ({r.systems.name}, {'random ODE K=8', 'quadric n=4', 'quadric n=6'});
%! for k = 1:3
%!   assert (r.systems(k).hprime, 2);
%!   assert (numel (r.systems(k).descriptions), 4);
%! end

%!test
%! % every comparison within its justified tolerance
%! c = r.checks(~[r.checks.info]);
%! assert (numel (c), 36);
%! for j = 1:numel (c)
%!   if ~(c(j).error <= c(j).tol)
%!     error ('%s %s: error %g > tol %g', c(j).part, c(j).name, c(j).error, c(j).tol);
%!   end
%! end
%! assert (r.pass);

%!test
%! % same motion to the integrator accuracy, multipliers related by h'(0) and k(z(t))
%! for k = 1:3
%!   S = r.systems(k);
%!   assert (all (S.motion_err <= S.motion_tol));
%!   assert (all (S.lambda_err <= S.lambda_tol));
%!   l = S.lambda;
%!   % directly: the ratios against the predictions (relative, far below the tolerances)
%!   assert (max (abs (l{1} ./ l{2} - 2)) < 1e-8);
%!   assert (max (abs (l{1} ./ l{3} ./ S.kpred - 1)) < 1e-6);
%!   % the multipliers do differ: k varies along the motion by more than 20 %
%!   assert (max (S.kpred) / min (S.kpred) > 1.2);
%!   assert (max (abs (l{1} - l{3})) > 0.1 * max (abs (l{1})));
%! end

%!test
%! % on S: accelerations of the three descriptions equal to rounding, lambda relation to rounding
%! c = r.checks(strncmp ({r.checks.name}, 'on S:', 5));
%! assert (numel (c), 15);
%! assert (all ([c.error] <= 1e-12));

%!test
%! % the degenerate description phi^3: refused at an exact initial state, with the reason
%! for k = 1:3
%!   d = r.systems(k).degenerate;
%!   assert (d.refused);
%!   assert (~isempty (strfind (d.message, 'rank-deficient')));
%!   assert (~isempty (strfind (d.message, 'vanishes')));
%!   assert (d.phi0 ~= 0 && abs (d.phi0) < 1e-14);
%!   if d.exitflag == 1
%!     % the factor 3 phi^2 cancels in Gauss's formula: right motion, absurd multiplier
%!     assert (d.motion_err < 1e-8);
%!     assert (d.max_lambda > 1e20);
%!   else
%!     assert (~isempty (strfind (d.run_message, 'singular')));
%!   end
%! end

%!test
%! d = tempname ();
%! mkdir (d);
%! unwind_protect
%!   demo_constraint_description ('quiet', 'png', d);
%!   f = dir (fullfile (d, '*.png'));
%!   assert (numel (f), 2);
%!   assert (all ([f.bytes] > 1000));
%! unwind_protect_cleanup
%!   confirm_recursive_rmdir (false, 'local');
%!   rmdir (d, 's');
%! end_unwind_protect
