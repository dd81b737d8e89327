% -*- texinfo -*-
% @deftypefn  {} {@var{r} =} bench_band (@var{band_time})
% @deftypefnx {} {@var{r} =} bench_band (@var{band_time}, @var{parts})
% Benchmark of the two linear solvers of Newton (csrc/la/linsolve.h: UMFPACK's sparse LU and
% LAPACK's banded LU) on the Jacobians of the action solvers, and of the Newton solves with each
% (bench/README_band.md).  @var{band_time} is the compiled timer @file{bench/band_time.c}
% (@code{make band_time} in the build folder).
% @table @asis
% @item (a)
% where the switch is: one factorization + solve of each backend (best of several) on the
% Jacobian of the Newton step at the solution, for the SKG rolling disk (reduced: 6 unknowns per
% node, full: 12), the tumbler (sigma = 1/30; 2 and 4), a chain of 8 and 16 masses on springs
% (8/16 and 16/32) and the dual Lorenz action (3), order 4 (and 8 for the disk and Lorenz), N =
% 64 ... 16384.  The pattern is the structural one (the Hessian at a random point), the values
% those at the solution (skg_solve with Windows 1; dual_lorenz).  UMFPACK runs with the options
% of each family (SKG: natural ordering, unsymmetric strategy, no refinement; dual: UMFPACK's
% defaults); its symbolic analysis (once per pattern in a solve) is listed apart.
% @item (b)
% Newton with each backend: the SKG disk (demo_skg_rolling_disk's system, reduced and full mode,
% order 4) at N = 256, 4096, 65536 on one window, and the dual Lorenz (bench_dual's problem) at
% N = 256 and 4096: end-to-end time, Newton time per iteration, and one bare dgbtrf of the same
% matrix (the Jacobian at the solution).
% @item (c)
% peak memory (VmHWM) of the disk at N = 65536 on one window, reduced and full mode, with each
% backend, a fresh Octave process per solve (@file{skg_scaling_one.m}): bytes per grid point above
% the process's size before the solve.
% @end table
% @var{parts}: a string of the letters to run (default 'abc').
% @end deftypefn

function r = bench_band (band_time, parts)
  if (nargin < 2 || isempty (parts))
    parts = 'abc';
  end
  r = struct ();
  if (any (parts == 'a'))
    r.a = part_a (band_time);
  end
  if (any (parts == 'b'))
    r.b = part_b (band_time);
  end
  if (any (parts == 'c'))
    r.c = part_c ();
  end
end

% ---- (c) memory ----------------------------------------------------------------------------------

function C = part_c ()
  N = 65536;
  fprintf ('\n(c) disk, N = %d, one window: peak memory, a fresh Octave process per solve\n', N);
  fprintf ('%-8s %-8s | %3s %9s | %10s %14s %12s\n', 'mode', 'solver', 'it', 'time [s]', ...
           'peak [MB]', 'peak-base [MB]', 'bytes/node');
  oct = fullfile (OCTAVE_HOME (), 'bin', 'octave-cli');
  d = fileparts (mfilename ('fullpath'));
  root = fileparts (d);
  mexdir = fileparts (which ('vm_skg_mex'));   % the build's MEX files, first on the path
  C = [];
  for md = {'reduced', 'full'}
    for ls = {'umfpack', 'banded'}
      ev = sprintf ('addpath (%s, %s, %s); skg_scaling_one (%d, 4, %s, %s);', quote (mexdir), ...
                    quote (fullfile (root, 'inst')), quote (d), N, quote (md{1}), quote (ls{1}));
      [st, txt] = system (sprintf ('"%s" --no-gui --norc --no-history --quiet --eval "%s"', oct, ev));
      v = regexp (txt, 'SKGSCALE ([^\n]*)', 'tokens', 'once');
      if (st ~= 0 || isempty (v))
        fprintf ('%-8s %-8s failed (status %d): %s\n', md{1}, ls{1}, st, txt);
        continue;
      end
      v = sscanf (v{1}, '%f');
      row = struct ('mode', md{1}, 'solver', ls{1}, 'iterations', v(2), 'time', v(3), ...
                    'hwm_mb', v(5) / 1024, 'growth_mb', (v(5) - v(4)) / 1024, ...
                    'bytes_per_node', (v(5) - v(4)) * 1024 / N);
      fprintf ('%-8s %-8s | %3d %9.3f | %10.1f %14.1f %12.0f\n', md{1}, ls{1}, row.iterations, ...
               row.time, row.hwm_mb, row.growth_mb, row.bytes_per_node);
      C = [C; row]; %#ok<AGROW>
    end
  end
end

function q = quote (s)
  % s as a single-quoted Octave string
  q = ['''' strrep(s, '''', '''''') ''''];
end

% ---- (a) the switch ----------------------------------------------------------------------------

function A = part_a (band_time)
  Ns = [64 256 1024 4096 16384];
  cases = {'disk', 'reduced', 4; 'disk', 'full', 4; 'disk', 'reduced', 8; 'disk', 'full', 8; ...
           'tumbler', 'reduced', 4; 'tumbler', 'full', 4; 'chain8', 'reduced', 4; ...
           'chain8', 'full', 4; 'chain16', 'reduced', 4; 'chain16', 'full', 4; ...
           'lorenz', 'dual', 4; 'lorenz', 'dual', 8};
  A = [];
  fprintf ('(a) one factorization + solve of each backend (ms, best of several)\n');
  header ();
  for ic = 1:rows (cases)
    for N = Ns
      [Jm, umfopts, u] = jacobian (cases{ic, 1}, cases{ic, 2}, cases{ic, 3}, N);
      reps = max (3, min (50, round (2e6 / nnz_jm (Jm))));
      t = band_time_matrix (band_time, Jm, umfopts, reps);
      t.problem = cases{ic, 1};  t.mode = cases{ic, 2};  t.order = cases{ic, 3};
      t.N = N;  t.u = u;
      print_row (t);
      A = [A; t]; %#ok<AGROW>
    end
  end
end

function header ()
  fprintf ('%-8s %-7s %2s %3s %6s %8s %9s %4s %4s %6s | %8s %8s | %8s %8s %8s | %6s %-7s | %8s %8s %8s\n', ...
           'problem', 'mode', 'p', 'u', 'N', 'n', 'nnz', 'kl', 'ku', 'dens', 'umf sym', ...
           'umf', 'band', 'dgbtrf', 'norm1', 'u/b', 'auto', 'rc umf', 'rc band', 'rc norm1');
end

function print_row (t)
  fprintf ('%-8s %-7s %2d %3d %6d %8d %9d %4d %4d %6.3f | %8.3f %8.3f | %8.3f %8.3f %8.3f | %6.2f %-7s | %8.1e %8.1e %8.1e\n', ...
           t.problem, t.mode, t.order, t.u, t.N, t.n, t.nnz, t.kl, t.ku, ...
           t.nnz / (t.n * (t.kl + t.ku + 1)), 1e3 * t.umf_sym, 1e3 * t.umf, 1e3 * t.band, ...
           1e3 * t.trf_only, 1e3 * t.norm1_con, t.umf / t.band, t.auto, t.rcond_umf, ...
           t.rcond_band, t.rcond_norm1);
end

function Jm = pattern_values (Hpat, Hval, rows_, cols_)
  % the structural pattern of Hpat(rows_, cols_) with the values of Hval there (zeros kept)
  P = Hpat(rows_, cols_);
  V = Hval(rows_, cols_);
  [ii, jj] = find (P);
  Jm = struct ('n', size (P, 1), 'ii', ii, 'jj', jj, 'vv', full (V(sub2ind (size (V), ii, jj))));
end

function n = nnz_jm (Jm)
  n = numel (Jm.ii);
end

% ---- the systems --------------------------------------------------------------------------------

function [sys, tspan, q0, qd0] = skg_system (problem)
  switch problem
    case 'disk'
      [~, sys, tspan, q0, qd0] = skg_problem_params ('disk');
    case 'tumbler'
      [~, sys, tspan, q0, qd0] = skg_problem_params ('tumbler', 1/30);
    otherwise   % chainM: M unit masses between fixed walls, unit springs
      M = sscanf (problem, 'chain%d');
      c = arrayfun (@(k) sprintf ('x%d', k), 1:M, 'UniformOutput', false);
      T = sprintf ('dot(%s)^2/2 + ', c{:});
      V = sprintf ('(%s - %s)^2/2 + ', c{1}, '0');
      for k = 2:M
        V = [V sprintf('(%s - %s)^2/2 + ', c{k}, c{k-1})]; %#ok<AGROW>
      end
      V = [V sprintf('(%s)^2/2', c{M})];
      sys = mechsys ('coordinates', c, 'lagrangian', [T(1:end-3) ' - (' V ')']);
      tspan = [0 2];  q0 = 0.1 * sin (1:M);  qd0 = zeros (1, M);
  end
end

function [Jm, umfopts, u] = jacobian (problem, mode, order, N)
  % the Jacobian of the Newton step at the solution (structural pattern, values there)
  if (strcmp (problem, 'lorenz'))
    pb = lorenz_problem (N, order);
    s = dual_lorenz (pb.tspan, pb.y0, pb.opts{:});
    z = reshape (s.D(1:end-1, :)', [], 1);
    rand ('seed', 3);
    [~, ~, Hp] = dual_action (pb.ode, pb.tspan, pb.y0, 0.1 * (rand (size (z)) - 0.5), pb.aopts{:});
    [~, ~, Hv] = dual_action (pb.ode, pb.tspan, pb.y0, z, pb.aopts{:});
    Jm = pattern_values (Hp, Hv, 1:numel (z), 1:numel (z));
    umfopts = 'default';
    u = 3;
    return;
  end
  [sys, tspan, q0, qd0] = skg_system (problem);
  n = sys.n;  m = sys.m;  nb = 2 * (n + m);
  s = skg_solve (sys, tspan, q0, qd0, 'N', N, 'Windows', 1, 'Order', order, 'Mode', 'full');
  Z = [s.q, zeros(N, n), s.lambda_plus, zeros(N, m)]';
  rand ('seed', 3);
  [~, ~, Hp] = skg_action (sys, tspan, q0, qd0, N, order, 0.3 * (rand (nb * N, 1) - 0.5) + Z(:));
  [~, ~, Hv] = skg_action (sys, tspan, q0, qd0, N, order, Z(:));
  umfopts = 'skg';
  if (strcmp (mode, 'full'))
    Jm = pattern_values (Hp, Hv, 1:nb*N, 1:nb*N);
    u = nb;
  else
    % the reduced Jacobian of skg_solve.c: rows (q-, lambda-), columns (q+, lambda+), node-major
    off = (0:N-1) * nb;
    plus = bsxfun (@plus, off, [1:n, 2*n+(1:m)]');
    minus = bsxfun (@plus, off, [n+(1:n), 2*n+m+(1:m)]');
    Jm = pattern_values (Hp, Hv, minus(:), plus(:));
    u = n + m;
  end
end

function pb = lorenz_problem (N, order)
  % bench_dual's problem: Lorenz on [0, 1] from (1, 1, 1), c = 50, a perturbed base state
  pb.tspan = [0 1];  pb.y0 = [1 1 1];
  t = linspace (0, 1, N)';
  lor = @(t, y) [10 * (y(2) - y(1)); y(1) * (28 - y(3)) - y(2); y(1) * y(2) - 8/3 * y(3)];
  [~, yref] = ode45 (lor, t, pb.y0, odeset ('RelTol', 1e-12, 'AbsTol', 1e-12));
  ybar = yref + 0.02 * bsxfun (@times, [sin(2*pi*t), cos(3*pi*t), sin(5*pi*t)], max (abs (yref)));
  pb.opts = {'N', N, 'Order', order, 'c', 50, 'BaseState', ybar};
  pb.aopts = {'N', N, 'Order', order, 'c', 50, 'BaseState', ybar};
  pb.ode = odesys ('states', {'x', 'y', 'z'}, 'parameters', struct ('A', 10, 'R', 28, 'B', 8/3), ...
                   'rhs', {'A*(y - x)', 'x*(R - z) - y', 'x*y - B*z'});
end

% ---- (b) Newton with each backend ---------------------------------------------------------------

function B = part_b (band_time)
  fprintf (['\n(b) Newton with each backend: end to end, per Newton iteration, and one bare dgbtrf ' ...
            'of the Jacobian at the solution (ms unless marked)\n']);
  fprintf ('%-7s %-7s %6s %-7s | %3s %10s | %9s %9s %9s | %9s | %7s %7s\n', 'problem', 'mode', ...
           'N', 'solver', 'it', 'total [s]', 'newton/it', 'factor/it', 'solve/it', 'dgbtrf', ...
           'nwt/trf', 'fac/trf');
  B = [];
  [~, sys, tspan, q0, qd0] = skg_problem_params ('disk');
  for md = {'reduced', 'full'}
    for N = [256 4096 65536]
      [Jm, umfopts] = jacobian ('disk', md{1}, 4, N);
      t = band_time_matrix (band_time, Jm, umfopts, 3);
      clear Jm;
      for ls = {'umfpack', 'banded'}
        a = {sys, tspan, q0, qd0, 'N', N, 'Windows', 1, 'Mode', md{1}, 'LinearSolver', ls{1}};
        [s, tt] = best_of (@() skg_solve (a{:}), 3 - (N > 10000));
        tm = s.timing;
        it = max (s.iterations, 1);
        row = struct ('problem', 'disk', 'mode', md{1}, 'N', N, 'solver', ls{1}, ...
                      'iterations', s.iterations, 'exitflag', s.exitflag, 'total', tt, ...
                      'newton_it', (tm.residual + tm.jacobian + tm.symbolic + tm.numeric + tm.solve) / it, ...
                      'factor_it', tm.numeric / it, 'solve_it', tm.solve / it, ...
                      'symbolic', tm.symbolic, 'trf', t.trf_only, 'kl', s.linear_solver.kl, ...
                      'ku', s.linear_solver.ku);
        print_b (row);
        B = [B; row]; %#ok<AGROW>
      end
    end
  end
  for N = [256 4096]
    pb = lorenz_problem (N, 4);
    [Jm, umfopts] = jacobian ('lorenz', 'dual', 4, N);
    t = band_time_matrix (band_time, Jm, umfopts, 5);
    for ls = {'umfpack', 'banded'}
      [s, tt] = best_of (@() dual_lorenz (pb.tspan, pb.y0, pb.opts{:}, 'LinearSolver', ls{1}), 5);
      [~, t0] = best_of (@() dual_lorenz (pb.tspan, pb.y0, pb.opts{:}, 'LinearSolver', ls{1}, ...
                                          'MaxIter', 0), 5);
      it = max (s.iterations, 1);
      % the dual's kernel does not split Newton's time: the marginal cost of an iteration is the
      % solve's time above its setup (MaxIter 0: the action, the pattern, one residual)
      row = struct ('problem', 'lorenz', 'mode', 'dual', 'N', N, 'solver', ls{1}, ...
                    'iterations', s.iterations, 'exitflag', s.exitflag, 'total', tt, ...
                    'newton_it', (tt - t0) / it, 'factor_it', s.linear_solver.factor_time / it, ...
                    'solve_it', s.linear_solver.solve_time / it, 'symbolic', NaN, ...
                    'trf', t.trf_only, 'kl', s.linear_solver.kl, 'ku', s.linear_solver.ku);
      print_b (row);
      B = [B; row]; %#ok<AGROW>
    end
  end
end

function print_b (r)
  fprintf ('%-7s %-7s %6d %-7s | %3d %10.4f | %9.3f %9.3f %9.3f | %9.3f | %7.2f %7.2f%s\n', ...
           r.problem, r.mode, r.N, r.solver, r.iterations, r.total, 1e3 * r.newton_it, ...
           1e3 * r.factor_it, 1e3 * r.solve_it, 1e3 * r.trf, r.newton_it / r.trf, ...
           r.factor_it / r.trf, ifelse_str (r.exitflag ~= 1, '  NOT CONVERGED', ''));
end

function s = ifelse_str (c, a, b)
  if (c)
    s = a;
  else
    s = b;
  end
end

function [s, t] = best_of (f, k)
  % the result of the first call and the best time of k calls
  t = inf;
  for j = 1:k
    t1 = tic ();
    r = f ();
    t = min (t, toc (t1));
    if (j == 1)
      s = r;
    end
  end
end
