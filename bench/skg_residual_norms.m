function T = skg_residual_norms (Ns)
% SKG_RESIDUAL_NORMS  the N-independence of skg_solve's residual norm (doc/skg.md, "Stopping").
%   T = skg_residual_norms (Ns), default Ns = 2.^(8:2:16): for the rolling disk (linear
%   constraint form, order 4) at each N, the reduced equations dS/dq-, dS/dlambda- (the system
%   skg_solve's default mode solves) at the converged grid solution plus a fixed smooth
%   perturbation of x, and at the default guess (q0 at every node), in the plain 2-norm of the
%   action gradient and in the weighted norm ||F||_W of skg_solve (1/sqrt(H_kk) per equation,
%   1/sqrt(tf - t0) for the momentum equations of node 0).  Perturbations:
%   d1 = 1e-3 (1 - cos t) (no change of the initial velocity: an interior force residual only) and
%   d2 = 1e-3 sin t (also a momentum error at t0).  Prints one row per N.
  if (nargin < 1)
    Ns = 2.^(8:2:16);
  end
  [~, sys, tspan, q0, qd0] = skg_problem_params ('disk');
  n = 4;  m = 2;  nb = 2*n + 2*m;  order = 4;
  sel = [n+1:2*n, 2*n+m+1:nb];     % rows q-, lambda- of each node
  T = zeros (numel (Ns), 7);
  printf ('%7s | %11s %11s | %11s %11s | %11s %11s\n', 'N', '(1-cos) 2', '(1-cos) W', ...
          'sin 2', 'sin W', 'guess 2', 'guess W');
  for i = 1:numel (Ns)
    N = Ns(i);
    s = skg_solve (sys, tspan, q0, qd0, 'N', N, 'Order', order);
    [~, H] = sbp_operator (N, order, tspan);
    W = repmat (1 ./ sqrt (full (diag (H)))', nb, 1);
    W(1:2*n, 1) = 1 / sqrt (diff (tspan));
    W = W(sel, :);
    Z = zeros (nb, N);  Z(1:n, :) = s.q';  Z(2*n+1:2*n+m, :) = s.lambda';
    Z0 = zeros (nb, N);  Z0(1:n, :) = repmat (q0(:), 1, N);
    pert = {1e-3 * (1 - cos(s.t')), 1e-3 * sin(s.t')};
    row = N;
    for k = 1:3
      if (k <= 2)
        Zk = Z;  Zk(1, :) += pert{k};
      else
        Zk = Z0;
      end
      [~, g] = skg_action (sys, tspan, q0, qd0, N, order, Zk(:));
      G = reshape (g, nb, N)(sel, :);
      row = [row, norm(G(:)), norm(G(:) .* W(:))];
    end
    T(i, :) = row;
    printf ('%7d | %11.4e %11.4e | %11.4e %11.4e | %11.4e %11.4e\n', row);
  end
end
