function r = skg_scaling_one (N, order, mode, linsolve)
% SKG_SCALING_ONE  one point of bench_skg part (c) and bench_band part (c), meant to run in a
% fresh Octave process: skg_solve on the rolling disk (linear constraint form) with N grid points
% (Mode mode, default 'reduced'; LinearSolver linsolve, default 'auto'); prints
% 'SKGSCALE N iterations seconds_per_solve VmRSS_before_kB VmHWM_after_kB exitflag'.
% Timing: best of up to 3 solves while the total stays under 2 s (one solve for large N).
  if (nargin < 2)
    order = 4;
  end
  if (nargin < 3)
    mode = 'reduced';
  end
  if (nargin < 4)
    linsolve = 'auto';
  end
  [P, sys, tspan, q0, qd0] = skg_problem_params ('disk');
  rss0 = skg_proc_status ('VmRSS');
  best = inf;  tot = 0;  k = 0;
  while (k < 3 && (k == 0 || tot + best < 2))
    tic;
    s = skg_solve (sys, tspan, q0, qd0, 'N', N, 'Order', order, 'Mode', mode, 'LinearSolver', linsolve);
    el = toc;
    best = min (best, el);  tot = tot + el;  k = k + 1;
  end
  hwm = skg_proc_status ('VmHWM');
  r = struct ('N', N, 'iterations', s.iterations, 'time', best, 'rss0', rss0, 'hwm', hwm, ...
              'exitflag', s.exitflag);
  fprintf ('SKGSCALE %d %d %.6e %d %d %d\n', N, s.iterations, best, rss0, hwm, s.exitflag);
  fprintf ('SKGMSG %s\n', s.message);
  fprintf ('SKGHIST %s\n', sprintf ('%.3e/%.3e ', [s.residual_history(:)'; s.step_history(:)']));
  tm = s.timing;
  fprintf ('SKGTIME build %.3f residual %.3f jacobian %.3f symbolic %.3f numeric %.3f (%d) solve %.3f total %.3f\n', ...
           tm.build, tm.residual, tm.jacobian, tm.symbolic, tm.numeric, tm.factorizations, tm.solve, tm.total);
end
