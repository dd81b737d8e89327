% [tw, yw, info] = vm_periodic_warm (ode, tg, yg, amp, rtol)
% The warm start of periodic_orbit: a periodic orbit near the guess by multiple shooting with the
% package's integrator (DOP853 with the variational equations, vm_periodic_mex 'flow'), sampled
% densely, for the dual solve to start from.
%
% Why: the dual solve is a Newton method on the whole loop, each base state a proximal step
% toward it; a stretch of trajectory of a chaotic flow that strayed from its orbit along the
% unstable direction (by the orbit's unstable multiplier times its initial offset) and whose ends
% do not meet needs a correction concentrated where the flow expands, which the base-state
% replacements spread over the loop and shrink only slowly, until a replacement no longer lowers
% the residual.  Shooting segments short enough that the flow grows an error at most about
% tenfold over each are nearly linear maps, and Newton on them converges from such a guess.
%
% Inputs: ode (an odesys, no algebraic states), the guess tg (increasing column) and yg (one row
% per time, n columns; it need not close, nor be cut: see extend), amp (1-by-n,
% the states' scales: residuals and steps are measured in x_i / amp_i), rtol (the integration's
% relative tolerance; absolute rtol * amp_i, the smallest taken).
%
% Method: the guess is first continued by the flow over a tenth of its duration and cut at its
% closest return to its first point in [0.9, 1.1] times its duration (extend, below).  T the
% guess's duration; m nodes x_1..x_m at the
% guess's times (k - 1) T / m, m = ceil (G / log 10) in [2, 64], G the sum of log ||M_k|| over 16
% pieces of the guess (M_k the transfer matrix of the variational equations over piece k, in the
% scaled states): about one node per tenfold growth of an error.  Unknowns: the nodes and T;
% equations: phi(x_k, T/m) - x_(k+1) = 0 cyclically (x_(m+1) = x_1) and the phase condition
% w . (x_1 - x_1guess) = 0, w = F(x_1guess) (scaled; a Poincare section through the first node).
% Newton with the Jacobian from the variational equations (block cyclic, solved densely), each
% step limited to 0.3 of the states' scales and 10 % of T, then halved until the residual falls
% (Armijo, at most 12 halvings), at most 20 iterations; when that does not converge, the Newton
% homotopy from the guess (r(z) = (1 - lambda) r(z_guess), lambda from 0 to 1 in steps halved
% where Newton fails, 200 iterations in all).  Converged when the largest scaled residual is at
% most 100 rtol.
%
% Outputs: tw (column, 0 .. T) and yw (the orbit there, closed: the last row is the first), at
% least max (400, 2 numel (tg)) points; empty when Newton did not converge, the bordered
% Jacobian is singular (a family of orbits, an equilibrium), an integration failed, or the
% result is an equilibrium (amplitude below 1e-3 of the guess's).  info: struct with nodes (m),
% iterations, residual (the final largest scaled residual) and reason (empty when converged).
% Cost: per Newton iteration m short integrations with the variational equations, over T in all
% (each trial step m more, without them), and one dense LU of size n m + 1; at most 220
% iterations.

function [tw, yw, info] = vm_periodic_warm (ode, tg, yg, amp, rtol)
  tw = [];
  yw = [];
  n = size (yg, 2);
  info = struct ('nodes', 0, 'iterations', 0, 'residual', Inf, 'reason', '');
  amp = reshape (amp, 1, n);
  Tg = tg(end) - tg(1);
  setup = struct ('t0', 0, 'tf', Tg, 'x0', yg(1, :), 'tout', [], 'rtol', rtol, ...
                  'atol', rtol * min (amp), 'variational', 1, 'section', [], 'max_steps', 1e5);
  [tg, yg] = extend (ode, tg, yg, amp, setup);
  Tg = tg(end) - tg(1);
  setup.tf = Tg;
  m = nodes_count (ode, tg, yg, amp, setup);
  info.nodes = m;
  X = interp1 (tg - tg(1), yg, Tg * (0:m-1)' / m, 'spline');   % m-by-n
  F1 = rhs (ode, X(1, :)) ./ amp;
  w = F1 / norm (F1);
  x1g = X(1, :) ./ amp;
  Xs = (X ./ amp)';
  z = [Xs(:); 1];                                        % scaled nodes, then T / Tg
  ctx = struct ('ode', ode, 'm', m, 'n', n, 'amp', amp, 'Tg', Tg, 'w', w, 'x1g', x1g, ...
                'setup', setup);
  [r, J] = residual (ctx, z, true);
  if (isempty (r))
    info.reason = 'an integration failed at the guess';
    return;
  end
  tol = 100 * rtol;
  % damped Newton from the guess; when it stalls, the Newton homotopy from the guess: the
  % equations r(z) = (1 - lambda) r(z_guess), lambda from 0 (the guess solves them) to 1, in
  % steps halved where Newton fails (at most 20 iterations each, 1/256 the smallest step, 200
  % iterations in all)
  z0 = z;
  r0 = r;
  J0 = J;
  [z, r, J, ok, its] = newton (ctx, z, r, J, zeros (size (r)), tol, 20);
  info.iterations = its;
  if (~ok)
    z = z0;
    r = r0;
    J = J0;
    lam = 0;
    dl = 0.25;
    while (lam < 1 && dl >= 1 / 256 && info.iterations < 200)
      lt = min (1, lam + dl);
      [zt, rt, Jt, ok, its] = newton (ctx, z, r, J, (1 - lt) * r0, max (tol, 1e-3 * (1 - lt)), 20);
      info.iterations = info.iterations + its;
      if (ok)
        lam = lt;
        z = zt;
        r = rt;
        J = Jt;
        dl = min (0.5, 2 * dl);
      else
        dl = dl / 2;
      end
    end
    ok = lam == 1;
  end
  info.residual = max (abs (r));
  if (~ok)
    info.reason = sprintf ('no convergence (residual %.1e after %d iterations)', info.residual, ...
                           info.iterations);
    return;
  end
  T = z(end) * Tg;
  X = reshape (z(1:end-1), n, m)' .* amp;
  if (~(T > 0))
    info.reason = 'the period went negative';
    return;
  end
  p = max (8, ceil (max (400, 2 * numel (tg)) / m));
  tw = zeros (m * p + 1, 1);
  yw = zeros (m * p + 1, n);
  s = setup;
  s.variational = 0;
  s.tf = T / m;
  s.tout = (0:p-1)' * T / (m * p);
  for k = 1:m
    s.x0 = X(k, :);
    f = vm_periodic_mex ('flow', ode, s);
    if (f.status ~= 0 || size (f.y, 1) ~= p)
      tw = [];
      yw = [];
      info.reason = 'the integration of the orbit failed';
      return;
    end
    ix = (k - 1) * p + (1:p);
    tw(ix) = (k - 1) * T / m + s.tout;
    yw(ix, :) = f.y;
  end
  tw(end) = T;
  yw(end, :) = yw(1, :);
  if (max ((max (yw) - min (yw)) ./ amp) < 1e-3)
    tw = [];
    yw = [];
    info.reason = 'the nodes went to an equilibrium';
  end
end

% The guess's closing time: its last point is integrated on over a tenth of its duration Tg (200
% points) and appended; the guess is cut at the point of [0.9 Tg, 1.1 Tg] (the guess's own part
% on its spline, 2001 points) closest to its first point, in units of amp.  A stretch shorter
% than the period is so continued up to its return, one longer cut there; a window that reaches
% past the guess's end finds the true return where a near-return of a long word inside the guess
% lies closer than the guess's end.  Kept as it is when that integration fails.
function [tg, yg] = extend (ode, tg, yg, amp, setup)
  Tg = tg(end) - tg(1);
  setup.variational = 0;
  setup.x0 = yg(end, :);
  setup.tf = 0.1 * Tg;
  setup.tout = 0.1 * Tg * (1:200)' / 200;
  f = vm_periodic_mex ('flow', ode, setup);
  if (f.status ~= 0 || size (f.y, 1) ~= 200)
    return;
  end
  tw = linspace (tg(1) + 0.9 * Tg, tg(end), 2001)';
  tc = [tw; tg(end) + setup.tout];
  yc = [interp1(tg, yg, tw, 'spline'); f.y];
  d = sqrt (sum (((yc - yg(1, :)) ./ amp).^2, 2));
  [~, k] = min (d);
  keep = tg < tc(k) - 1e-9 * Tg;
  tg = [tg(keep); tc(k)];
  yg = [yg(keep, :); yc(k, :)];
end

% m: the leading growth along the guess, one unit vector carried by the variational equations
% over 16 pieces (each restarted at the guess), log G; m = ceil (log G / log 10), in [2, 64]
function m = nodes_count (ode, tg, yg, amp, setup)
  K = 16;
  Tg = tg(end) - tg(1);
  tk = Tg * (0:K-1)' / K;
  Xk = interp1 (tg - tg(1), yg, tk, 'spline');
  G = 0;
  setup.tf = Tg / K;
  for k = 1:K
    setup.x0 = Xk(k, :);
    f = vm_periodic_mex ('flow', ode, setup);
    if (f.status ~= 0 || ~all (isfinite (f.monodromy(:))))
      G = Inf;
      break;
    end
    G = G + log (max (1, norm (f.monodromy .* (1 ./ amp') .* amp)));   % in the scaled states
  end
  m = min (64, max (2, ceil (G / log (10))));
end

% F at the rows of x (one state per row)
function F = rhs (ode, x)
  o = odesys_eval (ode, 0, x);
  F = reshape (o.F, size (x));
end

% the scaled residual r (n m + 1) and, with wantJ, its Jacobian (else J = []); r = [] when an
% integration failed
function [r, J] = residual (ctx, z, wantJ)
  m = ctx.m;
  n = ctx.n;
  amp = ctx.amp;
  setup = ctx.setup;
  X = reshape (z(1:end-1), n, m)' .* amp;
  T = z(end) * ctx.Tg;
  r = [];
  J = [];
  if (~(T > 0))
    return;
  end
  setup.tf = T / m;
  setup.variational = double (wantJ);
  Y = zeros (m, n);
  M = zeros (n, n, m);
  for k = 1:m
    setup.x0 = X(k, :);
    f = vm_periodic_mex ('flow', ctx.ode, setup);
    if (f.status ~= 0 || ~all (isfinite (f.y(end, :))))
      return;
    end
    Y(k, :) = f.y(end, :);
    if (wantJ)
      M(:, :, k) = f.monodromy;
    end
  end
  R = (Y - X([2:m, 1], :)) ./ amp;
  r = [reshape(R', [], 1); ctx.w * (z(1:n) - ctx.x1g')];
  if (~wantJ)
    return;
  end
  J = zeros (n * m + 1);
  FY = rhs (ctx.ode, Y) ./ amp;
  for k = 1:m
    k1 = mod (k, m) + 1;
    ix = (k - 1) * n + (1:n);
    jx = (k1 - 1) * n + (1:n);
    J(ix, ix) = M(:, :, k) .* (1 ./ amp') .* amp;
    J(ix, jx) = J(ix, jx) - eye (n);
    J(ix, end) = FY(k, :)' * ctx.Tg / m;
  end
  J(end, 1:n) = ctx.w;
end

% Newton on r(z) = target from z (r, J there): each step limited to 0.3 of the states' scales and
% 10 % of T, then halved until |r - target| falls (Armijo, at most 12 halvings); ok when the
% largest |r - target| is at most tol within maxit iterations; not ok also when the Jacobian is
% singular (a family of orbits, an equilibrium) or no step lowers the residual
function [z, r, J, ok, it] = newton (ctx, z, r, J, target, tol, maxit)
  ok = false;
  for it = 0:maxit
    e = r - target;
    if (max (abs (e)) <= tol)
      ok = true;
      return;
    end
    if (it == maxit)
      return;
    end
    [L, U, P] = lu (J);
    if (min (abs (diag (U))) <= 1e-13 * max (abs (diag (U))))
      return;
    end
    dz = -(U \ (L \ (P * e)));
    lam = min ([1, 0.3 / max(abs (dz(1:end-1))), 0.1 / abs(dz(end))]);
    f0 = norm (e);
    accepted = false;
    for h = 1:12
      zt = z + lam * dz;
      rt = residual (ctx, zt, false);
      if (~isempty (rt) && norm (rt - target) <= (1 - 1e-4 * lam) * f0)
        [rt, Jt] = residual (ctx, zt, true);
        accepted = ~isempty (rt);
        break;
      end
      lam = lam / 2;
    end
    if (~accepted)
      return;
    end
    z = zt;
    r = rt;
    J = Jt;
  end
end
