function t = sbp_order8_rates ()
% SBP_ORDER8_RATES  Observed convergence rates of SBP order 8 in time integration (doc/sbp.md).
%
%   sbp_order8_rates          print the table of doc/sbp.md
%   t = sbp_order8_rates ()   also return it (struct: N, h, err_max, err_fin, rate_max, rate_fin,
%                             one row per method: SBP-SAT, skg_solve, dual_solve)
%
% Harmonic oscillator q'' = -q, q(0) = 1, q'(0) = 1/2, T = 4 pi (two periods), one window,
% N = 41, 81, 161, 321, 641 grid points, interior order 8 (boundary order 4):
%   SBP-SAT    the first-order system y = [q; v] with the SAT initial condition (penalty -1), one
%              sparse solve (as demo_sbp_convergence);
%   skg_solve  L = qdot^2/2 - q^2/2, reduced mode (as demo_skg_convergence); v = its qdot;
%   dual_solve odesys x' = v, v' = -x, zero base state, c = 10 (the defaults).
% err_max = max over the grid of |q - q_ex| and |v - v_ex|; err_fin = the same at T.
% rate = log (e1/e2) / log (h1/h2); '*': an error of the pair is below 1e-11 max|y| (the bound on
% the rounding of the sparse solves at N <= 641), so the rate is not meaningful.
% Run from the top of a built tree:
%   octave-cli --eval "addpath (pwd); addpath ('inst'); addpath ('tools'); sbp_order8_rates"

  T = 4 * pi;
  q0 = 1;
  v0 = 0.5;
  Ns = [41, 81, 161, 321, 641];
  order = 8;
  names = {'SBP-SAT', 'skg_solve', 'dual_solve'};
  osc = mechsys ('coordinates', {'q'}, 'lagrangian', 'dot(q)^2/2 - q^2/2');
  ode = odesys ('states', {'x', 'v'}, 'rhs', {'v', '-x'});
  nN = numel (Ns);
  h = T ./ (Ns - 1);
  emax = zeros (3, nN);
  efin = zeros (3, nN);
  ysize = 0;
  for in = 1:nN
    N = Ns(in);
    tt = T * (0:N - 1)' / (N - 1);
    qe = q0 * cos (tt) + v0 * sin (tt);
    ve = -q0 * sin (tt) + v0 * cos (tt);
    ysize = max ([ysize; abs(qe); abs(ve)]);
    for m = 1:3
      switch m
        case 1
          [D, H] = sbp_operator (N, order, [0, T]);
          e1 = sparse (1, 1, 1, N, 1);
          I2 = speye (2);
          A = sparse ([0, 1; -1, 0]);
          y = (kron (I2, D) - kron (A, speye (N)) + kron (I2, H \ (e1 * e1'))) \ ...
              (kron (I2, H \ e1) * [q0; v0]);
          q = y(1:N);
          v = y(N + 1:end);
        case 2
          s = skg_solve (osc, [0, T], q0, v0, 'N', N, 'Order', order, 'Mode', 'reduced');
          q = s.q(:);
          v = s.qdot(:);
        otherwise
          s = dual_solve (ode, [0, T], [q0, v0], 'N', N, 'Order', order);
          q = s.y(:, 1);
          v = s.y(:, 2);
      end
      emax(m, in) = max (abs ([q - qe; v - ve]));
      efin(m, in) = max (abs ([q(end) - qe(end), v(end) - ve(end)]));
    end
  end
  rate = @(e) log (e(:, 1:end - 1) ./ e(:, 2:end)) ./ repmat (log (h(1:end - 1) ./ h(2:end)), 3, 1);
  t = struct ('methods', {names}, 'N', Ns, 'h', h, 'err_max', emax, 'err_fin', efin, ...
              'rate_max', rate (emax), 'rate_fin', rate (efin), 'floor', 1e-11 * ysize);

  fprintf ('SBP order 8, harmonic oscillator, T = 4 pi, q0 = 1, v0 = 1/2: observed rates\n');
  fprintf ('max = max over the grid of |(q, v) error|, fin = |(q, v) error| at T; ''*'' = an error below %.1e\n', ...
           t.floor);
  fprintf ('%-9s |', 'N pair');
  for m = 1:3
    fprintf (' %-17s|', names{m});
  end
  fprintf ('\n%-9s |', '');
  for m = 1:3
    fprintf (' %6s  %6s   |', 'max', 'fin');
  end
  fprintf ('\n');
  for k = 1:nN - 1
    fprintf ('%4d/%-4d |', Ns(k), Ns(k + 1));
    for m = 1:3
      fprintf (' %s %s  |', fmt (t.rate_max(m, k), emax(m, k:k + 1), t.floor), ...
               fmt (t.rate_fin(m, k), efin(m, k:k + 1), t.floor));
    end
    fprintf ('\n');
  end
  fprintf ('errors at N = %d: max %s, fin %s (SBP-SAT, skg_solve, dual_solve)\n', Ns(end), ...
           sprintf ('%.1e ', emax(:, end)), sprintf ('%.1e ', efin(:, end)));
  if nargout == 0
    clear t;
  end
end

function s = fmt (r, e, efloor)
  if all (e > efloor)
    s = sprintf ('%6.2f ', r);
  else
    s = sprintf ('%6.2f*', r);
  end
end
