function bench_sbp (Ns, orders)
% -*- texinfo -*-
% @deftypefn  {} {} bench_sbp ()
% @deftypefnx {} {} bench_sbp (@var{Ns})
% @deftypefnx {} {} bench_sbp (@var{Ns}, @var{orders})
% Benchmark the SBP operator of varmech against plain m-code peers.
%
% For every order in @var{orders} (default [4 8]) and N in @var{Ns} (default
% [1e3 1e4 1e5 1e6 1e7]; e.g. @code{bench_sbp ([1e3 1e4])} for a quick run)
% it measures, in the same run and with @code{tic}/@code{toc}:
%
% @enumerate
% @item build time of @code{[D, H, Q] = sbp_operator (N, order, [0 1])}
% against @code{sbp_operator_mcode} (vectorized m-code: @code{spdiags} for the
% interior bands, one sparse update for the corner blocks);
% @item time of one derivative of a vector x: @code{sbp_apply (x, order,
% [0 1])} against the sparse product @code{D*x} (D prebuilt, build time not
% counted) and against a vectorized m-code matrix-free apply (shifted slices
% of x, one pass per stencil offset, small dense corner blocks).
% @end enumerate
%
% Times are medians over several repeats (fewer for large N); calls that take
% less than about a millisecond are repeated in an inner loop and the time per
% call is reported.  Ratios are peer time / varmech time (above 1: varmech is
% faster); throughput is N / time in Mpoints/s.  The largest relative
% difference between the three applies is printed as a correctness check.
% Nothing is asserted about times.  N = 1e7 needs several GB of memory for
% the sparse matrices (order 8: about 1.3 GB per matrix).
% @seealso{sbp_operator_mcode, sbp_operator, sbp_apply}
% @end deftypefn

  if nargin < 1 || isempty (Ns)
    Ns = [1e3, 1e4, 1e5, 1e6, 1e7];
  end
  if nargin < 2 || isempty (orders)
    orders = [4, 8];
  end
  if exist ('sbp_operator', 'file') == 0 || exist ('sbp_apply', 'file') == 0
    error ('bench_sbp: sbp_operator / sbp_apply not found: add the varmech inst/ and build directories to the path');
  end
  if exist ('sbp_operator_mcode', 'file') == 0
    error ('bench_sbp: sbp_operator_mcode not found: add the varmech bench/ directory to the path');
  end

  tspan = [0, 1];
  print_header ();

  nb = numel (Ns) * numel (orders);
  tab = zeros (nb, 9);
  diffs = zeros (nb, 1);
  k = 0;
  for order = orders
    for N = Ns
      N = round (N);
      k = k + 1;
      [nrep, nin_build, nin_apply] = repeats (N);

      % (a) build
      tb_vm = time_it (@() build_vm (N, order, tspan), nrep, nin_build);
      tb_mc = time_it (@() build_mc (N, order, tspan), nrep, nin_build);

      % (b) apply, one column
      x = randn (N, 1);
      D = sbp_operator (N, order, tspan);
      [~, ~, ~, cf] = sbp_operator_mcode (2 * max (8, order), order, tspan);
      mf = mfree_setup (cf, (tspan(2) - tspan(1)) / (N - 1));
      y1 = sbp_apply (x, order, tspan);
      y2 = D * x;
      y3 = mfree_apply (x, mf);
      scale = max (abs (y2));
      diffs(k) = max ([max(abs(y1 - y2)), max(abs(y3 - y2))]) / scale;
      clear y1 y2 y3;
      ta_vm = time_apply ('sbp_apply', x, order, tspan, D, mf, nrep, nin_apply);
      ta_sp = time_apply ('sparse', x, order, tspan, D, mf, nrep, nin_apply);
      ta_mf = time_apply ('mfree', x, order, tspan, D, mf, nrep, nin_apply);
      clear D x;

      tab(k, :) = [order, N, tb_vm, tb_mc, ta_vm, ta_sp, ta_mf, nrep, nin_apply];
      print_row (tab(k, :), diffs(k), k == 1 || tab(k - 1, 1) ~= order);
    end
  end
  fprintf ('\nratio = peer time / varmech time (> 1: varmech faster); Mpt/s = N / time / 1e6\n');
  fprintf ('largest relative difference between the three applies: %.1e\n', max (diffs));
end

function print_header ()
  fprintf ('bench_sbp: SBP first-derivative operator, varmech vs m-code peers\n');
  fprintf ('  varmech : sbp_operator / sbp_apply  (%s)\n', which ('sbp_operator'));
  mex = which ('vm_sbp_mex');
  if isempty (mex)
    mex = 'not found';
  end
  fprintf ('            MEX kernel %s\n', mex);
  fprintf ('  build peer : sbp_operator_mcode  (%s)\n', which ('sbp_operator_mcode'));
  fprintf ('               vectorized m-code: spdiags interior bands + one sparse corner update, D = diag(1./h_w) * Q\n');
  fprintf ('               both builders return all three outputs [D, H, Q]\n');
  fprintf ('  apply peers: D*x    = built-in sparse matrix * vector with D from sbp_operator (build not timed)\n');
  fprintf ('               m-code = vectorized matrix-free apply (shifted slices, one pass per stencil offset)\n');
  if exist ('OCTAVE_VERSION', 'builtin')
    fprintf ('  Octave %s', OCTAVE_VERSION);
  else
    fprintf ('  MATLAB %s', version);
  end
  fprintf (', times are medians (tic/toc)\n');
