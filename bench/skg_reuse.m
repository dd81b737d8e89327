function T = skg_reuse (nrep)
% SKG_REUSE  factorization reuse in skg_solve's Newton iterations (csrc/newton/newton.h, step 2'):
% each case solved with 'ReuseFactorization' 0 (every step factors J) and with the default (2
% chord steps per factorization), in turn, nrep times (default 3); best times.  Prints one row
% per case: Newton iterations, numeric factorizations, time, the ratio and max |q_reuse - q_0|.
% The rows of bench/README_skg.md, "Factorization reuse".
  if (nargin < 1)
    nrep = 3;
  end
  [~, dsys, dtspan, dq0, dqd0] = skg_problem_params ('disk');
  disk = @(md, ls, N) @(r) skg_solve (dsys, dtspan, dq0, dqd0, 'N', N, 'Mode', md, ...
                                      'LinearSolver', ls, 'Windows', 1, 'ReuseFactorization', r);
  cases = {};
  for sig = [1/10 1/30]
    [~, tsys, ttspan, tq0, tqd0] = skg_problem_params ('tumbler', sig);
    for md = {'reduced', 'full'}
      cases(end+1, :) = {sprintf('tumbler 1/%d %s 256 (constant guess)', round (1/sig), md{1}), ...
                         @(r) skg_solve (tsys, ttspan, tq0, tqd0, 'N', 256, 'Mode', md{1}, ...
                                         'Guess', 'constant', 'ReuseFactorization', r)};
    end
  end
  for N = [4096 65536]
    for md = {'reduced', 'full'}
      for ls = {'umfpack', 'banded'}
        if (N == 65536 && strcmp (md{1}, 'full') && strcmp (ls{1}, 'banded'))
          continue;   % one iteration either way, as reduced banded; 2.6 s
        end
        cases(end+1, :) = {sprintf('disk %s %s %d (one window)', md{1}, ls{1}, N), disk(md{1}, ls{1}, N)};
      end
    end
  end
  cases(end+1, :) = {'disk default options 65536', @(r) skg_solve (dsys, dtspan, dq0, dqd0, 'N', 65536, 'ReuseFactorization', r)};
  fprintf ('%-44s | %s | %s | ratio | max |dq|\n', 'problem', 'off: it fact   time [s]', 'reuse 2: it fact   time [s]');
  T = struct ('name', {}, 'it', {}, 'fact', {}, 'time', {}, 'dq', {});
  cases{1, 2}(0);   % warm-up: the first solve of a session loads the gateway
  for ic = 1:rows (cases)
    f = cases{ic, 2};
    best = [inf inf];  it = [0 0];  nf = [0 0];  q = {[], []};
    for rep = 1:nrep
      for j = 1:2
        tic;  s = f (2 * (j - 1));  t = toc;
        best(j) = min (best(j), t);  it(j) = s.iterations;  nf(j) = s.timing.factorizations;  q{j} = s.q;
      end
    end
    dq = max (abs (q{1}(:) - q{2}(:)));
    fprintf ('%-44s | %7d %4d %10.4f | %11d %4d %10.4f | %5.2f | %.1e\n', cases{ic, 1}, it(1), nf(1), ...
             best(1), it(2), nf(2), best(2), best(2) / best(1), dq);
    T(end+1) = struct ('name', cases{ic, 1}, 'it', it, 'fact', nf, 'time', best, 'dq', dq);
  end
end
