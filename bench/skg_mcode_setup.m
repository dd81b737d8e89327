function pr = skg_mcode_setup (problem, P, tspan, q0, qdot0, N, order)
% SKG_MCODE_SETUP  data of the plain m-code peer of skg_action (benchmark bench_skg).
%   pr = skg_mcode_setup (problem, P, tspan, q0, qdot0, N, order), problem 'tumbler' or 'disk'
%   (the disk with the linear, semi-holonomic constraint form g1lin, g2), P its parameter struct
%   (skg_problem_params).  Builds the SBP operator once: D from sbp_operator,
%   Ds = D + H^-1 e1 e1' (SAT-regularized), the quadrature weights hw.
  [D, H] = sbp_operator (N, order, tspan);
  hw = full (diag (H));
  e1 = sparse (1, 1, 1 / hw(1), N, N);
  pr.problem = problem;
  pr.N = N;
  pr.Ds = D + e1;
  pr.DsT = pr.Ds';
  pr.hw = hw;
  pr.q0 = q0(:)';
  pr.qdot0 = qdot0(:)';
  switch problem
    case 'tumbler'
      pr.P = P;
      pr.n = 2;  pr.m = 0;
      pr.mass = [1 1] * pr.P.m;
    case 'disk'
      pr.P = P;
      pr.n = 4;  pr.m = 2;
      pr.mass = [pr.P.M pr.P.M pr.P.IS pr.P.ID];
    otherwise
      error ('skg_mcode_setup: unknown problem %s', problem);
  end
  pr.nb = 2 * pr.n + 2 * pr.m;
  pr.pi = pr.mass .* pr.qdot0;      % p_i = dL/dqdot (q_i, v_i), linear momentum
end
