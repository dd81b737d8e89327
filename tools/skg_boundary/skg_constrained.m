function r = skg_constrained (N, order, lam_bc)
% SKG_CONSTRAINED  Recommended formulation (F4) with a linear velocity constraint and multiplier pairs.
%
%   r = skg_constrained (N, order, lam_bc)
%
% Two coordinates q = (x, y), L = |qdot|^2/2 - (k1 x^2 + k2 y^2)/2, constraint
% g(q, qdot) = c' qdot + d' q = 0 with the Chetaev force.  The action is F4 plus
%   sum H [ lambda- g(q+, Da q+) - lambda+ q- . dg/dqdot ]
% (DESIGN sec. 3).  lam_bc = true adds the papers' boundary multipliers kappa_l lambda-_1 and
% xi_l lambda-_N (appendix A.1, last line).  r: errors of q, v, lambda against the reduced ODE
% (solved with expm), max |q-|, max |lambda-|, max |g| on the grid, smallest singular value and
% condition number of the Hessian.
  T = 4 * pi;  kk = [1; 2];  c = [1; 1];  d = [0.3; -0.3];
  q0 = [1; 0.5];
  v0 = [0.2; -0.2 - d' * q0];                 % consistent: c' v0 + d' q0 = 0
  [D, H] = sbp_operator (N, order, [0, T]);
  h = diag (H);  t = T * (0:N - 1)' / (N - 1);
  I = speye (N);  e1 = sparse (1, 1, 1, N, 1);
  Hi_e1 = e1 / h(1);  Ds = D + Hi_e1 * e1';
  nb = 0;  if lam_bc, nb = 2; end
  n = 4 * N + 2 * N + nb;                     % [x+, y+, x-, y-, lambda+, lambda-, (kappa_l, xi_l)]
  blk = @(j) sparse (1:N, (j - 1) * N + (1:N), 1, N, n);
  Xp = {blk(1), blk(2)};  Xm = {blk(3), blk(4)};  Lp = blk(5);  Lm = blk(6);
  z = zeros (N, 1);
  mk = @(cc, w, A1, a1, A2, a2) struct ('c', cc, 'w', w, 'A1', A1, 'a1', a1, 'A2', A2, 'a2', a2);
  terms = {};
  G = sparse (N, n);  gaff = z;  Gv = sparse (N, n);
  for j = 1:2
    aff = -Hi_e1 * q0(j);
    X1 = Xp{j} + Xm{j} / 2;  X2 = Xp{j} - Xm{j} / 2;
    terms{end + 1} = mk (1 / 2, h, Ds * X1, aff, Ds * X1, aff);
    terms{end + 1} = mk (-kk(j) / 2, h, X1, z, X1, z);
    terms{end + 1} = mk (-1 / 2, h, Ds * X2, aff, Ds * X2, aff);
    terms{end + 1} = mk (kk(j) / 2, h, X2, z, X2, z);
    Vp = Ds * Xp{j};
    terms{end + 1} = mk (-1, 1, Xm{j}(1, :), 0, Vp(1, :), aff(1) - v0(j));   % momentum SAT
    terms{end + 1} = mk (-1, 1, Xm{j}(N, :), 0, Vp(N, :), aff(N));          % weak connecting
    G = G + c(j) * Vp + d(j) * Xp{j};  gaff = gaff + c(j) * aff;
    Gv = Gv + c(j) * Xm{j};
  end
  terms{end + 1} = mk (1, h, Lm, z, G, gaff);        % lambda- g(q+, v+)
  terms{end + 1} = mk (-1, h, Lp, z, Gv, z);         % - lambda+ q- . dg/dqdot
  if lam_bc
    terms{end + 1} = mk (1, 1, sparse (1, 6 * N + 1, 1, 1, n), 0, Lm(1, :), 0);
    terms{end + 1} = mk (1, 1, sparse (1, 6 * N + 2, 1, 1, n), 0, Lm(N, :), 0);
  end
  [K, g0] = skg_quadform (terms, n);
  x = K \ (-g0);
  % reference: y = [q; v], v' = -K q + c lam_ref, lam_ref = (c' Kq - d' v)/(c' c)
  Km = diag (kk);
  A = [zeros(2), eye(2); -Km + c * (c' * Km) / (c' * c), -c * d' / (c' * c)];
  Y = zeros (N, 4);
  for i = 1:N
    Y(i, :) = (expm (A * t(i)) * [q0; v0])';
  end
  lref = (Y(:, 1:2) * (Km * c) - Y(:, 3:4) * d) / (c' * c);
  qp = [x(1:N), x(N + 1:2 * N)];
  vp = [Ds * qp(:, 1) - Hi_e1 * q0(1), Ds * qp(:, 2) - Hi_e1 * q0(2)];
  lp = x(4 * N + 1:5 * N);
  r.err_q = max (max (abs (qp - Y(:, 1:2))));
  r.err_v = max (max (abs (vp - Y(:, 3:4))));
  r.err_qfin = max (abs (qp(N, :) - Y(N, 1:2)));
  r.err_lam = max (abs (-lp - lref));              % lambda+ = -lambda_ref (sign convention)
  r.err_lam_int = max (abs (-lp(3:N - 2) - lref(3:N - 2)));
  r.qm = max (abs (x(2 * N + 1:4 * N)));
  r.lm = max (abs (x(5 * N + 1:6 * N)));
  r.g = max (abs (G * x + gaff));
  r.g_end = abs (G(N, :) * x + gaff(N));
  s = svd (full (K));
  r.smin = s(end);  r.cond = s(1) / s(end);
end
