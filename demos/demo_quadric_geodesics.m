function results = demo_quadric_geodesics (varargin)
% -*- texinfo -*-
% @deftypefn  {} {} demo_quadric_geodesics ()
% @deftypefnx {} {results =} demo_quadric_geodesics (..., "quiet")
% @deftypefnx {} {results =} demo_quadric_geodesics (..., "png", dir)
% Geodesics on a quadric (x, A x) = 1 in n = 4 and n = 6 dimensions (Zubelevich, "On infinite
% dimensional version of the Lagrange-d'Alembert principle", Sec.@: 2.1, eq.@: 2.4, in R^n): a free
% particle, L = |xdot|^2/2, with the ideal reaction, xddot = -(xdot, A xdot)/|A x|^2 A x.
% A = R diag(d) R' with a repeated eigenvalue pair (n = 4) or two (n = 6), each giving a rotation
% symmetry Omega and the first integral (x, Omega xdot); phi = (A x, xdot) is a first integral of
% eq.@: 2.4 on all of R^2n; |xdot| and g are conserved where phi = 0.  Compared, per n: the
% accelerations of Gauss's principle from @code{mechsys_eval} terms and of the integrator against
% eq.@: 2.4 (1e-12 relative); the drift of the first integrals along dopri5 runs (RelTol 1e-10, on
% [0, 50], without and with projection) within the sum of the local error bounds of the steps;
% gl6 (h = 0.1) to t = 500 keeping them to its Newton tolerance, without drift in |xdot|
% (dopri5 at RelTol 1e-8 for contrast); the trajectory against @code{ode45} (1e-12) on the
% hand-coded eq.@: 2.4, and gl6's observed order 6.  The paper's conserved "kinetic energy"
% T = ||x||^2/2 is a misprint for ||xdot||^2/2 (the table shows that |x|^2/2 varies), and
% "g(x(t)) = 1" should read g(x(t)) = 0.  "png", dir writes
% demo_quadric_geodesics_@{speed,integral,trajectory@}.png.  @var{results} is a struct array, one
% per n, with the printed table @code{checks}, @code{pass}, @code{long} and @code{time}.
% @seealso{gauss_integrate, mechsys, mechsys_eval}
% @end deftypefn

  opt = vm_demo_args ('demo_quadric_geodesics', varargin);

  cases = {[1 1 2 3], [1 1 2 3 3 4]};
  results = struct ('n', {}, 'd', {}, 'A', {}, 'Omega', {}, 'x0', {}, 'xdot0', {}, ...
                    'long', {}, 'checks', {}, 'pass', {}, 'time', {});
  for ic = 1:numel (cases)
    t0 = tic;
    r = run_case (cases{ic});
    r.time = toc (t0);
    results(ic) = r;
  end

  if ~opt.quiet
    print_table (results);
  end
  vm_demo_png (opt, {'speed', 'integral', 'trajectory'}, @(what) draw (results, what));
  if nargout == 0
    clear results;
  end
end

function r = run_case (d)
  n = numel (d);
  [R, ~] = qr (reshape (sin (1:n^2), n, n));
  A = R * diag (d) * R';
  A = (A + A') / 2;
  % symmetries: rotation generators in the planes of equal eigenvalues
  Omega = {};
  for i = 1:n - 1
    if d(i) == d(i + 1)
      E = zeros (n);
      E(i + 1, i) = 1;
      E(i, i + 1) = -1;
      Omega{end + 1} = R * E * R';
    end
  end
  x0 = cos (1:n)';
  x0 = x0 / sqrt (x0' * A * x0);
  v0 = sin (2 * (1:n))';
  ax = A * x0;
  v0 = v0 - ax * (ax' * v0) / (ax' * ax);
  v0 = v0 / norm (v0);
  sys = quadric_system (A);

  r.n = n;
  r.d = d;
  r.A = A;
  r.Omega = Omega;
  r.x0 = x0;
  r.xdot0 = v0;
  c = struct ('name', {}, 'value', {}, 'reference', {}, 'error', {}, 'tol', {}, 'pass', {}, 'info', {});

  % symmetry check
  comm = 0;
  for j = 1:numel (Omega)
    comm = max (comm, norm (Omega{j} * A - A * Omega{j}, 1) + norm (Omega{j} + Omega{j}', 1));
  end
  c = vm_demo_check (c, 'Omega A - A Omega, Omega + Omega'' (norm)', comm, 0, 1e-13);

  % 1. accelerations at points: mechsys_eval + Gauss's principle vs eq. 2.4
  np = 20;
  X = sin ((1:np)' * (1:n) * 0.77 + 0.3);
  V = cos ((1:np)' * (1:n) * 1.31 - 0.2);
  for p = 1:np
    xp = X(p, :)';
    xp = xp / sqrt (xp' * A * xp);
    vp = V(p, :)';
    vp = vp - (A * xp) * ((A * xp)' * vp) / norm (A * xp)^2;
    X(p, :) = xp';
    V(p, :) = vp';
  end
  a_eval = accel_from_terms (sys, X, V);
  a_ref = accel_eq24 (X, V, A);
  c = vm_demo_check (c, 'accel: mechsys_eval + Gauss vs eq. 2.4', max (sqrt (sum (a_eval.^2, 2))), ...
                     max (sqrt (sum (a_ref.^2, 2))), 1e-12, 'error', ...
                     max (max (abs (a_eval - a_ref))) / max (max (abs (a_ref))));

  % 2. dopri5 over [0, 50], no projection
  T = 50;
  rtol = 1e-10;
  atol = 1e-12;
  s = gauss_integrate (sys, [0 T], x0, v0, 'RelTol', rtol, 'AbsTol', atol);
  check_exit (s);
  % the integrator's accelerations: g_q' lambda = 2 lambda A x (M = I, f = 0)
  a_int = 2 * bsxfun (@times, s.lambda, s.q * A);
  a_ref = accel_eq24 (s.q, s.qdot, A);
  c = vm_demo_check (c, 'accel: integrator (g_q'' lambda) vs eq. 2.4', ...
                     max (sqrt (sum (a_int.^2, 2))), max (sqrt (sum (a_ref.^2, 2))), 1e-12, 'error', ...
                     max (max (abs (a_int - a_ref))) / max (max (abs (a_ref))));
  c = invariant_checks (c, 'dopri5', s, A, Omega, T, s.stats.naccept * sqrt (2 * n) * ...
                        (atol + rtol * max (max (abs ([s.q, s.qdot])))), false);
  xn = 0.5 * sum (s.q.^2, 2);
  c = vm_demo_check (c, 'misprint: ||x||^2/2 (paper: const), max-min', max (xn) - min (xn), 0, NaN);

  % 3. dopri5 with projection
  sp = gauss_integrate (sys, [0 T], x0, v0, 'RelTol', rtol, 'AbsTol', atol, 'Projection', 'on');
  check_exit (sp);
  c = invariant_checks (c, 'dopri5+proj', sp, A, Omega, T, sp.stats.naccept * sqrt (2 * n) * ...
                        (atol + rtol * max (max (abs ([sp.q, sp.qdot])))), true);

  % 4. gl6, long run
  TL = 500;
  h = 0.1;
  sg = gauss_integrate (sys, [0 TL], x0, v0, 'Method', 'gl6', 'Step', h);
  check_exit (sg);
  nsteps = round (TL / h);
  ntol = 1e-14;
  ymax = max (max (abs ([sg.q, sg.qdot])));
  for j = 1:numel (Omega)
    I = sum (sg.q .* (sg.qdot * Omega{j}'), 2);
    gI = sqrt (sum ((sg.qdot * Omega{j}').^2 + (sg.q * Omega{j}').^2, 2));
    c = vm_demo_check (c, sprintf ('gl6 T=%g: (x, Omega%d xdot)', TL, j), I(end), I(1), ...
                       nsteps * ntol * (1 + ymax) * max (gI), 'error', max (abs (I - I(1))));
  end
  gphi = 2 * sqrt (sum ((sg.qdot * A).^2 + (sg.q * A).^2, 2));
  c = vm_demo_check (c, sprintf ('gl6 T=%g: phi = 2 (A x, xdot)', TL), sg.residual(end), 0, ...
                     nsteps * ntol * (1 + ymax) * max (gphi), 'error', max (abs (sg.residual)));
  [ratio, dev_g] = drift_ratio (sg.t, sg.qdot, TL);
  c = vm_demo_check (c, sprintf ('gl6 T=%g: |xdot| drift ratio last/first 10%%', TL), ratio, 1, 1, ...
                     'error', max (ratio - 1, 0));
  c = vm_demo_check (c, sprintf ('gl6 T=%g: max ||xdot| - 1|', TL), max (dev_g), 0, NaN);
  sd = gauss_integrate (sys, [0 TL], x0, v0, 'RelTol', 1e-8, 'AbsTol', 1e-10);
  check_exit (sd);
  c = invariant_checks (c, sprintf ('dopri5 1e-8 T=%g', TL), sd, A, Omega, TL, sd.stats.naccept * ...
                        sqrt (2 * n) * (1e-10 + 1e-8 * max (max (abs ([sd.q, sd.qdot])))), false);
  [ratio_d, dev_d] = drift_ratio (sd.t, sd.qdot, TL);
  c = vm_demo_check (c, sprintf ('dopri5 1e-8 T=%g: drift ratio (contrast)', TL), ratio_d, 1, NaN, ...
                     'error', ratio_d - 1);
  r.long = struct ('t_gl6', sg.t, 'speed_gl6', dev_g, 'I_gl6', ...
                   abs (sum (sg.q .* (sg.qdot * Omega{1}'), 2) - sum (x0 .* (Omega{1} * v0))), ...
                   't_dopri5', sd.t, 'speed_dopri5', dev_d, 'I_dopri5', ...
                   abs (sum (sd.q .* (sd.qdot * Omega{1}'), 2) - sum (x0 .* (Omega{1} * v0))), ...
                   'q', s.q, 'h', h, 'T', TL);

  % 5. trajectory vs ode45 on the hand-coded eq. 2.4 (one run; sol.x are its steps)
  Tref = 20;
  ro = 1e-12;
  ao = 1e-14;
  ref = ode45 (@(t, y) quadric_rhs (t, y, A), [0 Tref], [x0; v0], odeset ('RelTol', ro, 'AbsTol', ao));
  tstep = ref.x(:);
  ystep = ref.y';
  % compare at the ode45 steps nearest to (not after) t = 1, 5, 10 and at t = 20
  kref = zeros (1, 4);
  treq = [1 5 10 Tref];
  for it = 1:numel (treq)
    kref(it) = find (tstep <= treq(it) * (1 + 1e-12), 1, 'last');
  end
  tcmp = tstep(kref);
  so = gauss_integrate (sys, [0 Tref], x0, v0, 'RelTol', rtol, 'AbsTol', atol, 'OutputTimes', tcmp);
  check_exit (so);
  % accepted steps up to each time (so.t holds them too: output times leave the steps alone)
  sf = gauss_integrate (sys, [0 Tref], x0, v0, 'RelTol', rtol, 'AbsTol', atol);
  check_exit (sf);
  ys = max (max (abs ([sf.q, sf.qdot])));
  for it = 1:numel (tcmp)
    nv = sum (sf.t(2:end) <= tcmp(it) * (1 + 1e-12));
    tolx = sqrt (2 * n) * (nv * (atol + rtol * ys) + (kref(it) - 1) * (ao + ro * ys));
    c = vm_demo_check (c, sprintf ('dopri5 x(%.4g) vs ode45 (x1; err max_i)', tcmp(it)), ...
                       so.output.q(it, 1), ystep(kref(it), 1), tolx, 'error', ...
                       max (abs (so.output.q(it, :) - ystep(kref(it), 1:n))));
  end
  hs = [0.05 0.025];
  eg = zeros (size (hs));
  for ih = 1:numel (hs)
    sh = gauss_integrate (sys, [0 Tref], x0, v0, 'Method', 'gl6', 'Step', hs(ih), 'OutputTimes', [0 Tref]);
    check_exit (sh);
    eg(ih) = max (abs (sh.output.q(end, :) - ystep(end, 1:n)));
  end
  pobs = log (eg(1) / eg(2)) / log (hs(1) / hs(2));
  c = vm_demo_check (c, sprintf ('gl6 order vs ode45 (h = %g/%g, t = %g)', hs, Tref), pobs, 6, 0.3);
  c = vm_demo_check (c, sprintf ('gl6 h = %g: |x(%g) - x_ode45|', hs(2), Tref), eg(2), 0, NaN);

  r.checks = c;
  r.pass = vm_demo_verdict (c);
end

function c = invariant_checks (c, label, s, A, Omega, T, tolstep, projected)
  % drift of the first integrals and the constraint residuals of one run.  An exact invariant I
  % changes only through the steps' errors, each at most sqrt (2n) times the scaled tolerance
  % (dopri5's error norm is an RMS over the 2n components): tolstep = N sqrt (2n) (AbsTol + RelTol
  % max |y|), times max |grad I|.  |xdot| and g are invariants only where phi = 0: their
  % tolerances add the coupling through the measured phi (dg/dt = phi)
  for j = 1:numel (Omega)
    I = sum (s.q .* (s.qdot * Omega{j}'), 2);
    gI = sqrt (sum ((s.qdot * Omega{j}').^2 + (s.q * Omega{j}').^2, 2));
    c = vm_demo_check (c, sprintf ('%s: (x, Omega%d xdot)', label, j), I(end), I(1), ...
                       tolstep * max (gI), 'error', max (abs (I - I(1))));
  end
  phi = s.residual;
  gphi = 2 * sqrt (sum ((s.qdot * A).^2 + (s.q * A).^2, 2));
  c = vm_demo_check (c, sprintf ('%s: phi = 2 (A x, xdot)', label), phi(end), 0, ...
                     tolstep * max (gphi), 'error', max (abs (phi)));
  Ax = s.q * A;
  sp = sqrt (sum (s.qdot.^2, 2));
  kappa = sum (s.qdot .* (s.qdot * A), 2) ./ (2 * sum (Ax.^2, 2) .* sp);
  c = vm_demo_check (c, sprintf ('%s: |xdot|', label), sp(end), sp(1), ...
                     tolstep + T * max (kappa) * max (abs (phi)), 'error', max (abs (sp - sp(1))));
  g = s.residual_position;
  if projected
    tolg = 1e-12;
  else
    tolg = tolstep * max (2 * sqrt (sum (Ax.^2, 2))) + T * max (abs (phi));
  end
  c = vm_demo_check (c, sprintf ('%s: g = (x, A x) - 1', label), g(end), 0, tolg, 'error', ...
                     max (abs (g)));
end

function [ratio, dev] = drift_ratio (t, qdot, T)
  dev = abs (sqrt (sum (qdot.^2, 2)) - 1);
  first = t <= 0.1 * T;
  last = t >= 0.9 * T;
  ratio = max (dev(last)) / max (dev(first));
end

function sys = quadric_system (A)
  % free particle in R^n on (x, A x) = 1, formulas assembled for n coordinates
  n = size (A, 1);
  names = cell (1, n);
  vel = cell (1, n);
  for i = 1:n
    names{i} = sprintf ('x%d', i);
    vel{i} = sprintf ('dot(x%d)^2', i);
  end
  p = struct ();
  terms = {};
  for i = 1:n
    for j = i:n
      pn = sprintf ('a%d_%d', i, j);
      p.(pn) = A(i, j);
      if i == j
        terms{end + 1} = sprintf ('%s*x%d^2', pn, i);
      else
        terms{end + 1} = sprintf ('2*%s*x%d*x%d', pn, i, j);
      end
    end
  end
  lag = ['(', strjoin(vel, ' + '), ')/2'];
  con = [strjoin(terms, ' + '), ' - 1'];
  sys = mechsys ('coordinates', names, 'parameters', p, 'lagrangian', lag, 'constraints', {con});
end

function a = accel_from_terms (sys, X, V)
  % Gauss's principle assembled from the model terms of mechsys_eval:
  % M a = f + g_q' lam,  g_q a = -xdot' g_qq xdot  (holonomic, time independent)
  np = size (X, 1);
  n = size (X, 2);
  o = mechsys_eval (sys, 0, X, V, 'blocks', {'eom', 'constraints'}, 'lambda', ones (np, 1));
  a = zeros (np, n);
  for p = 1:np
    M = reshape (o.M(p, :, :), n, n);
    f = o.f(p, :)';
    G = reshape (o.g_q(p, 1, :), 1, n);
    H = reshape (o.lg_qq(p, :, :), n, n);
    v = V(p, :)';
    rhs = -(v' * H * v);
    Mf = M \ f;
    MG = M \ G';
    lam = (G * MG) \ (rhs - G * Mf);
    a(p, :) = (Mf + MG * lam)';
  end
end

function a = accel_eq24 (X, V, A)
  % eq. 2.4 at the rows of X, V
  AX = X * A;
  a = bsxfun (@times, -sum (V .* (V * A), 2) ./ sum (AX.^2, 2), AX);
end

function dy = quadric_rhs (t, y, A)
  % hand-coded eq. 2.4 for ode45: y = [x; xdot]
  n = size (A, 1);
  x = y(1:n);
  v = y(n + 1:end);
  Ax = A * x;
  dy = [v; -(v' * A * v) / (Ax' * Ax) * Ax];
end

function check_exit (s)
  if s.exitflag ~= 1
    error ('demo_quadric_geodesics: gauss_integrate failed: %s', s.message);
  end
end

function print_table (res)
  fprintf ('Geodesics on the quadric (x, A x) = 1 (Zubelevich eq. 2.4), gauss_integrate, ideal reaction\n');
  for ir = 1:numel (res)
    r = res(ir);
    fprintf ('\nn = %d, eigenvalues of A = [%s], %d symmetr%s, %.1f s\n', r.n, num2str (r.d), ...
             numel (r.Omega), plural (numel (r.Omega)), r.time);
    vm_demo_table (r.checks, '%.4e');
  end
  fprintf ('\nreferences: eq. 2.4 in closed form; ode45 (RelTol 1e-12) on hand-coded eq. 2.4; exact conservation\n');
  [~, verdict] = vm_demo_verdict ([res.checks]);
  fprintf ('%s\n', verdict);
end

function s = plural (k)
  if k == 1
    s = 'y';
  else
    s = 'ies';
  end
end

function draw (res, what)
  colors = [0, 0.447, 0.741; 0.85, 0.325, 0.098];
  leg = {'n = 4, gl6 h = 0.1', 'n = 4, dopri5 RelTol 1e-8', 'n = 6, gl6 h = 0.1', ...
         'n = 6, dopri5 RelTol 1e-8'};
  switch what
    case {'speed', 'integral'}
      % the key in a strip above the axes, off the curves
      vm_demo_subplot (1, 1, 1, 8, [9.5, 2, 5.6, 3.4 + 1.6 * 2 + 1]);
      for ir = 1:numel (res)
        L = res(ir).long;
        if strcmp (what, 'speed')
          yg = L.speed_gl6;
          yd = L.speed_dopri5;
        else
          yg = L.I_gl6;
          yd = L.I_dopri5;
        end
        semilogy (L.t_gl6, max (yg, 1e-17), '-', 'color', colors(ir, :));
        hold on;
        semilogy (L.t_dopri5, max (yd, 1e-17), '--', 'color', colors(ir, :), 'linewidth', 2);
      end
      hold off;
      xlabel ('t (dimensionless)');
      if strcmp (what, 'speed')
        ylabel ('| |xdot| - |xdot0| | (dimensionless)');
        title ('speed error: bounded (gl6), drifting (dopri5)');
      else
        ylabel ('|(x, Omega1 xdot) - (x0, Omega1 xdot0)|');
        title ('error of the first integral (x, Omega1 xdot)');
        ylim ([1e-17, 1e-7]);
      end
      specs = cell (1, 4);
      for ir = 1:2
        specs{2 * ir - 1} = {'-', 'color', colors(ir, :)};
        specs{2 * ir} = {'--', 'color', colors(ir, :), 'linewidth', 2};
      end
      vm_demo_key (specs, leg, 8, 2);
    otherwise
      q = res(1).long.q;
      plot3 (q(:, 1), q(:, 2), q(:, 3), '-', 'color', colors(1, :));
      xlabel ('x_1');
      ylabel ('x_2');
      zlabel ('x_3');
      title ('n = 4 geodesic, t in [0, 50] (dimensionless)');
  end
  set (gca, 'fontsize', 8);
  grid on;
end
