% -*- texinfo -*-
% @deftypefn {} {@var{row} =} march_vs_fixed (@var{adaptive}, @var{fixed}, @var{ref}, @var{opt})
% One row of the "adaptive marching against one fixed window of equal accuracy" tables of
% @code{bench_skg} (part d) and @code{bench_dual} (part c).
%
% @var{adaptive} () and @var{fixed} (N) are function handles that solve the problem (the
% adaptive driver at a given tolerance; one fixed window of N nodes) and return a struct with the
% fields t (nodes, a column), x (the solution on the nodes: one column per component), iterations
% (all Newton steps of the solve), exitflag, and for the adaptive solve windows and rejected
% (counts).  @var{ref} (t) is the independent reference on the column t.  The error of a solve is
% max over the nodes and the components of |x - ref (t)|.
%
% Steps:
% @enumerate
% @item the adaptive solve once: its error e_a and Newton iterations;
% @item the smallest N whose single fixed window has error <= e_a: N = @var{opt}.N0,
% 2 N0, 4 N0, ... up to @var{opt}.Nmax until one reaches e_a, then bisection on N between the last
% two until the bracket is below max (1, N/50) (about 2 % in N, 6 % in the error of an order-3
% scheme).  The error is not exactly monotone in N, so this is the smallest N found by the
% bisection, not a proof that no smaller N works.  When no N up to Nmax reaches e_a (or the
% windows fail), the row says so and gives the best error reached;
% @item timing: @var{opt}.nrep pairs (adaptive, fixed at that N, adaptive, fixed, ...), the median
% of each, and the median of the pairwise ratios time_fixed / time_adaptive with their range
% (the spread shows the noise of the machine).
% @end enumerate
% A fixed solve counts as reaching e_a when it converged (exitflag 1) and its error is <= e_a: a
% window whose Newton did not converge returns its best iterate, whose error is then partly
% algebraic and not the scheme's (measured: Van der Pol, N = 16384, error 2.0e-6 with exitflag 0,
% 3.6e-9 converged at N = 65536).  The ladder keeps the errors of those solves too.
% @end deftypefn

function row = march_vs_fixed (adaptive, fixed, ref, opt)
  % 1. the adaptive solve
  sa = adaptive ();
  ea = max (max (abs (sa.x - ref (sa.t))));
  row = struct ('err_a', ea, 'it_a', sa.iterations, 'flag_a', sa.exitflag, ...
                'windows_a', sa.windows, 'rejected_a', sa.rejected, 'nodes_a', numel (sa.t));
  % 2. the ladder on N
  ladder = zeros (0, 4);   % N, error, iterations, exitflag
  N = opt.N0;
  lo = 0;
  hi = 0;
  while (N <= opt.Nmax)
    [e, it, fl] = fixed_error (fixed, ref, N);
    ladder(end+1, :) = [N, e, it, fl]; %#ok<AGROW>
    if (fl == 1 && e <= ea)
      hi = N;
      break;
    end
    lo = N;
    N = 2 * N;
  end
  if (hi > 0 && lo == 0)
    % N0 already reaches it: halve down first
    lo = hi;
    while (lo > opt.Nmin)
      lo = max (opt.Nmin, floor (lo / 2));
      [e, it, fl] = fixed_error (fixed, ref, lo);
      ladder(end+1, :) = [lo, e, it, fl]; %#ok<AGROW>
      if (fl == 1 && e <= ea)
        hi = lo;
      else
        break;
      end
    end
  end
  if (hi > 0)
    while (hi - lo > max (1, floor (hi / 50)))
      mid = floor ((lo + hi) / 2);
      [e, it, fl] = fixed_error (fixed, ref, mid);
      ladder(end+1, :) = [mid, e, it, fl]; %#ok<AGROW>
      if (fl == 1 && e <= ea)
        hi = mid;
      else
        lo = mid;
      end
    end
    Nf = hi;
  else
    % not reached: the best error of the converged fixed solves (of all, if none converged)
    e = ladder(:, 2);
    if (any (ladder(:, 4) == 1))
      e(ladder(:, 4) ~= 1) = Inf;
    end
    [~, ib] = min (e);
    Nf = ladder(ib, 1);
  end
  k = find (ladder(:, 1) == Nf, 1, 'last');
  row.reached = hi > 0;
  row.N_f = Nf;
  row.err_f = ladder(k, 2);
  row.it_f = ladder(k, 3);
  row.flag_f = ladder(k, 4);
  row.ladder = ladder;
  % 3. timing, pair by pair
  ta = zeros (1, opt.nrep);
  tf = zeros (1, opt.nrep);
  for j = 1:opt.nrep
    t0 = tic ();
    adaptive ();
    ta(j) = toc (t0);
    t0 = tic ();
    fixed (Nf);
    tf(j) = toc (t0);
  end
  row.t_a = median (ta);
  row.t_f = median (tf);
  q = tf ./ ta;
  row.ratio = median (q);
  row.ratio_range = [min(q), max(q)];
  row.times_a = ta;
  row.times_f = tf;
end

function [e, it, fl] = fixed_error (fixed, ref, N)
  s = fixed (N);
  if (all (isfinite (s.x(:))))
    e = max (max (abs (s.x - ref (s.t))));
  else
    e = Inf;
  end
  it = s.iterations;
  fl = s.exitflag;
end