end

function print_row (r, d, first)
  if first
    fprintf ('\n%5s %9s | %-46s | %s\n', '', '', 'build [D,H,Q]: time [s], ratio, Mpt/s', ...
             'apply to one vector: time [s], ratios, Mpt/s');
    fprintf ('%5s %9s | %12s %12s %7s %6s %6s | %12s %12s %12s %7s %7s %6s %6s %6s %8s\n', ...
             'order', 'N', 'varmech', 'm-code', 'ratio', 'vm', 'mc', 'sbp_apply', 'D*x', ...
             'm-code', 'D*x', 'm-code', 'vm', 'D*x', 'mc', 'rel.diff');
  end
  N = r(2);
  fprintf ('%5d %9d | %12.4e %12.4e %7.2f %6.1f %6.1f | %12.4e %12.4e %12.4e %7.2f %7.2f %6.0f %6.0f %6.0f %8.1e\n', ...
           r(1), N, r(3), r(4), r(4) / r(3), N / r(3) / 1e6, N / r(4) / 1e6, ...
           r(5), r(6), r(7), r(6) / r(5), r(7) / r(5), N / r(5) / 1e6, N / r(6) / 1e6, ...
           N / r(7) / 1e6, d);
end

function [nrep, nin_build, nin_apply] = repeats (N)
  if N <= 1e4
    nrep = 9;
  elseif N <= 1e5
    nrep = 7;
  elseif N <= 1e6
    nrep = 5;
  else
    nrep = 3;
  end
  nin_build = max (1, ceil (2e4 / N));
  nin_apply = max (1, ceil (1e6 / N));
end

function t = time_it (fun, nrep, nin)
  % median over nrep samples of the time per call (nin calls per sample)
  fun ();                                  % warm up
  s = zeros (nrep, 1);
  for r = 1:nrep
    t0 = tic;
    for i = 1:nin
      fun ();
    end
    s(r) = toc (t0) / nin;
  end
  t = median (s);
end

function t = time_apply (kind, x, order, tspan, D, mf, nrep, nin)
  % Like time_it, with the call written out in the loop (no function-handle
  % overhead in the small-N timings).
  s = zeros (nrep + 1, 1);
  for r = 1:nrep + 1                       % sample 1 is a warm-up
    switch kind
      case 'sbp_apply'
        t0 = tic;
        for i = 1:nin
          y = sbp_apply (x, order, tspan); %#ok<NASGU>
        end
        s(r) = toc (t0) / nin;
      case 'sparse'
        t0 = tic;
        for i = 1:nin
          y = D * x; %#ok<NASGU>
        end
        s(r) = toc (t0) / nin;
      otherwise
        t0 = tic;
        for i = 1:nin
          y = mfree_apply (x, mf); %#ok<NASGU>
        end
        s(r) = toc (t0) / nin;
    end
  end
  t = median (s(2:end));
end

function build_vm (N, order, tspan)
  [D, H, Q] = sbp_operator (N, order, tspan); %#ok<ASGLU>
end

function build_mc (N, order, tspan)
  [D, H, Q] = sbp_operator_mcode (N, order, tspan); %#ok<ASGLU>
end

function mf = mfree_setup (cf, h)
  % Dense boundary rows of D (nb x (nb + width)) and the scaled stencil.
  nb = cf.nb;
  w = numel (cf.c);
  qrow = zeros (nb, nb + w);
  qrow(:, 1:nb) = cf.qb;
  for r = 1:nb
    for d = 1:w
      if r + d > nb
        qrow(r, r + d) = cf.c(d);
      end
    end
  end
  mf.db = qrow ./ (h * cf.w(:));
  mf.c = cf.c / h;
  mf.nb = nb;
  mf.w = w;
end

function y = mfree_apply (x, mf)
  % Matrix-free D*x in vectorized m-code (no spdiags, no sparse matrix).
  N = size (x, 1);
  w = mf.w;
  nb = mf.nb;
  y = zeros (size (x));
  lo = w + 1;
  hi = N - w;
  if hi >= lo
    acc = mf.c(1) * (x(lo + 1:hi + 1, :) - x(lo - 1:hi - 1, :));
    for d = 2:w
      acc = acc + mf.c(d) * (x(lo + d:hi + d, :) - x(lo - d:hi - d, :));
    end
    y(lo:hi, :) = acc;
  end
  y(1:nb, :) = mf.db * x(1:nb + w, :);
  y(N:-1:N - nb + 1, :) = -mf.db * x(N:-1:N - nb - w + 1, :);
end
