function g = skg_mcode_action (pr, z)
% SKG_MCODE_ACTION  gradient of the discrete SKG action (formulation F4 of doc/skg_boundary.md),
% written by hand in plain vectorized m-code: the peer of skg_action for bench_skg.
%   g = skg_mcode_action (pr, z); pr from skg_mcode_setup; z and g in skg_action's layout (per grid
%   point q+ (n), q- (n), lambda+ (m), lambda- (m)).
%
%   S = sum_k H_kk s_k - q-_1 . (p+_1 - p_i) - q-_N . p+_N,  p+ = Mass v+,
%   s = L(q+ + q-/2, v+ + v-/2) - L(q+ - q-/2, v+ - v-/2) + q- . F(q+, v+)
%       + sum_a [lambda-_a g_a(q+, v+) - lambda+_a q- . dg_a/dqdot(q+)],
%   v+ = Ds q+ - H^-1 e1 q_i,  v- = Ds q-,  Ds = D + H^-1 e1 e1'.
%   dS/dq+ = H s_q+ + Ds' (H s_v+) + boundary,  dS/dq- = H s_q- + Ds' (H s_v-) + boundary,
%   dS/dlambda+- = H s_lambda+-.
%
%   tumbler: L = m/2 |v|^2 - m g y, so L1 - L2 = m v+ . v- - m g y-; F = FN(q+) with
%   FN = V0/sqrt(2 pi sigma^2) exp(-h^2/(2 sigma^2)) grad h, h = R^2 - x^2 - y^2 (friction 0).
%   disk: L = M/2 (xd^2 + yd^2) + IS/2 thd^2 + ID/2 phd^2 + M g x sin(alpha), F = 0,
%   g1 = xd cos(phi) + yd sin(phi) - R thd, g2 = xd sin(phi) - yd cos(phi).
  N = pr.N;  n = pr.n;  m = pr.m;  nb = pr.nb;
  Z = reshape (z, nb, N)';                  % N-by-nb, row k = grid point k
  qp = Z(:, 1:n);  qm = Z(:, n+1:2*n);
  vp = pr.Ds * qp;
  vp(1, :) = vp(1, :) - pr.q0 / pr.hw(1);   % affine SAT derivative Da q+
  vm = pr.Ds * qm;
  hw = pr.hw;
  M = pr.mass;
  % kinetic part (both problems): L1 - L2 = sum_i M_i v+_i v-_i + potential difference
  s_vp = vm .* M;
  s_vm = vp .* M;
  switch pr.problem
    case 'tumbler'
      P = pr.P;
      x = qp(:, 1);  y = qp(:, 2);
      h = P.R^2 - x.^2 - y.^2;
      c = P.V0 / sqrt (2*pi*P.sig^2) * exp (-h.^2 / (2*P.sig^2));
      gx = -2*x;  gy = -2*y;
      s_qm = [c .* gx, c .* gy - P.m * P.g];
      % s_q+ = J_F' q-, J_F = c [-(h/sigma^2) grad h grad h' - 2 I] (symmetric)
      gq = gx .* qm(:, 1) + gy .* qm(:, 2);
      a = -c .* h / P.sig^2 .* gq;
      s_qp = [a .* gx - 2*c .* qm(:, 1), a .* gy - 2*c .* qm(:, 2)];
      G = zeros (N, 0);
    case 'disk'
      P = pr.P;
      lp = Z(:, 2*n+1:2*n+m);  lm = Z(:, 2*n+m+1:2*n+2*m);
      ph = qp(:, 4);  cp = cos (ph);  sp = sin (ph);
      xd = vp(:, 1);  yd = vp(:, 2);
      % constraint rows A1 = [cos sin -R 0], A2 = [sin -cos 0 0]
      s_vp(:, 1) = s_vp(:, 1) + lm(:, 1) .* cp + lm(:, 2) .* sp;
      s_vp(:, 2) = s_vp(:, 2) + lm(:, 1) .* sp - lm(:, 2) .* cp;
      s_vp(:, 3) = s_vp(:, 3) - P.R * lm(:, 1);
      s_qm = zeros (N, 4);
      s_qm(:, 1) = P.M * P.g * sin (P.alpha) - lp(:, 1) .* cp - lp(:, 2) .* sp;
      s_qm(:, 2) = -lp(:, 1) .* sp + lp(:, 2) .* cp;
      s_qm(:, 3) = P.R * lp(:, 1);
      s_qp = zeros (N, 4);
      s_qp(:, 4) = lm(:, 1) .* (-xd .* sp + yd .* cp) + lm(:, 2) .* (xd .* cp + yd .* sp) ...
                   - lp(:, 1) .* (-qm(:, 1) .* sp + qm(:, 2) .* cp) ...
                   - lp(:, 2) .* (qm(:, 1) .* cp + qm(:, 2) .* sp);
      q1A = qm(:, 1) .* cp + qm(:, 2) .* sp - P.R * qm(:, 3);   % q- . A1
      q2A = qm(:, 1) .* sp - qm(:, 2) .* cp;                    % q- . A2
      g1 = xd .* cp + yd .* sp - P.R * vp(:, 3);
      g2 = xd .* sp - yd .* cp;
      G = [-q1A, -q2A, g1, g2] .* hw;                         % dS/dlambda+, dS/dlambda-
  end
  % boundary b = -q-_1 . (p+_1 - p_i) - q-_N . p+_N, p+ = M v+
  b_vp = zeros (N, n);  b_vp(1, :) = -M .* qm(1, :);  b_vp(N, :) = -M .* qm(N, :);
  gp = s_qp .* hw + pr.DsT * (s_vp .* hw + b_vp);
  gm = s_qm .* hw + pr.DsT * (s_vm .* hw);
  gm(1, :) = gm(1, :) - (M .* vp(1, :) - pr.pi);
  gm(N, :) = gm(N, :) - M .* vp(N, :);
  g = reshape ([gp, gm, G]', [], 1);
end
