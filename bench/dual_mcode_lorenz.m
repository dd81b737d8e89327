function [f, J, S, Y] = dual_mcode_lorenz (pr, z)
% DUAL_MCODE_LORENZ  the discrete dual Lorenz action of Acharya and Sengupta (their eqs. 30-31),
% written by hand in plain vectorized m-code: the peer of dual_lorenz / dual_action for bench_dual.
%   [f, J, S, Y] = dual_mcode_lorenz (pr, z)
%   pr: struct with N, D (the SBP derivative from sbp_operator, N-by-N sparse), hw (the quadrature
%       weights, diag of its H, N-by-1), ybar (the base state, N-by-3), y0 (1-by-3), DT (the
%       prescribed final duals, 1-by-3), A, R, B, c, and rowscale (nz-by-1: f = rowscale .* grad S;
%       ones for the gradient itself, 1 ./ H_kk for the discrete primal residuals that dual_lorenz's
%       Newton drives to zero).
%   z:  the unknown duals in dual_action's layout, time-point major: (lambda, mu, gamma) at the
%       nodes 1 .. N-1 (nz = 3 (N-1)); the last node's duals are prescribed (pr.DT).
%   f:  rowscale .* dS/dz;  J: its Jacobian (sparse, rowscale .* the Hessian of S);
%   S:  the action;  Y: the recovered primal U^H (N-by-3, the DtP map eq. 30).
%
%   With D = (lambda, mu, gamma) on the grid, Ddot = Dm D (Dm = pr.D), at every node
%     p  = (gamma ybar - mu zbar + lambdadot - A lambda + R mu,
%           gamma xbar + mudot - mu + A lambda,
%           -mu xbar + gammadot - B gamma),
%     BB = inv ([c -gamma mu; -gamma c 0; mu 0 c])  (eq. 30),   U^H = Ubar + BB p,
%     LL = -1/2 p . BB p - Ubar . p - mu xbar zbar + gamma xbar ybar   (the integrand of eq. 31),
%   S = sum_k H_kk LL_k - D(t0) . y0.  Because U^H makes the pre-dual Lagrangian stationary,
%   dLL/dDdot = -U^H and dLL/dD = -F(U^H) (F the Lorenz right-hand side), so
%     grad S = Dm' (H (-U^H)) + H (-F(U^H)) - e_1 y0        (rows of the free nodes),
%   and, with Fy the Jacobian of F at U^H, d2LL/d(Ddot, D)^2 = -[I; Fy] BB [I, Fy'] per node.
  N = pr.N;
  A = pr.A;  R = pr.R;  B = pr.B;  c = pr.c;
  hw = pr.hw;
  Dg = [reshape(z, 3, N - 1)'; pr.DT(:)'];   % N-by-3: lambda, mu, gamma
  Dd = pr.D * Dg;                            % their derivatives
  l = Dg(:, 1);  m = Dg(:, 2);  g = Dg(:, 3);
  xb = pr.ybar(:, 1);  yb = pr.ybar(:, 2);  zb = pr.ybar(:, 3);
  p = [g .* yb - m .* zb + Dd(:, 1) - A * l + R * m, ...
       g .* xb + Dd(:, 2) - m + A * l, ...
       -m .* xb + Dd(:, 3) - B * g];
  % BB = inv (AA), AA = c [1 -g/c m/c; -g/c 1 0; m/c 0 1]: the closed form of eq. 30
  gc = g / c;  mc = m / c;
  den = c * (1 - gc .^ 2 - mc .^ 2);
  if (any (abs (den) <= 1e-12 * c))
    error ('dual_mcode_lorenz: the DtP matrix is singular (gamma^2 + mu^2 = c^2)');
  end
  b11 = 1 ./ den;  b12 = gc ./ den;  b13 = -mc ./ den;
  b22 = (1 - mc .^ 2) ./ den;  b23 = -gc .* mc ./ den;  b33 = (1 - gc .^ 2) ./ den;
  q = [b11 .* p(:, 1) + b12 .* p(:, 2) + b13 .* p(:, 3), ...
       b12 .* p(:, 1) + b22 .* p(:, 2) + b23 .* p(:, 3), ...
       b13 .* p(:, 1) + b23 .* p(:, 2) + b33 .* p(:, 3)];
  Y = pr.ybar + q;
  x = Y(:, 1);  y = Y(:, 2);  zz = Y(:, 3);
  F = [A * (y - x), x .* (R - zz) - y, x .* y - B * zz];
  G = pr.D' * (-hw .* Y) - hw .* F;
  G(1, :) = G(1, :) - pr.y0(:)';
  G = G(1:N-1, :)';
  f = pr.rowscale .* G(:);
  if (nargout > 1)
    % per-node 3x3 blocks as N-by-9 arrays (column-major: entries 11 21 31 12 22 32 13 23 33)
    BBb = [b11 b12 b13 b12 b22 b23 b13 b23 b33];
    o = ones (N, 1);  e = zeros (N, 1);
    Fy = [-A * o, R - zz, y, A * o, -o, x, e, -x, -B * o];
    BFt = mul3 (BBb, tr3 (Fy));        % BB Fy'
    K11 = -BBb;                         % d2LL / dDdot dDdot
    K12 = -BFt;                         % d2LL / dDdot dD
    K21 = tr3 (K12);                    % d2LL / dD dDdot
    K22 = -mul3 (Fy, BFt);              % d2LL / dD dD
    DK = kron (pr.D, speye (3));        % Ddot = DK * D in the node-major layout
    Hs = DK' * (blk3 (hw .* K11) * DK + blk3 (hw .* K12)) + blk3 (hw .* K21) * DK ...
         + blk3 (hw .* K22);
    nz = 3 * (N - 1);
    J = spdiags (pr.rowscale, 0, nz, nz) * Hs(1:nz, 1:nz);
  end
  if (nargout > 2)
    LL = -0.5 * sum (p .* q, 2) - sum (pr.ybar .* p, 2) - m .* xb .* zb + g .* xb .* yb;
    S = sum (hw .* LL) - Dg(1, :) * pr.y0(:);
  end
end

function C = mul3 (A, B)
  % C_k = A_k B_k for N stacked 3x3 matrices (N-by-9, column-major)
  C = zeros (size (A));
  for i = 1:3
    for j = 1:3
      C(:, i + 3*(j-1)) = A(:, i) .* B(:, 1 + 3*(j-1)) + A(:, i + 3) .* B(:, 2 + 3*(j-1)) ...
                          + A(:, i + 6) .* B(:, 3 + 3*(j-1));
    end
  end
end

function T = tr3 (A)
  % transposes of N stacked 3x3 matrices
  T = A(:, [1 4 7 2 5 8 3 6 9]);
end

function M = blk3 (V)
  % the block-diagonal sparse matrix of N stacked 3x3 blocks (node-major layout)
  N = size (V, 1);
  [i, j] = ndgrid (1:3, 1:3);
  base = 3 * (0:N-1);
  I = bsxfun (@plus, i(:), base);
  Jc = bsxfun (@plus, j(:), base);
  V = V';
  M = sparse (I(:), Jc(:), V(:), 3 * N, 3 * N);
end
