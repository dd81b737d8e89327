% -*- texinfo -*-
% @deftypefn  {} {@var{r} =} bench_dual ()
% @deftypefnx {} {@var{r} =} bench_dual (@var{parts}, @var{fd_cap})
% Benchmark of @code{dual_lorenz} (the discrete dual Lorenz action of Acharya and Sengupta, eqs.
% 30-31, closed-form node functions, Newton with the exact sparse Hessian, factored by the banded
% Cholesky) on [0, 1] with N = 256 and N = 4096 grid points, with the peers measured in the same
% run.
%
% The problem: Lorenz A = 10, R = 28, B = 8/3, y0 = (1, 1, 1), t in [0, 1], one slab, interior
% order 4, c = 50 (dual_lorenz's default), D(1) = 0 prescribed, and the base state
% @code{ybar(t) = yref(t) + 0.02 max|yref| .* (sin 2 pi t, cos 3 pi t, sin 5 pi t)} (yref: ode45
% with RelTol = AbsTol = 1e-12 on the grid; max per component over the grid): a base state about
% 2 % off the solution, so that the duals are O(c) (max |D| = 56 = 1.1 c) and Newton from D = 0
% needs several iterations, but one slab converges at both N (from ybar = 0 it does not: the
% DtP matrix turns singular).  Every solver starts from D = 0 and solves the same discrete
% equations: the gradient of S row-scaled by the quadrature weights, i.e. the discrete primal
% residuals that dual_lorenz's Newton drives to zero.
% @table @asis
% @item (a)
% end to end, dual_lorenz against Octave's @code{fsolve} on the same discrete functional written in
% plain vectorized m-code (@file{dual_mcode_lorenz.m}, validated first against the gateway's
% closed-form gradient and dual_action's general engine at a random point):
% @itemize
% @item fsolve with its defaults (dogleg, dense forward-difference Jacobian recomputed every
% iteration): the peer a reader of the paper would write.  At N = 4096 (12285 unknowns) one
% iteration is 12285 m-code evaluations plus a dense LU of a 12285-square matrix; the run is
% interrupted at the end of its first Jacobian or after @var{fd_cap} seconds (default 60),
% whichever comes first, and the time is reported as a lower bound (@var{fd_cap} = Inf: no
% interruption, hours).
% @item fsolve with 'Jacobian' 'on' and the m-code's own analytic sparse Jacobian: the strong
% peer (its dogleg step is Octave's sparse backslash, which detects that the matrix is banded,
% bandwidth 17, and uses LAPACK's banded LU, not UMFPACK).
% @end itemize
% fsolve gets dual_lorenz's stopping rules: its residual test |f|_2 <= TolFun n |z|_2 is set to
% Newton's |f|_2 <= 1e-11 max (sqrt (n), |f(0)|_2) (TolFun = that / (n |z*|_2), z* dual_lorenz's
% solution), and TolX = 1e-12 is Newton's step test.  The final residuals (2-norm of the same
% m-code equations) and the differences of the duals are printed.
% @item (b)
% time per Newton iteration against one UMFPACK factorization @code{[L, U, P, Q, R] = lu (H)} of
% the Hessian at the solution (the gateway's @code{vm_dual_mex ('action', ...)}, the matrix
% dual_lorenz factorizes): end to end (dual_lorenz time / iterations) and marginal ((time -
% time with MaxIter = 0) / iterations, i.e. without the setup of the discretization).
% @item (c)
% the adaptive marching driver (dual_solve with its defaults and RelTol 1e-6 or 1e-9, AbsTol =
% RelTol/100 as in @file{tests/octave/test_dual_march.m}: windows of N = 33 nodes, order 4 with the
% order-6 estimate, RK4-predicted base states) against one fixed window of equal accuracy
% (dual_solve with 'N', N, 'Slabs', 1, 'Guess', 'marching' and the same RelTol/AbsTol, which set
% Newton's stopping rule: one window of N nodes, order 4, the RK4-predicted base state; from the
% fixed grid's default zero base state one window does not converge), on Lorenz from (1, 1, 1) on
% [0, 1] (reference: ode45, RelTol = AbsTol = 1e-12) and the pendulum th'' = -10 sin th from
% th = 2 at rest on [0, 20] (reference: the closed form th = 2 asin (k sn (K - sqrt (10) t, k)),
% k = sin 1), and Van der Pol mu = 5 from (2, 0) on [0, 20] (reference: ode45 at 1e-12).  Error:
% max over the nodes of |y - y_ref|.  The smallest single-window N whose
% error is <= the adaptive error (doubling from 64, then bisection; up to 2^16) and the times of
% both solves, median of 5 pairs run in turn (@file{march_vs_fixed.m}).
% @item (d)
% the strong Octave peer (issue 15): fsolve with 'Jacobian' 'on' and an analytic sparse Jacobian
% (the m-code's, and the gateway's exact gradient and Hessian, row-scaled), from D = 0, stopped at
% dual_lorenz's residual (or, when fsolve ends above it with exitflag ~= 1, at 1.01 times the
% residual fsolve reaches, as the IPOPT peer of bench_skg: marked *); 7 pairs (dual_lorenz,
% fsolve) run in turn, the ratio taken per pair (min, median, max).  Target: >= 20 at N = 256
% and 4096, met only when it also holds with fsolve stopped at twice dual_lorenz's residual
% (ratio2): where dual_lorenz's last step lands below its target is an accident of rounding, and
% near the rounding floor fsolve's iteration count follows it (N = 4096: 23 steps to 1.4e-7, 38 to
% 1.1e-7).
% @item (l)
% the physical limit (@file{bench/dual_limit.c}, @code{make dual_limit}; a fresh process per N):
% the C kernel's time per Newton iteration (the whole vm_dual_solve with dual_lorenz's defaults,
% everything but the discretization's set-up, divided by its iterations) against one warm LAPACK
% dgbtrf of the Hessian at the solution, at N = 2^8, 2^10, ..., @var{l_max} (default 2^20; quick
% 2^16), on this problem (its base state from the classical Runge-Kutta method in C, 20 steps per
% grid interval, instead of ode45), the fastest of max(3, min(9, 2^18/N)) solves in one process
% (the first solve's ratio printed beside it).  Target: <= 1.5 at every N.
% @end table
% The last output is a summary table against the targets of issue 15.
% @var{parts}: a string of the letters to run (default 'abcdl'; quick: 'abdl' with @var{l_max}
% 2^16).  Times: best of several runs (part
% c: medians).  No timing is asserted.
% @end deftypefn

function r = bench_dual (parts, fd_cap, l_max)
  if (nargin < 1 || isempty (parts))
    parts = 'abcdl';
  end
  if (nargin < 2 || isempty (fd_cap))
    fd_cap = 60;
  end
  if (nargin < 3 || isempty (l_max))
    l_max = 2^20;
  end
  t_all = tic;
  r = struct ();
  Ns = [256 4096];
  if (any (parts == 'a'))
    r.a = part_a (Ns, fd_cap);
  end
  if (any (parts == 'b'))
    r.b = part_b (Ns);
  end
  if (any (parts == 'c'))
    r.c = part_c ();
  end
  if (any (parts == 'd'))
    r.d = part_d (Ns, 7);
  end
  if (any (parts == 'l'))
    r.l = part_l (l_max);
  end
  fprintf ('bench_dual: %.0f s in all\n', toc (t_all));
  summary (r);
end

function D = part_d (Ns, npair)
  % the strong Octave peer (issue 15), paired timing: dual_lorenz and fsolve with an analytic sparse
  % Jacobian run in turn, npair pairs, the ratio fsolve / dual_lorenz per pair
  fprintf ('(d) strong peer: fsolve with the analytic sparse Jacobian, %d pairs run in turn\n', npair);
  D = struct ('N', {}, 'peer', {}, 'it_dual', {}, 'res_dual', {}, 'it_fsolve', {}, 'exit_fsolve', {}, ...
              'relaxed', {}, ...
              'res_fsolve', {}, 'diff_D', {}, 'disc_err', {}, 't_dual', {}, 't_fsolve', {}, ...
              'ratios', {}, 'ratio_med', {}, 'ratio_min', {}, 'ratio_max', {}, ...
              'it_loose', {}, 'ratio_loose', {});
  for N = Ns
    pb = dual_problem (N);
    pr = pb.pr;
    s = dual_lorenz (pb.tspan, pb.y0, pb.opts{:});
    zs = pack_duals (s.D);
    % the discretization error of the primal y = ybar + ... : against ode45 at 1e-12 on the grid
    disc = max (max (abs (s.y - pb.yref)));
    z0 = zeros (pb.nz, 1);
    peers = {'m-code sparse J', @(z) dual_mcode_lorenz (pr, z); ...
             'gateway sparse J', @(z) gateway_fun (pb, z)};
    for ip = 1:size (peers, 1)
      fun = peers{ip, 2};
      % stop at the residual dual_lorenz reaches (fsolve's test |f|_2 <= TolFun n |z|_2)
      res_dual = norm (dual_mcode_lorenz (pr, zs));
      opt = optimset ('TolFun', res_dual / (pb.nz * norm (zs)), 'TolX', 1e-12, 'Jacobian', 'on');
      [x, fv, info, out] = fsolve (fun, z0, opt);
      res_f = norm (dual_mcode_lorenz (pr, x));
      relaxed = (info ~= 1 && res_f > res_dual);
      if (relaxed)
        % fsolve stops above dual_lorenz's residual (its TolX test ends a stall at its rounding
        % floor on these equations): it is asked for the residual it reaches, as the IPOPT peer
        % (bench/ipopt_peer.c), and not timed over iterations that cannot reach ours
        opt = optimset (opt, 'TolFun', 1.01 * res_f / (pb.nz * norm (zs)));
        [x, fv, info, out] = fsolve (fun, z0, opt);
      end
      t1 = tic;  dual_lorenz (pb.tspan, pb.y0, pb.opts{:});  td1 = toc (t1);
      nin = max (1, ceil (0.02 / td1));
      tp = zeros (npair, 1);  tf = tp;
      for k = 1:npair
        t1 = tic;
        for j = 1:nin
          dual_lorenz (pb.tspan, pb.y0, pb.opts{:});
        end
        tp(k) = toc (t1) / nin;
        t1 = tic;
        fsolve (fun, z0, opt);
        tf(k) = toc (t1);
      end
      ratio = tf ./ tp;
      % the sensitivity to the residual dual_lorenz happens to end at (its last step lands
      % anywhere below its target; near the rounding floor fsolve's count changes with it: at
      % N = 4096 23 steps to 1.4e-7 and 38 to 1.1e-7): fsolve stopped at twice that residual,
      % the same pairs
      optl = optimset (opt, 'TolFun', 2 * optimget (opt, 'TolFun'));
      [~, ~, ~, outl] = fsolve (fun, z0, optl);
      tl = zeros (npair, 1);
      for k = 1:npair
        t1 = tic;
        fsolve (fun, z0, optl);
        tl(k) = toc (t1);
      end
      D(end+1) = struct ('N', N, 'peer', peers{ip, 1}, 'it_dual', s.iterations, 'res_dual', res_dual, ...
                         'it_fsolve', out.iterations, 'exit_fsolve', info, 'relaxed', relaxed, ...
                         'res_fsolve', norm (dual_mcode_lorenz (pr, x)), ...
                         'diff_D', max (abs (x - zs)) / max (abs (zs)), 'disc_err', disc, ...
                         't_dual', median (tp), 't_fsolve', median (tf), 'ratios', ratio, ...
                         'ratio_med', median (ratio), 'ratio_min', min (ratio), ...
                         'ratio_max', max (ratio), 'it_loose', outl.iterations, ...
                         'ratio_loose', median (tl) / median (tp)); %#ok<AGROW>
    end
  end
  fprintf ('%5s %-17s %3s %9s | %3s %2s %9s %9s | %9s | %9s %9s | %7s %7s %7s | %3s %7s\n', 'N', ...
           'peer', 'it', '|f| dual', 'it', 'ok', '|f| fsol', 'max dD', 'disc err', 'dual [s]', ...
           'fsolve[s]', 'med', 'min', 'max', 'it2', 'ratio2');
  for k = 1:numel (D)
    w = D(k);
    mark = ' ';
    if (w.relaxed)
      mark = '*';
    end
    fprintf (['%5d %-17s %3d %9.1e | %3d %2d%s%9.1e %9.1e | %9.1e | %9.4f %9.4f | %7.1f %7.1f ' ...
              '%7.1f | %3d %7.1f\n'], w.N, w.peer, w.it_dual, w.res_dual, w.it_fsolve, ...
             w.exit_fsolve, mark, w.res_fsolve, w.diff_D, w.disc_err, w.t_dual, w.t_fsolve, ...
             w.ratio_med, w.ratio_min, w.ratio_max, w.it_loose, w.ratio_loose);
  end
  fprintf (['peer: fsolve (''Jacobian'' ''on'') with the m-code''s analytic sparse Jacobian, or with the ' ...
            'gateway''s exact gradient and sparse Hessian\n(vm_dual_mex ''action'', row-scaled as the ' ...
            'm-code); both from D = 0, stopped at dual_lorenz''s residual |f|_2 (same m-code equations);\n' ...
            'max dD = max |D_fsolve - D_dual| / max |D_dual|; disc err = max |y - y_ode45| of dual_lorenz; ' ...
            'ratios fsolve / dual_lorenz per pair;\n* fsolve did not reach dual_lorenz''s residual ' ...
            '(exitflag ~= 1 above it): it is timed to 1.01 times the residual it reaches, as the IPOPT ' ...
            'peer of bench_skg\nit2, ratio2: fsolve stopped at twice that residual (its iterations, ' ...
            'median time / median dual_lorenz time): the ratio''s sensitivity to where dual_lorenz''s ' ...
            'last step lands\n\n']);
end

function [f, J] = gateway_fun (pb, z)
  % the row-scaled gradient (the m-code's equations) and its sparse Jacobian from the gateway
  setup = gateway_setup (pb, z);
  sc = pb.pr.rowscale;
  if (nargout > 1)
    [~, g, H] = feval ('vm_dual_mex', 'action', [], setup);
    n = numel (sc);
    J = spdiags (sc, 0, n, n) * H;
  else
    [~, g] = feval ('vm_dual_mex', 'action', [], setup);
  end
  f = sc .* g;
end

function summary (r)
  % the single summary table against issue 15's targets (the last output of bench_dual)
  fprintf ('\nSummary against the targets (issue 15): ratio = peer time / dual_lorenz time, per pair\n');
  fprintf ('%-58s %9s %17s %9s %s\n', 'target', 'median', 'min - max', 'target', 'met');
  for N = [256 4096]
    lbl = sprintf ('dual Lorenz N=%d: >= 20x fsolve (analytic sparse J)', N);
    if (isfield (r, 'd'))
      % the stronger of the two analytic peers (the smaller ratio)
      w = r.d([r.d.N] == N);
      [~, i] = min (min ([w.ratio_med; w.ratio_loose]));
      w = w(i);
      % met only when it holds at twice the residual as well (not by where the last step lands)
      fprintf ('%-58s %9.1f %8.1f - %6.1f %9s %s   (%s; %.1f at twice the residual)\n', lbl, ...
               w.ratio_med, w.ratio_min, w.ratio_max, '>= 20', ...
               ok_met (w.ratio_med >= 20 && w.ratio_loose >= 20), w.peer, w.ratio_loose);
    else
      fprintf ('%-58s %9s %17s %9s %s\n', lbl, '-', 'not run (part d)', '>= 20', '-');
    end
  end
  for N = [256 4096]
    lbl = sprintf ('dual Lorenz N=%d: fsolve dense FD (ref.)', N);
    w = [];
    if (isfield (r, 'a'))
      w = r.a.runs([r.a.runs.N] == N & strcmp ({r.a.runs.solver}, 'fsolve, dense FD Jacobian'));
    end
    if (isempty (w))
      fprintf ('%-58s %9s %17s %9s %s\n', lbl, '-', 'not run (part a)', '-', '-');
    elseif (w.lower_bound)
      fprintf ('%-58s %8s%.0f %17s %9s %s\n', lbl, '>', w.ratio, 'one run, capped', '-', '-');
    else
      fprintf ('%-58s %9.0f %17s %9s %s\n', lbl, w.ratio, 'one run', '-', '-');
    end
  end
  for N = [256 4096]
    lbl = sprintf ('dual Lorenz N=%d: time per Newton iteration <= 1.5x one dgbtrf', N);
    w = [];
    if (isfield (r, 'b'))
      w = r.b([r.b.N] == N);
    end
    if (isempty (w) || isnan (w.ratio_dgbtrf))
      fprintf ('%-58s %9s %17s %9s %s\n', lbl, '-', 'not run (part b)', '<= 1.5', '-');
    else
      fprintf ('%-58s %9.2f %17s %9s %s\n', lbl, w.ratio_dgbtrf, 'marginal it', '<= 1.5', ...
               ok_met (w.ratio_dgbtrf <= 1.5));
    end
  end
  if (isfield (r, 'l') && ~isempty (r.l))
    rt = [r.l.ratio];
    lbl = sprintf ('dual Lorenz N=%d..%d: time/Newton it. <= 1.5x one dgbtrf', min ([r.l.N]), ...
                   max ([r.l.N]));
    rk = [r.l.ratio_kernel];
    rf = [r.l.ratio_first];
    fprintf (['%-58s %9.2f %8.2f - %6.2f %9s %s   (C kernel, part l; its callbacks and linear ' ...
              'solver alone, as SKG''s part l counts: %.2f - %.2f; the first solve in a fresh ' ...
              'process: %.2f - %.2f)\n'], lbl, median (rt), min (rt), ...
             max (rt), '<= 1.5', ok_met (max (rt) <= 1.5), min (rk), max (rk), min (rf), max (rf));
  else
    fprintf ('%-58s %9s %17s %9s %s\n', 'dual Lorenz N=256..2^20: time/Newton it. <= 1.5x dgbtrf', ...
             '-', 'not run (part l)', '<= 1.5', '-');
  end
end

function L = part_l (Nmax)
  % the physical limit (bench/dual_limit.c, make dual_limit): the C kernel's Newton iteration
  % against one dgbtrf of the same Hessian, a fresh process per N
  L = struct ('N', {}, 'iterations', {}, 'factorizations', {}, 't_e2e', {}, 't_iter', {}, 't_newton', {}, ...
              't_fun', {}, 't_jac', {}, 't_factor', {}, 't_solve', {}, 't_dgbtrf', {}, ...
              't_dpbtrf', {}, 'ratio', {}, 'ratio_kernel', {}, 'ratio_first', {}, 'hwm_mb', {});
  if (~exist ('./dual_limit', 'file'))
    fprintf ('(l) physical limit: ./dual_limit not built (make dual_limit)\n\n');
    return;
  end
  fprintf (['(l) dual Lorenz, order 4, one slab: the C kernel''s time per Newton iteration against ' ...
            'one warm dgbtrf of the same Hessian (./dual_limit N, fresh process per N)\n']);
  fprintf ('%8s %8s %3s %2s %3s | %9s %9s | %8s %8s %8s %8s | %10s %10s | %6s %-6s %6s | %9s\n', 'N', ...
           'unknowns', 'kl', 'it', 'fac', 'C e2e [s]', 'it [ms]', 'res', 'hess', 'factor', ...
           'solve', 'dgbtrf[ms]', 'dpbtrf[ms]', 'ratio', '<=1.5', 'first', 'peak [MB]');
  N = 2^8;
  while (N <= Nmax)
    [st, out] = system (sprintf ('./dual_limit %d %d', N, max (3, min (9, round (2^18 / N)))));
    tok = regexp (out, 'DUALLIMIT ([^\n]*)', 'tokens', 'once');
    if (st ~= 0 || isempty (tok))
      fprintf ('%8d failed (status %d): %s\n', N, st, out);
      break;
    end
    v = limit_fields (tok{1});
    row = struct ('N', N, 'iterations', v.it, 'factorizations', v.fact, 't_e2e', v.e2e, ...
                  't_iter', v.iter, 't_newton', v.newton_it, 't_fun', v.fun_it, 't_jac', v.jac_it, ...
                  't_factor', v.factor_it, 't_solve', v.solve_it, 't_dgbtrf', v.dgbtrf, ...
                  't_dpbtrf', v.dpbtrf, 'ratio', v.ratio, 'ratio_kernel', v.newton_it / v.dgbtrf, ...
                  'ratio_first', v.ratio_first, 'hwm_mb', v.hwm_kb / 1024);
    L(end+1) = row; %#ok<AGROW>
    fprintf ('%8d %8d %3d %2d %3d | %9.4f %9.3f | %8.3f %8.3f %8.3f %8.3f | %10.3f %10.3f | %6.2f %-6s %6.2f | %9.1f\n', ...
             N, v.unknowns, v.kl, v.it, v.fact, v.e2e, 1e3 * v.iter, 1e3 * v.fun_it, ...
             1e3 * v.jac_it, 1e3 * v.factor_it, 1e3 * v.solve_it, 1e3 * v.dgbtrf, 1e3 * v.dpbtrf, ...
             v.ratio, ok_met (v.ratio <= 1.5), v.ratio_first, row.hwm_mb);
    N = 4 * N;
  end
  fprintf (['it = vm_dual_solve (dual_lorenz''s defaults: tol 1e-11, LinearSolver auto) / iterations, ' ...
            'everything but the discretization''s set-up; res, hess, factor, solve: the parts ' ...
            'of it in the\nresiduals, Hessians, factorizations (fac of them, Cholesky), solves; ' ...
            'the fastest of ' ...
            '2^18/N solves (at most 9, at least 3); first: the ratio of the first solve, every array ' ...
            'touched for the first time (the virtual machine''s backing of fresh memory included); dgbtrf: ' ...
            'LAPACK on the band of the Hessian at the solution,\nwarm (refilled outside the timing, ' ...
            'min of as many); dpbtrf: LAPACK''s Cholesky of its lower band, likewise; peak: VmHWM after ' ...
            'the first solve\n\n']);
end

function s = ok_met (b)
  if (b)
    s = 'yes';
  else
    s = 'NO';
  end
end

function pb = dual_problem (N)
  % the benchmark problem on N grid points, and the data of the m-code peer
  pb.A = 10;  pb.R = 28;  pb.B = 8/3;  pb.c = 50;  pb.order = 4;
  pb.y0 = [1 1 1];  pb.tspan = [0 1];  pb.N = N;
  t = linspace (pb.tspan(1), pb.tspan(2), N)';
  lor = @(t, y) [pb.A * (y(2) - y(1)); y(1) * (pb.R - y(3)) - y(2); y(1) * y(2) - pb.B * y(3)];
  [~, yref] = ode45 (lor, t, pb.y0, odeset ('RelTol', 1e-12, 'AbsTol', 1e-12));
  pb.t = t;
  pb.yref = yref;
  pb.ybar = yref + 0.02 * bsxfun (@times, [sin(2*pi*t), cos(3*pi*t), sin(5*pi*t)], max (abs (yref)));
  [D, H] = sbp_operator (N, pb.order, pb.tspan);
  hw = full (diag (H));
  pb.nz = 3 * (N - 1);
  pb.pr = struct ('N', N, 'D', D, 'hw', hw, 'ybar', pb.ybar, 'y0', pb.y0, 'DT', [0 0 0], ...
                  'A', pb.A, 'R', pb.R, 'B', pb.B, 'c', pb.c, ...
                  'rowscale', kron (1 ./ hw(1:N-1), ones (3, 1)));
  pb.opts = {'N', N, 'Order', pb.order, 'c', pb.c, 'A', pb.A, 'R', pb.R, 'B', pb.B, ...
             'BaseState', pb.ybar};
end

function setup = gateway_setup (pb, z)
  % the setup struct of vm_dual_mex for the closed-form Lorenz kernel (what dual_lorenz solves)
  setup = struct ('t0', pb.tspan(1), 'tf', pb.tspan(2), 'N', pb.N, 'order', pb.order, ...
                  'c', pb.c * [1 1 1], 'ybar', pb.ybar, 'y0', pb.y0, 'DT', [0 0 0], 'z', z, ...
                  'tol', 1, 'max_iter', 0, 'kernel', 'lorenz', 'kpar', [pb.A pb.R pb.B pb.c]);
end

function t = best_time (f, nrep, tmax)
  % best of nrep calls of f, fewer if the total passes tmax seconds
  t = inf;  tot = 0;
  for k = 1:nrep
    t1 = tic;  f ();  el = toc (t1);
    t = min (t, el);  tot = tot + el;
    if (tot > tmax)
      break;
    end
  end
end

function z = pack_duals (Dg)
  % duals on the grid (N-by-3) -> the unknowns (time-point major, without the last node)
  z = reshape (Dg(1:end-1, :)', [], 1);
end

function A = part_a (Ns, fd_cap)
  fprintf ('(a) end to end on [0, 1]: dual_lorenz vs fsolve on the m-code functional (dual_mcode_lorenz.m)\n');
  ode = odesys ('states', {'x', 'y', 'z'}, 'parameters', struct ('A', 10, 'R', 28, 'B', 8/3), ...
                'rhs', {'A*(y - x)', 'x*(R - z) - y', 'x*y - B*z'});
  % why not the zero base state: one slab from ybar = 0 does not converge
  pb = dual_problem (Ns(1));
  s0 = dual_lorenz (pb.tspan, pb.y0, pb.opts{1:end-2});
  fprintf ('  for reference, ybar = 0 instead (N = %d, one slab): exitflag %d, %s\n', Ns(1), ...
           s0.exitflag, s0.message);
  A = struct ('N', {}, 'solver', {}, 'time', {}, 'lower_bound', {}, 'iterations', {}, ...
              'fevals', {}, 'exitflag', {}, 'res', {}, 'diff_D', {}, 'ratio', {}, 'note', {});
  checks = struct ('N', {}, 'grad_closed', {}, 'grad_general', {}, 'hess_closed', {}, 'S_closed', {});
  for N = Ns
    pb = dual_problem (N);
    pr = pb.pr;
    nz = pb.nz;
    % 1. validate the peer at a random point: raw gradient (rowscale 1), Hessian and S against the
    %    gateway's closed-form Lorenz kernel and against dual_action (the general engine)
    rand ('seed', 7);
    zr = 0.25 * pb.c * (2 * rand (nz, 1) - 1);
    pr1 = pr;
    pr1.rowscale = ones (nz, 1);
    [g, Hm, Sm] = dual_mcode_lorenz (pr1, zr);
    [Sc, gc, Hc] = feval ('vm_dual_mex', 'action', [], gateway_setup (pb, zr));
    [Sg, gg] = dual_action (ode, pb.tspan, pb.y0, zr, 'N', N, 'Order', pb.order, 'c', pb.c, ...
                            'BaseState', pb.ybar);
    ck = struct ('N', N, 'grad_closed', max (abs (g - gc)) / max (abs (gc)), ...
                 'grad_general', max (abs (g - gg)) / max (abs (gg)), ...
                 'hess_closed', max (abs (nonzeros (Hm - Hc))) / max (abs (nonzeros (Hc))), ...
                 'S_closed', abs (Sm - Sc) / abs (Sc));
    checks(end+1) = ck; %#ok<AGROW>
    fprintf (['  N = %4d, m-code vs gateway at a random z (|D| <= c/4), relative: gradient %.1e ' ...
              '(closed form) %.1e (dual_action, general engine), Hessian %.1e, S %.1e  [%s 1e-12]\n'], ...
             N, ck.grad_closed, ck.grad_general, ck.hess_closed, ck.S_closed, ...
             ok_str (max ([ck.grad_closed ck.grad_general ck.hess_closed]) <= 1e-12));
    if (abs (Sg - Sc) > 1e-12 * abs (Sc))
      fprintf ('  (dual_action S differs from the closed form: %.1e relative)\n', abs (Sg - Sc) / abs (Sc));
    end
    % 2. dual_lorenz
    s = dual_lorenz (pb.tspan, pb.y0, pb.opts{:});
    tdl = best_time (@() dual_lorenz (pb.tspan, pb.y0, pb.opts{:}), 10, 5);
    zs = pack_duals (s.D);
    Dscale = max (abs (s.D(:)));
    A(end+1) = struct ('N', N, 'solver', 'dual_lorenz (Newton, banded)', 'time', tdl, ...
                       'lower_bound', false, 'iterations', s.iterations, 'fevals', NaN, ...
                       'exitflag', s.exitflag, 'res', norm (dual_mcode_lorenz (pr, zs)), ...
                       'diff_D', 0, 'ratio', 1, 'note', ''); %#ok<AGROW>
    fun = @(z) dual_mcode_lorenz (pr, z);
    z0 = zeros (nz, 1);
    % fsolve's stopping rules set to dual_lorenz's: |f|_2 <= Tol max (sqrt (n), |f(z0)|_2) (Newton's
    % residual test, Tol = 1e-11; fsolve tests |f|_2 <= TolFun n |z|_2) and a relative step of 1e-12
    target = 1e-11 * max (sqrt (nz), norm (fun (z0)));
    tolfun = target / (nz * norm (zs));
    fprintf ('  N = %4d: max |D| = %.1f (c = %g); stopping target |f|_2 <= %.2e, TolFun = %.2e\n', ...
             N, Dscale, pb.c, target, tolfun);
    % 3. fsolve with the m-code's analytic sparse Jacobian
    opt = optimset ('TolFun', tolfun, 'TolX', 1e-12, 'Jacobian', 'on');
    [x, fv, info, out] = fsolve (fun, z0, opt);
    tsp = best_time (@() fsolve (fun, z0, opt), 3, 6);
    A(end+1) = struct ('N', N, 'solver', 'fsolve, m-code sparse Jacobian', 'time', tsp, ...
                       'lower_bound', false, 'iterations', out.iterations, ...
                       'fevals', out.funcCount, 'exitflag', info, 'res', norm (fv), ...
                       'diff_D', max (abs (x - zs)) / Dscale, 'ratio', tsp / tdl, 'note', ''); %#ok<AGROW>
    % 4. fsolve with its default dense finite-difference Jacobian
    optfd = optimset ('TolFun', tolfun, 'TolX', 1e-12);
    if (N <= 1024)
      t1 = tic;
      [x, fv, info, out] = fsolve (fun, z0, optfd);
      tfd = toc (t1);
      A(end+1) = struct ('N', N, 'solver', 'fsolve, dense FD Jacobian', 'time', tfd, ...
                         'lower_bound', false, 'iterations', out.iterations, ...
                         'fevals', out.funcCount, 'exitflag', info, 'res', norm (fv), ...
                         'diff_D', max (abs (x - zs)) / Dscale, 'ratio', tfd / tdl, 'note', ''); %#ok<AGROW>
    else
      A(end+1) = fd_capped (pb, fun, z0, optfd, fd_cap, tdl, zs); %#ok<AGROW>
    end
  end
  fprintf ('%5s  %-30s %10s %4s %6s %3s %9s %9s %9s\n', 'N', 'solver', 'time [s]', 'it', 'fev', ...
           'ok', '|f|_2 end', 'max dD', 'ratio');
  for k = 1:numel (A)
    w = A(k);
    if (w.lower_bound)
      fprintf ('%5d  %-30s >%9.2f %4s %6d %3s %9s %9s >%8.0f  %s\n', w.N, w.solver, w.time, '-', ...
               w.fevals, '-', '-', '-', w.ratio, w.note);
    else
      fprintf ('%5d  %-30s %10.4f %4d %6s %3d %9.1e %9.1e %9.1f\n', w.N, w.solver, w.time, ...
               w.iterations, num_str (w.fevals), w.exitflag, w.res, w.diff_D, w.ratio);
    end
  end
  fprintf (['|f|_2 end: 2-norm of the m-code equations (grad S / H_kk) at the returned duals; ' ...
            'max dD: max |D - D_dual_lorenz| / max |D_dual_lorenz|;\nratio = time / dual_lorenz time ' ...
            '(same N); fsolve it = its trial steps; ok = exitflag\n\n']);
  A = struct ('runs', A, 'checks', checks);
end

function row = fd_capped (pb, fun, z0, opt, cap, tdl, zs)
  % fsolve with the dense FD Jacobian, interrupted at the end of its first Jacobian or after cap s
  nz = pb.nz;
  if (isinf (cap))
    stop_at = inf;
  else
    stop_at = nz + 1;       % evaluation nz + 1 is the last column of the first FD Jacobian
  end
  capped_eval ('reset', stop_at, cap);
  t1 = tic;
  interrupted = false;
  try
    [x, fv, info, out] = fsolve (@(z) capped_eval (fun, z), z0, opt);
  catch err
    if (~strcmp (err.identifier, 'bench_dual:interrupted'))
      rethrow (err);
    end
    interrupted = true;
  end
  tfd = toc (t1);
  nev = capped_eval ('count');
  if (~interrupted)
    row = struct ('N', pb.N, 'solver', 'fsolve, dense FD Jacobian', 'time', tfd, ...
                  'lower_bound', false, 'iterations', out.iterations, 'fevals', out.funcCount, ...
                  'exitflag', info, 'res', norm (fv), 'diff_D', max (abs (x - zs)) / max (abs (zs)), ...
                  'ratio', tfd / tdl, 'note', '');
    return;
  end
  % the rest of the first iteration, estimated: a dense n-by-n solve (fsolve's dogleg: fjac \ f),
  % from a dense solve of a quarter of the size, times 64
  n4 = round (nz / 4);
  M = rand (n4) + n4 * eye (n4);
  b = rand (n4, 1);
  t4 = best_time (@() M \ b, 2, 10);
  clear M
  % evaluation 1 is f (z0), evaluations 2 .. nz + 1 the columns of the first FD Jacobian
  tjac = tfd * nz / max (1, nev - 1);
  note = sprintf (['interrupted after %d of the %d columns of its first FD Jacobian; estimated ' ...
                   'first iteration %.0f s (Jacobian %.0f s + dense solve %.0f s)'], ...
                  nev - 1, nz, tjac + 64 * t4, tjac, 64 * t4);
  row = struct ('N', pb.N, 'solver', 'fsolve, dense FD Jacobian', 'time', tfd, 'lower_bound', true, ...
                'iterations', NaN, 'fevals', nev, 'exitflag', NaN, 'res', NaN, 'diff_D', NaN, ...
                'ratio', tfd / tdl, 'note', note);
end

function f = capped_eval (fun, z, cap_s)
  % fun (z), counting evaluations; raises bench_dual:interrupted once the count reaches the limit
  % or the time since the reset passes the cap.  capped_eval ('reset', limit, cap_s) and
  % capped_eval ('count') manage the counter.
  persistent count limit cap t0
  if (ischar (fun))
    if (strcmp (fun, 'reset'))
      count = 0;  limit = z;  cap = cap_s;
      t0 = tic;
      f = 0;
    else
      f = count;
    end
    return;
  end
  count = count + 1;
  f = fun (z);
  if (count >= limit || toc (t0) > cap)
    error ('bench_dual:interrupted', 'bench_dual: fsolve interrupted at evaluation %d', count);
  end
end

function B = part_b (Ns)
  fprintf ('(b) time per Newton iteration vs one UMFPACK factorization [L,U,P,Q,R] = lu (H) of the Hessian at the solution\n');
  B = struct ('N', {}, 'n_unknowns', {}, 'nnz', {}, 'nnz_lu', {}, 'iterations', {}, 't_solve', {}, ...
              't_setup', {}, 't_iter', {}, 't_iter_marginal', {}, 't_action', {}, 't_lu', {}, ...
              't_backslash', {}, 'ratio', {}, 'ratio_marginal', {}, 't_dgbtrf', {}, 'ratio_dgbtrf', {}, ...
              't_chol', {}, 't_dpbtrf', {});
  for N = Ns
    pb = dual_problem (N);
    s = dual_lorenz (pb.tspan, pb.y0, pb.opts{:});
    ts = best_time (@() dual_lorenz (pb.tspan, pb.y0, pb.opts{:}), 10, 5);
    t0 = best_time (@() setup_only (pb), 10, 3);
    setup = gateway_setup (pb, pack_duals (s.D));
    [~, g, H] = feval ('vm_dual_mex', 'action', [], setup);
    ta = best_time (@() action_3 (setup), 10, 3);
    [L, U, P, Q, R] = lu (H); %#ok<ASGLU>
    nlu = nnz (L) + nnz (U);
    clear L U P Q R
    tl = best_time (@() lu_5 (H), 20, 3);
    tb = best_time (@() H \ g, 20, 3);
    % one bare dgbtrf of the same Hessian (bench/band_time.c, when built in the current folder)
    ttrf = NaN;
    tch = NaN;
    tpb = NaN;
    if (exist ('./band_time', 'file'))
      [ii, jj, vv] = find (H);
      t = band_time_matrix ('./band_time', struct ('n', rows_of (H), 'ii', ii, 'jj', jj, 'vv', vv), ...
                            'default', 5);
      ttrf = t.trf_only;
      tch = t.chol_num;     % dual_lorenz's factorization: the scaled band's Cholesky (fill included)
      tpb = t.pbtrf_only;
    end
    it = s.iterations;
    row = struct ('N', N, 'n_unknowns', rows_of (H), 'nnz', nnz (H), 'nnz_lu', nlu, ...
                  'iterations', it, 't_solve', ts, 't_setup', t0, 't_iter', ts / it, ...
                  't_iter_marginal', (ts - t0) / it, 't_action', ta, 't_lu', tl, ...
                  't_backslash', tb, 'ratio', ts / it / tl, 'ratio_marginal', (ts - t0) / it / tl, ...
                  't_dgbtrf', ttrf, 'ratio_dgbtrf', (ts - t0) / it / ttrf, 't_chol', tch, ...
                  't_dpbtrf', tpb);
    B(end+1) = row; %#ok<AGROW>
  end
  fprintf ('%5s %8s %8s %9s %3s | %9s %9s %8s %8s | %8s %8s %8s %10s %8s %8s | %6s %6s %8s\n', 'N', ...
           'unknowns', 'nnz(H)', 'nnz(L+U)', 'it', 'total[ms]', 'setup[ms]', 'it [ms]', 'marg[ms]', ...
           'lu [ms]', 'H\g[ms]', 'act[ms]', 'dgbtrf[ms]', 'chol[ms]', 'dpbtrf', 'it/lu', 'marg/lu', ...
           'marg/trf');
  for k = 1:numel (B)
    w = B(k);
    fprintf (['%5d %8d %8d %9d %3d | %9.2f %9.2f %8.2f %8.2f | %8.2f %8.2f %8.2f %10.3f %8.3f ' ...
              '%8.3f | %6.2f %6.2f %8.2f\n'], ...
             w.N, w.n_unknowns, w.nnz, w.nnz_lu, w.iterations, 1e3 * w.t_solve, 1e3 * w.t_setup, ...
             1e3 * w.t_iter, 1e3 * w.t_iter_marginal, 1e3 * w.t_lu, 1e3 * w.t_backslash, ...
             1e3 * w.t_action, 1e3 * w.t_dgbtrf, 1e3 * w.t_chol, 1e3 * w.t_dpbtrf, w.ratio, ...
             w.ratio_marginal, w.ratio_dgbtrf);
  end
  fprintf (['total: dual_lorenz end to end; setup: dual_lorenz with MaxIter = 0 (discretization, ' ...
            'Hessian pattern, first residual);\nit = total / iterations; marg = (total - setup) / ' ...
            'iterations; lu: [L,U,P,Q,R] = lu (H) (UMFPACK, symbolic + numeric); H\\g: Octave''s ' ...
            'sparse backslash;\nact: one vm_dual_mex (''action'') call returning S, g and H ' ...
            '(including its setup);\ndgbtrf: one bare LAPACK dgbtrf of the band of H, warm (./band_time, ' ...
            'make band_time; NaN when not built); marg/trf: the target of issue 15 (<= 1.5);\n' ...
            'chol: the factorization dual_lorenz makes, the banded Cholesky of the scaled band (its ' ...
            'fill included: csrc/la/linsolve.h option definite); dpbtrf: LAPACK''s, bare\n\n']);
end

function setup_only (pb)
  % dual_lorenz with MaxIter = 0 (the setup and the first residual); it now reports the
  % non-convergence as an error, which is expected here
  try
    dual_lorenz (pb.tspan, pb.y0, pb.opts{:}, 'MaxIter', 0);
  catch %#ok<CTCH>
  end
end

function action_3 (setup)
  [S, g, H] = feval ('vm_dual_mex', 'action', [], setup); %#ok<ASGLU>
end

function lu_5 (H)
  [L, U, P, Q, R] = lu (H); %#ok<ASGLU>
end

function C = part_c ()
  t_all = tic ();
  fprintf (['(c) adaptive marching (defaults, RelTol given) against one fixed window of equal accuracy, ' ...
            'order 4\n']);
  P = dual_march_problems ();
  pbs = P([1 3 5]);
  pbs(1).refname = 'ode45 1e-12';
  pbs(2).refname = 'closed form';
  pbs(2).ref = @(t) pendulum_closed_form (t);
  pbs(3).refname = 'ode45 1e-12';
  % the references' own errors
  tt = linspace (0, 1, 2001)';
  [~, y14] = ode45 (pbs(1).f, tt, pbs(1).y0(:), odeset ('RelTol', 1e-14, 'AbsTol', 1e-14));
  fprintf ('  %s: reference %s, its error (vs ode45 at 1e-14 on 2001 points) %.1e\n', pbs(1).name, ...
           pbs(1).refname, max (max (abs (pbs(1).ref (tt) - y14))));
  tt = linspace (0, 20, 2001)';
  [~, y13] = ode45 (pbs(2).f, tt, pbs(2).y0(:), odeset ('RelTol', 1e-13, 'AbsTol', 1e-13));
  fprintf ('  %s: reference %s, its distance from ode45 at 1e-13 on 2001 points %.1e\n', pbs(2).name, ...
           pbs(2).refname, max (max (abs (pbs(2).ref (tt) - y13))));
  tt = linspace (0, 20, 2001)';
  [~, y13] = ode45 (pbs(3).f, tt, pbs(3).y0(:), odeset ('RelTol', 1e-13, 'AbsTol', 1e-13));
  fprintf ('  %s: reference %s, its error (vs ode45 at 1e-13 on 2001 points) %.1e\n', pbs(3).name, ...
           pbs(3).refname, max (max (abs (pbs(3).ref (tt) - y13))));
  rtols = [1e-6 1e-9];
  opt = struct ('N0', 64, 'Nmin', 16, 'Nmax', 2^16, 'nrep', 5);
  rows = [];
  for ip = 1:numel (pbs)
    pb = pbs(ip);
    for rt = rtols
      tol = {'RelTol', rt, 'AbsTol', rt / 100};
      adaptive = @() dual_run (pb, tol);
      fixed = @(N) dual_run (pb, [{'N', N, 'Slabs', 1, 'Guess', 'marching'}, tol]);
      w = march_vs_fixed (adaptive, fixed, pb.ref, opt);
      w.name = pb.name;
      w.rtol = rt;
      w.atol = rt / 100;
      w.note = '';
      rows = [rows, w]; %#ok<AGROW>
    end
  end
  march_vs_fixed_table (rows);
  fprintf (['err = max over the nodes of |y - y_ref| (Lorenz, Van der Pol: ode45 at RelTol = AbsTol = 1e-12; the ' ...
            'pendulum: closed form);\nadaptive = dual_solve (ode, tspan, y0, ''RelTol'', RelTol, ' ...
            '''AbsTol'', AbsTol) (N = 33, order 4); fixed = dual_solve (..., ''N'', N, ''Slabs'', 1, ' ...
            '''Guess'', ''marching'', ''RelTol'', RelTol, ''AbsTol'', AbsTol):\none window of N nodes, ' ...
            'the smallest N found with err fixed <= err adapt; ok = exitflag of that fixed solve; times: ' ...
            'median of %d pairs\n(adaptive, fixed, ...); f/a = median of time fixed / time adaptive ' ...
            'per pair (range)\n'], opt.nrep);
  fprintf ('part (c): %.0f s\n\n', toc (t_all));
  C = rows;
end

function r = dual_run (pb, args)
  s = dual_solve (pb.ode, pb.tspan, pb.y0, args{:});
  r = struct ('t', s.t, 'x', s.y, 'iterations', s.iterations, 'exitflag', s.exitflag, ...
              'windows', numel (s.windows.t0), 'rejected', numel (s.rejected.t0));
end

function y = pendulum_closed_form (t)
  % th'' = -10 sin th, th(0) = 2, th'(0) = 0: th = 2 asin (k sn (K - w t, k)), th' = -2 k w cn,
  % k = sin (th0/2), w = sqrt (10), K the complete elliptic integral (parameter m = k^2)
  k = sin (1);
  w = sqrt (10);
  [sn, cn] = ellipj (ellipke (k ^ 2) - w * t(:), k ^ 2);
  y = [2 * asin(k * sn), -2 * k * w * cn];
end

function n = rows_of (M)
  n = size (M, 1);
end

function s = num_str (v)
  if (isnan (v))
    s = '-';
  else
    s = sprintf ('%d', v);
  end
end

function s = ok_str (b)
  if (b)
    s = '<=';
  else
    s = 'NOT <=';
  end
end
