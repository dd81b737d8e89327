function results = demo_dual_pars_reduced (varargin)
% -*- texinfo -*-
% @deftypefn  {} {} demo_dual_pars_reduced ()
% @deftypefnx {} {results =} demo_dual_pars_reduced ()
% @deftypefnx {} {results =} demo_dual_pars_reduced (..., "quiet")
% @deftypefnx {} {results =} demo_dual_pars_reduced (..., "png", dir)
% @deftypefnx {} {results =} demo_dual_pars_reduced (..., "N", N, "T", T)
% The reduced Pars dual (Acharya and Sengupta, Sec.@: 4.1, eqs.@: 48-49, the sign of eq.@: 48
% corrected): @code{dual_pars (@dots{}, "Reduced", true)}.
%
% @strong{Primal.}  Pars' particle with the ideal (Gauss) reaction, eq.@: 44:
% @code{x1'' = -x1' x3 x3'/(1 + x3^2)}, @code{x2'' = x1' x3'/(1 + x3^2)}, @code{x3'' = 0}.  So
% @code{x3 = z(t) = v3^0 t + x3^0}, and with @code{k(t) = v3^0/(1 + z^2)} the velocities
% (v1, v2) obey the linear, time-dependent system (derived from eq.@: 44, which @code{demo_pars}
% re-derives from Gauss's principle)
%
% @example
% v1' + k z v1 = 0,   v2' - k v1 = 0,   v1(0) = v1^0,  v2(0) = v2^0 = x3^0 v1^0.      (48, corrected)
% @end example
%
% @strong{Closed form} (derived here): @code{d log v1/dt = -z z'/(1 + z^2)}, so
% @code{v1 = v1^0 sqrt ((1 + z0^2)/(1 + z^2))}; @code{v2 = z v1} (the constraint x3 v1 - v2 = 0):
% @code{(z v1)' = v3^0 v1 - z k z v1 = v1 v3^0 (1 - z^2/(1 + z^2)) = k v1}, and @code{z0 v1^0 =
% v2^0}.  Checked against @code{ode45} on eq.@: 44 (all six states) and on the corrected eq.@: 48
% (RelTol 1e-12, AbsTol 1e-14).
%
% @strong{Dual} (H = 1/2 |v|^2, the paper's choice: c = 1, zero base state).  From
% @code{integral lambda . (v' - F) dt} by parts, @code{F = (-k z v1, k v1)}:
% @code{L_H = -lambda1dot v1 - lambda2dot v2 + k z lambda1 v1 - k lambda2 v1 + |v|^2/2}.  DtP map
% (dL_H/dv = 0): @code{v1^H = lambda1dot - k z lambda1 + k lambda2}, @code{v2^H = lambda2dot}.  Dual
% action: @code{S_H = -1/2 integral ((lambda1dot - k z lambda1 + k lambda2)^2 + lambda2dot^2) dt -
% lambda(0) . v0} (eq.@: 49 with the sign of the lambda1 term corrected), lambda(T) prescribed (0).
% Discretely (@code{dual_solve}'s SBP form) @code{S = sum_k w_k LL_k - lambda_0 . v0} with
% lambdadot = Dm lambda; the problem is linear in lambda, so Newton converges in one step.
%
% @strong{Misprint, eq.@: 48 (sign).}  Printed @code{v1' - v1 z v3^0/(1 + z^2) = 0}; eq.@: 44
% gives @code{v1' + v1 z v3^0/(1 + z^2) = 0}.  The wrong sign propagates into the pre-dual
% Lagrangian after eq.@: 48, the printed DtP map @code{v1^H = lambda1dot + lambda1 z k + lambda2 k}
% and the integrand of eq.@: 49.  Checked: (i) @code{ode45} on the printed eq.@: 48 leaves the
% constraint (max |z v1 - v2| = O(1)) and its v1 departs from eq.@: 44 by O(1), while the corrected
% sign reproduces the closed form; (ii) the dual of the printed system (@code{dual_solve} on it)
% recovers that wrong motion, again off the constraint; (iii) the printed DtP map evaluated at the
% computed duals misses @code{sol.y} by O(1), the corrected one reproduces it to rounding; (iv) the
% corrected eq.@: 49, evaluated by hand at the computed duals, equals @code{sol.S}.  (The E-L
% equations printed after eq.@: 49, @code{v1dot^(H)/v1^(H) - ...}, do not balance either; they
% should read @code{v1dot^(H) + v1^(H) z v3^0/(1 + z^2) = 0}, @code{v2dot^(H) - v1^(H) v3^0/(1 +
% z^2) = 0}.)
%
% @strong{Data} (the paper gives none; those of @code{demo_pars}): x3^0 = -0.5, v3^0 = 0.4,
% v1^0 = 0.8, v2^0 = x3^0 v1^0 = -0.4, t in [0, 5] (x3 crosses 0 at t = 1.25); N = 81, Order 4.
%
% @strong{What is compared} (quantity | value | reference | error | tolerance):
% @table @asis
% @item formulas
% the closed form against @code{ode45} on eq.@: 44 and on the corrected eq.@: 48 (1e-9: ode45 at
% RelTol 1e-12 over a smooth, non-stiff problem); the printed eq.@: 48 (ode45): max |z v1 - v2| and
% max |v1 - v1_exact| must exceed 0.1; the hand-evaluated DtP map and eq.@: 49 against
% @code{sol.y}, @code{sol.S} (1e-10 times the scale: rounding), the printed DtP map must miss
% @code{sol.y} by more than 0.1.
% @item dual, N = 81
% Newton's exitflag and iterations (linear: 1), max |v - v_exact| over the grid (h^3, the
% SBP-SAT max-norm order 3 of Order 4 with a unit constant: the solution's derivatives are below
% 1), max |z v1 - v2| of the recovered v (not imposed, it must hold to the same h^3), the discrete
% primal residual at the nodes 1..N-1 (1e-10: a linear solve), final-time error (info).
% @item printed-sign dual
% @code{dual_solve} on the printed eq.@: 48 (c = 1, zero base, N, Order 4): max |z v1 - v2| >= 0.1,
% and its deviation from @code{ode45} on the printed eq.@: 48 <= h^3.
% @item engine
% @code{dual_solve} on the reduced system written with @code{odesys} (c = 1, zero base) against
% @code{dual_pars (@dots{}, "Reduced", true)} for every order and N of the convergence study:
% max |y1 - y2| <= 1e-10 max (1, |y|), max |D1 - D2| <= 1e-10 max (1, |D|), |S1 - S2| <= 1e-10
% max (1, |S|) (both do one Newton step, a sparse solve of the same linear system: rounding times
% its condition number, ~1e5 here).
% @item convergence
% Orders 2, 4, 6 on N = 41, 81, 161, 321: the observed max-norm order of v (finest pair) within
% 0.3 of p+1 = 2, 3, 4 (SBP-SAT with boundary order p).  The final-time error converges at the same
% p+1, not at the 2p of an SBP-SAT solution: the last node has no equation of the action (lambda(T)
% is prescribed), v^H there comes from the DtP map (info rows).
% @end table
%
% Options: @code{"quiet"} prints nothing; @code{"png", @var{dir}} writes
% @file{demo_dual_pars_reduced.png} (v1, v2 against the closed form and the printed eq.@: 48; the
% convergence plot); @code{"N"} (>= 17) and @code{"T"} (> 0) change the main run.
%
% @var{results} has fields @code{x0}, @code{v0}, @code{T}, @code{N}, @code{c}, @code{t}, @code{y},
% @code{D}, @code{exact}, @code{S}, @code{exitflag}, @code{iterations}, @code{err_max},
% @code{err_final}, @code{constraint}, @code{residual}, @code{eq44_dev}, @code{corrected_dev},
% @code{printed} (@code{v}, @code{constraint}, @code{v1_dev}), @code{printed_dual}
% (@code{constraint}, @code{dev}, @code{exitflag}), @code{dtp} (@code{y_dev}, @code{y_scale},
% @code{printed_dev}, @code{S_dev}, @code{S_scale}), @code{engine} (@code{dy}, @code{dD}, @code{dS},
% worst over all runs, relative to max (1, scale)), @code{conv} (struct array per order:
% @code{order}, @code{N}, @code{err_max}, @code{err_final}, @code{rate_max}, @code{rate_final},
% @code{predicted}, @code{observed_max}, @code{observed_final}, @code{exitflag}, @code{iterations}),
% @code{tol}, @code{checks}, @code{pass} and @code{time}.
% @seealso{dual_pars, dual_solve, demo_dual_pars, demo_pars}
% @end deftypefn

  opt = vm_demo_args ('demo_dual_pars_reduced', varargin, struct ('N', 81, 'T', 5));
  N = opt.N;
  T = opt.T;
  if ~(isscalar (N) && isreal (N) && N == round (N) && N >= 17)
    error ('demo_dual_pars_reduced: N must be an integer >= 17');
  end
  if ~(isscalar (T) && isreal (T) && T > 0)
    error ('demo_dual_pars_reduced: T must be a positive scalar');
  end

  tstart = tic;
  order = 4;
  x0 = [0.3, -0.2, -0.5];
  v0 = [0.8, x0(3) * 0.8, 0.4];
  z0 = x0(3);
  v30 = v0(3);
  h = T / (N - 1);
  tol = struct ('ref', 1e-9, 'differ', 0.1, 'formula', 1e-10, 'traj', h ^ 3, 'linear', 1e-10, ...
                'engine', 1e-10, 'rate', 0.3);
  oopt = odeset ('RelTol', 1e-12, 'AbsTol', 1e-14);

  % ---- the main run ------------------------------------------------------------------------------
  sol = dual_pars ([0, T], x0, v0, 'Reduced', true, 'N', N, 'Order', order);
  t = sol.t;
  [~, ex] = vm_pars_closed_form (t, x0, v0);   % eq. 44 in closed form
  ex = ex(:, 1:2);
  z = z0 + v30 * t;

  % ---- formulas: closed form vs ode45 (eq. 44, corrected 48), printed 48 -----------------------
  [~, y44] = ode45 (@(tt, y) vm_pars_rhs ('eq44', y), t, [x0, v0]', oopt);
  [~, yc] = ode45 (@(tt, y) vm_pars_rhs ('eq48', tt, y, z0, v30, false), t, v0(1:2)', oopt);
  [~, yp] = ode45 (@(tt, y) vm_pars_rhs ('eq48', tt, y, z0, v30, true), t, v0(1:2)', oopt);
  eq44_dev = max (max (abs (y44(:, 4:5) - ex)));
  corrected_dev = max (max (abs (yc - ex)));
  printed = struct ('v', yp, 'constraint', max (abs (z .* yp(:, 1) - yp(:, 2))), ...
                    'v1_dev', max (abs (yp(:, 1) - ex(:, 1))));

  % ---- the DtP map and eq. 49 by hand at the computed duals --------------------------------------
  dtp = dtp_check (sol, order, T, z0, v30, v0);

  % ---- the dual of the printed system -----------------------------------------------------------
  prm = struct ('v30', v30, 'x30', z0);
  zs = '(v30*t + x30)';
  ode_printed = odesys ('states', {'v1', 'v2'}, 'parameters', prm, ...
                        'rhs', {['v1*', zs, '*v30/(1 + ', zs, '^2)'], ['v1*v30/(1 + ', zs, '^2)']});
  sp = dual_solve (ode_printed, [0, T], v0(1:2), 'N', N, 'c', 1, 'Order', order, 'FinalDual', 'strong');
  printed_dual = struct ('constraint', max (abs (z .* sp.y(:, 1) - sp.y(:, 2))), ...
                         'dev', max (max (abs (sp.y - yp))), 'exitflag', sp.exitflag);

  % ---- convergence in N and the general engine ---------------------------------------------------
  ode = odesys ('states', {'v1', 'v2'}, 'parameters', prm, ...
                'rhs', {['-v1*', zs, '*v30/(1 + ', zs, '^2)'], ['v1*v30/(1 + ', zs, '^2)']});
  orders = [2, 4, 6];
  Ns = [41, 81, 161, 321];
  engine = struct ('dy', 0, 'dD', 0, 'dS', 0);
  conv = struct ('order', {}, 'N', {}, 'err_max', {}, 'err_final', {}, 'rate_max', {}, ...
                 'rate_final', {}, 'predicted', {}, 'observed_max', {}, 'observed_final', {}, ...
                 'exitflag', {}, 'iterations', {});
  for io = 1:numel (orders)
    od = orders(io);
    em = zeros (1, numel (Ns));
    efin = zeros (1, numel (Ns));
    ef = zeros (2, numel (Ns));
    it = zeros (2, numel (Ns));
    for in = 1:numel (Ns)
      s1 = dual_pars ([0, T], x0, v0, 'Reduced', true, 'N', Ns(in), 'Order', od);
      s2 = dual_solve (ode, [0, T], v0(1:2), 'N', Ns(in), 'c', 1, 'Order', od, 'FinalDual', 'strong');
      [~, e] = vm_pars_closed_form (s1.t, x0, v0);
      e = e(:, 1:2);
      em(in) = max (max (abs (s1.y - e)));
      efin(in) = max (abs (s1.y(end, :) - e(end, :)));
      ef(:, in) = [s1.exitflag; s2.exitflag];
      it(:, in) = [s1.iterations; s2.iterations];
      engine.dy = max (engine.dy, max (abs (s1.y(:) - s2.y(:))) / max (1, max (abs (s2.y(:)))));
      engine.dD = max (engine.dD, max (abs (s1.D(:) - s2.D(:))) / max (1, max (abs (s2.D(:)))));
      engine.dS = max (engine.dS, abs (s1.S - s2.S) / max (1, abs (s2.S)));
    end
    hN = T ./ (Ns - 1);
    [rm, om] = vm_demo_rates (hN, em, 1e-13, Ns);
    [rf, of] = vm_demo_rates (hN, efin, 1e-13, Ns);
    conv(end + 1) = struct ('order', od, 'N', Ns, 'err_max', em, 'err_final', efin, ...
                            'rate_max', rm, 'rate_final', rf, 'predicted', od / 2 + 1, ...
                            'observed_max', om, 'observed_final', of, 'exitflag', ef, ...
                            'iterations', it); %#ok<AGROW>
  end

  results = struct ();
  results.x0 = x0;
  results.v0 = v0;
  results.T = T;
  results.N = N;
  results.c = 1;
  results.t = t;
  results.y = sol.y;
  results.D = sol.D;
  results.exact = ex;
  results.S = sol.S;
  results.exitflag = sol.exitflag;
  results.iterations = sol.iterations;
  results.err_max = max (max (abs (sol.y - ex)));
  results.err_final = max (abs (sol.y(end, :) - ex(end, :)));
  results.constraint = max (abs (z .* sol.y(:, 1) - sol.y(:, 2)));
  results.residual = max (max (abs (sol.residual(1:end - 1, :))));
  results.eq44_dev = eq44_dev;
  results.corrected_dev = corrected_dev;
  results.printed = printed;
  results.printed_dual = printed_dual;
  results.dtp = dtp;
  results.engine = engine;
  results.conv = conv;
  results.tol = tol;
  results.checks = make_checks (results);
  [results.pass, msg] = vm_demo_verdict (results.checks);
  results.time = toc (tstart);

  if ~opt.quiet
    print_table (results, msg);
  end
  vm_demo_png (opt, '', @(what) draw_plot (results), [800, 900]);
  if nargout == 0
    clear results;
  end
end

function d = dtp_check (sol, order, T, z0, v30, v0)
  % the DtP map (corrected and printed) and the corrected eq. 49 at the computed duals (c = 1,
  % zero base state): v1 = lambda1dot - k z lambda1 + k lambda2, v2 = lambda2dot
  N = numel (sol.t);
  [Dm, H] = sbp_operator (N, order, [0, T]);
  w = full (diag (H));
  lam = sol.D;
  lamd = Dm * lam;
  z = z0 + v30 * sol.t;
  k = v30 ./ (1 + z .^ 2);
  v = [lamd(:, 1) - k .* z .* lam(:, 1) + k .* lam(:, 2), lamd(:, 2)];
  vp = [lamd(:, 1) + k .* z .* lam(:, 1) + k .* lam(:, 2), lamd(:, 2)];
  d.y_dev = max (abs (v(:) - sol.y(:)));
  d.y_scale = max (1, max (abs (lamd(:))));
  d.printed_dev = max (abs (vp(:) - sol.y(:)));
  LL = -sum (v .^ 2, 2) / 2;
  S = sum (w .* LL) - lam(1, :) * v0(1:2)';
  d.S_dev = abs (S - sol.S);
  d.S_scale = max (1, sum (abs (w .* LL)));
end

function checks = make_checks (r)
  checks = struct ('part', {}, 'name', {}, 'value', {}, 'reference', {}, 'error', {}, ...
                   'tol', {}, 'pass', {}, 'info', {});
  t = r.tol;
  checks = vm_demo_check (checks, 'max |v - closed form|, ode45 on eq. 44', r.eq44_dev, 0, t.ref, ...
                          'part', 'formulas');
  checks = vm_demo_check (checks, 'max |v - closed form|, ode45 on corrected eq. 48', ...
                          r.corrected_dev, 0, t.ref);
  checks = vm_demo_check (checks, 'printed eq. 48 (ode45): max |z v1 - v2|', ...
                          r.printed.constraint, '>= 0.1', t.differ, 'error', NaN, 'ratio', ...
                          t.differ / max (r.printed.constraint, realmin));
  checks = vm_demo_check (checks, 'printed eq. 48 (ode45): max |v1 - v1 exact|', ...
                          r.printed.v1_dev, '>= 0.1', t.differ, 'error', NaN, 'ratio', ...
                          t.differ / max (r.printed.v1_dev, realmin));
  checks = vm_demo_check (checks, 'corrected DtP map at the duals vs sol.y', r.dtp.y_dev, 0, ...
                          t.formula * r.dtp.y_scale);
  checks = vm_demo_check (checks, 'printed DtP map at the duals vs sol.y', r.dtp.printed_dev, ...
                          '>= 0.1', t.differ, 'error', NaN, 'ratio', ...
                          t.differ / max (r.dtp.printed_dev, realmin));
  checks = vm_demo_check (checks, 'corrected eq. 49 at the duals vs sol.S', r.dtp.S_dev, 0, ...
                          t.formula * r.dtp.S_scale);
  part = sprintf ('dual, N = %d', r.N);
  checks = vm_demo_check (checks, 'Newton exitflag', r.exitflag, 1, 0, 'part', part);
  checks = vm_demo_check (checks, 'Newton iterations (linear: 1)', r.iterations, 1, 0);
  checks = vm_demo_check (checks, 'max |v - v_exact| (h^3)', r.err_max, 0, t.traj);
  checks = vm_demo_check (checks, 'max |z v1 - v2| of the recovered v (h^3)', r.constraint, 0, ...
                          t.traj);
  checks = vm_demo_check (checks, 'max |discrete primal residual|, nodes 1..N-1', r.residual, 0, ...
                          t.linear);
  checks = vm_demo_check (checks, '|v(T) - v_exact(T)|', r.err_final, 0, NaN);
  checks = vm_demo_check (checks, 'exitflag', r.printed_dual.exitflag, 1, 0, 'part', ...
                          'printed-sign dual');
  checks = vm_demo_check (checks, 'max |z v1 - v2|', r.printed_dual.constraint, '>= 0.1', ...
                          t.differ, 'error', NaN, 'ratio', ...
                          t.differ / max (r.printed_dual.constraint, realmin));
  checks = vm_demo_check (checks, 'max |v - ode45 on printed eq. 48| (h^3)', r.printed_dual.dev, ...
                          0, t.traj);
  checks = vm_demo_check (checks, 'max |y_closed - y_engine| / max(1, |y|)', r.engine.dy, 0, ...
                          t.engine, 'part', 'engine (all runs)');
  checks = vm_demo_check (checks, 'max |D_closed - D_engine| / max(1, |D|)', r.engine.dD, 0, ...
                          t.engine);
  checks = vm_demo_check (checks, '|S_closed - S_engine| / max(1, |S|)', r.engine.dS, 0, t.engine);
  for io = 1:numel (r.conv)
    c = r.conv(io);
    part = '';
    if io == 1
      part = 'convergence';
    end
    checks = vm_demo_check (checks, sprintf ('Order %d: min exitflag (both kernels)', c.order), ...
                            min (c.exitflag(:)), 1, 0, 'part', part);
    checks = vm_demo_check (checks, sprintf ('Order %d: max Newton iterations (linear: 1)', ...
                            c.order), max (c.iterations(:)), 1, 0);
    checks = vm_demo_check (checks, sprintf ('Order %d: max-norm rate of v (N %d/%d)', c.order, ...
                            c.N(end - 1), c.N(end)), c.observed_max, c.predicted, t.rate);
    checks = vm_demo_check (checks, sprintf ('Order %d: final-time rate of v (N %d/%d)', c.order, ...
                            c.N(end - 1), c.N(end)), c.observed_final, c.predicted, NaN);
  end
end

function print_table (r, msg)
  fprintf ('Reduced Pars dual (Acharya & Sengupta eqs. 48-49, sign of eq. 48 corrected): H = |v|^2/2\n');
  fprintf ('x3 = z = %g + %g t, v0 = (%g, %g), t in [0, %g]; N = %d, Order 4, c = 1, zero base state\n', ...
           r.x0(3), r.v0(3), r.v0(1), r.v0(2), r.T, r.N);
  fprintf ('reference: v1 = v1^0 sqrt((1 + z0^2)/(1 + z^2)), v2 = z v1 (closed form of eq. 44)\n\n');
  vm_demo_table (r.checks, '%.4g', 'part');
  fprintf ('\nconvergence of the recovered v against the closed form (rates log2(e1/e2))\n');
  fprintf ('%6s %5s %10s %6s %10s %6s\n', 'order', 'N', 'max err', 'rate', 'err(T)', 'rate');
  for io = 1:numel (r.conv)
    c = r.conv(io);
    for in = 1:numel (c.N)
      if in == 1
        fprintf ('%6d %5d %10.3e %6s %10.3e %6s\n', c.order, c.N(in), c.err_max(in), '-', ...
                 c.err_final(in), '-');
      else
        fprintf ('%6d %5d %10.3e %6.2f %10.3e %6.2f\n', c.order, c.N(in), c.err_max(in), ...
                 c.rate_max(in - 1), c.err_final(in), c.rate_final(in - 1));
      end
    end
  end
  fprintf ('\n%s (%.1f s)\n', msg, r.time);
end

function draw_plot (r)
  colors = [0, 0.447, 0.741; 0.85, 0.325, 0.098; 0.466, 0.674, 0.188];
  fs = 7;
  vm_demo_subplot (2, 1, 1, fs);
  hold on;
  h1 = plot (r.t, r.exact(:, 1), '-', 'color', colors(1, :), 'linewidth', 1.5);
  plot (r.t, r.exact(:, 2), '-', 'color', colors(2, :), 'linewidth', 1.5);
  h2 = plot (r.t(1:4:end), r.y(1:4:end, 1), 'o', 'color', colors(1, :), 'markersize', 4);
  plot (r.t(1:4:end), r.y(1:4:end, 2), 'o', 'color', colors(2, :), 'markersize', 4);
  h3 = plot (r.t, r.printed.v(:, 1), '--', 'color', colors(1, :));
  plot (r.t, r.printed.v(:, 2), '--', 'color', colors(2, :));
  hold off;
  set (gca, 'fontsize', fs);
  ylim ([-1, 1.5]);
  xlabel ('t (dimensionless)');
  ylabel ('v_1 (blue), v_2 (red) (dimensionless)');
  title (sprintf ('reduced Pars dual, N = %d, Order 4', r.N), 'fontsize', 8);
  lh = legend ([h1, h2, h3], {'closed form', 'dual (every 4th node)', 'printed eq. 48 (ode45)'}, ...
               'location', 'southwest');
  set (lh, 'fontsize', 6);
  grid on;
  vm_demo_subplot (2, 1, 2, fs);
  hold on;
  hs = zeros (1, numel (r.conv));
  leg = cell (1, numel (r.conv));
  for io = 1:numel (r.conv)
    c = r.conv(io);
    hN = r.T ./ (c.N - 1);
    hs(io) = loglog (hN, c.err_max, '-o', 'color', colors(io, :), 'linewidth', 1.5);
    loglog (hN, c.err_final, '--s', 'color', colors(io, :));
    leg{io} = sprintf ('Order %d', c.order);
  end
  hold off;
  set (gca, 'xscale', 'log', 'yscale', 'log', 'fontsize', fs);
  xlabel ('h (time step, dimensionless)');
  ylabel ('error of v (dimensionless)');
  title ('max error (solid), error at T (dashed)', 'fontsize', 8);
  lh = legend (hs, leg, 'location', 'southeast');
  set (lh, 'fontsize', 6);
  grid on;
end
