% -*- texinfo -*-
% @deftypefn {} {[@var{tq}, @var{yq}, @var{info}] =} vm_section_shoot (@var{ode}, @var{marks}, @var{X}, @var{tau}, @var{amp}, @var{opts})
% The orbit of a symbolic word near a stretch of trajectory, by multiple shooting between its
% section crossings, as the guess @code{periodic_catalogue} hands to @code{periodic_orbit}.
%
% Why: a stretch that spells a word follows the word's orbit only roughly; shooting on the whole
% loop (or the dual solve) from it can slide a node off a shallow loop, whose crossing of the
% section then appears or disappears, and converge to the orbit of a word one letter longer or
% shorter.  With the nodes held on the section, each segment is one loop from crossing to
% crossing, so the word cannot change (Viswanath's method for the Lorenz orbits).
%
% Inputs: @var{X} (L-by-n) the stretch's crossings, @var{tau} (1-by-L) the times between them
% (the last from crossing L to the crossing that closes the word), @var{marks} the odesys whose
% first right-hand side is the section's h, @var{amp} (1-by-n) the states' scales, @var{opts}
% with RelTol (the integration's tolerance).  Unknowns: the nodes x_1..x_L and the times
% tau_1..tau_L; equations: phi(x_i, tau_i) - x_(i+1) = 0 cyclically (L n) and h(x_i) = 0 (L),
% a square system, whose Jacobian has the transfer matrices M_i of the variational equations
% (the package's DOP853, vm_periodic_mex "flow"), F at the segments' ends and grad h at the
% nodes.  Newton in the scaled unknowns x_i / amp, tau_i / mean (tau), each step limited to 0.1
% of a scale and a quarter of a segment's time, halved until the residual falls (at most 10
% halvings, 30 iterations); converged when the largest scaled residual is below 1e4 RelTol.
%
% Outputs: @var{tq} (column, 0 .. T) and @var{yq} (the orbit there, closed), each segment sampled
% at its integrator's steps and 200/L equispaced times (@code{vm_curve_times}); empty when
% Newton did not converge, a node does not cross the section upwards, or an integration failed.
% @var{info}: @code{iterations}, @code{residual}, @code{reason} ('' when converged).  Cost: per
% iteration L integrations with the variational equations over the period, and a dense solve of
% size (n + 1) L.
% @end deftypefn

function [tq, yq, info] = vm_section_shoot (ode, marks, X, tau, amp, opts)
  tq = [];
  yq = [];
  [L, n] = size (X);
  info = struct ('iterations', 0, 'residual', Inf, 'reason', '');
  amp = reshape (amp, 1, n);
  amp(~(amp > 0)) = max ([amp, 1]);
  ts = mean (tau);
  g = odesys_eval (marks, 0, X);
  hs = sqrt (sum ((reshape (g.F_y(:, 1, :), L, n) .* amp).^2, 2))';   % h per unit of scaled x
  ctx = struct ('ode', ode, 'marks', marks, 'L', L, 'n', n, 'amp', amp, 'ts', ts, 'hs', hs, ...
                'rtol', opts.RelTol);
  Xs = (X ./ amp)';
  z = [Xs(:); tau(:) / ts];
  [r, J] = equations (ctx, z, true);
  tol = 1e4 * opts.RelTol;
  for it = 1:30
    info.iterations = it;
    if (isempty (r))
      info.reason = 'an integration failed';
      return;
    end
    info.residual = max (abs (r));
    if (info.residual <= tol)
      break;
    end
    dz = -J \ r;
    if (~all (isfinite (dz)))
      info.reason = 'the shooting matrix is singular';
      return;
    end
    lim = max (max (abs (dz(1:L*n))) / 0.1, max (abs (dz(L*n+1:end)) ./ (0.25 * z(L*n+1:end))));
    if (lim > 1)
      dz = dz / lim;
    end
    nr = norm (r);
    for halving = 0:10
      zt = z + dz;
      rt = equations (ctx, zt, false);
      if (~isempty (rt) && norm (rt) < nr)
        break;
      end
      dz = dz / 2;
    end
    if (isempty (rt) || norm (rt) >= nr)
      info.reason = sprintf ('Newton stalled at a residual of %.2g', info.residual);
      return;
    end
    z = zt;
    [r, J] = equations (ctx, z, true);
  end
  if (isempty (r) || max (abs (r)) > tol)
    info.reason = sprintf ('no convergence in %d iterations (residual %.2g)', info.iterations, ...
                           info.residual);
    return;
  end
  info.residual = max (abs (r));
  Xn = reshape (z(1:L*n), n, L)' .* amp;
  tn = z(L*n+1:end)' * ts;
  up = odesys_eval (marks, 0, Xn);
  F = odesys_eval (ode, 0, Xn);
  if (any (tn <= 0) || any (sum (reshape (up.F_y(:, 1, :), L, n) .* F.F, 2) <= 0))
    info.reason = 'a node does not cross the section upwards';
    return;
  end
  % the orbit, segment by segment
  tq = 0;
  yq = Xn(1, :);
  t0 = 0;
  for i = 1:L
    ti = vm_curve_times (ode, tn(i), Xn(i, :), max (20, ceil (200 / L)), opts.RelTol);
    f = vm_flow (ode, 0, tn(i), Xn(i, :), ti, [], opts.RelTol);
    if (isempty (ti) || f.status ~= 0)
      tq = [];
      yq = [];
      info.reason = 'an integration failed';
      return;
    end
    tq = [tq; t0 + ti(2:end)]; %#ok<AGROW>
    yq = [yq; f.y(2:end, :)]; %#ok<AGROW>
    t0 = t0 + tn(i);
  end
  yq(end, :) = yq(1, :);
end

% the scaled residuals r (L n flow equations, then L section equations) at z, and with wantJ
% their Jacobian
function [r, J] = equations (ctx, z, wantJ)
  L = ctx.L;
  n = ctx.n;
  amp = ctx.amp;
  X = reshape (z(1:L*n), n, L)' .* amp;
  tau = z(L*n+1:end)' * ctx.ts;
  r = [];
  J = [];
  if (any (~(tau > 0)))
    return;
  end
  setup = struct ('t0', 0, 'tf', 1, 'x0', [], 'tout', [], 'rtol', ctx.rtol, ...
                  'atol', ctx.rtol * min (amp), 'variational', double (wantJ), 'section', [], ...
                  'max_steps', 1e5);
  Y = zeros (L, n);
  M = zeros (n, n, L);
  for i = 1:L
    setup.x0 = X(i, :);
    setup.tf = tau(i);
    f = vm_periodic_mex ('flow', ctx.ode, setup);
    if (f.status ~= 0 || ~all (isfinite (f.y(end, :))))
      return;
    end
    Y(i, :) = f.y(end, :);
    if (wantJ)
      M(:, :, i) = f.monodromy;
    end
  end
  g = odesys_eval (ctx.marks, 0, X);
  R = (Y - X([2:L, 1], :)) ./ amp;
  R = R';
  r = [R(:); g.F(:, 1) ./ ctx.hs'];
  if (~wantJ)
    return;
  end
  J = zeros ((n + 1) * L);
  FY = odesys_eval (ctx.ode, 0, Y);
  G = reshape (g.F_y(:, 1, :), L, n);
  for i = 1:L
    i1 = mod (i, L) + 1;
    ix = (i - 1) * n + (1:n);
    jx = (i1 - 1) * n + (1:n);
    J(ix, ix) = M(:, :, i) .* (1 ./ amp') .* amp;
    J(ix, jx) = J(ix, jx) - eye (n);
    J(ix, L * n + i) = FY.F(i, :)' ./ amp' * ctx.ts;
    J(L * n + i, ix) = G(i, :) .* amp / ctx.hs(i);
  end
end
