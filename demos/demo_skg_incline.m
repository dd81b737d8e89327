function results = demo_skg_incline (varargin)
% -*- texinfo -*-
% @deftypefn  {} {} demo_skg_incline ()
% @deftypefnx {} {results =} demo_skg_incline (..., "quiet")
% @deftypefnx {} {results =} demo_skg_incline (..., "png", dir)
% A particle sliding on an incline with the paper's regularized normal force and smoothed Coulomb
% friction as the critical point of the discrete SKG action (Rothkopf & Horowitz, "A variational
% approach to nonholonomic and inequality-constrained mechanics", eq.@: 16 and Fig.@: 4; the model
% as in @code{demo_incline}): alpha = pi/6, g = 9.8, M = 1, the contact d >= 0 (d the distance
% above the incline) with the paper's sigma = 1/70, V0 = 5, start offset delta = 1/30, mu = 0 and
% 0.4, 0 <= t <= 1, N = 64, order 4.  The normal motion conserves Un = M ddot^2/2 + U(d) whatever mu,
% and while sliding down s - s0 - mu (d - d0) = a t^2/2 - G t exactly (a = -g (sin alpha - mu cos
% alpha), G the smoothing gain): the closed form compared.  @code{skg_solve} (default guess) against
% @code{gauss_integrate} on the same model (dop853, RelTol 1e-12; the difference is the SKG error
% alone) and against the closed form, which SBP-SAT of order 4 reproduces up to Newton's tolerance
% (a quadratic polynomial); the observed orders of q and of the drift of Un between N = 256 and 512
% (the drift reaches its asymptotic order late) at least 3 - 0.3.  "png", dir writes
% demo_skg_incline.png (x(t), y(t) as Fig.@: 4).  @var{results} holds @code{runs} (per mu and N),
% @code{rates}, the printed table @code{checks} and @code{pass}.
% @seealso{skg_solve, demo_incline, gauss_integrate}
% @end deftypefn

  opt = vm_demo_args ('demo_skg_incline', varargin, struct ());

  M = 1;
  g = 9.8;
  alpha = pi / 6;
  sa = sin (alpha);
  ca = cos (alpha);
  T = 1;
  V0 = 5;
  sigma = 1 / 70;
  delta = 1 / 30;
  epsv = 1e-8;
  mus = [0, 0.4];
  Ns = [64, 256, 512];
  order = 4;
  % regression bounds at N = 64 (about twice the errors; mu = 0, 0.4; the rates carry the theory),
  % except where SBP-SAT is exact: for mu = 0 s(1), v(1) and the closed-form combination (a
  % quadratic polynomial) to Newton's tolerance; for mu = 0.4 the smoothed friction at the start
  % (v = 0, the scale epsv unresolved) sets the closed-form rows
  tol_q = [6e-4, 6e-4];
  tol_s = [1e-10, 1e-5];
  tol_v = [1e-10, 1e-2];
  tol_lin = [1e-10, 1e-7];
  tol_U = [1e-3, 1e-3];
  rate_min = 3 - 0.3;
  reftol = 1e-9;
  e = [ca; sa];
  n = [-sa; ca];
  sh = sigma * ca;
  W = M * g * ca;
  P = struct ('M', M, 'g', g, 'alpha', alpha, 'mu', 0, 'epsv', epsv, 'sig', sigma, 'V0', V0);
  con = struct ('h', 'y*cos(alpha) - x*sin(alpha)', 'sigma', 'sig*cos(alpha)', 'V0', 'V0', ...
                'mu', 'mu', 'epsv', 'epsv');
  sys = mechsys ('coordinates', {'x', 'y'}, 'parameters', P, ...
                 'lagrangian', 'M/2*(dot(x)^2 + dot(y)^2) - M*g*y', 'contacts', con);
  q0 = [ca, sa + delta];
  d0 = q0 * n;
  A0 = V0 / (sqrt (2 * pi) * sh) * exp (-d0 ^ 2 / (2 * sh ^ 2));
  results.params = struct ('M', M, 'g', g, 'alpha', alpha, 'T', T, 'V0', V0, 'sigma', sigma, ...
                           'delta', delta, 'epsv', epsv, 'mu', mus, 'N', Ns, 'order', order);
  c = struct ('part', {}, 'name', {}, 'value', {}, 'reference', {}, 'error', {}, 'tol', {}, ...
              'pass', {}, 'info', {});

  runs = struct ('mu', {}, 'N', {}, 't', {}, 'q', {}, 'qdot', {}, 'q_ref', {}, 'exitflag', {}, ...
                 'iterations', {}, 'message', {}, 'err_q', {}, 'err_s', {}, 'err_v', {}, ...
                 's_lin', {}, 'v_lin', {}, 's_lin_ref', {}, 'v_lin_ref', {}, 'ref_s_lin', {}, ...
                 'ref_v_lin', {}, 'Un_drift', {});
  for im = 1:2
    mu = mus(im);
    sys.parameters.mu = mu;
    a = -g * (sa - mu * ca);
    G = epsv * vm_incline_gain (sa, mu * A0 / (M * g));
    for iN = 1:numel (Ns)
      s = skg_solve (sys, [0, T], q0, [0, 0], 'N', Ns(iN), 'Order', order);
      ref = gauss_integrate (sys, [0, T], q0, [0, 0], 'Method', 'dop853', 'RelTol', 1e-12, ...
                             'AbsTol', 1e-14, 'Contacts', 'soft', 'OutputTimes', s.t);
      if ref.exitflag ~= 1
        error ('demo_skg_incline: reference failed: %s', ref.message);
      end
      r.mu = mu;
      r.N = Ns(iN);
      r.t = s.t;
      r.q = s.q;
      r.qdot = s.qdot;
      r.q_ref = ref.output.q;
      r.exitflag = s.exitflag;
      r.iterations = s.iterations;
      r.message = s.message;
      r.err_q = max (sqrt (sum ((s.q - ref.output.q) .^ 2, 2)));
      r.err_s = abs ((s.q(end, :) - ref.output.q(end, :)) * e);
      r.err_v = abs ((s.qdot(end, :) - ref.output.qdot(end, :)) * e);
      % s(1) - s0 - mu (d(1) - d0) and sdot(1) - mu ddot(1): SKG, closed form, gauss_integrate
      r.s_lin = (s.q(end, :) - q0) * (e - mu * n);
      r.v_lin = s.qdot(end, :) * (e - mu * n);
      r.s_lin_ref = a * T ^ 2 / 2 - G * T;
      r.v_lin_ref = a * T - G;
      r.ref_s_lin = (ref.output.q(end, :) - q0) * (e - mu * n);
      r.ref_v_lin = ref.output.qdot(end, :) * (e - mu * n);
      Un = M * (s.qdot * n) .^ 2 / 2 + W * (s.q * n) + V0 / 2 * erfc ((s.q * n) / (sh * sqrt (2)));
      r.Un_drift = max (abs (Un - Un(1)));
      runs(end + 1) = r; %#ok<AGROW>
      part = sprintf ('mu=%g N=%d', mu, Ns(iN));
      c = vm_demo_check (c, 'Newton converged from the default guess (1 = yes)', s.exitflag, 1, 0, ...
                         'part', part);
      if iN == 1
        c = vm_demo_check (c, 'max |q - q_soft| on the grid', r.err_q, 0, tol_q(im), 'part', part);
        c = vm_demo_check (c, '|s(1) - s_soft(1)|', r.err_s, 0, tol_s(im), 'part', part);
        c = vm_demo_check (c, '|v(1) - v_soft(1)|', r.err_v, 0, tol_v(im), 'part', part);
        c = vm_demo_check (c, 's(1) - s0 - mu (d(1) - d0) vs closed form', r.s_lin, r.s_lin_ref, ...
                           tol_lin(im) + reftol, 'part', part);
        c = vm_demo_check (c, 'v(1) - mu ddot(1) vs closed form', r.v_lin, r.v_lin_ref, ...
                           tol_lin(im) + reftol, 'part', part);
        c = vm_demo_check (c, 'gauss_integrate: s(1) - s0 - mu (d(1) - d0) vs closed form', ...
                           r.ref_s_lin, r.s_lin_ref, reftol, 'part', part);
        c = vm_demo_check (c, 'gauss_integrate: v(1) - mu ddot(1) vs closed form', r.ref_v_lin, ...
                           r.v_lin_ref, reftol, 'part', part);
        c = vm_demo_check (c, 'normal energy drift max |Un - Un(0)|', r.Un_drift, 0, tol_U(im), ...
                           'part', part);
      end
    end
  end
  % observed orders between N = 256 and 512
  rates = struct ('mu', mus, 'q', zeros (1, 2), 'Un', zeros (1, 2));
  for im = 1:2
    sel = runs([runs.mu] == mus(im));
    f = log ((Ns(3) - 1) / (Ns(2) - 1));
    rates.q(im) = log (sel(2).err_q / sel(3).err_q) / f;
    rates.Un(im) = log (sel(2).Un_drift / sel(3).Un_drift) / f;
    part = sprintf ('mu=%g', mus(im));
    c = vm_demo_check (c, 'observed order of max |q - q_soft|, N = 256 -> 512', rates.q(im), ...
                       rate_min, 0, 'error', max (0, rate_min - rates.q(im)), 'part', part);
    c = vm_demo_check (c, 'observed order of the normal energy drift, N = 256 -> 512', rates.Un(im), ...
                       rate_min, 0, 'error', max (0, rate_min - rates.Un(im)), 'part', part);
  end
  results.runs = runs;
  results.rates = rates;
  results.checks = c;
  results.pass = vm_demo_verdict (c);

  if ~opt.quiet
    print_table (results);
  end
  vm_demo_png (opt, '', @(what) draw (results));
  if nargout == 0
    clear results;
  end
