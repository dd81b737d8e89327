function r = skg_scaling_one (N, order, mode, linsolve, nrep)
% SKG_SCALING_ONE  one point of bench_skg part (c) and bench_band part (c), meant to run in a
% fresh Octave process: skg_solve on the rolling disk (linear constraint form) with N grid points
% (Mode mode, default 'reduced'; LinearSolver linsolve, default 'auto'); prints
% 'SKGSCALE N iterations best_seconds VmRSS_before_kB VmHWM_first_kB exitflag first_seconds nsolves
% VmHWM_all_kB': VmHWM_first after the first timed solve (the peak of one solve), VmHWM_all after
% all of them (a repeated solve can raise it: the heap's fragments).
% Before the timed solves one solve at N = 64 loads the MEX file and parses the m-files, so the
% first timed solve is cold only in its memory (its pages are new to the process).
% Timing: nrep > 0 (bench_skg part c: 3): nrep solves, fewer only when one takes more than 60 s;
% nrep = 0 (default; bench_band): up to 3 solves while the total stays under 2 s.  best = the
% fastest solve, first = the first one.
  if (nargin < 2)
    order = 4;
  end
  if (nargin < 3)
    mode = 'reduced';
  end
  if (nargin < 4)
    linsolve = 'auto';
  end
  if (nargin < 5)
    nrep = 0;
  end
  [P, sys, tspan, q0, qd0] = skg_problem_params ('disk');
  skg_solve (sys, tspan, q0, qd0, 'N', 64, 'Order', order, 'Mode', mode, 'LinearSolver', linsolve);
  rss0 = skg_proc_status ('VmRSS');
  best = inf;  tot = 0;  k = 0;  first = NaN;
  while (true)
    tic;
    s = skg_solve (sys, tspan, q0, qd0, 'N', N, 'Order', order, 'Mode', mode, 'LinearSolver', linsolve);
    el = toc;
    if (k == 0)
      first = el;
      hwm1 = skg_proc_status ('VmHWM');
    end
    best = min (best, el);  tot = tot + el;  k = k + 1;
    if (nrep > 0 && (k >= nrep || el > 60))
      break;
    end
    if (nrep == 0 && (k >= 3 || tot + best >= 2))
      break;
    end
  end
  hwm = skg_proc_status ('VmHWM');
  r = struct ('N', N, 'iterations', s.iterations, 'time', best, 'first', first, 'nsolves', k, ...
              'rss0', rss0, 'hwm', hwm1, 'hwm_all', hwm, 'exitflag', s.exitflag);
  fprintf ('SKGSCALE %d %d %.6e %d %d %d %.6e %d %d\n', N, s.iterations, best, rss0, hwm1, ...
           s.exitflag, first, k, hwm);
  fprintf ('SKGMSG %s\n', s.message);
  fprintf ('SKGHIST %s\n', sprintf ('%.3e/%.3e ', [s.residual_history(:)'; s.step_history(:)']));
  tm = s.timing;
  fprintf ('SKGTIME build %.3f residual %.3f jacobian %.3f symbolic %.3f numeric %.3f (%d) solve %.3f total %.3f\n', ...
           tm.build, tm.residual, tm.jacobian, tm.symbolic, tm.numeric, tm.factorizations, tm.solve, tm.total);
end
