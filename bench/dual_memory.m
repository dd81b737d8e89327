function r = dual_memory (copies, base, N, order, linsolve)
% DUAL_MEMORY  peak memory (VmHWM, Linux) of one dual_solve slab of N nodes for COPIES independent
% Lorenz systems (u = 3 COPIES duals per node), in bytes per node, beside vm_dual_memory_estimate's
% figure.  BASE 'good' (ode45's solution, 2 % off, as bench_dual: Newton converges) or 'zero' (the
% zero base state: Newton does not converge and falls back to Levenberg-Marquardt, whose augmented
% system is the peak).  Run it in a fresh process (VmHWM only grows):
%   octave-cli --eval "addpath ('.', 'inst', 'bench'); dual_memory (1, 'zero', 65536, 4)"
  if (nargin < 5)
    linsolve = 'auto';
  end
  st = {};  rhs = {};  y0 = [];
  for k = 1:copies
    x = sprintf ('x%d', k);  y = sprintf ('y%d', k);  z = sprintf ('z%d', k);
    st = [st, {x, y, z}]; %#ok<AGROW>
    rhs = [rhs, {sprintf('10*(%s-%s)', y, x), sprintf('%s*(28-%s)-%s', x, z, y), ...
                 sprintf('%s*%s-8/3*%s', x, y, z)}]; %#ok<AGROW>
    y0 = [y0, 1 + 0.1 * k, 1, 1]; %#ok<AGROW>
  end
  ode = odesys ('states', st, 'rhs', rhs);
  t = linspace (0, 1, N)';
  if (strcmp (base, 'good'))
    f = @(t, u) reshape ([10*(u(2:3:end)-u(1:3:end)), u(1:3:end).*(28-u(3:3:end))-u(2:3:end), ...
                          u(1:3:end).*u(2:3:end)-8/3*u(3:3:end)]', [], 1);
    [~, yr] = ode45 (f, t, y0, odeset ('RelTol', 1e-10, 'AbsTol', 1e-10));
    ybar = yr + 0.02 * repmat ([sin(2*pi*t), cos(3*pi*t), sin(5*pi*t)], 1, copies) ...
                .* (ones (N, 1) * max (abs (yr)));
  else
    ybar = zeros (N, 3 * copies);
  end
  m0 = skg_proc_status ('VmHWM');
  s = dual_solve (ode, [0 1], y0, 'N', N, 'Slabs', 1, 'BaseState', ybar, 'c', 50, ...
                  'Order', order, 'LinearSolver', linsolve);
  m1 = skg_proc_status ('VmHWM');
  code = find (strcmp (linsolve, {'auto', 'umfpack', 'banded'})) - 1;
  r.measured = (m1 - m0) * 1024 / N;
  r.estimate = vm_dual_mex ('memory', 3 * copies, 0, N, order, code) / N;
  fprintf (['u %d, N %d, order %d, base %s, %s: exitflag %d, %d iterations, %s kl %d, ' ...
            'peak %.0f bytes/node, estimate %.0f\n'], 3 * copies, N, order, base, linsolve, ...
           s.exitflag, s.iterations, s.linear_solver.kind, s.linear_solver.kl, r.measured, r.estimate);
end
