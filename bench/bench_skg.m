% -*- texinfo -*-
% @deftypefn  {} {@var{r} =} bench_skg ()
% @deftypefnx {} {@var{r} =} bench_skg (@var{parts}, @var{Nmax})
% Benchmark of @code{skg_solve} (discrete SKG action, F4, exact sparse Hessian, banded LU or UMFPACK), with the
% peers measured in the same run:
% @table @asis
% @item (a)
% end to end against Octave's @code{fsolve} (default options: trust-region dogleg, dense
% forward-difference Jacobian, no Broyden updating; TolFun = 1e-10/n, TolX = 1e-12) on the same
% discrete equations written by hand in plain m-code (@file{skg_mcode_action.m}, validated here
% against @code{skg_action}'s gradient): the tumbler (soft wall, sigma = 1/10 and 1/30) at N = 256
% and the rolling disk (linear constraint form) at N = 64, interior order 4.  Both the reduced
% system (skg_solve's default mode: dS/dq- = dS/dlambda- = 0 in q+, lambda+) and the full system
% grad S = 0 (all unknowns; skg_solve 'Mode' 'full') are timed.  Target: fsolve / skg_solve >= 300.
% @item (b)
% disk, N = 1024: skg_solve's time per Newton iteration (total time / iterations) against one
% UMFPACK factorization @code{[L, U, P, Q] = lu (A)} of the matrix of the same Newton step,
% at the solution: the reduced Jacobian (rows dS/dq-, dS/dlambda-; columns q+, lambda+, taken
% from @code{skg_action}'s Hessian) for the reduced mode, the full Hessian for the full mode.
% Target: ratio <= 2.
% @item (c)
% disk, N = 2^8 .. @var{Nmax} (default 2^20), each N in a fresh Octave process
% (@file{skg_scaling_one.m}): after a warm-up solve at N = 64 (the MEX file and the m-files
% loaded), three solves in the process: the first (its memory new to the process: on a virtual
% machine the host may have to back those pages, bench/README_skg.md) and the fastest; time per
% iteration and peak memory (VmHWM after the first solve: one solve's peak); stops after a first
% solve longer than 60 s or a peak above 8 GB.  Least-squares exponents of log(time/iteration),
% best and first, and of log(peak memory above the base) against log(N) over the N >= 2^10
% points.  Target: all <= 1.05.
% @item (d)
% the adaptive marching driver (skg_solve with its defaults and RelTol 1e-6 or 1e-8: windows of
% N = 33 nodes, order 4 with the order-6 estimate) against one fixed window of equal accuracy
% (skg_solve with 'N' only: Windows 1, order 4), on the damped double pendulum on [0, 10] and the
% knife edge on an incline on [0, 4] of @file{tests/octave/test_skg_march.m} (reference:
% gauss_integrate dop853, RelTol = AbsTol = 1e-12) and the rolling disk of Fig. 2 with its
% quadratic constraint on [0, 2 pi] (reference: the closed form).  Error: max over the nodes of
% |q - q_ref| and |qdot - qdot_ref|.  The smallest single-window N whose error is <= the adaptive
% error (doubling from 128, then bisection; up to 2^16), and the times of both solves, median of
% 5 pairs run in turn (@file{march_vs_fixed.m}).  The fixed window starts from skg_solve's
% default guess; when that default ('auto') fails from the marching start at N = 128 and retries
% from the integrator, the ladder and the timing use 'Guess' 'integrator' directly (the failed
% attempt is not timed, which favours the fixed window).
% @item (e)
% the strong Octave peer (issue 15): fsolve with 'Jacobian' 'on' and the exact gradient and
% sparse Hessian of skg_action, on the same discrete equations, from the same start, stopped at
% skg_solve's residual (@file{skg_strong_peer.m}): the disk at N = 64 and 1024, the tumbler
% (sigma = 1/30) at N = 256, both modes; 7 pairs (skg_solve, fsolve) run in turn, the ratio taken
% per pair (min, median, max).  Target: >= 20.
% @item (i)
% the IPOPT peer (issue 15): @file{bench/ipopt_peer.c} (@code{make ipopt_peer}, needs Debian's
% coinor-libipopt-dev), run and its ratios parsed, when it has been built in the current folder.
% @item (l)
% the physical limit (issue 15): @file{bench/skg_limit.c} (@code{make skg_limit}), when built in
% the current folder, for the disk at N = 2^8, 2^10, ..., @var{Nmax} (quick: up to 2^16), each in
% a fresh process: the kernel's time per Newton iteration (residuals, Jacobians, factorizations,
% solves) against one warm LAPACK @code{dgbtrf} of the same reduced Jacobian at the solution, and
% the end-to-end time and peak memory of the C solve.  Target: ratio <= 1.5 at every N.
% @end table
% Part (a) also runs the dense FD fsolve on the disk at N = 1024 (6144 unknowns), interrupted
% after 30 s: when it has not converged by then, the ratio is a lower bound (> 30 s / skg_solve's
% time).
% The last output is a summary table against the targets of issue 15 (every ratio target read on
% the median over the pairs, min and max beside it; the IPOPT rows were read on the minimum until
% 2026-11-28, bench/README_skg.md).
% The 2^20 targets (one window: <= 15 s end to end, <= 4 GB peak) are read from part (c).
% @var{parts}: a string of the letters to run (default 'abcdeil'; quick: 'abeil', part (l) then
% up to N = 2^16).  Times: best of several runs
% (part d: medians).
% @end deftypefn

function r = bench_skg (parts, Nmax)
  if (nargin < 1 || isempty (parts))
    parts = 'abcdeil';
  end
  if (nargin < 2 || isempty (Nmax))
    Nmax = 2^20;
  end
  r = struct ();
  order = 4;
  if (any (parts == 'a'))
    r.a = part_a (order);
    r.a_bound = fd_bound (order, 1024, 30);
  end
  if (any (parts == 'b'))
    r.b = part_b (order);
  end
  if (any (parts == 'c'))
    r.c = part_c (order, Nmax);
  end
  if (any (parts == 'd'))
    r.d = part_d ();
  end
  if (any (parts == 'e'))
    r.e = part_e (order, 7);
  end
  if (any (parts == 'i'))
    r.i = part_i ();
  end
  if (any (parts == 'l'))
    if (any (parts == 'c'))
      r.l = part_l (Nmax);
    else
      r.l = part_l (min (Nmax, 2^16));
    end
  end
  summary (r);
end

function E = part_e (order, npair)
  % the strong Octave peer (issue 15): fsolve with the analytic sparse Jacobian (skg_strong_peer.m)
  fprintf ('(e) strong peer: fsolve with the analytic sparse Jacobian of skg_action, order %d, %d pairs run in turn\n', ...
           order, npair);
  cases = {'disk', [], 64; 'disk', [], 1024; 'tumbler', 1/30, 256};
  E = [];
  for ic = 1:size (cases, 1)
    for mode = {'reduced', 'full'}
      w = skg_strong_peer (cases{ic, 1}, cases{ic, 2}, cases{ic, 3}, order, mode{1}, npair);
      E = [E, w]; %#ok<AGROW>
    end
  end
  fprintf ('%-19s %4s %-7s %6s %2s | %3s %9s | %3s %4s %2s %9s | %9s %9s | %9s %9s | %7s %7s %7s\n', ...
           'problem', 'N', 'mode', 'unkn', 'sp', 'it', '|f| skg', 'it', 'fev', 'ok', '|f| fsol', ...
           'max dq', 'disc err', 'skg [s]', 'fsolve[s]', 'med', 'min', 'max');
  for k = 1:numel (E)
    w = E(k);
    fprintf ('%-19s %4d %-7s %6d %2d | %3d %9.1e | %3d %4d %2d %9.1e | %9.1e %9.1e | %9.4f %9.4f | %7.1f %7.1f %7.1f\n', ...
             w.problem, w.N, w.mode, w.unknowns, w.sparse_J, w.it_skg, w.res_skg, w.it_fsolve, ...
             w.fev_fsolve, w.exit_fsolve, w.res_fsolve, w.diff_q, w.disc_err, w.t_skg, w.t_fsolve, ...
             w.ratio_med, w.ratio_min, w.ratio_max);
  end
  fprintf (['both from the same start (skg_solve Guess ''constant''); fsolve (''Jacobian'' ''on'', sparse J ' ...
            '= sp) stopped at skg_solve''s residual |f|_2 of the same equations;\nmax dq = max |q_fsolve - ' ...
            'q_skg|; disc err = max |q_N - q_2N-1| (skg_solve); med/min/max: fsolve / skg_solve per pair\n\n']);
end

function summary (r)
  % the single summary table against issue 15's targets (the last output of bench_skg)
  fprintf ('\nSummary against the targets (issue 15): ratio = peer time / skg_solve time (reduced mode, the default)\n');
  fmt = '%-62s %9s %17s %9s %s\n';
  fprintf (fmt, 'target', 'median', 'min - max', 'target', 'met');
  cases = {'disk', 64; 'disk', 1024; 'tumbler sigma=1/30', 256};
  for ic = 1:size (cases, 1)
    lbl = sprintf ('SKG %s N=%d: >= 20x fsolve (analytic sparse J)', cases{ic, 1}, cases{ic, 2});
    w = [];
    if (isfield (r, 'e'))
      w = r.e(strcmp ({r.e.problem}, cases{ic, 1}) & [r.e.N] == cases{ic, 2} & ...
              strcmp ({r.e.mode}, 'reduced'));
    end
    if (isempty (w))
      fprintf (fmt, lbl, '-', 'not run (part e)', '>= 20', '-');
    else
      fprintf ('%-62s %9.1f %8.1f - %6.1f %9s %s\n', lbl, w.ratio_med, w.ratio_min, w.ratio_max, ...
               '>= 20', met_str (w.ratio_med >= 20));
    end
  end
  for ic = 1:size (cases, 1)
    lbl = sprintf ('SKG %s N=%d: >= 1000x fsolve dense FD', cases{ic, 1}, cases{ic, 2});
    w = [];
    if (isfield (r, 'a'))
      w = r.a(strcmp ({r.a.problem}, cases{ic, 1}) & [r.a.N] == cases{ic, 2} & ...
              strcmp ({r.a.mode}, 'reduced'));
    end
    if (isempty (w) && isfield (r, 'a_bound') && strcmp (cases{ic, 1}, 'disk') ...
        && r.a_bound.N == cases{ic, 2})
      b = r.a_bound;
      if (b.capped)
        fprintf ('%-62s %9s %17s %9s %s\n', lbl, sprintf ('> %.0f', b.ratio), ...
                 sprintf ('fsolve cut at %.0f s', b.t_fsolve), '>= 1000', met_str (b.ratio >= 1000));
      else
        fprintf ('%-62s %9.0f %17s %9s %s\n', lbl, b.ratio, 'one fsolve run', '>= 1000', ...
                 met_str (b.ratio >= 1000));
      end
    elseif (isempty (w))
      fprintf (fmt, lbl, '-', 'not run (part a)', '>= 1000', '-');
    else
      fprintf ('%-62s %9.0f %17s %9s %s\n', lbl, w.ratio, 'one fsolve run', '>= 1000', ...
               met_str (w.ratio >= 1000));
    end
  end
  if (isfield (r, 'i') && ~isempty (r.i))
    for k = 1:numel (r.i)
      w = r.i(k);
      lbl = sprintf ('SKG %s N=%d: >= 10x IPOPT (%s)', w.problem, w.N, w.hess);
      fprintf ('%-62s %9.1f %8.1f - %6.1f %9s %s\n', lbl, w.r_med, w.r_min, w.r_max, '>= 10', ...
               met_str (w.r_med >= 10));
    end
  else
    fprintf (fmt, 'SKG disk/tumbler: >= 10x IPOPT', '-', 'not run (part i)', '>= 10', '-');
  end
  if (isfield (r, 'l') && ~isempty (r.l))
    rt = [r.l.ratio];
    lbl = sprintf ('SKG disk N=%d..%d: time per Newton iteration <= 1.5x one dgbtrf', ...
                   min ([r.l.N]), max ([r.l.N]));
    fprintf ('%-62s %9.2f %8.2f - %6.2f %9s %s   (the first solve in a fresh process: %.2f - %.2f)\n', ...
             lbl, median (rt), min (rt), max (rt), '<= 1.5', met_str (max (rt) <= 1.5), ...
             min ([r.l.ratio_first]), max ([r.l.ratio_first]));
  else
    fprintf (fmt, 'SKG disk: time per Newton iteration <= 1.5x one dgbtrf', '-', 'not run (part l)', ...
             '<= 1.5', '-');
  end
  if (isfield (r, 'c'))
    lbl = sprintf ('SKG disk N=2^10..%d: exponent of time/iteration <= 1.05', max ([r.c.runs.N]));
    fprintf ('%-62s %9.2f %17s %9s %s\n', lbl, r.c.exponent_time, 'best of 3', '<= 1.05', ...
             met_str (r.c.exponent_time <= 1.05));
    fprintf ('%-62s %9.2f %17s %9s %s\n', lbl, r.c.exponent_time_first, 'first solve', '<= 1.05', ...
             met_str (r.c.exponent_time_first <= 1.05));
    if (isfield (r, 'l') && sum ([r.l.N] >= 2^10) >= 2)
      sl = [r.l.N] >= 2^10;
      pl = polyfit (log ([r.l(sl).N]), log ([r.l(sl).t_dgbtrf]), 1);
      lbl = sprintf ('  reference: one dgbtrf of the same matrix, N=2^10..%d (part l)', max ([r.l.N]));
      fprintf ('%-62s %9.2f %17s %9s %s\n', lbl, pl(1), 'least squares', '-', '-');
    end
    lbl = sprintf ('SKG disk N=2^10..%d: exponent of peak memory <= 1.05', max ([r.c.runs.N]));
    fprintf ('%-62s %9.2f %17s %9s %s\n', lbl, r.c.exponent_memory, 'least squares', '<= 1.05', ...
             met_str (r.c.exponent_memory <= 1.05));
  else
    fprintf (fmt, 'SKG disk: exponents of time/iteration and peak memory <= 1.05', '-', ...
             'not run (part c)', '<= 1.05', '-');
  end
  w = [];
  if (isfield (r, 'c'))
    w = r.c.runs([r.c.runs.N] == 2^20);
  end
  if (isempty (w))
    fprintf (fmt, 'SKG disk N=2^20 one window: <= 15 s end to end', '-', 'no 2^20 (part c)', '<= 15', '-');
    fprintf (fmt, 'SKG disk N=2^20 one window: <= 4 GB peak', '-', 'no 2^20 (part c)', '<= 4', '-');
  else
    fprintf ('%-62s %9.1f %17s %9s %s\n', 'SKG disk N=2^20 one window: <= 15 s end to end [s]', ...
             w.time, sprintf ('best of %d', w.nsolves), '<= 15', met_str (w.time <= 15));
    fprintf ('%-62s %9.1f %17s %9s %s\n', 'SKG disk N=2^20 one window: <= 15 s end to end [s]', ...
             w.first, 'first solve', '<= 15', met_str (w.first <= 15));
    fprintf ('%-62s %9.2f %17s %9s %s\n', 'SKG disk N=2^20 one window: <= 4 GB peak [GB]', ...
             w.hwm_mb / 1024, 'VmHWM', '<= 4', met_str (w.hwm_mb <= 4096));
  end
end

function L = part_l (Nmax)
  % the physical limit (bench/skg_limit.c, make skg_limit): a Newton iteration against one dgbtrf
  % of the same matrix, a fresh process per N
  L = struct ('N', {}, 'iterations', {}, 't_e2e', {}, 't_newton', {}, 't_numeric', {}, ...
              't_dgbtrf', {}, 'ratio', {}, 'ratio_first', {}, 'hwm_mb', {});
  if (~exist ('./skg_limit', 'file'))
    fprintf ('(l) physical limit: ./skg_limit not built (make skg_limit)\n\n');
    return;
  end
  fprintf (['(l) disk, order 4, one window, reduced: the kernel''s time per Newton iteration against ' ...
            'one warm dgbtrf of the same Jacobian (./skg_limit N, fresh process per N)\n']);
  fprintf ('%9s %9s %3s %3s %3s | %10s %12s %12s | %12s %12s | %7s %s %6s | %9s\n', 'N', 'unknowns', ...
           'kl', 'ku', 'it', 'C solve [s]', 'newton/it[ms]', 'factor/it[ms]', 'dgbtrf [ms]', ...
           'cold [ms]', 'ratio', '(<= 1.5)', 'first', 'peak [MB]');
  N = 2^8;
  while (N <= Nmax)
    [st, out] = system (sprintf ('./skg_limit %d %d', N, max (3, min (9, round (2^18 / N)))));
    tok = regexp (out, 'SKGLIMIT ([^\n]*)', 'tokens', 'once');
    if (st ~= 0 || isempty (tok))
      fprintf ('%9d failed (status %d): %s\n', N, st, out);
      break;
    end
    v = limit_fields (tok{1});
    row = struct ('N', N, 'iterations', v.it, 't_e2e', v.e2e, 't_newton', v.newton_it, ...
                  't_numeric', v.numeric / max (v.fact, 1), 't_dgbtrf', v.dgbtrf, ...
                  'ratio', v.ratio, 'ratio_first', v.ratio_first, 'hwm_mb', v.hwm_kb / 1024);
    L(end+1) = row; %#ok<AGROW>
    fprintf ('%9d %9d %3d %3d %3d | %10.4f %12.3f %12.3f | %12.3f %12.3f | %7.2f %-8s %6.2f | %9.1f\n', N, ...
             v.unknowns, v.kl, v.ku, v.it, v.e2e, 1e3 * v.newton_it, 1e3 * row.t_numeric, ...
             1e3 * v.dgbtrf, 1e3 * v.dgbtrf_cold, v.ratio, met_str (v.ratio <= 1.5), v.ratio_first, ...
             row.hwm_mb);
    N = 4 * N;
  end
  fprintf (['newton/it = (residuals + Jacobians + factorizations + solves) / iterations of vm_skg_solve ' ...
            '(defaults); factor/it = one factorization\n(band fill, LU, pivot ratio; the first touch ' ...
            'of the band''s pages), the fastest of 2^18/N solves (at most 9, at least 3; first: the ratio of ' ...
            'the first solve, every array new); dgbtrf = LAPACK ' ...
            'on the same band, warm (min of as many); ' ...
            'cold = its first call\n\n']);
end

function s = met_str (b)
  if (b)
    s = 'yes';
  else
    s = 'NO';
  end
end

function t = best_time (f, nrep, tmax)
  % best of nrep calls of f, fewer if the total passes tmax seconds
  t = inf;  tot = 0;
  for k = 1:nrep
    tic;  f ();  el = toc;
    t = min (t, el);  tot = tot + el;
    if (tot > tmax)
      break;
    end
  end
end

function A = part_a (order)
  cases = {'tumbler', 1/10, 256; 'tumbler', 1/30, 256; 'disk', [], 64};
  A = struct ('problem', {}, 'N', {}, 'mode', {}, 'grad_check', {}, 't_skg', {}, 'it_skg', {}, ...
              'exit_skg', {}, 't_auto', {}, 'it_auto', {}, 't_fsolve', {}, 'it_fsolve', {}, ...
              'fev_fsolve', {}, 'exit_fsolve', {}, 'res_fsolve', {}, 'diff_q', {}, 'ratio', {}, ...
              'ratio_auto', {});
  fprintf ('(a) end to end: skg_solve vs fsolve (dense FD Jacobian) on the hand-written m-code equations, order %d\n', order);
  for ic = 1:rows (cases)
    pb = cases{ic, 1};  N = cases{ic, 3};
    [P, sys, tspan, q0, qd0] = skg_problem_params (pb, cases{ic, 2});
    name = pb;
    if (strcmp (pb, 'tumbler'))
      name = sprintf ('tumbler sigma=1/%d', round (1 / P.sig));
    end
    pr = skg_mcode_setup (pb, P, tspan, q0, qd0, N, order);
    % validate the peer: m-code gradient = skg_action's gradient at a random z (near the wall for
    % the tumbler, so that the contact force is active)
    rand ('seed', 11);
    Z = 0.5 * (rand (pr.nb, N) - 0.5);
    if (strcmp (pb, 'tumbler'))
      a = 2 * pi * rand (1, N);  rr = 1 + 0.02 * (rand (1, N) - 0.5);
      Z(1, :) = rr .* cos (a);  Z(2, :) = rr .* sin (a);
    end
    [~, gref] = skg_action (sys, tspan, q0, qd0, N, order, Z(:));
    gchk = max (abs (skg_mcode_action (pr, Z(:)) - gref)) / max (abs (gref));
    for mode = {'reduced', 'full'}
      md = mode{1};
      % the same start as fsolve (q0 at every node), and skg_solve's defaults (Guess 'auto': the
      % integrator's trajectory for the tumbler's contact, the constant start for the disk)
      s = skg_solve (sys, tspan, q0, qd0, 'N', N, 'Order', order, 'Mode', md, 'Guess', 'constant');
      tskg = best_time (@() skg_solve (sys, tspan, q0, qd0, 'N', N, 'Order', order, 'Mode', md, ...
                                       'Guess', 'constant'), 40, 2);
      sa = skg_solve (sys, tspan, q0, qd0, 'N', N, 'Order', order, 'Mode', md);
      tauto = best_time (@() skg_solve (sys, tspan, q0, qd0, 'N', N, 'Order', order, 'Mode', md), ...
                         40, 2);
      if (strcmp (md, 'reduced'))
        x0 = [repmat(q0(:), 1, N); zeros(pr.m, N)];
        fun = @(x) skg_mcode_reduced (pr, x);
      else
        x0 = zeros (pr.nb, N);  x0(1:pr.n, :) = repmat (q0(:), 1, N);
        fun = @(z) skg_mcode_action (pr, z);
      end
      x0 = x0(:);
      opt = optimset ('TolFun', 1e-10 / numel (x0), 'TolX', 1e-12);
      tic;  [x, fv, info, out] = fsolve (fun, x0, opt);  tfs = toc;
      X = reshape (x, [], N)';
      dq = max (max (abs (X(:, 1:pr.n) - s.q)));
      row = struct ('problem', name, 'N', N, 'mode', md, 'grad_check', gchk, 't_skg', tskg, ...
                    'it_skg', s.iterations, 'exit_skg', s.exitflag, 't_auto', tauto, ...
                    'it_auto', sa.iterations, 't_fsolve', tfs, ...
                    'it_fsolve', out.iterations, 'fev_fsolve', out.funcCount, 'exit_fsolve', info, ...
                    'res_fsolve', norm (fv), 'diff_q', dq, 'ratio', tfs / tskg, ...
                    'ratio_auto', tfs / tauto);
      A(end+1) = row; %#ok<AGROW>
    end
  end
  fprintf ('%-19s %4s %-7s %8s | %9s %3s %2s | %9s %3s | %9s %4s %6s %2s %9s | %9s %7s %7s %s\n', ...
           'problem', 'N', 'mode', 'grad err', 'skg [s]', 'it', 'ok', 'auto [s]', 'it', 'fsolve[s]', ...
           'it', 'fev', 'ok', '|F| end', 'max dq', 'ratio', 'r auto', 'target >= 300');
  for k = 1:numel (A)
    w = A(k);
    fprintf ('%-19s %4d %-7s %8.1e | %9.4f %3d %2d | %9.4f %3d | %9.2f %4d %6d %2d %9.1e | %9.1e %7.0f %7.0f %s\n', ...
             w.problem, w.N, w.mode, w.grad_check, w.t_skg, w.it_skg, w.exit_skg, w.t_auto, ...
             w.it_auto, w.t_fsolve, w.it_fsolve, w.fev_fsolve, w.exit_fsolve, w.res_fsolve, ...
             w.diff_q, w.ratio, w.ratio_auto, yesno (w.ratio >= 300 && w.exit_skg == 1));
  end
  fprintf (['skg = skg_solve from the same start as fsolve (Guess ''constant''), auto = with its ', ...
            'default Guess ''auto''\nratio = fsolve time / skg time (the target), r auto = fsolve ', ...
            'time / auto time;\ngrad err = max |m-code grad - skg_action grad| / max |grad|\n\n']);
end

function B = fd_bound (order, N, cap)
  % the disk at N nodes (reduced) against fsolve with the dense FD Jacobian (6 N unknowns: a
  % Jacobian of 6 N evaluations of the m-code equations per iteration), as in part (a) but
  % interrupted after cap seconds: when it has not converged by then, its time is reported as a
  % lower bound (> cap)
  [P, sys, tspan, q0, qd0] = skg_problem_params ('disk');
  pr = skg_mcode_setup ('disk', P, tspan, q0, qd0, N, order);
  x0 = [repmat(q0(:), 1, N); zeros(pr.m, N)];
  x0 = x0(:);
  tskg = best_time (@() skg_solve (sys, tspan, q0, qd0, 'N', N, 'Order', order, 'Guess', 'constant'), 20, 2);
  opt = optimset ('TolFun', 1e-10 / numel (x0), 'TolX', 1e-12);
  capped_fun ('reset', cap);
  t0 = tic;
  capped = false;
  try
    fsolve (@(x) capped_fun (@(y) skg_mcode_reduced (pr, y), x), x0, opt);
  catch err
    if (~strcmp (err.identifier, 'bench_skg:cap'))
      rethrow (err);
    end
    capped = true;
  end
  tfs = toc (t0);
  B = struct ('problem', 'disk', 'N', N, 'unknowns', numel (x0), 't_fsolve', tfs, ...
              'capped', capped, 'evaluations', capped_fun ('count'), 't_skg', tskg, ...
              'ratio', tfs / tskg);
  if (capped)
    fprintf (['(a) disk N = %d, reduced (%d unknowns): fsolve (dense FD) interrupted after %.0f s ' ...
              '(%d evaluations of the m-code equations, not converged); skg_solve (same start) ' ...
              '%.4f s; ratio > %.0f\n\n'], N, B.unknowns, tfs, B.evaluations, tskg, B.ratio);
  else
    fprintf (['(a) disk N = %d, reduced (%d unknowns): fsolve (dense FD) %.1f s, %d evaluations; ' ...
              'skg_solve (same start) %.4f s; ratio %.0f\n\n'], N, B.unknowns, tfs, ...
             B.evaluations, tskg, B.ratio);
  end
end

function f = capped_fun (fun, x)
  % fun (x), counted; an error bench_skg:cap once the time since capped_fun ('reset', cap) passes
  % cap seconds.  capped_fun ('count'): the evaluations since the reset.
  persistent t0 cap count
  if (ischar (fun))
    if (strcmp (fun, 'reset'))
      t0 = tic;  cap = x;  count = 0;
    end
    f = count;
    return;
  end
  if (toc (t0) > cap)
    error ('bench_skg:cap', 'bench_skg: fsolve interrupted after %g s', cap);
  end
  count = count + 1;
  f = fun (x);
end

function I = part_i ()
  % the IPOPT peer (bench/ipopt_peer.c, make ipopt_peer): run when it has been built, its rows
  % parsed for the summary
  I = struct ('problem', {}, 'N', {}, 'hess', {}, 'r_min', {}, 'r_med', {}, 'r_max', {});
  if (~exist ('./ipopt_peer', 'file'))
    fprintf ('(i) IPOPT peer: ./ipopt_peer not built (make ipopt_peer; needs coinor-libipopt-dev)\n\n');
    return;
  end
  [st, out] = system ('./ipopt_peer 7 both');
  fprintf ('(i) IPOPT peer (./ipopt_peer 7 both)\n%s\n', out);
  if (st ~= 0)
    return;
  end
  tok = regexp (out, ['(disk|tumbler sigma=1/30)\s+(\d+)\s+(lbfgs|zero)\s+\|[^\n]*\|\s+' ...
                      '([\d.]+)\s+([\d.]+)\s+([\d.]+)'], 'tokens');
  for k = 1:numel (tok)
    t = tok{k};
    I(end+1) = struct ('problem', t{1}, 'N', str2double (t{2}), 'hess', t{3}, ...
                       'r_min', str2double (t{4}), 'r_med', str2double (t{5}), ...
                       'r_max', str2double (t{6})); %#ok<AGROW>
  end
end

function B = part_b (order)
  N = 1024;
  [P, sys, tspan, q0, qd0] = skg_problem_params ('disk');
  n = sys.n;  m = 2;   % constraints g1lin, g2
  fprintf ('(b) disk (linear constraint form), N = %d, order %d: time per Newton iteration vs one UMFPACK LU\n', N, order);
  fprintf ('%-8s %8s %3s %11s | %8s %9s %11s | %7s %s | %11s %7s\n', 'mode', 'unknowns', 'it', ...
           'skg/it [ms]', 'nnz(A)', 'nnz(L+U)', 'lu(A) [ms]', 'ratio', 'target <= 2', ...
           'kernel num', 'ratio');
  B = struct ('mode', {}, 'n_unknowns', {}, 'iterations', {}, 't_iter', {}, 'nnz', {}, 'nnz_lu', {}, ...
              't_lu', {}, 'ratio', {}, 't_numeric', {}, 'ratio_numeric', {}, 'timing', {});
  for mode = {'reduced', 'full'}
    md = mode{1};
    s = skg_solve (sys, tspan, q0, qd0, 'N', N, 'Order', order, 'Mode', md);
    ts = best_time (@() skg_solve (sys, tspan, q0, qd0, 'N', N, 'Order', order, 'Mode', md), 10, 3);
    % the kernel's own numeric factorizations in the same kind of run (best of 5)
    tn = inf;
    for k = 1:5
      sk = skg_solve (sys, tspan, q0, qd0, 'N', N, 'Order', order, 'Mode', md);
      if (sk.timing.numeric / sk.timing.factorizations < tn)
        tn = sk.timing.numeric / sk.timing.factorizations;  tim = sk.timing;
      end
    end
    Z = zeros (2*n + 2*m, N);
    Z(1:n, :) = s.q';  Z(2*n+1:2*n+m, :) = s.lambda';
    [~, ~, Hs] = skg_action (sys, tspan, q0, qd0, N, order, Z(:));
    if (strcmp (md, 'reduced'))
      nb = 2*n + 2*m;
      base = (0:N-1) * nb;
      ip = bsxfun (@plus, [1:n, 2*n+1:2*n+m]', base);   % q+, lambda+
      im = bsxfun (@plus, [n+1:2*n, 2*n+m+1:nb]', base);  % q-, lambda-
      Amat = Hs(im(:), ip(:));
    else
      Amat = Hs;
    end
    [L, U, Pp, Qq] = lu (Amat);
    nlu = nnz (L) + nnz (U);
    clear L U Pp Qq
    tl = best_time (@() lu_4 (Amat), 20, 2);
    row = struct ('mode', md, 'n_unknowns', rows (Amat), 'iterations', s.iterations, ...
                  't_iter', ts / s.iterations, 'nnz', nnz (Amat), 'nnz_lu', nlu, 't_lu', tl, ...
                  'ratio', ts / s.iterations / tl, 't_numeric', tn, ...
                  'ratio_numeric', ts / s.iterations / tn, 'timing', tim);
    B(end+1) = row; %#ok<AGROW>
    fprintf ('%-8s %8d %3d %11.3f | %8d %9d %11.3f | %7.2f %-11s | %11.3f %7.2f\n', md, row.n_unknowns, ...
             row.iterations, 1e3 * row.t_iter, row.nnz, row.nnz_lu, 1e3 * tl, row.ratio, ...
             yesno (row.ratio <= 2), 1e3 * tn, row.ratio_numeric);
    fprintf ('         kernel, one solve [ms]: build %.2f, residual %.2f, jacobian %.2f (tape %.2f, hessian %.2f), symbolic %.2f, numeric %.2f (%d), solve %.2f, total %.2f\n', ...
             1e3 * tim.build, 1e3 * tim.residual, 1e3 * tim.jacobian, 1e3 * tim.tape, ...
             1e3 * tim.hessian, 1e3 * tim.symbolic, 1e3 * tim.numeric, tim.factorizations, ...
             1e3 * tim.solve, 1e3 * tim.total);
  end
  fprintf (['skg/it = skg_solve end-to-end time / Newton iterations (includes building the action);\n', ...
            'lu(A) = Octave''s [L,U,P,Q] = lu (A) (UMFPACK, default ordering); kernel num = one numeric\n', ...
            'factorization inside skg_solve (its LinearSolver ''auto'': the banded LU for these bands, ' ...
            'csrc/la/linsolve.h), ratio = skg/it / kernel num\n\n']);
end

function lu_4 (A)
  [L, U, P, Q] = lu (A); %#ok<ASGLU>
end

function C = part_c (order, Nmax)
  fprintf (['(c) disk (linear constraint form), order %d: time per iteration and peak memory, fresh process per N;\n' ...
            '    3 solves per process after a warm-up at N = 64: "first" = the first (new pages), "best" = the fastest;\n' ...
            '    peak = VmHWM after the first solve\n'], order);
  fprintf ('%9s %3s %2s %11s %11s %13s %13s %12s %14s\n', 'N', 'it', 'ok', 'first [s]', 'best [s]', ...
           'first/it [ms]', 'best/it [ms]', 'peak [MB]', 'peak-base [MB]');
  C = struct ('N', {}, 'iterations', {}, 'time', {}, 't_iter', {}, 'first', {}, 't_iter_first', {}, ...
              'nsolves', {}, 'hwm_mb', {}, 'growth_mb', {}, 'exitflag', {}, 'message', {}, 'history', {}, ...
              'kernel_times', {});
  oct = fullfile (OCTAVE_HOME (), 'bin', 'octave-cli');
  d = fileparts (mfilename ('fullpath'));
  root = fileparts (d);
  N = 2^8;
  while (N <= Nmax)
    cmd = sprintf (['"%s" --no-gui --norc --no-history --quiet --eval "addpath(''%s'',''%s'',''%s''); ' ...
                    'skg_scaling_one(%d, %d, ''reduced'', ''auto'', 3);"'], oct, root, ...
                   fullfile (root, 'inst'), d, N, order);
    [st, txt] = system (cmd);
    v = regexp (txt, 'SKGSCALE ([^\n]*)', 'tokens', 'once');
    if (st ~= 0 || isempty (v))
      fprintf ('%9d failed (status %d): %s\n', N, st, txt);
      break;
    end
    v = sscanf (v{1}, '%f');
    msg = regexp (txt, 'SKGMSG ([^\n]*)', 'tokens', 'once');
    hist = regexp (txt, 'SKGHIST ([^\n]*)', 'tokens', 'once');
    tims = regexp (txt, 'SKGTIME ([^\n]*)', 'tokens', 'once');
    row = struct ('N', N, 'iterations', v(2), 'time', v(3), 't_iter', v(3) / v(2), 'first', v(7), ...
                  't_iter_first', v(7) / v(2), 'nsolves', v(8), 'hwm_mb', v(5) / 1024, ...
                  'growth_mb', (v(5) - v(4)) / 1024, 'exitflag', v(6), 'message', msg{1}, ...
                  'history', hist{1}, 'kernel_times', tims{1});
    C(end+1) = row; %#ok<AGROW>
    fprintf ('%9d %3d %2d %11.3f %11.3f %13.3f %13.3f %12.1f %14.1f   %s\n', N, row.iterations, ...
             row.exitflag, row.first, row.time, 1e3 * row.t_iter_first, 1e3 * row.t_iter, row.hwm_mb, ...
             row.growth_mb, row.message);
    fprintf ('%9s ||r||_H/||dx||_inf per iterate: %s\n%9s kernel [s] (last solve): %s\n', '', ...
             row.history, '', row.kernel_times);
    if (row.first > 60 || row.hwm_mb > 8192)
      fprintf ('stopped: first solve %.1f s, peak %.0f MB\n', row.first, row.hwm_mb);
      break;
    end
    N = 2 * N;
  end
  Ns = [C.N];  mem = [C.growth_mb];
  sel = Ns >= 2^10;
  pt = polyfit (log (Ns(sel)), log ([C(sel).t_iter]), 1);
  pf = polyfit (log (Ns(sel)), log ([C(sel).t_iter_first]), 1);
  pm = polyfit (log (Ns(sel)), log (mem(sel)), 1);
  lo = find (sel, 1);  hi = numel (Ns);
  fprintf (['fitted exponent (N >= 2^10): time/iteration %.2f (best of 3), %.2f (first solve); ' ...
            'peak-memory growth %.2f  (target <= 1.05: %s, %s, %s)\n'], pt(1), pf(1), pm(1), ...
           yesno (pt(1) <= 1.05), yesno (pf(1) <= 1.05), yesno (pm(1) <= 1.05));
  fprintf ('end-point exponents N = %d -> %d: time/iteration %.2f (best), %.2f (first), memory %.2f\n\n', ...
           Ns(lo), Ns(hi), log (C(hi).t_iter / C(lo).t_iter) / log (Ns(hi) / Ns(lo)), ...
           log (C(hi).t_iter_first / C(lo).t_iter_first) / log (Ns(hi) / Ns(lo)), ...
           log (mem(hi) / mem(lo)) / log (Ns(hi) / Ns(lo)));
  C = struct ('runs', C, 'exponent_time', pt(1), 'exponent_time_first', pf(1), 'exponent_memory', pm(1));
end

function D = part_d ()
  t_all = tic ();
  fprintf (['(d) adaptive marching (defaults, RelTol given) against one fixed window of equal accuracy, ' ...
            'order 4\n']);
  dp = mechsys ('coordinates', {'a', 'b'}, 'parameters', struct ('g', 9.81, 'c', 0.3), ...
    'lagrangian', 'dot(a)^2 + dot(b)^2/2 + dot(a)*dot(b)*cos(a-b) + 2*g*cos(a) + g*cos(b)', ...
    'forces', {'-c*dot(a)', '-c*dot(b)'});
  ke = mechsys ('coordinates', {'x', 'y', 'phi'}, ...
    'parameters', struct ('m', 1, 'g', 9.81, 'alpha', 0.5, 'I', 0.2), ...
    'lagrangian', 'm/2*(dot(x)^2 + dot(y)^2) + I/2*dot(phi)^2 + m*g*sin(alpha)*x', ...
    'constraints', {'dot(x)*sin(phi) - dot(y)*cos(phi)'});
  Pd = struct ('M', 1, 'g', 9.8, 'alpha', pi/6, 'R', 1, 'IS', 1/2, 'ID', 1/4);
  disk = mechsys ('coordinates', {'x', 'y', 'theta', 'phi'}, 'parameters', Pd, ...
    'lagrangian', 'M/2*(dot(x)^2 + dot(y)^2) + IS/2*dot(theta)^2 + ID/2*dot(phi)^2 + M*g*x*sin(alpha)', ...
    'constraints', {'dot(x)^2 + dot(y)^2 - R^2*dot(theta)^2', 'dot(x)*sin(phi) - dot(y)*cos(phi)'});
  pbs = struct ('name', {'damped double pendulum', 'knife edge', 'rolling disk'}, ...
                'sys', {dp, ke, disk}, 'tspan', {[0 10], [0 4], [0 2*pi]}, ...
                'q0', {[1.5 -0.5], [0 0 0], [0 0 0 0]}, 'v0', {[0 0], [0 0 2], [5 0 5 1]});
  rtols = [1e-6 1e-8];
  opt = struct ('N0', 128, 'Nmin', 16, 'Nmax', 2^16, 'nrep', 5);
  rows = [];
  for ip = 1:numel (pbs)
    pb = pbs(ip);
    if (strcmp (pb.name, 'rolling disk'))
      ref = @(t) disk_closed_form (Pd, pb.q0, pb.v0, t);
      refname = 'closed form';
    else
      ref = @(t) gauss_ref (pb, t, 1e-12);
      refname = 'dop853 1e-12';
      % the reference's own error, against dop853 at 1e-14
      tt = linspace (pb.tspan(1), pb.tspan(2), 2001)';
      fprintf ('  %s: reference %s, its error (vs dop853 at 1e-14 on 2001 points) %.1e\n', pb.name, ...
               refname, max (max (abs (ref (tt) - gauss_ref (pb, tt, 1e-14)))));
    end
    % which start does the fixed window's default guess end with?
    s0 = skg_solve (pb.sys, pb.tspan, pb.q0, pb.v0, 'N', opt.N0);
    guess = {};
    note = sprintf ('fixed: Guess %s', s0.guess);
    if (strncmp (s0.guess, 'integrator (after', 17))
      guess = {'Guess', 'integrator'};
      note = 'fixed: default auto fails from the marching start; timed with Guess integrator';
    end
    for rt = rtols
      adaptive = @() skg_run (pb, {'RelTol', rt});
      fixed = @(N) skg_run (pb, [{'N', N}, guess]);
      w = march_vs_fixed (adaptive, fixed, ref, opt);
      w.name = pb.name;
      w.rtol = rt;
      w.atol = 1e-8;
      w.note = note;
      rows = [rows, w]; %#ok<AGROW>
    end
  end
  march_vs_fixed_table (rows);
  fprintf (['err = max over the nodes of |q - q_ref| and |qdot - qdot_ref| (ref: gauss_integrate dop853 at ' ...
            'RelTol = AbsTol = 1e-12; the disk: closed form);\nadaptive = skg_solve (sys, tspan, q0, v0, ' ...
            '''RelTol'', RelTol) (AbsTol 1e-8, N = 33, order 4); fixed = skg_solve (..., ''N'', N): one ' ...
            'window of N nodes,\nthe smallest N found with err fixed <= err adapt; times: median of %d pairs ' ...
            '(adaptive, fixed, ...); f/a = median of time fixed / time adaptive per pair (range)\n'], opt.nrep);
  fprintf ('part (d): %.0f s\n\n', toc (t_all));
  D = rows;
end

function r = skg_run (pb, args)
  s = skg_solve (pb.sys, pb.tspan, pb.q0, pb.v0, args{:});
  r = struct ('t', s.t, 'x', [s.q, s.qdot], 'iterations', s.iterations, 'exitflag', s.exitflag, ...
              'windows', numel (s.windows.t0), 'rejected', numel (s.rejected.t0));
end

function x = gauss_ref (pb, t, tol)
  r = gauss_integrate (pb.sys, pb.tspan, pb.q0, pb.v0, 'Method', 'dop853', 'RelTol', tol, ...
                       'AbsTol', tol, 'OutputTimes', t);
  x = [r.output.q, r.output.qdot];
end

function x = disk_closed_form (P, q0, qdot0, t)
  % the rolling disk's closed form (the same as demos/private/vm_disk_closed_form.m; derivation in
  % help demo_rolling_disk): phi = phi0 + Omega t, (M + IS/R^2) vdot = M g sin(alpha) cos(phi)
  M = P.M;
  R = P.R;
  Om = qdot0(4);
  phi0 = q0(4);
  kk = M * P.g * sin (P.alpha) / (M + P.IS / R ^ 2);
  v0 = qdot0(1) * cos (phi0) + qdot0(2) * sin (phi0);
  phi = phi0 + Om * t;
  cc = v0 - kk / Om * sin (phi0);
  v = cc + kk / Om * sin (phi);
  x = q0(1) + cc * (sin (phi) - sin (phi0)) / Om + kk * (sin (phi) .^ 2 - sin (phi0) ^ 2) / (2 * Om ^ 2);
  y = q0(2) + cc * (cos (phi0) - cos (phi)) / Om ...
      + kk / Om * (t / 2 - (sin (2 * phi) - sin (2 * phi0)) / (4 * Om));
  th = q0(3) + (cc * t + kk * (cos (phi0) - cos (phi)) / Om ^ 2) / R;
  x = [x, y, th, phi, v .* cos(phi), v .* sin(phi), v / R, Om * ones(size (t))];
end

function s = yesno (b)
  if (b)
    s = 'met';
  else
    s = 'NOT met';
  end
end
