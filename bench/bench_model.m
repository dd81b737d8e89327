% -*- texinfo -*-
% @deftypefn  {} {@var{r} =} bench_model ()
% @deftypefnx {} {@var{r} =} bench_model (@var{Ns}, @var{engines})
% Benchmark of the model language on the rolling disk: L plus the multiplier terms of its two
% constraints, 10 variables (4 coordinates, 4 velocities, 2 multipliers); value, gradient and
% Hessian at @var{Ns} points (default @code{[1e5 1e6]}).  Peers, measured in the same run:
% @itemize
% @item GNU libmatheval (C) computing the value, the 10 first and the 55 second derivatives, and
% varmech's tape computing the same 66 numbers in the same C program (@var{engines}, the path of
% the compiled @file{bench/disk_engines.c}; @code{make bench-model} builds it as @file{./disk_engines});
% @item the same derivatives written by hand as vectorized Octave expressions, against
% @code{mechsys_eval}: in the compact layout (only the entries that are not identically zero,
% @file{disk_handwritten_compact.m}) and in the full layout (dense N-by-n-by-n blocks,
% @file{disk_handwritten.m}).
% @end itemize
% Times are per point (microseconds), best of 7 runs at N = 1e5 and of 3 at 1e6 (libmatheval: 3
% and 1; varmech in C: 5); ratios
% are peer time / varmech time, so a ratio above 1 means varmech is faster.
% @end deftypefn

function r = bench_model (Ns, engines)
  if (nargin < 1 || isempty (Ns))
    Ns = [1e5 1e6];
  end
  if (nargin < 2)
    engines = './disk_engines';
  end
  sys = mechsys ('coordinates', {'x', 'y', 'theta', 'phi'}, ...
    'parameters', struct ('M', 1, 'g', 9.8, 'alpha', pi/6, 'R', 1, 'IS', 1/2, 'ID', 1/4), ...
    'lagrangian', 'M/2*(dot(x)^2 + dot(y)^2) + IS/2*dot(theta)^2 + ID/2*dot(phi)^2 + M*g*x*sin(alpha)', ...
    'constraints', {'dot(x)^2 + dot(y)^2 - R^2*dot(theta)^2', 'dot(x)*sin(phi) - dot(y)*cos(phi)'});
  blocks = {'lagrangian', 'constraints'};
  r = struct ('N', {}, 'matheval', {}, 'varmech_c', {}, 'compact', {}, 'hand_compact', {}, ...
              'full', {}, 'hand_full', {});
  fprintf ('rolling disk, L + lambda.g in 10 variables: value, gradient, Hessian; us per point\n');
  fprintf ('%8s | %10s %10s %7s | %10s %10s %7s %9s | %10s %10s %7s\n', 'N', 'matheval', ...
           'varmech C', 'ratio', 'mechsys_ev', 'hand', 'ratio', 'mathev/ev', 'full', 'hand full', 'ratio');
  for N = Ns
    rand ('seed', 1);
    t = zeros (N, 1);  q = 2*rand (N, 4) - 1;  qd = 2*rand (N, 4) - 1;  lam = 2*rand (N, 2) - 1;
    % C engines in one process
    rep = 3;
    if (N >= 1e6)
      rep = 1;
    end
    [st, txt] = system (sprintf ('"%s" %d %d 5', engines, N, rep));
    if (st ~= 0)
      error ('bench_model: %s failed (status %d): %s', engines, st, txt);
    end
    me = sscanf (regexp (txt, 'matheval .*?us_per_point=([0-9.]+)', 'tokens', 'once'){1}, '%f');
    vc = sscanf (regexp (txt, 'varmech .*?us_per_point=([0-9.]+)', 'tokens', 'once'){1}, '%f');
    % Octave: compact and full layouts against the hand-written peers
    bc = inf;  bhc = inf;  bf = inf;  bhf = inf;
    for k = 1:max (3, round (7e5 / N))
      tic;  c = mechsys_eval (sys, t, q, qd, 'lambda', lam, 'blocks', blocks, 'layout', 'compact');  bc = min (bc, toc);
      tic;  [hl, hc] = disk_handwritten_compact (q, qd, lam, sys.parameters);  hv = [hl hc];  bhc = min (bhc, toc);
      clear c hl hc hv
      tic;  f = mechsys_eval (sys, t, q, qd, 'lambda', lam, 'blocks', blocks);  bf = min (bf, toc);
      tic;  hf = disk_handwritten (t, q, qd, lam, sys.parameters);  bhf = min (bhf, toc);
      clear f hf
    end
    us = 1e6 / N;
    row = struct ('N', N, 'matheval', me, 'varmech_c', vc, 'compact', bc*us, 'hand_compact', bhc*us, ...
                  'full', bf*us, 'hand_full', bhf*us);
    r(end+1) = row;
    fprintf ('%8d | %10.4f %10.4f %7.0f | %10.4f %10.4f %7.2f %9.0f | %10.4f %10.4f %7.2f\n', N, ...
             me, vc, me/vc, row.compact, row.hand_compact, row.hand_compact/row.compact, ...
             me/row.compact, row.full, row.hand_full, row.hand_full/row.full);
  end
  fprintf ('ratio = peer / varmech (above 1: varmech faster); mathev/ev = libmatheval C / mechsys_eval compact\n');
end