end

function print_table (r)
  p = r.params;
  fprintf ('Incline with regularized normal force and friction, SKG critical point (R & H Fig. 4)\n');
  fprintf ('alpha = pi/6, g = %g, M = %g, sigma = 1/70, delta = 1/30, V0 = %g, epsv = %g, order %d\n', ...
           p.g, p.M, p.V0, p.epsv, p.order);
  fprintf ('references: gauss_integrate dop853 (same soft model) and the closed form\n');
  fprintf ('s - s0 - mu (d - d0) = a t^2/2 - G t, a = -g (sin(alpha) - mu cos(alpha))\n\n');
  vm_demo_table (r.checks, '%.6g', 'case');
  fprintf ('\nNewton iterations (N = 64, 256, 512): mu = 0: %s; mu = 0.4: %s\n', ...
           sprintf ('%d ', r.runs([r.runs.mu] == 0).iterations), ...
           sprintf ('%d ', r.runs([r.runs.mu] > 0).iterations));
  [~, verdict] = vm_demo_verdict (r.checks);
  fprintf ('%s\n', verdict);
end

function draw (r)
  p = r.params;
  ca = cos (p.alpha);
  sa = sin (p.alpha);
  tt = linspace (0, p.T, 201)';
  hold on;
  cols = {[0, 0.447, 0.741], [0.85, 0.325, 0.098]};
  sty = {'--', '-'};
  hl = zeros (1, 6);
  for im = 1:2
    a = -p.g * (sa - p.mu(im) * ca);
    sc = 1 + a * tt .^ 2 / 2;
    hl(im) = plot (tt, sc * ca, sty{im}, 'color', [0.5, 0.5, 0.5], 'linewidth', 1.5);
    plot (tt, sc * sa, sty{im}, 'color', [0.5, 0.5, 0.5], 'linewidth', 1.5);
  end
  for im = 1:2
    k = find ([r.runs.mu] == p.mu(im) & [r.runs.N] == p.N(1), 1);
    s = r.runs(k);
    hl(2 * im + 1) = plot (s.t, s.q(:, 1), 'o', 'color', cols{im}, 'markersize', 4);
    hl(2 * im + 2) = plot (s.t, s.q(:, 2), 's', 'color', cols{im}, 'markersize', 4);
  end
  hold off;
  xlabel ('t (s)');
  ylabel ('x, y (m)');
  title (sprintf ('incline: SKG (N = %d, symbols), closed form (gray)', p.N(1)));
  set (gca, 'fontsize', 8);
  lh = legend (hl, {'closed form, mu = 0', 'closed form, mu = 0.4', 'x, SKG, mu = 0', 'y, SKG, mu = 0', ...
                    'x, SKG, mu = 0.4', 'y, SKG, mu = 0.4'}, 'location', 'southwest');
  set (lh, 'fontsize', 7);
  grid on;
end
