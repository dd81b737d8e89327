function results = demo_dual_pars (varargin)
% -*- texinfo -*-
% @deftypefn  {} {} demo_dual_pars ()
% @deftypefnx {} {results =} demo_dual_pars ()
% @deftypefnx {} {results =} demo_dual_pars (..., "quiet")
% @deftypefnx {} {results =} demo_dual_pars (..., "png", dir)
% @deftypefnx {} {results =} demo_dual_pars (..., "N", N, "T", T, "nu", nu, "epsilon", eps)
% The generalized Pars dual (Acharya and Sengupta, Sec.@: 4, eqs.@: 32-37) for Pars' particle:
% which motion does the base state select?
%
% @strong{Primal} (eq.@: 32, unit mass, M = 3, L13 = 1, b2 = -1, all other entries 0):
%
% @example
% xdot = v,   vdot = -Q,   (b + L x) . v = x3 v1 - v2 = 0,   Q . v - s^2/2 = 0,
% x(0) = x0,  v(0) = v0  (x3^0 v1^0 - v2^0 = 0).
% @end example
%
% Q is MINUS the force on the particle (eq.@: 42b), @code{Q . v = -dK/dt} (K = |v|^2/2) its
% dissipated power, s a free slack: @code{Q . v = s^2/2 >= 0}, so K never increases (eq.@: 33).
% The system has 10 unknowns and 8 equations: it does not fix Q.  The dual selects a motion
% through the potential @code{H = 1/2 (cx |x - xbar|^2 + cv |v - vbar|^2 + cQ |Q - Qbar|^2 +
% cs (s - sbar)^2)} (weights [cx cv cQ cs] = [20 20 20 20], @code{dual_pars}'s default).
%
% @strong{Derivations} (redone here, each checked numerically by the demo).
% @itemize
% @item Eq.@: 34 (pre-dual Lagrangian) as printed: integrate @code{rho . (xdot - v) + lambda .
% (vdot + Q) + mu (b + L x) . v + Lambda (Q . v - s^2/2) + H} by parts (@code{rho . xdot ->
% -rhodot . x}, @code{lambda . vdot -> -lambdadot . v}).  Checked: the discrete action
% @code{sum_k w_k L_H(y^H_k) - rho(0) . x0 - lambda(0) . v0} (w = SBP weights, rhodot, lambdadot
% = SBP derivative of the computed duals) equals @code{sol.S} (field @code{dtp.S_dev}).
% @item Eq.@: 35 (dL_H/dU = 0) as printed.  Eq.@: 36 (DtP map): the v line and the matrix M
% @code{= (1 - Lambda^2/(cQ cv)) I - mu^2 L L'/(cx cv)} are right (eliminate x and Q from eq.@: 35);
% the Q and s lines are right.
% @item @strong{Misprint, eq.@: 36, x line}: printed @code{x_k = xbar_i + rhodot_i/cx - mu L_ki
% v_k/cx} (free index k on the left, i on the right).  From the x line of eq.@: 35:
% @code{x_i = xbar_i + (rhodot_i - mu L_ki v_k)/cx}, i.e.@: @code{L' v}.  Checked: the corrected
% map, evaluated by hand at the computed duals, reproduces @code{sol.y} to rounding; the other
% reading (@code{L v}) misses it by O(|mu| |v|/cx) (fields @code{dtp.y_dev}, @code{dtp.misread_dev}).
% @item Gauss (ideal) motion, eq.@: 44 (re-derived in @code{demo_pars}): @code{Q = lam* a},
% @code{a = (x3, -1, 0)}, @code{lam* = v1 v3/(1 + x3^2)}; closed form with @code{z = x3^0 + v3^0 t}:
% @code{v1 = v1^0 sqrt ((1 + z0^2)/(1 + z^2))}, @code{v2 = z v1}, @code{v3 = v3^0},
% @code{x1 = x1^0 + C (asinh z - asinh z0)}, @code{x2 = x2^0 + C (sqrt (1 + z^2) - sqrt (1 + z0^2))},
% @code{C = v1^0 sqrt (1 + z0^2)/v3^0}; Q . v = 0.
% @item Eq.@: 45 force @code{Q = lam* a + a x v + nu v}, @code{a x v = (-v3, -x3 v3, x3 v2 + v1)};
% the differentiated constraint @code{a . vdot + v1 v3 = 0} gives
% @code{lam* = (v1 v3 + nu (v2 - x3 v1))/(1 + x3^2)} (as printed) and the motion (47') of
% @code{demo_pars}; on the constraint @code{Q . v = nu |v|^2}, so @code{s = sqrt (2 nu |v|^2)}
% (eq.@: 46d).
% @end itemize
%
% @strong{Cases} (data of @code{demo_pars}: x0 = (0.3, -0.2, -0.5), v0 = (0.8, -0.4, 0.4);
% t in [0, T], T = 2; nu = 0.5; one slab of N = 65 points, Order 4):
% @table @asis
% @item (a) Gauss base
% xbar, vbar from Octave's/MATLAB's @code{ode45} on eq.@: 44 (RelTol 1e-12, AbsTol 1e-14, on the
% grid), @code{Qbar = lam* a}, @code{sbar = 0}.  The base solves eq.@: 32, so the continuous duals
% vanish (the paper's remark after eq.@: 44).  Reference: the closed form above.
% @item (b1) eq.@: 45 force on the Gauss motion
% xbar, vbar Gauss, @code{Qbar} = the eq.@: 45 force at the Gauss state, @code{sbar = sqrt (2 nu
% |vbar|^2)}: not a solution (Qbar does not produce vbar), a nontrivial D.
% @item (b2) eq.@: 45 motion
% the full (47') solution (@code{ode45}, RelTol 1e-12) with its force and slack: an exact
% solution of eq.@: 32 from the same initial data, dissipative and different from (a).
% Reference: that solution.
% @item (b3) perturbed xbar, vbar
% the Gauss motion plus @code{epsilon (sin (pi t/T), 0, sin (2 pi t/T))} in x and
% @code{epsilon (cos (pi t/T), sin (pi t/T), 0)} in v (epsilon = 0.5), Gauss Qbar, @code{sbar = 0}
% (so @code{s^H = cs sbar/(cs - Lambda) = 0}: the selected motion conserves K).
% @end table
% (a) and (b2) are two exact, different motions of eq.@: 32 with Q . v >= 0 from the same data,
% and (b1), (b3) select two more: the non-uniqueness of Secs.@: 4-5.
%
% @strong{What is compared} (quantity | value | reference | error | tolerance):
% @table @asis
% @item (a)
% max |D| over the grid, max |D| in the interior (nodes more than 2 Order from both ends), the
% deviations of the recovered x, v, Q from the closed form, s, the constraint and power residuals
% @code{sol.G}, the discrete primal residual at the nodes 1..N-1 (the equations of the action).
% @item (b1)-(b3)
% Newton's exitflag on N, 2N-1 and (N+1)/2 points; max |(b + L x) . v| and max |Q . v - s^2/2|
% (@code{sol.G}) at every node; min Q . v; the largest rise of K above its running minimum
% (@code{max (K - cummin (K))}), against 2 E_K: with e_K = max |K_N - K_2N-1| at the common nodes,
% E_K = e_K/(1 - 2^-1) = 2 e_K is the Richardson estimate of K's discretization error for the
% first-order convergence measured in (b1), (b3) (conservative for (b2), which converges at order
% 3); a K that never increases, computed with errors <= E_K, rises by at most 2 E_K = 4 e_K.  The
% deviation from the Gauss motion must exceed 10 E_x = 20 e_x (e_x likewise for x): the motions
% differ by far more than their discretization errors.  For (b2) the deviation from its own
% reference (info; graded through its convergence order in (d)).  Info rows: max |D|,
% the primal residual at the last node (not an equation of the action), Newton iterations, the
% observed self-convergence order of x from the three grids.
% @item (c)
% @code{dual_pars} (closed-form kernel) against @code{dual_solve} on the Pars system written with
% @code{odesys} (@code{'square', false}), same base state and weights, both with Tol 1e-13, for
% all four cases: max |y1 - y2|, max |D1 - D2|, |S1 - S2|.
% @item (d)
% case (a) for Orders 2, 4, 6 and (b2) for Order 4 on N = 33, 65, 129, 257: max-norm errors of x,
% v, Q, max |D| and interior max |D|; observed order of the finest pair.
% @item formulas
% the closed form against @code{ode45} on eq.@: 44 (1e-9); the (b2) base keeps the constraint and
% the power law to 1e-9; eqs.@: 34, 36 (corrected) at the computed duals against @code{sol.S},
% @code{sol.y}; the misread x line of eq.@: 36 must miss @code{sol.y} by more than 0.01.
% @end table
%
% @strong{Tolerances.}  Newton's tolerance (1e-11 on the RMS of the row-scaled discrete
% equations) bounds every node's equation by 1e-9: constraint, power, discrete residual, min Q . v
% >= -1e-9.  The recovered primal of SBP-SAT with interior order 2p (boundary order p) converges
% in the max norm at order p+1 (3 for Order 4), Q = -vdot at order p: for (a) the errors must be
% below h^(p+1) (x, v) and h^p (Q) with a unit constant (the Gauss motion's derivatives are
% below 1); D is c times a primal-scale quantity: interior max |D| <= c h^(p+1), max |D| <= c h^(p-1)
% (see the findings).  Orders: observed within 0.3 of the predicted (x, v: p+1; Q: p; interior D:
% p+1; max D: p-1).  Closed form versus general engine: the same discrete equations to Tol 1e-13,
% so the difference is rounding: 1e-12 max(1, |y|) and 1e-10 max(1, |D|), 1e-10 max(1, |S|).
% ode45 at RelTol 1e-12 against a closed form: 1e-9.  The hand evaluation of eqs.@: 34, 36:
% 1e-10 max(1, scale) (rounding).
%
% @strong{Findings} (measured with this demo; the nonzero-DT runs with @code{dual_pars} directly).
% @itemize
% @item The duals of an exact base state are NOT O(h^order): in the interior max |D| = O(h^(p+1)),
% but the constraint dual mu at the boundary closures is O(h^(p-1)): O(1) for Order 2 (it does
% not vanish at all: 0.79, 0.81, 0.81, 0.82 on N = 33..257), O(h) for Order 4, O(h^2) for Order 6.
% Mechanism: @code{lambda = -cQ (Q - Qbar) - Lambda v} inherits Q's O(h^p) error, and the v line of
% eq.@: 35 gives @code{mu (b + L x) = rho + lambdadot - cv (v - vbar) - Lambda Q}, one more
% derivative at the closure.  The recovered primal is not affected: x, v at order p+1.
% @item For a base state that does not solve eq.@: 32 ((b1), (b3); also (a) with a nonzero DT,
% e.g.@: rho(T) = (0.3, 0.3, 0.3): max |mu| 0.43, 0.95, 1.96 on N = 33, 65, 129), mu has a
% spike at the last node that grows like 1/h (a discrete Dirac mass: (b3) 12, 27 on N = 65, 129;
% (b1) 370, 750), the ODE residual at the last node does not go to 0, Newton from D = 0
% needs more iterations as N grows (and fails at N = 257 for (b1) with MaxIter 50), and the
% recovered primal converges only at about first order (field @code{rate_x}).  A derivation
% (not proven here): the constraint involves only x, v, so a smooth dual solution needs the
% differentiated constraint at t = T, @code{(b + L x) . Q^H = (L v) . v} with
% @code{Q^H(T) = Qbar(T) - (lambda(T) + Lambda v)/cQ} and lambda(T) prescribed: a condition
% linking lambda(T), Qbar(T) and the unknown final state, which an arbitrary lambda(T) (eq.@: 37,
% "specified arbitrarily"; the text after eq.@: 28 says final data are no obstruction) does not
% meet; the multiplier of a state constraint then carries a Dirac mass at T.
% @item In (b3) K is conserved only up to a node-to-node sawtooth (K rises at every other node,
% by 6e-5 at N = 65, 2.5e-5 at N = 129): an odd-even mode of the centred SBP operator that the
% selection by H does not suppress.  The K check above grades it against K's own discretization
% error, not against h^3.
% @item @strong{Misprints}: eq.@: 36 x line (above).  Eq.@: 28 (Sec.@: 3) prints
% @code{v^(H) ~ vbar + lambdadot/cv}; eq.@: 35 gives @code{vbar + (rho + lambdadot)/cv} (+ terms in
% mu, Lambda).  Eq.@: 48 (sign) is treated in @code{demo_dual_pars_reduced}.
% @end itemize
%
% Options: @code{"quiet"} prints nothing; @code{"png", @var{dir}} writes @file{demo_dual_pars.png}
% (x3(t), the (x1, x2) paths, Q . v and K for the four cases); @code{"N"} (odd, >= 33), @code{"T"},
% @code{"nu"} (> 0), @code{"epsilon"} change the data.
%
% @var{results} has fields @code{x0}, @code{v0}, @code{T}, @code{N}, @code{nu}, @code{epsilon},
% @code{c}, @code{order}, @code{t}, @code{gauss} (closed form: @code{x}, @code{v}, @code{Q}),
% @code{cases} (struct array: @code{name}, @code{y}, @code{D}, @code{base}, @code{exitflag} and
% @code{iterations} (grids N, 2N-1, (N+1)/2; N only for (a)), @code{S}, @code{maxD},
% @code{maxD_interior}, @code{mu_end}, @code{residual}, @code{residual_end}, @code{constraint},
% @code{power}, @code{power_min}, @code{K}, @code{K_increase}, @code{e_K}, @code{e_x},
% @code{rate_x}, @code{dev_gauss}, @code{dev_ref} (x, v, Q; NaN without reference)),
% @code{engine} (struct array: @code{name}, @code{dy}, @code{dD}, @code{dS}, @code{scale_y},
% @code{scale_D}, @code{scale_S}, @code{exitflag}), @code{conv} (struct array: @code{name},
% @code{order}, @code{N}, @code{err} (5-by-4: x, v, Q, max D, interior D by N), @code{rate},
% @code{predicted}, @code{observed}, @code{pair}, @code{exitflag}), @code{dtp} (@code{y_dev},
% @code{y_scale}, @code{S_dev}, @code{S_scale}, @code{misread_dev}), @code{ref_dev} (closed form
% vs ode45), @code{base_b2} (constraint and power residuals of the (b2) base), @code{tol},
% @code{checks}, @code{pass} and @code{time}.
% @seealso{dual_pars, dual_solve, demo_dual_pars_reduced, demo_pars}
% @end deftypefn

  opt = vm_demo_args ('demo_dual_pars', varargin, struct ('N', 65, 'T', 2, 'nu', 0.5, 'epsilon', 0.5));
  N = opt.N;
  T = opt.T;
  nu = opt.nu;
  ep = opt.epsilon;
  if ~(isscalar (N) && isreal (N) && N == round (N) && N >= 33 && mod (N, 2) == 1)
    error ('demo_dual_pars: N must be an odd integer >= 33');
  end
  if ~(isscalar (T) && isreal (T) && T > 0 && isscalar (nu) && isreal (nu) && nu > 0 ...
       && isscalar (ep) && isreal (ep))
    error ('demo_dual_pars: T and nu must be positive scalars, epsilon a real scalar');
  end

  tstart = tic;
  order = 4;
  p = order / 2;
  cw = 20;
  x0 = [0.3, -0.2, -0.5];
  v0 = [0.8, x0(3) * 0.8, 0.4];
  h = T / (N - 1);
  tol = struct ('solver', 1e-9, 'x', h ^ (p + 1), 'v', h ^ (p + 1), 'Q', h ^ p, ...
                'D', cw * h ^ (p - 1), 'D_interior', cw * h ^ (p + 1), 'K_factor', 4, ...
                'differ_factor', 20, 'engine_y', 1e-12, 'engine_D', 1e-10, 'engine_S', 1e-10, ...
                'ref', 1e-9, 'formula', 1e-10, 'misread', 0.01, 'rate', 0.3);
  dopt = {'c', cw * [1, 1, 1, 1], 'Order', order};

  % ---- (a), (b1)-(b3) on N, 2N-1 and (N+1)/2 points --------------------------------------------
  names = {'(a) Gauss base', '(b1) eq. 45 force on Gauss', '(b2) eq. 45 motion', ...
           '(b3) perturbed xbar, vbar'};
  grids = [N, 2 * N - 1, (N + 1) / 2];
  cases = struct ('name', names, 'y', [], 'D', [], 'base', [], 'exitflag', [], 'iterations', [], ...
                  'maxD', NaN, 'maxD_interior', NaN, 'mu_end', [], 'residual', NaN, ...
                  'residual_end', NaN, 'constraint', NaN, 'power', NaN, 'power_min', NaN, 'K', [], ...
                  'K_increase', NaN, 'e_K', NaN, 'e_x', NaN, 'rate_x', NaN, 'dev_gauss', NaN, ...
                  'dev_ref', [NaN, NaN, NaN], 'S', NaN);
  t = linspace (0, T, N)';
  [xg, vg, Qg] = vm_pars_closed_form (t, x0, v0);
  ref_dev = 0;
  dtp = struct ('y_dev', 0, 'y_scale', 1, 'S_dev', 0, 'S_scale', 1, 'misread_dev', 0);
  base_b2 = [NaN, NaN];
  for ic = 1:4
    c = cases(ic);
    ngrid = 1;
    if ic > 1
      ngrid = 3;
    end
    sols = cell (1, ngrid);
    for ig = 1:ngrid
      tg = linspace (0, T, grids(ig))';
      [yb, info] = base_state (ic, tg, x0, v0, nu, ep, T);
      if ig == 1
        c.base = yb;
        if ic == 1
          ref_dev = info;
        elseif ic == 3
          base_b2 = info;
        end
      end
      sols{ig} = dual_pars ([0, T], x0, v0, 'N', grids(ig), 'BaseState', yb, dopt{:});
    end
    s = sols{1};
    c.y = s.y;
    c.D = s.D;
    c.S = s.S;
    c.exitflag = cellfun (@(q) q.exitflag, sols);
    c.iterations = cellfun (@(q) q.iterations, sols);
    c.maxD = max (abs (s.D(:)));
    inner = (2 * order + 1):(N - 2 * order);
    c.maxD_interior = max (max (abs (s.D(inner, :))));
    c.mu_end = cellfun (@(q) abs (q.D(end, 7)), sols);
    c.residual = max (max (abs (s.residual(1:end - 1, :))));
    c.residual_end = max (abs (s.residual(end, :)));
    c.constraint = max (abs (s.G(:, 1)));
    c.power = max (abs (s.G(:, 2)));
    qv = sum (s.y(:, 7:9) .* s.y(:, 4:6), 2);
    c.power_min = min (qv);
    c.K = sum (s.y(:, 4:6) .^ 2, 2) / 2;
    c.K_increase = max (c.K - cummin (c.K));
    c.dev_gauss = max (max (abs (s.y(:, 1:3) - xg)));
    if ic == 1
      c.dev_ref = [max(max (abs (s.y(:, 1:3) - xg))), max(max (abs (s.y(:, 4:6) - vg))), ...
                   max(max (abs (s.y(:, 7:9) - Qg)))];
    elseif ic == 3
      c.dev_ref = [max(max (abs (s.y(:, 1:3) - c.base(:, 1:3)))), ...
                   max(max (abs (s.y(:, 4:6) - c.base(:, 4:6)))), ...
                   max(max (abs (s.y(:, 7:9) - c.base(:, 7:9))))];
    end
    if ngrid == 3
      f = sols{2};
      q = sols{3};
      Kf = sum (f.y(1:2:end, 4:6) .^ 2, 2) / 2;
      c.e_K = max (abs (c.K - Kf));
      c.e_x = max (max (abs (s.y(:, 1:3) - f.y(1:2:end, 1:3))));
      e_coarse = max (max (abs (q.y(:, 1:3) - s.y(1:2:end, 1:3))));
      c.rate_x = log (e_coarse / c.e_x) / log (2);
    end
    % eqs. 34 and 36 evaluated by hand at the computed duals
    d = dtp_check (s, c.base, cw, order, T, x0, v0);
    dtp.y_dev = max (dtp.y_dev, d.y_dev);
    dtp.y_scale = max (dtp.y_scale, d.y_scale);
    dtp.S_dev = max (dtp.S_dev, d.S_dev);
    dtp.S_scale = max (dtp.S_scale, d.S_scale);
    dtp.misread_dev = max (dtp.misread_dev, d.misread_dev);
    cases(ic) = c;
  end

  % ---- (c) closed form against the general engine -----------------------------------------------
  ode = odesys ('states', {'x1', 'x2', 'x3', 'v1', 'v2', 'v3', 'Q1', 'Q2', 'Q3', 's'}, ...
                'rhs', {'v1', 'v2', 'v3', '-Q1', '-Q2', '-Q3'}, ...
                'algebraic', {'x3*v1 - v2', 'Q1*v1 + Q2*v2 + Q3*v3 - s^2/2'}, 'square', false);
  engine = struct ('name', names, 'dy', NaN, 'dD', NaN, 'dS', NaN, 'scale_y', NaN, ...
                   'scale_D', NaN, 'scale_S', NaN, 'exitflag', [0, 0]);
  for ic = 1:4
    yb = cases(ic).base;
    s1 = dual_pars ([0, T], x0, v0, 'N', N, 'BaseState', yb, dopt{:}, 'Tol', 1e-13);
    s2 = dual_solve (ode, [0, T], [x0, v0], 'N', N, 'BaseState', yb, 'c', cw, 'Order', order, ...
                     'Tol', 1e-13, 'FinalDual', 'strong');
    e = engine(ic);
    e.exitflag = [s1.exitflag, s2.exitflag];
    e.dy = max (abs (s1.y(:) - s2.y(:)));
    e.dD = max (abs (s1.D(:) - s2.D(:)));
    e.dS = abs (s1.S - s2.S);
    e.scale_y = max (1, max (abs (s2.y(:))));
    e.scale_D = max (1, max (abs (s2.D(:))));
    e.scale_S = max (1, abs (s2.S));
    engine(ic) = e;
  end

  % ---- (d) convergence in N --------------------------------------------------------------------
  Ns = [33, 65, 129, 257];
  conv = struct ('name', {}, 'order', {}, 'N', {}, 'err', {}, 'rate', {}, 'predicted', {}, ...
                 'observed', {}, 'pair', {}, 'exitflag', {});
  runs = {1, 2; 1, 4; 1, 6; 3, 4};
  for ir = 1:size (runs, 1)
    ic = runs{ir, 1};
    od = runs{ir, 2};
    pp = od / 2;
    err = zeros (5, numel (Ns));
    ef = zeros (1, numel (Ns));
    for in = 1:numel (Ns)
      tg = linspace (0, T, Ns(in))';
      yb = base_state (ic, tg, x0, v0, nu, ep, T);
      if ic == 1
        [xr, vr, Qr] = vm_pars_closed_form (tg, x0, v0);
      else
        xr = yb(:, 1:3);
        vr = yb(:, 4:6);
        Qr = yb(:, 7:9);
      end
      s = dual_pars ([0, T], x0, v0, 'N', Ns(in), 'BaseState', yb, 'c', cw * [1, 1, 1, 1], ...
                     'Order', od);
      ef(in) = s.exitflag;
      inner = (2 * od + 1):(Ns(in) - 2 * od);
      err(:, in) = [max(max (abs (s.y(:, 1:3) - xr))); max(max (abs (s.y(:, 4:6) - vr))); ...
                    max(max (abs (s.y(:, 7:9) - Qr))); max(abs (s.D(:))); ...
                    max(max (abs (s.D(inner, :))))];
    end
    hN = T ./ (Ns - 1);
    rate = zeros (5, numel (Ns) - 1);
    observed = zeros (5, 1);
    for k = 1:5
      [rate(k, :), observed(k)] = vm_demo_rates (hN, err(k, :), 1e-13, Ns);
    end
    conv(end + 1) = struct ('name', names{ic}, 'order', od, 'N', Ns, 'err', err, 'rate', rate, ...
                            'predicted', [pp + 1; pp + 1; pp; pp - 1; pp + 1], ...
                            'observed', observed, 'pair', Ns([end - 1, end]), 'exitflag', ef); %#ok<AGROW>
  end

  results = struct ();
  results.x0 = x0;
  results.v0 = v0;
  results.T = T;
  results.N = N;
  results.nu = nu;
  results.epsilon = ep;
  results.c = cw * [1, 1, 1, 1];
  results.order = order;
  results.t = t;
  results.gauss = struct ('x', xg, 'v', vg, 'Q', Qg);
  results.cases = cases;
  results.engine = engine;
  results.conv = conv;
  results.dtp = dtp;
  results.ref_dev = ref_dev;
  results.base_b2 = base_b2;
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

function Q = force45 (x, v, nu)
  % the eq. 45 force lam* a + a x v + nu v, rows are points
  n = size (x, 1);
  a = [x(:, 3), -ones(n, 1), zeros(n, 1)];
  axv = [-v(:, 3), -x(:, 3) .* v(:, 3), x(:, 3) .* v(:, 2) + v(:, 1)];
  lam = (v(:, 1) .* v(:, 3) + nu * (v(:, 2) - x(:, 3) .* v(:, 1))) ./ (1 + x(:, 3) .^ 2);
  Q = repmat (lam, 1, 3) .* a + axv + nu * v;
end

function [yb, info] = base_state (ic, t, x0, v0, nu, ep, T)
  % the base states of the four cases on the grid t (columns x, v, Q, s)
  oopt = odeset ('RelTol', 1e-12, 'AbsTol', 1e-14);
  n = numel (t);
  info = [];
  switch ic
    case 1
      [~, y] = ode45 (@(tt, y) vm_pars_rhs ('eq44', y), t, [x0, v0]', oopt);
      x = y(:, 1:3);
      v = y(:, 4:6);
      lam = v(:, 1) .* v(:, 3) ./ (1 + x(:, 3) .^ 2);
      yb = [x, v, lam .* x(:, 3), -lam, zeros(n, 1), zeros(n, 1)];
      [xc, vc] = vm_pars_closed_form (t, x0, v0);
      info = max (max (abs ([x - xc, v - vc])));
    case 2
      [x, v] = vm_pars_closed_form (t, x0, v0);
      yb = [x, v, force45(x, v, nu), sqrt(2 * nu * sum (v .^ 2, 2))];
    case 3
      [~, y] = ode45 (@(tt, y) vm_pars_rhs ('eq47', y, nu), t, [x0, v0]', oopt);
      x = y(:, 1:3);
      v = y(:, 4:6);
      Q = force45 (x, v, nu);
      s = sqrt (2 * nu * sum (v .^ 2, 2));
      yb = [x, v, Q, s];
      info = [max(abs (x(:, 3) .* v(:, 1) - v(:, 2))), max(abs (sum (Q .* v, 2) - s .^ 2 / 2))];
    otherwise
      [x, v, Q] = vm_pars_closed_form (t, x0, v0);
      x = x + ep * [sin(pi * t / T), zeros(n, 1), sin(2 * pi * t / T)];
      v = v + ep * [cos(pi * t / T), sin(pi * t / T), zeros(n, 1)];
      yb = [x, v, Q, zeros(n, 1)];
  end
end

function d = dtp_check (s, yb, cw, order, T, x0, v0)
  % eq. 36 (x line corrected) and eq. 34 evaluated by hand at the computed duals
  N = numel (s.t);
  [Dm, H] = sbp_operator (N, order, [0, T]);
  w = full (diag (H));
  D = s.D;
  Dd = Dm * D(:, 1:6);
  rho = D(:, 1:3);
  lam = D(:, 4:6);
  mu = D(:, 7);
  Lam = D(:, 8);
  rhod = Dd(:, 1:3);
  lamd = Dd(:, 4:6);
  L = [0, 0, 1; 0, 0, 0; 0, 0, 0];
  b = [0, -1, 0];
  cx = cw;
  cv = cw;
  cQ = cw;
  cs = cw;
  xb = yb(:, 1:3);
  vb = yb(:, 4:6);
  Qb = yb(:, 7:9);
  sb = yb(:, 10);
  y = zeros (N, 10);
  xmis = zeros (N, 3);
  LH = zeros (N, 1);
  for k = 1:N
    MM = (1 - Lam(k) ^ 2 / (cQ * cv)) * eye (3) - mu(k) ^ 2 / (cx * cv) * (L * L');
    r = vb(k, :)' + (rho(k, :)' + lamd(k, :)' - mu(k) * b' - mu(k) * L * xb(k, :)' ...
                     - mu(k) * L * rhod(k, :)' / cx - Lam(k) * Qb(k, :)' + Lam(k) * lam(k, :)' / cQ) / cv;
    v = MM \ r;
    x = xb(k, :)' + (rhod(k, :)' - mu(k) * L' * v) / cx;
    xmis(k, :) = (xb(k, :)' + (rhod(k, :)' - mu(k) * L * v) / cx)';
    Q = Qb(k, :)' - (lam(k, :)' + Lam(k) * v) / cQ;
    sk = cs * sb(k) / (cs - Lam(k));
    y(k, :) = [x', v', Q', sk];
    LH(k) = -x' * rhod(k, :)' - v' * rho(k, :)' - v' * lamd(k, :)' + lam(k, :) * Q ...
            + mu(k) * v' * (L * x) + mu(k) * b * v + Lam(k) * (Q' * v) - Lam(k) * sk ^ 2 / 2 ...
            + (cx * sum ((x' - xb(k, :)) .^ 2) + cv * sum ((v' - vb(k, :)) .^ 2) ...
               + cQ * sum ((Q' - Qb(k, :)) .^ 2) + cs * (sk - sb(k)) ^ 2) / 2;
  end
  d.y_dev = max (abs (y(:) - s.y(:)));
  d.y_scale = max (1, max (abs (s.y(:))));
  S = sum (w .* LH) - rho(1, :) * x0(:) - lam(1, :) * v0(:);
  d.S_dev = abs (S - s.S);
  d.S_scale = max (1, sum (abs (w .* LH)));
  d.misread_dev = max (max (abs (xmis - s.y(:, 1:3))));
end

function checks = make_checks (r)
  checks = struct ('part', {}, 'name', {}, 'value', {}, 'reference', {}, 'error', {}, ...
                   'tol', {}, 'pass', {}, 'info', {});
  t = r.tol;
  c = r.cases;
  % formulas and references
  checks = vm_demo_check (checks, 'closed form (44) vs ode45 on (44)', r.ref_dev, 0, t.ref, ...
                          'part', 'formulas');
  checks = vm_demo_check (checks, '(b2) base: max |x3 v1 - v2| (ode45 on 47'')', r.base_b2(1), 0, ...
                          t.ref);
  checks = vm_demo_check (checks, '(b2) base: max |Q.v - s^2/2|', r.base_b2(2), 0, t.ref);
  checks = vm_demo_check (checks, 'eq. 36 (corrected) at the duals vs sol.y', r.dtp.y_dev, 0, ...
                          t.formula * r.dtp.y_scale);
  checks = vm_demo_check (checks, 'eq. 34: sum w L_H - rho0.x0 - lam0.v0 vs sol.S', r.dtp.S_dev, ...
                          0, t.formula * r.dtp.S_scale);
  checks = vm_demo_check (checks, 'eq. 36 x line read as L v (misprint): max |x - x^H|', ...
                          r.dtp.misread_dev, '>= 0.01', t.misread, 'error', NaN, ...
                          'ratio', t.misread / max (r.dtp.misread_dev, realmin));
  % (a)
  a = c(1);
  checks = vm_demo_check (checks, 'Newton exitflag', a.exitflag(1), 1, 0, 'part', a.name);
  checks = vm_demo_check (checks, 'max |D| (c h^(p-1))', a.maxD, 0, t.D);
  checks = vm_demo_check (checks, 'interior max |D| (c h^(p+1))', a.maxD_interior, 0, t.D_interior);
  checks = vm_demo_check (checks, 'max |x - x_Gauss| (h^3)', a.dev_ref(1), 0, t.x);
  checks = vm_demo_check (checks, 'max |v - v_Gauss| (h^3)', a.dev_ref(2), 0, t.v);
  checks = vm_demo_check (checks, 'max |Q - Q_Gauss| (h^2)', a.dev_ref(3), 0, t.Q);
  checks = vm_demo_check (checks, 'max |s| (sbar = 0)', max (abs (a.y(:, 10))), 0, 0);
  checks = vm_demo_check (checks, 'max |(b + L x).v|', a.constraint, 0, t.solver);
  checks = vm_demo_check (checks, 'max |Q.v - s^2/2|', a.power, 0, t.solver);
  checks = vm_demo_check (checks, 'max |discrete primal residual|, nodes 1..N-1', a.residual, 0, ...
                          t.solver);
  % (b1)-(b3)
  for ic = 2:4
    k = c(ic);
    checks = vm_demo_check (checks, 'min Newton exitflag (N, 2N-1, (N+1)/2)', min (k.exitflag), ...
                            1, 0, 'part', k.name);
    checks = vm_demo_check (checks, 'max |(b + L x).v| (every node)', k.constraint, 0, t.solver);
    checks = vm_demo_check (checks, 'max |Q.v - s^2/2| (every node)', k.power, 0, t.solver);
    checks = vm_demo_check (checks, 'min Q.v', k.power_min, '>= 0', t.solver, 'error', ...
                            max (0, -k.power_min));
    checks = vm_demo_check (checks, 'max |discrete primal residual|, nodes 1..N-1', k.residual, ...
                            0, t.solver);
    checks = vm_demo_check (checks, 'max rise of K above its running min (4 e_K)', k.K_increase, ...
                            0, t.K_factor * k.e_K);
    thr = t.differ_factor * k.e_x;
    checks = vm_demo_check (checks, 'max |x - x_Gauss| (differs: >= 20 e_x)', k.dev_gauss, ...
                            sprintf ('>= %.3g', thr), thr, 'error', NaN, 'ratio', ...
                            thr / max (k.dev_gauss, realmin));
    if ic == 3
      checks = vm_demo_check (checks, 'max |x - x_ref|, |v - v_ref| (ode45 on 47'')', ...
                              max (k.dev_ref(1:2)), 0, NaN);
    end
    checks = vm_demo_check (checks, 'max |D|', k.maxD, NaN, NaN, 'error', NaN);
    checks = vm_demo_check (checks, '|mu| at the last node (N, 2N-1)', k.mu_end(1), ...
                            sprintf ('%.3g', k.mu_end(2)), NaN, 'error', NaN);
    checks = vm_demo_check (checks, 'ODE residual at the last node (no equation)', ...
                            k.residual_end, NaN, NaN, 'error', NaN);
    checks = vm_demo_check (checks, 'Newton iterations (N, 2N-1)', k.iterations(1), ...
                            sprintf ('%d', k.iterations(2)), NaN, 'error', NaN);
    checks = vm_demo_check (checks, 'self-convergence order of x (3 grids)', k.rate_x, NaN, NaN, ...
                            'error', NaN);
  end
  % (c)
  for ic = 1:numel (r.engine)
    e = r.engine(ic);
    part = '';
    if ic == 1
      part = '(c) engine';
    end
    checks = vm_demo_check (checks, sprintf ('%s: exitflags', e.name), min (e.exitflag), 1, 0, ...
                            'part', part);
    checks = vm_demo_check (checks, sprintf ('%s: max |y_closed - y_engine|', e.name), e.dy, 0, ...
                            t.engine_y * e.scale_y);
    checks = vm_demo_check (checks, sprintf ('%s: max |D_closed - D_engine|', e.name), e.dD, 0, ...
                            t.engine_D * e.scale_D);
    checks = vm_demo_check (checks, sprintf ('%s: |S_closed - S_engine|', e.name), e.dS, 0, ...
                            t.engine_S * e.scale_S);
  end
  % (d)
  qn = {'x', 'v', 'Q', 'max |D|', 'interior |D|'};
  for ir = 1:numel (r.conv)
    cv = r.conv(ir);
    part = '';
    if ir == 1
      part = '(d) orders';
    end
    checks = vm_demo_check (checks, sprintf ('%s, Order %d: min exitflag', cv.name, cv.order), ...
                            min (cv.exitflag), 1, 0, 'part', part);
    for k = 1:5
      if ir == numel (r.conv) && k > 2
        continue;
      end
      checks = vm_demo_check (checks, sprintf ('%s, Order %d: rate of %s (N %d/%d)', ...
                              strtok (cv.name), cv.order, qn{k}, cv.pair), cv.observed(k), ...
                              cv.predicted(k), t.rate);
    end
  end
end

function print_table (r, msg)
  fprintf ('Generalized Pars dual (Acharya & Sengupta eqs. 32-37), Pars particle x3 v1 - v2 = 0\n');
  fprintf ('x0 = (%g, %g, %g), v0 = (%g, %g, %g), t in [0, %g]; N = %d, Order %d, c = %g; nu = %g, epsilon = %g\n', ...
           r.x0, r.v0, r.T, r.N, r.order, r.c(1), r.nu, r.epsilon);
  fprintf ('references: (a) closed form of eq. 44 (base: ode45 on eq. 44, RelTol 1e-12); (b2) ode45 on eq. 47''\n');
  fprintf ('(RelTol 1e-12); (b1), (b3) have no reference: grid refinement (e_K, e_x: N vs 2N-1)\n\n');
  vm_demo_table (r.checks, '%.4g', 'case');
  fprintf ('\nconvergence (max-norm errors; rates log2(e1/e2))\n');
  qn = {'x', 'v', 'Q', 'max|D|', 'int|D|'};
  for ir = 1:numel (r.conv)
    cv = r.conv(ir);
    fprintf ('%s, Order %d (predicted x, v %d; Q %d; max|D| %d; interior |D| %d)\n', cv.name, ...
             cv.order, cv.predicted([1, 3, 4, 5]));
    nq = 5;
    if ir == numel (r.conv)
      nq = 2;
    end
    fprintf ('%5s', 'N');
    for k = 1:nq
      fprintf (' %10s %6s', qn{k}, 'rate');
    end
    fprintf ('\n');
    for in = 1:numel (cv.N)
      fprintf ('%5d', cv.N(in));
      for k = 1:nq
        if in == 1
          fprintf (' %10.3e %6s', cv.err(k, in), '-');
        else
          fprintf (' %10.3e %6.2f', cv.err(k, in), cv.rate(k, in - 1));
        end
      end
      fprintf ('\n');
    end
  end
  fprintf ('\n%s (%.1f s)\n', msg, r.time);
end

function draw_plot (r)
  colors = [0, 0.447, 0.741; 0.85, 0.325, 0.098; 0.466, 0.674, 0.188; 0.494, 0.184, 0.556];
  styles = {'-', '--', '-.', '-'};
  t = r.t;
  c = r.cases;
  fs = 7;
  vm_demo_subplot (2, 2, 1, fs);
  hold on;
  for ic = 1:numel (c)
    plot (t, c(ic).y(:, 3), styles{ic}, 'color', colors(ic, :), 'linewidth', 1.5);
  end
  plot (t, c(4).base(:, 3), ':', 'color', colors(4, :), 'linewidth', 1.5);
  hold off;
  set (gca, 'fontsize', fs);
  ylim ([-1, 1]);
  xlabel ('t (dimensionless)');
  ylabel ('x_3 (dimensionless)');
  title ('x_3(t) for the four base states', 'fontsize', 8);
  lh = legend ({'(a)', '(b1)', '(b2)', '(b3)', '(b3) base'}, 'location', 'northwest');
  set (lh, 'fontsize', 6);
  grid on;
  vm_demo_subplot (2, 2, 2, fs);
  hold on;
  for ic = 1:numel (c)
    plot (c(ic).y(:, 1), c(ic).y(:, 2), styles{ic}, 'color', colors(ic, :), 'linewidth', 1.5);
  end
  hold off;
  set (gca, 'fontsize', fs);
  xlabel ('x_1 (dimensionless)');
  ylabel ('x_2 (dimensionless)');
  title ('paths (x_1, x_2)', 'fontsize', 8);
  grid on;
  vm_demo_subplot (2, 2, 3, fs);
  hold on;
  for ic = 1:numel (c)
    plot (t, sum (c(ic).y(:, 7:9) .* c(ic).y(:, 4:6), 2), styles{ic}, 'color', colors(ic, :), ...
          'linewidth', 1.5);
  end
  hold off;
  set (gca, 'fontsize', fs);
  xlabel ('t (dimensionless)');
  ylabel ('Q . v (dimensionless)');
  title ('power Q . v = s^2/2', 'fontsize', 8);
  grid on;
  vm_demo_subplot (2, 2, 4, fs);
  hold on;
  for ic = 1:numel (c)
    plot (t, c(ic).K, styles{ic}, 'color', colors(ic, :), 'linewidth', 1.5);
  end
  hold off;
  set (gca, 'fontsize', fs);
  xlabel ('t (dimensionless)');
  ylabel ('K = |v|^2/2 (dimensionless)');
  title ('kinetic energy', 'fontsize', 8);
  grid on;
end
