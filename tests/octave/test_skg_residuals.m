% skg_solve's sol.residual, sol.residual_position and sol.energy, computed in the gateway on the
% model compiled for the solve (csrc/reference/mech_points.h, vm_mech_points_residuals), against their
% definitions (gauss_integrate's, as the former inst/private/vm_constraint_residuals.m computed
% them with mechsys_eval): every constraint at velocity level (g, or g_q qdot + g_t for a
% holonomic one), the holonomic ones at position level (0 for the others), qdot . dL/dqdot - L;
% NaN rows after a failed window.  Agreement to 1e-14 relative to the size of the terms.  Also:
% one compilation of the model per call, and the initial-state error before the errors of the
% options that skg_solve checked after it (memory, Guess, the integrator's guess).

%!function [phi, gpos, energy, scale] = reference (sys, t, q, qdot)
%!  % the definitions with mechsys_eval (the former vm_constraint_residuals)
%!  npts = numel (t);  m = sys.m;
%!  phi = NaN (npts, m);  gpos = NaN (npts, m);  energy = NaN (npts, 1);  scale = ones (1, m);
%!  ok = all (isfinite ([t(:) q qdot]), 2);
%!  k = find (ok);
%!  if (m == 0)
%!    e = mechsys_eval (sys, t(ok), q(ok, :), qdot(ok, :), 'blocks', {'eom'});
%!    energy(ok) = e.energy;
%!    return;
%!  end
%!  e = mechsys_eval (sys, t(ok), q(ok, :), qdot(ok, :), 'blocks', {'eom', 'constraints'});
%!  energy(ok) = e.energy;
%!  s = mechsys_eval (sys, t(k(1)), q(k(1), :), qdot(k(1), :), 'blocks', {'constraints'}, ...
%!                    'layout', 'compact');
%!  vel = false (1, m);
%!  vel(s.row(strcmp (s.field, 'g_qdot'))) = true;
%!  for a = 1:m
%!    if (vel(a))
%!      phi(k, a) = e.g(:, a);
%!      gpos(k, a) = 0;
%!      scale(a) = max ([1; abs(e.g(:, a))]);
%!    else
%!      ga_q = reshape (e.g_q(:, a, :), numel (k), sys.n);
%!      phi(k, a) = sum (ga_q .* qdot(k, :), 2) + e.g_t(:, a);
%!      gpos(k, a) = e.g(:, a);
%!      scale(a) = max ([1; sum(abs (ga_q .* qdot(k, :)), 2) + abs(e.g_t(:, a)); abs(e.g(:, a))]);
%!    end
%!  end

%!function check (sys, sol)
%!  [phi, gpos, energy, scale] = reference (sys, sol.t, sol.q, sol.qdot);
%!  N = numel (sol.t);
%!  assert (size (sol.residual), [N sys.m]);
%!  assert (size (sol.residual_position), [N sys.m]);
%!  assert (size (sol.energy), [N 1]);
%!  assert (isequal (isnan (sol.residual), isnan (phi)));
%!  assert (isequal (isnan (sol.residual_position), isnan (gpos)));
%!  assert (isequal (isnan (sol.energy), isnan (energy)));
%!  ok = ~isnan (energy);
%!  assert (sol.energy(ok), energy(ok), -1e-14);
%!  for a = 1:sys.m
%!    assert (sol.residual(ok, a), phi(ok, a), 1e-14 * scale(a));
%!    assert (sol.residual_position(ok, a), gpos(ok, a), 1e-14 * scale(a));
%!  end

%!shared disk, pend, knife, osc
%! [~, disk] = skg_problem_params ('disk');
%! pend = mechsys ('coordinates', {'x', 'y'}, 'parameters', struct ('g', 9.81, 'l', 1), ...
%!   'lagrangian', '(dot(x)^2 + dot(y)^2)/2 - g*y', 'constraints', {'x^2 + y^2 - l^2'});
%! % a holonomic constraint that depends on t and a nonholonomic one
%! knife = mechsys ('coordinates', {'x', 'y', 'phi'}, 'parameters', struct ('g', 9.81), ...
%!   'lagrangian', '(dot(x)^2 + dot(y)^2)/2 + dot(phi)^2/10 - g*y', ...
%!   'constraints', {'y - x*t/10', 'dot(x)*sin(phi) - dot(y)*cos(phi)'});
%! osc = mechsys ('coordinates', {'x'}, 'lagrangian', 'dot(x)^2/2 - x^2/2');

%!test  % nonholonomic: the rolling disk of the benchmark (fixed grid, constant guess)
%! sol = skg_solve (disk, [0 2*pi], [0 0 0 0], [5 0 5 1], 'N', 64, 'Order', 4, 'Guess', 'constant');
%! assert (sol.exitflag, 1);
%! check (disk, sol);

%!test  % holonomic: the pendulum, error control
%! sol = skg_solve (pend, [0 3], [sin(1) -cos(1)], [0 0], 'RelTol', 1e-8);
%! assert (sol.exitflag, 1);
%! check (pend, sol);
%! assert (max (abs (sol.residual_position(:))) < 1e-8);

%!test  % mixed, with a time-dependent holonomic constraint
%! sol = skg_solve (knife, [0 1], [0.5 0 atan(0.05)], [1 0.05 0.5], 'N', 33, 'Windows', 4);
%! assert (sol.exitflag, 1);
%! check (knife, sol);

%!test  % no constraints: energy only (N-by-0 residuals)
%! sol = skg_solve (osc, [0 2], 1, 0, 'N', 33, 'Windows', 2);
%! assert (sol.exitflag, 1);
%! check (osc, sol);
%! assert (max (abs (sol.energy - 0.5)) < 1e-4);   % measured 9.0e-6 (discretization)

%!test  % a failed window: NaN rows after it
%! warning ('off', 'varmech:skg_solve:unresolved', 'local');
%! sol = skg_solve (pend, [0 30], [sin(1) -cos(1)], [0 0], 'N', 9, 'Windows', 3, 'MaxIter', 1);
%! assert (sol.exitflag, 0);
%! assert (any (isnan (sol.energy)));
%! check (pend, sol);

%!test  % one compilation of the model per call (the initial check, the solve, the residuals)
%! n0 = vm_skg_mex ('compiles');
%! skg_solve (disk, [0 2*pi], [0 0 0 0], [5 0 5 1], 'N', 64, 'Order', 4, 'Guess', 'constant');
%! assert (vm_skg_mex ('compiles') - n0, 1);

%!test  % the initial state is reported before the options checked after it
%! q0 = [1 1];  % off the circle
%! msg = 'skg_solve: the initial state violates constraint 1';
%! for args = {{'N', 33, 'Windows', 2}, {'Guess', 'integrator', 'N', 33, 'Windows', 2}, ...
%!             {'Guess', 'constant'}, {'Guess', 'nonsense', 'N', 33, 'Windows', 2}, ...
%!             {'Guess', zeros(3, 2), 'N', 33, 'Windows', 2}, ...
%!             {'N', 1e9, 'Windows', 1e6}}
%!   try
%!     skg_solve (pend, [0 1], q0, [0 0], args{1}{:});
%!     error ('no error');
%!   catch err
%!     assert (err.identifier, 'varmech:skg_solve:initial_state');
%!     assert (strncmp (err.message, msg, numel (msg)), err.message);
%!   end
%! end
