function results = demo_incline (varargin)
% -*- texinfo -*-
% @deftypefn  {} {} demo_incline ()
% @deftypefnx {} {results =} demo_incline (..., "quiet")
% @deftypefnx {} {results =} demo_incline (..., "png", dir)
% @deftypefnx {} {results =} demo_incline (..., "RelTol", rtol)
% A particle sliding on an incline, with and without Coulomb friction (Rothkopf & Horowitz, "A
% variational approach to nonholonomic and inequality-constrained mechanics", Sec.@: III, eq.@: 11,
% Fig.@: 4): M = 1 (not stated in the paper), alpha = pi/6, g = 9.8, mu = 0.4, released at rest
% at (cos alpha, sin alpha), 0 <= t <= 1.  Reference: the closed form s(t) = s0 + a t^2/2,
% a = -g (sin alpha - mu cos alpha), s the position along the incline.  Integrated with
% @code{gauss_integrate} (dopri5): (a) the holonomic line, mu = 0 (the multiplier is the normal
% force M g cos alpha); (b) the line with friction as the explicit force
% -mu M g cos(alpha) tanh(sdot/epsv) e, whose smoothing gain is predicted in closed form;
% (c) the paper's soft contact (sigma = 1/70, V0 = 5, start offset delta = 1/30), whose force
% equals the paper's F_N and F_R; the normal motion oscillates about the equilibrium offset
% delta* = 0.0347 near the paper's delta; a sweep over sigma started at delta*(sigma); the launch
% from delta = 0.  Tolerance: 10 RelTol times the scale of the quantity.  The paper's admissible
% side x tan(alpha) - y >= 0 is a misprint (its start and F_N need <= 0; doc/misprints.md).
% "RelTol": dopri5's relative tolerance (default 1e-10, AbsTol = RelTol/100); "png", dir writes
% demo_incline_@{trajectory,sigma,normal@}.png.  @var{results} holds @code{line}, @code{soft},
% @code{sweep}, @code{launch}, @code{paper_force}, the printed table @code{checks} and @code{pass}.
% @seealso{gauss_integrate, mechsys, demo_rolling_disk}
% @end deftypefn

  opt = vm_demo_args ('demo_incline', varargin, struct ('RelTol', 1e-10));
  rtol = opt.RelTol;
  if ~(isnumeric (rtol) && isscalar (rtol) && isreal (rtol) && rtol > 0 && rtol < 1e-3)
    error ('demo_incline: RelTol must be a number in (0, 1e-3)');
  end

  M = 1;
  g = 9.8;
  alpha = pi / 6;
  mu = 0.4;
  sa = sin (alpha);
  ca = cos (alpha);
  T = 1;
  tout = linspace (0, T, 401)';
  dt = tout(2) - tout(1);
  epsv_line = 1e-4;
  epsv_soft = 1e-8;
  sigma_paper = 1 / 70;
  delta_paper = 1 / 30;
  V0 = 5;
  sigmas = [1 / 10, 1 / 20, 1 / 40, 1 / 70, 1 / 110, 1 / 200];
  opts = {'Method', 'dopri5', 'RelTol', rtol, 'AbsTol', rtol / 100, 'OutputTimes', tout};
  e = [ca; sa];
  n = [-sa; ca];
  P = struct ('M', M, 'g', g, 'alpha', alpha, 'mu', mu, 'epsv', epsv_line);
  results.params = struct ('M', M, 'g', g, 'alpha', alpha, 'mu', mu, 'T', T, ...
                           'epsv_line', epsv_line, 'epsv_soft', epsv_soft, ...
                           'sigma_paper', sigma_paper, 'delta_paper', delta_paper, 'V0', V0);
  results.reltol = rtol;
  results.t = tout;

  lag = 'M/2*(dot(x)^2 + dot(y)^2) - M*g*y';
  fr = '-mu*M*g*cos(alpha)*tanh((dot(x)*cos(alpha) + dot(y)*sin(alpha))/epsv)';
  sysl = mechsys ('coordinates', {'x', 'y'}, 'parameters', P, 'lagrangian', lag, ...
                  'forces', {[fr, '*cos(alpha)'], [fr, '*sin(alpha)']}, ...
                  'constraints', {'y*cos(alpha) - x*sin(alpha)'});
  Ps = struct ('M', M, 'g', g, 'alpha', alpha, 'mu', mu, 'epsv', epsv_soft, ...
               'sig', sigma_paper, 'V0', V0);
  con = struct ('h', 'y*cos(alpha) - x*sin(alpha)', 'sigma', 'sig*cos(alpha)', 'V0', 'V0', ...
                'mu', 'mu', 'epsv', 'epsv');
  syss = mechsys ('coordinates', {'x', 'y'}, 'parameters', Ps, 'lagrangian', lag, 'contacts', con);

  % scales of the integration tolerance 10 * RelTol * S
  Ss = max (1, abs (1 - g * sa * T ^ 2 / 2));
  Sv = g * sa * T;
  SN = M * g * ca;
  tolf = @(S) 10 * rtol * S;
  c = struct ('name', {}, 'value', {}, 'reference', {}, 'error', {}, 'tol', {}, 'pass', {});

  % --- the paper's forces at its initial state (x, y) = (cos, sin + delta)
  qp = [ca, sa + delta_paper];
  o = mechsys_eval (syss, 0, qp, [0, 0], 'blocks', {'contacts'});
  gp = qp(1) * tan (alpha) - qp(2);
  Ap = V0 / sqrt (2 * pi * sigma_paper ^ 2) * exp (-gp ^ 2 / (2 * sigma_paper ^ 2));
  FNp = -Ap * [tan(alpha), -1];
  FN = reshape (o.FN(1, 1, :), 1, 2);
  c = vm_demo_check (c, 'contact FN at paper start vs paper F_N (norm)', norm (FN - FNp), 0, ...
                     1e3 * eps * norm (FNp));
  o = mechsys_eval (syss, 0, qp, -e', 'blocks', {'contacts'});
  FRp = mu * Ap * [1, tan(alpha)];
  FR = reshape (o.FR(1, 1, :), 1, 2);
  c = vm_demo_check (c, 'contact FR, downhill 1 m/s, vs paper F_R', norm (FR - FRp), 0, ...
                     1e3 * eps * norm (FRp));
  results.paper_force = struct ('FN', FN, 'FN_paper', FNp, 'FR', FR, 'FR_paper', FRp, ...
                                'x_tan_minus_y', gp);

  % --- (a), (b): the particle on the line, ideal reaction, explicit friction
  mus = [0, mu];
  onl = struct ('mu', {}, 'q', {}, 'qdot', {}, 's', {}, 'v', {}, 'lambda', {}, 's_ref', {}, ...
                 'v_ref', {}, 'gain_v', {}, 'gain_s', {}, 'residual_position', {});
  for im = 1:2
    sysl.parameters.mu = mus(im);
    sol = gauss_integrate (sysl, [0, T], [ca, sa], [0, 0], opts{:});
    check_sol (sol);
    a = -g * (sa - mus(im) * ca);
    m = mus(im) * ca;
    L.mu = mus(im);
    L.q = sol.output.q;
    L.qdot = sol.output.qdot;
    L.s = sol.output.q * e;
    L.v = sol.output.qdot * e;
    L.lambda = sol.output.lambda;
    L.s_ref = 1 + a * tout .^ 2 / 2;
    L.v_ref = a * tout;
    if m > 0
      % the smoothed law gives udot = g (sa - m tanh(u/epsv)) for the downhill speed u: with
      % w = tanh(u/epsv) the speed gain is epsv m Int_0^1 dw/((sa - m w)(1 + w)) and the position
      % gain Du t - Lag, Lag = (epsv^2 m/g) Int_0^1 K(w) dw/((1 - w^2)(sa - m w))
      L.gain_v = epsv_line * m * log (2 * sa / (sa - m)) / (sa + m);
      K = @(w) (log ((sa - m * w) / (sa - m)) + log (2 ./ (1 + w))) / (sa + m);
      lagt = epsv_line ^ 2 * m / g * integral (@(w) K(w) ./ ((1 - w .^ 2) .* (sa - m * w)), 0, 1);
      L.gain_s = L.gain_v * T - lagt;
    else
      L.gain_v = 0;
      L.gain_s = 0;
    end
    L.residual_position = max (abs (sol.residual_position));
    onl(im) = L;
    tag = sprintf ('(%s) line, mu = %g', char ('a' + im - 1), mus(im));
    if im == 1
      c = vm_demo_check (c, [tag, ': s(1)'], L.s(end), L.s_ref(end), tolf (Ss));
      c = vm_demo_check (c, [tag, ': v(1)'], L.v(end), L.v_ref(end), tolf (Sv));
    else
      c = vm_demo_check (c, [tag, ': s(1)'], L.s(end), L.s_ref(end), L.gain_s + tolf (Ss));
      c = vm_demo_check (c, [tag, ': v(1)'], L.v(end), L.v_ref(end), L.gain_v + tolf (Sv));
      c = vm_demo_check (c, [tag, ': s(1), ref - smoothing gain'], L.s(end), L.s_ref(end) - L.gain_s, ...
                         tolf (Ss));
      c = vm_demo_check (c, [tag, ': v(1), ref - smoothing gain'], L.v(end), L.v_ref(end) - L.gain_v, ...
                         tolf (Sv));
    end
    c = vm_demo_check (c, [tag, ': max |lambda - M g cos(alpha)|'], max (abs (L.lambda - SN)), 0, ...
                       tolf (SN));
    c = vm_demo_check (c, [tag, ': max |distance from the line|'], L.residual_position, 0, tolf (Ss));
  end
  results.line = onl;

  % --- (c) soft contact with the paper's sigma, V0 and delta
  sh = sigma_paper * ca;
  soft = struct ('mu', {}, 'q', {}, 'qdot', {}, 's', {}, 'v', {}, 'd', {}, 'ddot', {}, ...
                 'd0', {}, 'dstar', {}, 'd1', {}, 'gain', {});
  syss.parameters.sig = sigma_paper;
  q0 = [ca, sa + delta_paper];
  for im = 1:2
    syss.parameters.mu = mus(im);
    sol = gauss_integrate (syss, [0, T], q0, [0, 0], opts{:}, 'Contacts', 'soft');
    check_sol (sol);
    S.mu = mus(im);
    S.q = sol.output.q;
    S.qdot = sol.output.qdot;
    S.s = sol.output.q * e;
    S.v = sol.output.qdot * e;
    S.d = sol.output.q * n;
    S.ddot = sol.output.qdot * n;
    S.d0 = q0 * n;
    S.dstar = equilibrium (V0, sh, M * g * ca);
    S.d1 = turning_point (S.d0, S.dstar, V0, sh, M * g * ca);
    A0 = V0 / (sqrt (2 * pi) * sh) * exp (-S.d0 ^ 2 / (2 * sh ^ 2));
    S.gain = epsv_soft * vm_incline_gain (sa, mus(im) * A0 / (M * g));
    soft(im) = S;
    a = -g * (sa - mus(im) * ca);
    tag = sprintf ('(c) soft, mu = %g', mus(im));
    if im == 1
      c = vm_demo_check (c, [tag, ': s(1) - s0'], S.s(end) - S.s(1), a * T ^ 2 / 2, tolf (Ss));
      c = vm_demo_check (c, [tag, ': v(1)'], S.v(end), a * T, tolf (Sv));
    else
      bound = mus(im) * abs (S.d1 - S.d0);
      c = vm_demo_check (c, [tag, ': s(1) - s0'], S.s(end) - S.s(1), a * T ^ 2 / 2, ...
                         bound + S.gain + tolf (Ss));
      c = vm_demo_check (c, [tag, ': s(1) - s0 - mu (d(1) - d0), ref - gain'], ...
                         S.s(end) - S.s(1) - mus(im) * (S.d(end) - S.d0), ...
                         a * T ^ 2 / 2 - S.gain * T, tolf (Ss));
      c = vm_demo_check (c, [tag, ': v(1) - mu ddot(1), ref - gain'], S.v(end) - mus(im) * S.ddot(end), ...
                         a * T - S.gain, tolf (Sv));
    end
    Un = M * S.ddot .^ 2 / 2 + normal_potential (S.d, V0, sh, M * g * ca);
    c = vm_demo_check (c, [tag, ': normal energy drift'], max (abs (Un - Un(1))), 0, ...
                       tolf (M * g * ca * Ss));
    acc1 = abs (V0 / (sqrt (2 * pi) * sh) * exp (-S.d1 ^ 2 / (2 * sh ^ 2)) / M - g * ca);
    c = vm_demo_check (c, [tag, ': top d1 of the normal motion'], max (S.d), S.d1, ...
                       acc1 * (dt / 2) ^ 2 / 2 + tolf (Ss));
  end
  results.soft = soft;

  % --- sigma sweep: start at the equilibrium offset delta*(sigma), mu = 0.4
  syss.parameters.mu = mu;
  ns = numel (sigmas);
  sw = struct ('sigma', sigmas, 'delta', zeros (1, ns), 'err', zeros (1, ns), ...
               'pred', zeros (1, ns), 'dev', zeros (1, ns));
  sref_end = (1 - g * (sa - mu * ca) * T ^ 2 / 2) * e';
  for is = 1:ns
    shk = sigmas(is) * ca;
    dstar = equilibrium (V0, shk, M * g * ca);
    delta = dstar / ca;
    syss.parameters.sig = sigmas(is);
    sol = gauss_integrate (syss, [0, T], [ca, sa + delta], [0, 0], opts{:}, 'Contacts', 'soft');
    check_sol (sol);
    gain = epsv_soft * vm_incline_gain (sa, mu * ca);
    sw.delta(is) = delta;
    sw.err(is) = norm (sol.output.q(end, :) - sref_end);
    sw.pred(is) = norm ([0, delta] - gain * T * e');
    sw.dev(is) = max (abs (sol.output.q * n - dstar));
    c = vm_demo_check (c, sprintf ('sweep sigma = 1/%g: |q(1) - closed form|', 1 / sigmas(is)), ...
                       sw.err(is), sw.pred(is), tolf (Ss));
    c = vm_demo_check (c, sprintf ('sweep sigma = 1/%g: max |d - d*|', 1 / sigmas(is)), sw.dev(is), 0, ...
                       tolf (Ss));
  end
  results.sweep = sw;

  % --- launch: the soft contact started on the incline (delta = 0), mu = 0
  syss.parameters.mu = 0;
  syss.parameters.sig = sigma_paper;
  sol = gauss_integrate (syss, [0, T], [ca, sa], [0, 0], opts{:}, 'Contacts', 'soft');
  check_sol (sol);
  dstar = equilibrium (V0, sh, M * g * ca);
  results.launch.d = sol.output.q * n;
  results.launch.d1 = turning_point (0, dstar, V0, sh, M * g * ca);
  results.launch.dmax = max (results.launch.d);
  c = vm_demo_check (c, 'launch from delta = 0: top d1 (U(d1) = V0/2)', results.launch.dmax, ...
                     results.launch.d1, g * ca * (dt / 2) ^ 2 / 2 + tolf (Ss));

  results.checks = c;
  results.pass = vm_demo_verdict (c);

  if ~opt.quiet
    print_table (results);
  end
  vm_demo_png (opt, {'trajectory', 'sigma', 'normal'}, @(what) draw (results, what));
  if nargout == 0
    clear results;
  end
end

function check_sol (sol)
  if sol.exitflag ~= 1
    error ('demo_incline: integration failed: %s', sol.message);
  end
end

function d = equilibrium (V0, sh, W)
  % A(d) = W on the outer flank of the Gaussian (stable equilibrium above the incline): the normal
  % motion M ddot = A(d) - M g cos(alpha), A(d) = V0/(sqrt(2 pi) sh) exp(-d^2/(2 sh^2)), is
  % conservative in U(d) = W d + V0 Phi(-d/sh), W = M g cos(alpha)
  d = sh * sqrt (2 * log (V0 / (sqrt (2 * pi) * sh * W)));
end

function U = normal_potential (d, V0, sh, W)
  % U(d) = W d + V0 Phi(-d/sh); Phi(-z) = erfc(z/sqrt(2))/2
  U = W * d + V0 / 2 * erfc (d / (sh * sqrt (2)));
end

function d1 = turning_point (d0, dstar, V0, sh, W)
  % the other root of U(d1) = U(d0) for a start at rest at d0 < dstar
  U0 = normal_potential (d0, V0, sh, W);
  hi = dstar;
  while normal_potential (hi, V0, sh, W) < U0
    hi = 2 * hi;
  end
  d1 = fzero (@(x) normal_potential (x, V0, sh, W) - U0, [dstar, hi], optimset ('TolX', 1e-15));
end

function print_table (r)
  p = r.params;
  fprintf ('Particle on an incline (Rothkopf & Horowitz Fig. 4): alpha = pi/6, g = %g, M = %g, mu = 0 / %g\n', ...
           p.g, p.M, p.mu);
  fprintf ('start at rest at (cos(alpha), sin(alpha)) (+ delta in y for the soft contact), 0 <= t <= %g\n', p.T);
  fprintf ('s = position along the incline (up the slope), v = sdot, d = distance above it\n');
  fprintf ('reference: closed form s = 1 + a t^2/2, a = -g (sin(alpha) - mu cos(alpha))\n');
  fprintf ('(a), (b): holonomic line, ideal reaction, friction as explicit force with tanh(v/%g)\n', p.epsv_line);
  fprintf ('(c): soft contact h = d >= 0, V0 = %g, sigma (paper units) = 1/70, delta = 1/30, epsv = %g\n', ...
           p.V0, p.epsv_soft);
  fprintf ('paper''s start: x tan(alpha) - y = %.5f < 0 (the admissible side is <= 0; misprint)\n', ...
           r.paper_force.x_tan_minus_y);
  fprintf ('dopri5, RelTol = %g; integration tolerance 10 * RelTol * scale\n\n', r.reltol);
  vm_demo_table (r.checks, '%.9g');
  fprintf ('\nsmoothing gains: line (tanh, epsv = %g): v %.4e, s %.4e; soft (epsv = %g): %.3e, %.3e\n', ...
           p.epsv_line, r.line(2).gain_v, r.line(2).gain_s, p.epsv_soft, r.soft(1).gain, r.soft(2).gain);
  fprintf ('soft, paper values: d0 = %.5f, equilibrium d* = %.5f (delta* = %.5f), top d1 = %.5f\n', ...
           r.soft(1).d0, r.soft(1).dstar, r.soft(1).dstar / cos (p.alpha), r.soft(1).d1);
  fprintf ('\nsigma sweep (mu = %g, start at the equilibrium offset delta*):\n', p.mu);
  fprintf ('%8s | %10s | %14s | %14s | %10s\n', 'sigma', 'delta*', '|q(1) - ref|', 'prediction', 'max|d-d*|');
  for k = 1:numel (r.sweep.sigma)
    fprintf ('  1/%-5g | %10.6f | %14.10f | %14.10f | %10.2e\n', 1 / r.sweep.sigma(k), ...
             r.sweep.delta(k), r.sweep.err(k), r.sweep.pred(k), r.sweep.dev(k));
  end
  fprintf ('launch from the incline (delta = 0): top %.5f, predicted %.5f\n', r.launch.dmax, r.launch.d1);
  [~, verdict] = vm_demo_verdict (r.checks);
  fprintf ('%s\n', verdict);
end

function draw (r, what)
  t = r.t;
  ca = cos (r.params.alpha);
  sa = sin (r.params.alpha);
  switch what
    case 'trajectory'
      % colour: the friction coefficient (blue mu = 0, red mu = 0.4); marker: the coordinate and
      % the model; the key in a strip above the axes, off the curves
      vm_demo_subplot (1, 1, 1, 8, [9.5, 2, 5.6, 3.4 + 1.6 * 3 + 1]);
      hold on;
      cols = {'b', 'r'};
      for im = 1:2
        L = r.line(im);
        plot (t, L.s_ref * ca, [cols{im}, '-'], t, L.s_ref * sa, [cols{im}, '-']);
        plot (t(1:20:end), L.q(1:20:end, 1), [cols{im}, 'o'], t(1:20:end), L.q(1:20:end, 2), [cols{im}, 's']);
        S = r.soft(im);
        plot (t(10:20:end), S.q(10:20:end, 1), [cols{im}, 'x'], t(10:20:end), S.q(10:20:end, 2), [cols{im}, '+']);
      end
      hold off;
      xlabel ('t (s)');
      ylabel ('x, y (m)');
      title ('incline: x(t) and y(t), mu = 0 and mu = 0.4');
      k = {'color', 'k', 'linestyle', 'none'};
      vm_demo_key ({{'b-'}, {'r-'}, [{'o'}, k], [{'s'}, k], [{'x'}, k], [{'+'}, k]}, ...
                   {'closed form, mu = 0 (blue)', 'closed form, mu = 0.4 (red)', 'x, line constraint', ...
                    'y, line constraint', 'x, soft contact', 'y, soft contact'}, 8, 2);
    case 'sigma'
      loglog (r.sweep.sigma, r.sweep.err, 'bo', r.sweep.sigma, r.sweep.pred, 'k-', 'linewidth', 1.5);
      xlabel ('sigma (m, width of the layer in x tan(alpha) - y)');
      ylabel ('|q(1) - closed form| (m)');
      title ('soft contact, mu = 0.4, start at delta*(sigma)');
      xlim ([min(r.sweep.sigma) / 2, max(r.sweep.sigma) * 2]);
      ylim ([min(r.sweep.err) / 2, max(r.sweep.err) * 2]);
      lh = legend ({'soft contact, computed', 'predicted'}, 'location', 'southeast');
      set (lh, 'fontsize', 7);
    otherwise
      S = r.soft(2);
      vm_demo_subplot (1, 1, 1, 8, [10.5, 2, 5.6, 3.4 + 1.6 + 1]);
      plot (t([1, end]), S.dstar * [1, 1], 'k--', t([1, end]), S.d1 * [1, 1], 'k:', 'linewidth', 1.5);
      hold on;
      plot (t, S.d, '-', 'color', [0, 0, 0.8], 'linewidth', 2.5);
      hold off;
      xlabel ('t (s)');
      ylabel ('d = distance above the incline (m)');
      title ('soft contact, mu = 0.4: sigma = 1/70, delta = 1/30');
      pad = 0.1 * (S.d1 - S.d0);
      ylim ([min(S.d) - pad, max(S.d1, max (S.d)) + pad]);
      vm_demo_key ({{'-', 'color', [0, 0, 0.8], 'linewidth', 2.5}, {'k--'}, {'k:'}}, ...
                   {'d(t)', 'equilibrium d*', 'predicted top d1'}, 8, 3);
  end
  set (gca, 'fontsize', 8);
  grid on;
end
