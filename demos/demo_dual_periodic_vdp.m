function results = demo_dual_periodic_vdp (varargin)
% -*- texinfo -*-
% @deftypefn  {} {} demo_dual_periodic_vdp ()
% @deftypefnx {} {results =} demo_dual_periodic_vdp ()
% @deftypefnx {} {results =} demo_dual_periodic_vdp (..., "quiet")
% @deftypefnx {} {results =} demo_dual_periodic_vdp (..., "png", dir)
% The Van der Pol limit cycle found by @code{periodic_orbit} (the dual action on a circle of
% Acharya and Sengupta, their Remark 5), against a tight shooting solution written here.
%
% @strong{Physics.}  The Van der Pol oscillator @code{x'' - mu (1 - x^2) x' + x = 0} as the
% first-order system of the states x and v = x',
%
% @example
% x' = v,   v' = mu (1 - x^2) v - x,
% @end example
%
% has one stable limit cycle for mu > 0.  For mu = 1 it is smooth (T = 6.6633); for mu = 10 it is a
% relaxation oscillation (T = 19.078): slow drifts along the branches |x| in [1, 2] and fast
% jumps in which v reaches 13 within a time of order 1/mu, the stiff case.  The divergence of
% the field is @code{mu (1 - x^2)}; by Liouville's formula the product of the two Floquet
% multipliers is @code{exp (int_0^T mu (1 - x^2) dt)}, and one multiplier is 1 (the direction of
% the flow), so the nontrivial one is that exponential: 8.5970e-4 for mu = 1 and 3.7e-136 for
% mu = 10 (below the resolution of any monodromy matrix computed in double precision).
%
% @strong{Reference} (independent of varmech): shooting written here.  The unknowns are the
% crossing x0 of the section v = 0 with x > 0 (v decreasing: the right end of the cycle) and the
% period T; the equations are @code{phi_T(x0, 0) - (x0, 0) = 0}, solved by Newton with the exact
% Jacobian @code{[M(:, 1) - e1, F(phi_T)]} (M the monodromy matrix from the variational equations).
% The integrator is @code{ode45} on the hand-written field with RelTol = AbsTol = 1e-13 for both
% mu: mu = 10 is only mildly stiff, and at this tolerance ode45's step is set by accuracy, not
% by stability (about 3 s per period with the variational equations; ode15s cannot reach 1e-13).
% The start: the section crossings of a transient of 5 periods integrated at 1e-9 (event
% location).  Newton stops when the correction of T is below 1e-12 T (2 or 3 iterations).  The
% integral of the divergence is a fifth state of the same integration (quadrature along the
% orbit at 1e-13).  The reference is checked by one more Newton step with ode45 at 1e-12 from the
% converged point (the periods differ by about 1e-14 relative).
%
% @strong{Parts and tolerances.}
% @table @asis
% @item (1) mu = 1
% (a) the help example of @code{periodic_orbit} (a circle of radius 2, period guess 6.5, defaults)
% and (b) a rough guess: the circle of radius 2 with the period off by 1 % (1.01 T_ref) and the
% states perturbed by 3e-3 (@code{3e-3 (sin (3 s + 1), cos (5 s + 2))}, s = 2 pi t/T_guess),
% defaults.  Checks: exitflag 1; |T - T_ref|/T_ref <= 1e-10 ("PeriodTol" is 1e-10 relative, the
% reference is 1e-14; measured 5e-15); the closure of the orbit integrated over sol.T by
% @code{ode45} (1e-13, independent of periodic_orbit's DOP853) from its point where |F| is
% smallest <= 1e-9 (measured 2e-14); the nontrivial Floquet multiplier against the Liouville
% reference, relative 1e-7 (measured 2e-12: the monodromy is integrated by DOP853 at "FlowTol"
% 1e-12, and the multiplier is the small eigenvalue of a matrix of norm about 10, so its relative
% error may reach 1e-12 |M|/8.6e-4 ~ 1e-8); the trivial multiplier against 1 (1e-8, measured
% 6e-13).  Info: sol.period_error, sol.closure, N, iterations, time.
% @item (2) mu = 10
% (a) The rough circle of (1b) (1.01 T_ref) with the defaults is a finding (an info row, not a
% failure of this demo): Newton stalls where the discrete orbit is far from the relaxation cycle
% (measured: N = 131, 44 iterations, 0.5 s, exitflag 0 with the message naming the search's
% stall).  From the circle nothing tried converged: N from 129 to 8193, orders 2 to 8, weights of
% P from 1e-4 to 100 times the automatic one, equal weights, MaxIter 200 (measured during
% development, not repeated here).  (b) The candidate of @code{periodic_guesses} (one loop, 400
% points) with the defaults: a check.  History: it converged at commit a32c5ac (first grid from
% the guess's spectrum), stalled at ba93c98 (residual 80, 37 s), converged through the retry with
% a second set of weights at commit bdc2581 (32 s); since commit f2fd8de (states and
% residuals scaled by each state's amplitude) it converges on its first grid: N = 16591, 2
% Newton iterations, 0.8 s, T to 2.3e-13.  (c) With a given "N" from the candidate: N = 4097
% (T to 2.4e-11; its estimate grid 2049 is too coarse for an error estimate) and 8193 (T to
% 2e-14), info rows.  (d) The candidate with the period off by 1 % and the states perturbed by
% 3e-3, N = 8193, with the default weights (a check: measured 53 iterations, 13 s; before commit
% bdc2581, periodic_orbit's retry with a second set of weights, it stalled at every N tried) and
% with the weights
% @code{"c", [1/X_x^2, 1/X_v^2, 1e-4/Pbar^2]} (X the peak-to-peak amplitudes of the guess, Pbar =
% T_guess/(2 pi): the automatic weights with the one of P divided by 1e4; a check: 9 iterations,
% 1.3 s).  Checks on each: exitflag 1, |T - T_ref|/T_ref <= 1e-10, the closure of ode45 over
% sol.T from the point of the orbit where |F| is smallest <= 1e-9 (from a point on a fast jump
% the closure is |F| dT, with |F| up to 100), the trivial multiplier against 1 (1e-8), and the
% nontrivial one below 1e-10 (its true value is 3.7e-136; the computed one is the rounding of
% the monodromy matrix, about 1e-13).
% @item (3) convergence of T with N, mu = 1
% the issue's table: orders 2, 4, 6, 8 at fixed N = 33, 65, 129, 257, 513, each solve started
% from the reference orbit (so that the table shows the discretization, not Newton's basin):
% |T_N - T_ref|/T_ref, the rates between successive N and the observed order (the finest pair
% whose errors are both above the floor 1e-13, 10 times the reference's check and above the
% rounding of T), which must be within 0.3 of the order: the error of the central differences in
% T is C h^p (1 + O(h^2)), so the rate on the pair (h, h/2) is p + O(h^2)/log 2; measured within
% 0.05.  Every run must converge, N = 33 (h = 0.2) included, and none may raise an error.  (Before
% commit a32c5ac orders 2 and 6 did not converge at N = 33 and order 8 raised "Ns(2): out of
% bound": with a given N whose estimate grid 2 floor ((N - 1)/4) + 1 was below the order's
% minimum, 19 for order 8; periodic_orbit now solves on N itself then.)  Info: the same runs from
% the rough guess of (1b) (Newton's robustness at a fixed N); they used to fail at some fixed N,
% and since a32c5ac all 20 converge to the same T as from the reference orbit.
% @end table
%
% Options:
% @table @code
% @item "quiet"
% print nothing.
% @item "png", @var{dir}
% write @file{demo_dual_periodic_vdp_orbits.png} and @file{demo_dual_periodic_vdp_convergence.png}
% into @var{dir}.
% @end table
%
% @var{results} has @code{ref} (per mu: @code{mu}, @code{T}, @code{x0}, @code{log_liouville},
% @code{liouville}, @code{residual}, @code{check_T} (relative difference of the 1e-12 check),
% @code{iterations}, @code{time}, @code{t}, @code{y}), @code{mu1} (runs @code{help_example} and
% @code{rough}), @code{mu10} (@code{default_circle}, @code{default_candidate}, @code{scan} (struct
% array over @code{scan_N}), @code{working}), each run with @code{exitflag}, @code{message}, @code{T},
% @code{T_err}, @code{closure_ode45}, @code{closure}, @code{period_error}, @code{floquet},
% @code{floquet_err}, @code{trivial_err}, @code{N}, @code{iterations}, @code{time}, @code{t},
% @code{y}; also @code{perturbed_default}, @code{c} and @code{candidate_distance}),
% @code{convergence} (@code{orders}, @code{N}, @code{err} (NaN where not converged), @code{rate},
% @code{observed}, @code{pair}, @code{exitflag} (-1: an error was raised), @code{floor},
% @code{rough_exitflag}, @code{rough_err}, @code{errors}, @code{converge_tol}), @code{tol}, @code{checks},
% @code{pass} and @code{time}.
% @seealso{periodic_orbit, periodic_guesses, demo_dual_lorenz}
% @end deftypefn

  opt = vm_demo_args ('demo_dual_periodic_vdp', varargin, struct ());
  tstart = tic;
  tol = struct ('T', 1e-10, 'closure', 1e-9, 'floquet', 1e-7, 'trivial', 1e-8, 'tiny', 1e-10, ...
                'ref', 1e-12, 'rate', 0.3, 'floor', 1e-13);

  % ---- the references: shooting with ode45 at 1e-13 ----
  ref = [shoot_vdp(1, 6.7), shoot_vdp(10, 19.1)];

  % ---- (1) mu = 1 ----
  vdp1 = vdp_system (1);
  t = linspace (0, 6.5, 60)';
  help_example = run_orbit (vdp1, ref(1), t, [2 * cos(2 * pi * t / 6.5), -2 * sin(2 * pi * t / 6.5)]);
  [tr, yr] = rough_guess (ref(1).T);
  rough = run_orbit (vdp1, ref(1), tr, yr);
  mu1 = struct ('help_example', help_example, 'rough', rough);

  % ---- (2) mu = 10 ----
  vdp10 = vdp_system (10);
  [tr, yr] = rough_guess (ref(2).T);
  mu10 = struct ();
  mu10.default_circle = run_orbit (vdp10, ref(2), tr, yr);
  cand = periodic_guesses (vdp10, [2, 0], 10 * ref(2).T, 'MaxLoops', 1, 'Points', 400);
  cand = cand(1);
  mu10.candidate_distance = cand.distance;
  mu10.default_candidate = run_orbit (vdp10, ref(2), cand.t, cand.y);
  Nscan = [4097, 8193];
  scan = [];
  for k = 1:numel (Nscan)
    scan = [scan, run_orbit(vdp10, ref(2), cand.t, cand.y, 'N', Nscan(k))]; %#ok<AGROW>
  end
  mu10.scan_N = Nscan;
  mu10.scan = scan;
  % the candidate with its period off by 1 % and its states perturbed by 3e-3: with the default
  % weights (through periodic_orbit's retry) and with the weight of P lowered 1e4 times
  s = 2 * pi * cand.t / cand.T;
  pert = cand;
  pert.t = 1.01 * cand.t;
  pert.y = cand.y + 3e-3 * [sin(3 * s + 1), cos(5 * s + 2)];
  X = max (pert.y, [], 1) - min (pert.y, [], 1);
  Pbar = pert.t(end) / (2 * pi);
  mu10.c = [1 ./ X .^ 2, 1e-4 / Pbar^2];
  mu10.perturbed_default = run_orbit (vdp10, ref(2), pert.t, pert.y, 'N', 8193);
  mu10.working = run_orbit (vdp10, ref(2), pert.t, pert.y, 'N', 8193, 'c', mu10.c);

  % ---- (3) convergence of T with N for each order, mu = 1, from the reference orbit ----
  [tr, yr] = rough_guess (ref(1).T);
  orders = [2, 4, 6, 8];
  Ns = [33, 65, 129, 257, 513];
  no = numel (orders);
  nn = numel (Ns);
  conv = struct ('orders', orders, 'N', Ns, 'err', zeros (no, nn), 'rate', zeros (no, nn - 1), ...
                 'observed', zeros (1, no), 'pair', zeros (no, 2), 'exitflag', zeros (no, nn), ...
                 'floor', tol.floor, 'rough_exitflag', zeros (no, nn), 'rough_err', zeros (no, nn), ...
                 'errors', {{}}, 'converge_tol', zeros(1, nn));
  for io = 1:no
    for in = 1:nn
      [conv.exitflag(io, in), conv.err(io, in), msg] = ...
        fixed_n (vdp1, ref(1), ref(1).t, ref(1).y, Ns(in), orders(io));
      if ~isempty (msg)
        conv.errors{end + 1} = sprintf ('order %d, N = %d: %s', orders(io), Ns(in), msg);
      end
      if conv.exitflag(io, in) ~= 1
        conv.err(io, in) = NaN;
      end
      % the same from the rough guess of (1b): Newton's robustness at a fixed N
      [conv.rough_exitflag(io, in), conv.rough_err(io, in)] = ...
        fixed_n (vdp1, ref(1), tr, yr, Ns(in), orders(io));
    end
    [conv.rate(io, :), conv.observed(io), conv.pair(io, :)] = ...
      vm_demo_rates (ref(1).T ./ Ns, conv.err(io, :), tol.floor, Ns);
  end

  results = struct ();
  results.ref = ref;
  results.mu1 = mu1;
  results.mu10 = mu10;
  results.convergence = conv;
  results.tol = tol;
  results.checks = make_checks (results);
  [results.pass, msg] = vm_demo_verdict (results.checks);
  results.time = toc (tstart);

  if ~opt.quiet
    print_tables (results, msg);
  end
  vm_demo_png (opt, {'orbits', 'convergence'}, @(what) draw (what, results), [1000, 800]);
  if nargout == 0
    clear results;
  end
end

function ode = vdp_system (mu)
  ode = odesys ('states', {'x', 'v'}, 'parameters', struct ('mu', mu), ...
                'rhs', {'v', 'mu*(1 - x^2)*v - x'});
end

function [t, y] = rough_guess (Tref)
  % the circle of radius 2 with the period off by 1 % and the states perturbed by 3e-3
  Tg = 1.01 * Tref;
  t = linspace (0, Tg, 60)';
  s = 2 * pi * t / Tg;
  y = [2 * cos(s), -2 * sin(s)] + 3e-3 * [sin(3 * s + 1), cos(5 * s + 2)];
end

function dw = vdp_rhs (w, mu)
  % the Van der Pol field, written by hand (the reference does not use varmech)
  dw = [w(2); mu * (1 - w(1)^2) * w(2) - w(1)];
end

function dw = vdp_var (w, mu)
  % the field, its variational equations (w(3:6) = M by columns) and the divergence (w(7))
  x = w(1);
  v = w(2);
  A = [0, 1; -2 * mu * x * v - 1, mu * (1 - x^2)];
  M = A * reshape (w(3:6), 2, 2);
  dw = [vdp_rhs(w, mu); M(:); mu * (1 - x^2)];
end

function [value, isterminal, direction] = section_event (w)
  % the section v = 0 crossed with v decreasing (x > 0: the right end of the cycle)
  value = w(2);
  isterminal = 0;
  direction = -1;
end

function [r, J, we, w] = shoot_residual (x0, T, mu, reltol, tspan)
  % phi_T(x0, 0) - (x0, 0), its Jacobian in (x0, T), the end state and the states at tspan
  opt = odeset ('RelTol', reltol, 'AbsTol', reltol);
  [~, w] = ode45 (@(t, w) vdp_var (w, mu), tspan, [x0; 0; 1; 0; 0; 1; 0], opt);
  we = w(end, :)';
  r = [we(1) - x0; we(2)];
  f = vdp_rhs (we, mu);
  J = [we(3) - 1, f(1); we(4), f(2)];
end

function ref = shoot_vdp (mu, Tguess)
  % shooting on (x0, T), x(0) = (x0, 0), with ode45 at 1e-13; see the help
  t0 = tic;
  opt = odeset ('RelTol', 1e-9, 'AbsTol', 1e-9, 'Events', @(t, w) section_event (w));
  [~, ~, te, ye] = ode45 (@(t, w) vdp_rhs (w, mu), [0, 5 * Tguess], [2; 0], opt);
  x0 = ye(end, 1);
  T = te(end) - te(end - 1);
  it = 0;
  s = linspace (0, 1, 2001)';
  while true
    it = it + 1;
    [r, J, we, w] = shoot_residual (x0, T, mu, 1e-13, T * s);
    d = -J \ r;
    x0 = x0 + d(1);
    T = T + d(2);
    if abs (d(2)) <= 1e-12 * T || it >= 8
      break;
    end
  end
  tt = (T - d(2)) * s;
  % the check: one more Newton step with ode45 at 1e-12
  [rc, Jc] = shoot_residual (x0, T, mu, 1e-12, [0, T / 2, T]);
  dc = -Jc \ rc;
  ref = struct ('mu', mu, 'T', T, 'x0', x0, 'log_liouville', we(7), 'liouville', exp (we(7)), ...
                'residual', norm (r), 'check_T', abs (dc(2)) / T, 'iterations', it, ...
                'time', toc (t0), 't', tt, 'y', w(:, 1:2));
end

function [flag, err, msg] = fixed_n (ode, ref, t, y, N, order)
  % periodic_orbit at a fixed N: exitflag and relative error of T; flag -1 and the message when it
  % raises an error (none should: before a32c5ac N = 33 at order 8 failed with "Ns(2): out of
  % bound")
  msg = '';
  try
    sol = periodic_orbit (ode, t, y, 'N', N, 'Order', order);
    flag = sol.exitflag;
    err = abs (sol.T - ref.T) / ref.T;
  catch e
    flag = -1;
    err = NaN;
    msg = e.message;
  end
end

function run = run_orbit (ode, ref, t, y, varargin)
  % periodic_orbit from the guess (t, y) with the options varargin, compared with the reference
  sol = periodic_orbit (ode, t, y, varargin{:});
  mu = ref.mu;
  run = struct ('exitflag', sol.exitflag, 'message', sol.message, 'T', sol.T, 'T_err', NaN, ...
                'closure_ode45', NaN, 'closure', sol.closure, 'period_error', sol.period_error, ...
                'floquet', [NaN; NaN], 'floquet_err', NaN, 'trivial_err', NaN, 'N', sol.N, ...
                'iterations', sol.iterations, 'time', sol.time, 't', [], 'y', []);
  if sol.exitflag ~= 1
    return;
  end
  run.T_err = abs (sol.T - ref.T) / ref.T;
  run.t = sol.t;
  run.y = sol.y;
  % the closure by ode45 (independent of periodic_orbit's DOP853) from the point of the orbit
  % where the field is smallest (on a fast jump the closure would be |F| times the error of T)
  F = [sol.y(:, 2), mu * (1 - sol.y(:, 1) .^ 2) .* sol.y(:, 2) - sol.y(:, 1)];
  [~, k] = min (sqrt (sum (F .^ 2, 2)));
  opt = odeset ('RelTol', 1e-13, 'AbsTol', 1e-13);
  [~, w] = ode45 (@(t, w) vdp_rhs (w, mu), [0, sol.T / 2, sol.T], sol.y(k, :)', opt);
  run.closure_ode45 = max (abs (w(end, :) - sol.y(k, :)));
  fl = sol.floquet(:);
  [~, i1] = min (abs (fl - 1));
  run.floquet = [fl(i1); fl(3 - i1)];
  run.trivial_err = abs (fl(i1) - 1);
  run.floquet_err = abs (fl(3 - i1) - ref.liouville) / ref.liouville;
end

function checks = make_checks (res)
  tol = res.tol;
  checks = struct ('part', {}, 'name', {}, 'value', {}, 'reference', {}, 'error', {}, ...
                   'tol', {}, 'pass', {}, 'info', {});
  for k = 1:numel (res.ref)
    r = res.ref(k);
    part = '';
    if k == 1
      part = 'ref';
    end
    checks = vm_demo_check (checks, sprintf ('mu = %g: shooting T, ode45 1e-13 vs 1e-12 (rel.)', r.mu), ...
                            r.check_T, 0, tol.ref, 'part', part);
    checks = vm_demo_check (checks, sprintf ('mu = %g: shooting |phi_T(x0) - x0| before the last step', ...
                                             r.mu), ...
                            r.residual, 0, NaN);
  end
  % (1)
  runs = {res.mu1.help_example, res.mu1.rough};
  labels = {'help example', 'rough guess'};
  ref = res.ref(1);
  for k = 1:2
    part = '';
    if k == 1
      part = '(1)';
    end
    checks = orbit_checks (checks, runs{k}, ref, ['mu = 1, ', labels{k}], tol, part, true);
  end
  % (2)
  m = res.mu10;
  ref = res.ref(2);
  checks = vm_demo_check (checks, 'mu = 10, defaults, rough circle: exitflag (finding)', ...
                          m.default_circle.exitflag, 1, NaN, 'part', '(2)');
  checks = orbit_checks (checks, m.default_candidate, ref, 'mu = 10, candidate, defaults', tol, '', false);
  for k = 1:numel (m.scan)
    checks = vm_demo_check (checks, sprintf ('mu = 10, candidate, N = %d: exitflag', m.scan_N(k)), ...
                            m.scan(k).exitflag, 1, NaN);
    checks = vm_demo_check (checks, sprintf ('mu = 10, candidate, N = %d: |T - T_ref|/T_ref', ...
                                             m.scan_N(k)), m.scan(k).T_err, 0, NaN);
  end
  checks = orbit_checks (checks, m.perturbed_default, ref, 'mu = 10, perturbed cand., N = 8193, default c', ...
                         tol, '', false);
  checks = orbit_checks (checks, m.working, ref, 'mu = 10, perturbed cand., N = 8193, c(P)/1e4', tol, ...
                         '', false);
  % (3)
  c = res.convergence;
  for io = 1:numel (c.orders)
    part = '';
    if io == 1
      part = '(3)';
    end
    checks = vm_demo_check (checks, sprintf ('mu = 1, order %d: observed order of T (N %d/%d)', ...
                                             c.orders(io), c.pair(io, :)), c.observed(io), ...
                            c.orders(io), tol.rate, 'part', part);
  end
  for in = 1:numel (c.N)
    checks = vm_demo_check (checks, sprintf ('mu = 1, N = %d: converged orders (of %d)', c.N(in), ...
                                             numel (c.orders)), sum (c.exitflag(:, in) == 1), ...
                            numel (c.orders), c.converge_tol(in));
  end
  checks = vm_demo_check (checks, 'mu = 1, convergence runs: errors raised', ...
                          sum (c.exitflag(:) < 0), 0, 0);
  checks = vm_demo_check (checks, 'mu = 1, from the rough guess: runs not converged (finding)', ...
                          sum (c.rough_exitflag(:) ~= 1), 0, NaN);
end

function checks = orbit_checks (checks, run, ref, label, tol, part, liouville)
  checks = vm_demo_check (checks, [label, ': exitflag'], run.exitflag, 1, 0, 'part', part);
  checks = vm_demo_check (checks, [label, ': T'], run.T, ref.T, NaN);
  checks = vm_demo_check (checks, [label, ': |T - T_ref|/T_ref'], run.T_err, 0, tol.T);
  checks = vm_demo_check (checks, [label, ': closure, ode45 1e-13 over T'], run.closure_ode45, 0, ...
                          tol.closure);
  checks = vm_demo_check (checks, [label, ': trivial Floquet multiplier'], run.floquet(1), 1, ...
                          tol.trivial);
  if liouville
    checks = vm_demo_check (checks, [label, ': Floquet vs exp(int div) (rel.)'], run.floquet(2), ...
                            ref.liouville, tol.floquet, 'error', run.floquet_err);
  else
    checks = vm_demo_check (checks, [label, ': |nontrivial multiplier| (exp(int div) tiny)'], ...
                            abs (run.floquet(2)), ref.liouville, tol.tiny);
  end
  checks = vm_demo_check (checks, [label, ': sol.period_error / T (estimate)'], ...
                          run.period_error / ref.T, 0, NaN);
  checks = vm_demo_check (checks, [label, ': sol.closure (DOP853)'], run.closure, 0, NaN);
end

function print_tables (res, msg)
  fprintf ('Van der Pol limit cycle by periodic_orbit (dual action on a circle) against shooting\n');
  fprintf ('reference: Newton on (x0 on v = 0, T) with ode45 RelTol = AbsTol = 1e-13 (both mu)\n');
  fprintf ('%5s %20s %18s %13s %10s %5s %7s\n', 'mu', 'T_ref', 'x0', 'exp(int div)', 'check', ...
           'it', 'time s');
  for k = 1:numel (res.ref)
    r = res.ref(k);
    fprintf ('%5g %20.14f %18.14f %13.5e %10.2e %5d %7.1f\n', r.mu, r.T, r.x0, r.liouville, ...
             r.check_T, r.iterations, r.time);
  end
  fprintf ('\nperiodic_orbit runs: N, Newton iterations, time, relative error of T\n');
  fprintf ('%-46s %5s %6s %5s %8s %10s  %s\n', 'run', 'exit', 'N', 'it', 'time s', 'T err', 'message');
  m = res.mu10;
  runs = {res.mu1.help_example, res.mu1.rough, m.default_circle, m.default_candidate};
  labels = {'mu = 1, help example (defaults)', 'mu = 1, rough guess (defaults)', ...
            'mu = 10, rough circle (defaults)', 'mu = 10, periodic_guesses cand. (defaults)'};
  for k = 1:numel (m.scan)
    runs{end + 1} = m.scan(k); %#ok<AGROW>
    labels{end + 1} = sprintf ('mu = 10, candidate, N = %d', m.scan_N(k)); %#ok<AGROW>
  end
  runs{end + 1} = m.perturbed_default;
  labels{end + 1} = 'mu = 10, perturbed cand., N = 8193';
  runs{end + 1} = m.working;
  labels{end + 1} = 'mu = 10, perturbed cand., N = 8193, c(P)/1e4';
  for k = 1:numel (runs)
    r = runs{k};
    msgk = r.message;
    if numel (msgk) > 60
      msgk = [msgk(1:57), '...'];
    end
    fprintf ('%-46s %5d %6d %5d %8.2f %10.2e  %s\n', labels{k}, r.exitflag, r.N, r.iterations, ...
             r.time, r.T_err, msgk);
  end
  c = res.convergence;
  fprintf ('\n(3) convergence of T with N, mu = 1, from the reference orbit: |T_N - T_ref|/T_ref (rate)\n');
  fprintf ('%6s', 'order');
  for in = 1:numel (c.N)
    fprintf (' %17s', sprintf ('N=%d', c.N(in)));
  end
  fprintf (' %9s\n', 'observed');
  for io = 1:numel (c.orders)
    fprintf ('%6d %17.3e', c.orders(io), c.err(io, 1));
    for in = 2:numel (c.N)
      fprintf (' %9.3e (%5.2f)', c.err(io, in), c.rate(io, in - 1));
    end
    fprintf (' %9.2f   exitflags %s\n', c.observed(io), mat2str (c.exitflag(io, :)));
  end
  for k = 1:numel (c.errors)
    fprintf ('error raised: %s\n', c.errors{k});
  end
  fprintf ('the same from the rough guess of (1b) (Newton at a fixed N): exitflag, |T_N - T_ref|/T_ref\n');
  for io = 1:numel (c.orders)
    fprintf ('%6d', c.orders(io));
    for in = 1:numel (c.N)
      fprintf (' %d %9.2e      ', c.rough_exitflag(io, in), c.rough_err(io, in));
    end
    fprintf ('\n');
  end
  fprintf ('\n');
  vm_demo_table (res.checks, '%.6g', 'part');
  fprintf ('%s (%.1f s)\n', msg, res.time);
end

function draw (what, res)
  colors = [0, 0.447, 0.741; 0.85, 0.325, 0.098; 0.466, 0.674, 0.188; 0.494, 0.184, 0.556];
  fs = 6;
  switch what
    case 'orbits'
      runs = {res.mu1.rough, res.mu10.working};
      for k = 1:2
        vm_demo_subplot (1, 2, k, fs);
        r = res.ref(k);
        plot (r.y(:, 1), r.y(:, 2), '-', 'color', [0.3, 0.3, 0.3], 'linewidth', 1.5);
        hold on;
        s = runs{k};
        if ~isempty (s.y)
          step = max (1, floor (numel (s.t) / 150));
          plot (s.y(1:step:end, 1), s.y(1:step:end, 2), 'o', 'color', colors(k, :), 'markersize', 3);
        end
        hold off;
        set (gca, 'fontsize', fs);
        grid on;
        xlabel ('x (dimensionless)');
        ylabel ('v = dx/dt (dimensionless)');
        title (sprintf ('Van der Pol, mu = %g: T = %.10f', r.mu, r.T));
        lh = legend ({'shooting, ode45 1e-13', sprintf('periodic\\_orbit, N = %d', s.N)}, ...
                     'location', 'northwest');
        set (lh, 'fontsize', fs - 1);
      end
    otherwise
      c = res.convergence;
      hold on;
      leg = cell (1, numel (c.orders));
      for io = 1:numel (c.orders)
        loglog (c.N, c.err(io, :), '-o', 'color', colors(io, :), 'linewidth', 1.5);
        leg{io} = sprintf ('order %d (observed %.2f)', c.orders(io), c.observed(io));
      end
      hold off;
      set (gca, 'xscale', 'log', 'yscale', 'log', 'fontsize', fs);
      grid on;
      xlabel ('N (nodes on the period)');
      ylabel ('|T_N - T_{ref}| / T_{ref}');
      title ('Van der Pol mu = 1: convergence of the period, periodic central differences');
      lh = legend (leg, 'location', 'southwest');
      set (lh, 'fontsize', fs - 1);
  end
end
