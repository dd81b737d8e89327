% Acceptance test of demos/demo_random_ode: the random ODE with the energy constraint (Zubelevich
% eqs. 3.1-3.3) with mu = N(0,1) discretized by the K-point Gauss-Hermite measure (Golub-Welsch),
% integrated by gauss_integrate with the ideal reaction of the velocity-quadratic constraint.
% References: the closed form 3.3 (for mu_K and for the Gaussian mu, with the predicted quadrature
% error |c_K - c| max(1 - cos t) max|C2|), the time of validity t* = pi/2 - atan(c) (first zero of
% udot), eq. 3.2, the exact Gaussian moments and the Christoffel weights.  Tolerances (explained in the demo):
% the sum of the per-step local error bounds B = N sqrt(2K) (AbsTol + RelTol max|y|) for the
% trajectory, h^3/6 + B/(||C2|| |udd(t*)|) for t*, 100 K eps and 1e-12 for the rounding-level checks.

%!shared r
%! r = demo_random_ode ('quiet');

%!test
%! % closed-form constants: c = exp(-1/2)/(3/2 - exp(-2)/2), t* = pi/2 - atan(c)
%! assert (r.c, exp (-1/2) / (3/2 - exp (-2) / 2), 1e-15);
%! assert (r.tstar, pi / 2 - atan (r.c), 1e-15);
%! assert (r.tstar, 1.1702336380674, 1e-12);
%! assert ([r.conv.K], [2 3 4 6 8 12 16 24]);

%!test
%! % every comparison within its justified tolerance
%! c = r.checks(~[r.checks.info]);
%! assert (numel (c) >= 50);
%! for j = 1:numel (c)
%!   if ~(c(j).error <= c(j).tol)
%!     error ('%s: error %g > tol %g', c(j).name, c(j).error, c(j).tol);
%!   end
%! end
%! assert (r.pass);

%!test
%! % per K: the discrete system follows 3.3 (mu_K) before and after t*_K, the located time of
%! % validity is t*_K, the constraint holds
%! for k = 1:numel (r.conv)
%!   v = r.conv(k);
%!   assert (v.err_classical <= v.B);
%!   assert (v.err_generalized <= v.B);
%!   assert (abs (v.tstar_num - v.tstarK) <= v.tstar_tol);
%!   assert (v.residual <= v.residual_tol);
%!   assert (abs (v.err_gauss - v.err_gauss_pred) <= v.B);
%! end

%!test
%! % convergence in K against the Gaussian closed form: strictly decreasing up to K = 12, the
%! % quadrature error is what separates it (0.12 at K = 2), and t*_K -> t*
%! eg = [r.conv.err_gauss];
%! assert (all (diff (eg(1:6)) < 0));
%! assert (eg(1) > 0.1);
%! assert (eg(6) < 1e-8);
%! assert (abs (r.conv(end).tstar_num - r.tstar) < 1e-9);
%! assert (abs (r.conv(1).tstarK - r.tstar) > 0.05);

%!test
%! % the kinetic metric must be the L2(mu_K) one: the Euclidean metric gives an O(1) error
%! c = r.checks(strncmp ({r.checks.name}, 'Euclidean', 9));
%! assert (numel (c), 1);
%! assert (c.error > 0.1);

%!test
%! d = tempname ();
%! mkdir (d);
%! unwind_protect
%!   demo_random_ode ('quiet', 'png', d);
%!   f = dir (fullfile (d, '*.png'));
%!   assert (numel (f), 4);
%!   assert (all ([f.bytes] > 1000));
%! unwind_protect_cleanup
%!   confirm_recursive_rmdir (false, 'local');
%!   rmdir (d, 's');
%! end_unwind_protect
