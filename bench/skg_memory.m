function r = skg_memory (N, mode, order, n)
% SKG_MEMORY  peak memory (VmHWM, Linux) of one skg_solve window of N nodes for a chain of n
% coupled oscillators, in bytes per node, beside vm_skg_memory_estimate's figure; run it in a
% fresh process (VmHWM only grows):
%   octave-cli --eval "addpath ('.', 'inst', 'bench'); skg_memory (65536, 'reduced', 4, 6)"
  names = arrayfun (@(k) sprintf ('q%d', k), 1:n, 'UniformOutput', false);
  lag = strjoin (cellfun (@(c) sprintf ('dot(%s)^2/2 - %s^2/2', c, c), names, ...
                          'UniformOutput', false), ' + ');
  for k = 1:n-1
    lag = [lag sprintf(' - (%s-%s)^2/4', names{k}, names{k+1})]; %#ok<AGROW>
  end
  sys = mechsys ('coordinates', names, 'lagrangian', lag);
  m0 = skg_proc_status ('VmHWM');
  s = skg_solve (sys, [0 1], ones (1, n), zeros (1, n), 'N', N, 'Mode', mode, 'Order', order);
  m1 = skg_proc_status ('VmHWM');
  r.measured = (m1 - m0) * 1024 / N;
  r.estimate = vm_skg_mex ('memory', n, 0, N, order, double (strcmpi (mode, 'reduced')), 0) / N;
  fprintf ('n %d, N %d, %s, order %d: exitflag %d, peak %.0f bytes/node, estimate %.0f\n', n, N, ...
           mode, order, s.exitflag, r.measured, r.estimate);
end
