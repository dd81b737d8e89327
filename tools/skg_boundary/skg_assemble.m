function sys = skg_assemble (form, prob, N, order)
% SKG_ASSEMBLE  Discrete SKG action of a linear oscillator for one boundary formulation.
%
%   sys = skg_assemble (form, prob, N, order)
%
% prob: struct with m, k, lam (L = m qdot^2/2 - k q^2/2, nonconservative force F = -lam qdot),
% q0, v0 (initial data), T (final time, t_i = 0).  The action is written as a list of terms in
% the unknowns x = [q+; q-; ...] (q1 = q+ + q-/2, q2 = q+ - q-/2), exactly as in the formula of
% the action, and its Hessian and gradient are obtained from that list (skg_quadform).
%
% form:
%   'F0'  SBP-SAT first-order system (reference, not an action): [q; v], D u = A u - H\e1 (u_1 - g)
%   'F1'  papers' appendix, literal: plain D; multipliers kappa (q+_1 - q0), kappa~ ((D q+)_1 - v0),
%         xi q-_N, xi~ (D q-)_N
%   'F2'  DESIGN's reading of the regularized operator: Dq -> Da q = D q + H\e1 (q_1 - q0) on both
%         branches (position enters as affine term); multipliers kappa~ ((Da q+)_1 - v0), xi q-_N
%   'F2b' as F2 plus xi~ (Ds q-)_N (both connecting conditions; Ds = D + H\e1 e1')
%   'F2c' Da on both branches with all four multipliers of F1
%   'F3'  phase-space SKG action, p independent, with SAT terms and weak connecting term:
%         sum H [p1.Da q1 - Ham(q1,p1) - p2.Da q2 + Ham(q2,p2)] + sum H q-.F
%         - q-_1 (p+_1 - p0) - q-_N p+_N
%   'F4'  velocity SKG action with Da on both branches, momentum SAT and weak connecting term:
%         sum H [L(q1,Da q1) - L(q2,Da q2)] + sum H q-.F(q+,Da q+) - q-_1 (p+_1 - p0) - q-_N p+_N,
%         p+ = m Da q+   (no multipliers)
%   'F5'  as F4 but the connecting condition by a multiplier xi q-_N instead of -q-_N p+_N
%
% sys: K (Hessian), rhs (= -gradient at 0), n, N, t, and index vectors iqp, iqm, ipp, ipm,
% imult, a function handle vel(x) returning the velocity variable of the formulation,
% Sfun (the action), names of the multipliers.
  [D, H] = sbp_operator (N, order, [0, prob.T]);
  h = diag (H);
  t = prob.T * (0:N - 1)' / (N - 1);
  I = speye (N);
  Z = sparse (N, N);
  e1 = sparse (1, 1, 1, N, 1);
  eN = sparse (N, 1, 1, N, 1);
  Hi_e1 = e1 / h(1);
  Ds = D + Hi_e1 * e1';                      % SAT-regularized operator D + H^{-1} e1 e1'
  m = prob.m;  k = prob.k;  lam = prob.lam;
  q0 = prob.q0;  v0 = prob.v0;  p0 = m * v0;
  z = zeros (N, 1);
  sys.N = N;  sys.t = t;  sys.form = form;
  terms = {};
  mk = @(c, w, A1, a1, A2, a2) struct ('c', c, 'w', w, 'A1', A1, 'a1', a1, 'A2', A2, 'a2', a2);

  switch form
    case 'F0'
      A = sparse ([0, 1 / m; -k, -lam / m]);            % y = [q; p], q' = p/m, p' = -k q - lam p/m
      M = kron (speye (2), D) - kron (A, I) + kron (speye (2), Hi_e1 * e1');
      sys.K = M;
      sys.rhs = kron (speye (2), Hi_e1) * [q0; p0];
      sys.n = 2 * N;
      sys.iqp = 1:N;  sys.ipp = N + 1:2 * N;  sys.iqm = [];  sys.ipm = [];  sys.imult = [];
      sys.vel = @(x) x(N + 1:2 * N) / m;
      sys.Sfun = [];
      sys.mult_names = {};
      return;

    case {'F1', 'F2', 'F2b', 'F2c', 'F4', 'F5'}
      switch form
        case 'F1'
          mult = {'kappa', 'kappat', 'xi', 'xit'};
        case 'F2'
          mult = {'kappat', 'xi'};
        case 'F2b'
          mult = {'kappat', 'xi', 'xit'};
        case 'F2c'
          mult = {'kappa', 'kappat', 'xi', 'xit'};
        case 'F4'
          mult = {};
        case 'F5'
          mult = {'xi'};
      end
      nm = numel (mult);
      n = 2 * N + nm;
      Xp = [I, Z, sparse(N, nm)];                  % q+ = Xp x
      Xm = [Z, I, sparse(N, nm)];                  % q- = Xm x
      X1 = Xp + Xm / 2;  X2 = Xp - Xm / 2;
      if strcmp (form, 'F1')
        Dq = D;  aff = z;                          % plain D
      else
        Dq = Ds;  aff = -Hi_e1 * q0;               % Da q = Ds q - H\e1 q0 (affine)
      end
      V1 = Dq * X1;  V2 = Dq * X2;  Vp = Dq * Xp;  Vm = Dq * Xm;   % Vm: Ds q- (no affine part)
      % sum H [L(q1, v1) - L(q2, v2)],  L = m v^2/2 - k q^2/2
      terms{end + 1} = mk (m / 2, h, V1, aff, V1, aff);
      terms{end + 1} = mk (-k / 2, h, X1, z, X1, z);
      terms{end + 1} = mk (-m / 2, h, V2, aff, V2, aff);
      terms{end + 1} = mk (k / 2, h, X2, z, X2, z);
      % sum H q- F(q+, v+),  F = -lam v
      if lam ~= 0
        terms{end + 1} = mk (-lam, h, Xm, z, Vp, aff);
      end
      if any (strcmp (form, {'F4', 'F5'}))
        % momentum SAT at t_i: - q-_1 (p+_1 - p0), p+ = m Da q+
        terms{end + 1} = mk (-1, 1, Xm(1, :), 0, m * Vp(1, :), m * aff(1) - p0);
      end
      if strcmp (form, 'F4')
        % weak connecting condition: - q-_N p+_N
        terms{end + 1} = mk (-1, 1, Xm(N, :), 0, m * Vp(N, :), m * aff(N));
      end
      for j = 1:nm
        sel = sparse (1, 2 * N + j, 1, 1, n);
        switch mult{j}
          case 'kappa'                             % kappa (q+_1 - q0)
            terms{end + 1} = mk (1, 1, sel, 0, Xp(1, :), -q0);
          case 'kappat'                            % kappa~ ((Dq q+)_1 - v0)
            terms{end + 1} = mk (1, 1, sel, 0, Vp(1, :), aff(1) - v0);
          case 'xi'                                % xi q-_N
            terms{end + 1} = mk (1, 1, sel, 0, Xm(N, :), 0);
          case 'xit'                               % xi~ (Dq q-)_N
            terms{end + 1} = mk (1, 1, sel, 0, Vm(N, :), 0);
        end
      end
      sys.iqp = 1:N;  sys.iqm = N + 1:2 * N;  sys.ipp = [];  sys.ipm = [];
      sys.imult = 2 * N + (1:nm);
      sys.vel = @(x) Vp * x + aff;
      sys.mult_names = mult;

    case 'F3'
      n = 4 * N;
      Xp = [I, Z, Z, Z];  Xm = [Z, I, Z, Z];  Pp = [Z, Z, I, Z];  Pm = [Z, Z, Z, I];
      X1 = Xp + Xm / 2;  X2 = Xp - Xm / 2;  P1 = Pp + Pm / 2;  P2 = Pp - Pm / 2;
      aff = -Hi_e1 * q0;
      % sum H [p1 . Da q1 - p1^2/(2m) - k q1^2/2 - (same for 2)]
      terms{end + 1} = mk (1, h, P1, z, Ds * X1, aff);
      terms{end + 1} = mk (-1 / (2 * m), h, P1, z, P1, z);
      terms{end + 1} = mk (-k / 2, h, X1, z, X1, z);
      terms{end + 1} = mk (-1, h, P2, z, Ds * X2, aff);
      terms{end + 1} = mk (1 / (2 * m), h, P2, z, P2, z);
      terms{end + 1} = mk (k / 2, h, X2, z, X2, z);
      if lam ~= 0
        terms{end + 1} = mk (-lam / m, h, Xm, z, Pp, z);
      end
      terms{end + 1} = mk (-1, 1, Xm(1, :), 0, Pp(1, :), -p0);   % momentum SAT
      terms{end + 1} = mk (-1, 1, Xm(N, :), 0, Pp(N, :), 0);     % weak connecting term
      sys.iqp = 1:N;  sys.iqm = N + 1:2 * N;  sys.ipp = 2 * N + 1:3 * N;  sys.ipm = 3 * N + 1:4 * N;
      sys.imult = [];
      sys.vel = @(x) x(2 * N + 1:3 * N) / m;
      sys.mult_names = {};

    otherwise
      error ('skg_assemble: unknown formulation %s', form);
  end
  [K, g0, Sfun] = skg_quadform (terms, n);
  sys.K = K;
  sys.rhs = -g0;
  sys.n = n;
  sys.Sfun = Sfun;
end
