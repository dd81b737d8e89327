function w = skg_strong_peer (problem, sig, N, order, md, npair)
% SKG_STRONG_PEER  skg_solve against fsolve with the analytic sparse Jacobian (bench_skg part e).
%   w = skg_strong_peer (problem, sig, N, order, mode, npair): problem 'disk' or 'tumbler' (sigma
%   sig) of skg_problem_params on one window of N nodes, interior order, mode 'reduced' or 'full'.
%   The peer: Octave's fsolve (trust-region dogleg) on the same discrete equations as skg_solve's
%   Newton, from the same start (q0 at every node, multipliers 0: skg_solve's Guess 'constant'),
%   with 'Jacobian' 'on' and the exact gradient and sparse Hessian of the package's own gateway
%   (skg_action: [S, g, H]); reduced mode: f = dS/dq-, dS/dlambda- at q- = lambda- = 0, J the
%   rows q-, lambda- and columns q+, lambda+ of H; full mode: f = g, J = H.  Octave's fsolve keeps
%   a sparse Jacobian sparse (no Broyden updating, no QR: its dogleg step is J \ f, Octave's
%   sparse backslash).  fsolve stops at the residual skg_solve reaches: TolFun = |f(z_skg)|_2 /
%   (n |z_skg|_2) (fsolve's test |f|_2 <= TolFun n |z|_2), TolX = 1e-12.
%   Timing: npair pairs (skg_solve, fsolve) run in turn; the ratio fsolve / skg_solve is taken per
%   pair (skg_solve's time in a pair: the mean of enough calls to last >= 20 ms).
%   The discretization error: max |q_N - q_(2N-1)| over the common nodes (skg_solve on 2N-1 nodes).
  [P, sys, tspan, q0, qd0] = skg_problem_params (problem, sig); %#ok<ASGLU>
  n = sys.n;
  m = numel (sys.constraints);
  nb = 2 * n + 2 * m;
  base = (0:N-1) * nb;
  ip = bsxfun (@plus, [1:n, 2*n+1:2*n+m]', base);      % q+, lambda+
  im = bsxfun (@plus, [n+1:2*n, 2*n+m+1:nb]', base);   % q-, lambda-
  ip = ip(:);  im = im(:);
  args = {'N', N, 'Order', order, 'Mode', md, 'Guess', 'constant'};
  s = skg_solve (sys, tspan, q0, qd0, args{:});
  % the package's solution as the peer's unknowns
  Z = zeros (nb, N);
  Z(1:n, :) = s.q';
  if (m > 0)
    Z(2*n+1:2*n+m, :) = s.lambda_plus';
  end
  if (strcmp (md, 'reduced'))
    fun = @(x) red_fun (sys, tspan, q0, qd0, N, order, nb, ip, im, x);
    zs = Z(ip);
    x0 = zeros (nb, N);  x0(1:n, :) = repmat (q0(:), 1, N);
    x0 = x0(ip);
  else
    fun = @(z) full_fun (sys, tspan, q0, qd0, N, order, z);
    zs = Z(:);
    x0 = zeros (nb, N);  x0(1:n, :) = repmat (q0(:), 1, N);
    x0 = x0(:);
  end
  res_pkg = norm (fun (zs));
  nx = numel (x0);
  opt = optimset ('Jacobian', 'on', 'TolFun', res_pkg / (nx * norm (zs)), 'TolX', 1e-12);
  [x, fv, info, out] = fsolve (fun, x0, opt);
  [~, J] = fun (x);
  if (strcmp (md, 'reduced'))
    Zf = zeros (nb, N);  Zf(ip) = x;
  else
    Zf = reshape (x, nb, N);
  end
  dq = max (max (abs (Zf(1:n, :)' - s.q)));
  s2 = skg_solve (sys, tspan, q0, qd0, 'N', 2 * N - 1, 'Order', order, 'Mode', md, 'Guess', 'constant');
  disc = max (max (abs (s2.q(1:2:end, :) - s.q)));
  % paired timing
  t1 = tic;  skg_solve (sys, tspan, q0, qd0, args{:});  ts1 = toc (t1);
  nin = max (1, ceil (0.02 / ts1));
  ratio = zeros (npair, 1);  tp = ratio;  tf = ratio;
  for k = 1:npair
    t1 = tic;
    for j = 1:nin
      skg_solve (sys, tspan, q0, qd0, args{:});
    end
    tp(k) = toc (t1) / nin;
    t1 = tic;
    fsolve (fun, x0, opt);
    tf(k) = toc (t1);
    ratio(k) = tf(k) / tp(k);
  end
  if (strcmp (problem, 'tumbler'))
    name = sprintf ('tumbler sigma=1/%d', round (1 / sig));
  else
    name = problem;
  end
  w = struct ('problem', name, 'N', N, 'mode', md, 'unknowns', nx, 'sparse_J', issparse (J), ...
              'it_skg', s.iterations, 'exit_skg', s.exitflag, 'res_skg', res_pkg, ...
              'it_fsolve', out.iterations, 'fev_fsolve', out.funcCount, 'exit_fsolve', info, ...
              'res_fsolve', norm (fv), 'diff_q', dq, 'disc_err', disc, ...
              't_skg', median (tp), 't_fsolve', median (tf), 'ratios', ratio, ...
              'ratio_med', median (ratio), 'ratio_min', min (ratio), 'ratio_max', max (ratio));
end

function [f, J] = red_fun (sys, tspan, q0, qd0, N, order, nb, ip, im, x)
  z = zeros (nb * N, 1);
  z(ip) = x;
  if (nargout > 1)
    [~, g, H] = skg_action (sys, tspan, q0, qd0, N, order, z);
    J = H(im, ip);
  else
    [~, g] = skg_action (sys, tspan, q0, qd0, N, order, z);
  end
  f = g(im);
end

function [f, J] = full_fun (sys, tspan, q0, qd0, N, order, z)
  if (nargout > 1)
    [~, f, J] = skg_action (sys, tspan, q0, qd0, N, order, z);
  else
    [~, f] = skg_action (sys, tspan, q0, qd0, N, order, z);
  end
end
