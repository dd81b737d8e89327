% -*- texinfo -*-
% @deftypefn  {} {@var{r} =} dual_faults ()
% @deftypefnx {} {@var{r} =} dual_faults (@var{N}, @var{nrep})
% Page faults and time per call of @code{dual_lorenz} on bench_dual's problem (Lorenz on [0, 1],
% order 4, c = 50, the base state 2 % off the ode45 solution) with @var{N} nodes (default 4096),
% @var{nrep} calls in a row (default 20) in this Octave process: the minor faults of each call
% (@code{getrusage}) and its time, with the median and the range printed.  The first call pays
% for the pages of everything; the later ones show what a solve costs when it is repeated (the
% work arrays that @file{csrc/base/vm_scratch.h} keeps between solves, doc/dual.md "Work arrays kept
% between solves").  No timing is asserted.
% @end deftypefn

function r = dual_faults (N, nrep)
  if (nargin < 1 || isempty (N))
    N = 4096;
  end
  if (nargin < 2 || isempty (nrep))
    nrep = 20;
  end
  A = 10;  R = 28;  B = 8/3;
  t = linspace (0, 1, N)';
  lor = @(t, y) [A * (y(2) - y(1)); y(1) * (R - y(3)) - y(2); y(1) * y(2) - B * y(3)];
  [~, yref] = ode45 (lor, t, [1 1 1], odeset ('RelTol', 1e-12, 'AbsTol', 1e-12));
  ybar = yref + 0.02 * bsxfun (@times, [sin(2*pi*t), cos(3*pi*t), sin(5*pi*t)], max (abs (yref)));
  opts = {'N', N, 'Order', 4, 'c', 50, 'A', A, 'R', R, 'B', B, 'BaseState', ybar};
  faults = zeros (1, nrep);
  times = zeros (1, nrep);
  for k = 1:nrep
    u0 = getrusage ();
    t0 = tic;
    s = dual_lorenz ([0 1], [1 1 1], opts{:});
    times(k) = toc (t0);
    u1 = getrusage ();
    faults(k) = u1.minflt - u0.minflt;
  end
  if (s.exitflag ~= 1)
    error ('dual_faults: dual_lorenz did not converge (%s)', s.message);
  end
  fprintf (['dual_lorenz N = %d, %d calls: first call %d faults, %.2f ms; later calls: faults ' ...
            'median %d (%d-%d), time median %.2f ms (%.2f-%.2f)\n'], N, nrep, faults(1), ...
           1e3 * times(1), median (faults(2:end)), min (faults(2:end)), max (faults(2:end)), ...
           1e3 * median (times(2:end)), 1e3 * min (times(2:end)), 1e3 * max (times(2:end)));
  r = struct ('N', N, 'faults', faults, 'times', times);
end
