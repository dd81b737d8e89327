function results = demo_skg_tumbler (varargin)
% -*- texinfo -*-
% @deftypefn  {} {} demo_skg_tumbler ()
% @deftypefnx {} {results =} demo_skg_tumbler (..., "quiet")
% @deftypefnx {} {results =} demo_skg_tumbler (..., "png", dir)
% A point mass in a circular tumbler with the paper's regularized (soft) wall as the critical point
% of the discrete SKG action (Rothkopf & Horowitz, "A variational approach to nonholonomic and
% inequality-constrained mechanics", eqs.@: 11, 14 and Fig.@: 3; the hard wall is
% @code{demo_tumbler}): m = 1, R = 1, g = 9.8, start at rest at (-1/2, -3/4), 0 <= t <= 1/2 on
% N = 256 points, order 4, the wall h = R^2 - x^2 - y^2 as a soft contact with sigma = 1/10 ...
% 1/110.  Its force -grad (V0 Phi(-h/sigma)) conserves E = m |rdot|^2/2 + m g y + V0 Phi(-h/sigma).
% A: varmech's force with V0 = 5 equals the paper's printed F_N with V0 = 10 (the printed force
%    lacks a factor 2; doc/misprints.md);
% B: @code{skg_solve} on the paper's grid against @code{gauss_integrate} with the same soft wall
%    (dop853, RelTol 1e-12) and with the hard wall (its distance decreases with sigma, Fig.@: 3
%    center), and the energy;
% R: the observed orders between N = 512 and 1024, at least p+1 - 0.3 = 2.7;
% C: how far sigma can go down as N grows (the layer must be resolved: the smallest sigma whose
%    motion is within 1e-4 of the soft reference decreases with N).
% Each solve starts from the constant guess, then from the soft reference, then with
% 'Windows' 4 ... 32; the strategy used is recorded.  "png", dir writes
% demo_skg_tumbler_@{trajectory,convergence,energy,sigma@}.png.  @var{results} holds @code{B},
% @code{rates}, @code{cases}, @code{sigma_min}, the printed table @code{checks} and @code{pass}.
% @seealso{skg_solve, demo_tumbler, gauss_integrate}
% @end deftypefn

  opt = vm_demo_args ('demo_skg_tumbler', varargin, struct ());

  m = 1;
  R = 1;
  g = 9.8;
  V0paper = 10;
  V0 = V0paper / 2;
  r0 = [-1/2, -3/4];
  v0 = [0, 0];
  T = 1 / 2;
  order = 4;
  sigB = [10, 30, 50, 70, 90, 110];
  sigC = [70, 90, 110, 150, 200, 300, 500];
  Ns = [256, 512, 1024];
  Wtry = [4, 8, 16, 32];
  res_tol = 1e-4;
  % regression bounds at N = 256 (about twice the errors; the observed orders carry the theory:
  % SBP-SAT gives max-norm order p+1 = 3 at interior order 4, rate_min allows 0.3 below it)
  tol_err = [3e-7, 2e-6, 1e-5, 3e-5, 6e-4, 3e-3];
  tol_en = [2e-6, 5e-5, 5e-4, 2e-3, 2e-2, 5e-2];
  rate_min = 3 - 0.3;
  % MaxStep below the crossing time of the contact layer, about sigma/(2 R |v|)
  ropts = {'Method', 'dop853', 'RelTol', 1e-12, 'AbsTol', 1e-14, 'Contacts', 'soft', 'MaxStep', 1e-4};

  par = struct ('m', m, 'g', g, 'R', R, 'sig', 1 / 110, 'V0', V0);
  contact = struct ('h', 'R^2 - x^2 - y^2', 'sigma', 'sig', 'V0', 'V0');
  sys = mechsys ('coordinates', {'x', 'y'}, 'parameters', par, ...
                 'lagrangian', 'm/2*(dot(x)^2 + dot(y)^2) - m*g*y', 'contacts', contact);
  results.params = struct ('m', m, 'R', R, 'g', g, 'V0', V0, 'V0_paper', V0paper, 'r0', r0, ...
                           'T', T, 'order', order, 'resolution_tol', res_tol);
  c = struct ('part', {}, 'name', {}, 'value', {}, 'reference', {}, 'error', {}, 'tol', {}, ...
              'pass', {}, 'info', {});

  % ---- A: varmech's FN with V0 = 5 against the printed F_N with V0 = 10 ----------------------------
  rr = [0.9, 0.3; -0.6, -0.795; 0.2, -0.99; -0.7071, -0.7071];
  fdiff = 0;
  for s = [10, 70, 110]
    sys.parameters.sig = 1 / s;
    o = mechsys_eval (sys, 0, rr, zeros (size (rr)), 'blocks', {'contacts'});
    gs = sum (rr .^ 2, 2) - R ^ 2;
    Fp = -V0paper / sqrt (2 * pi / s ^ 2) * (exp (-gs .^ 2 * s ^ 2 / 2) * [1, 1]) .* rr;
    Fv = reshape (o.FN, size (rr));
    fdiff = max (fdiff, max (abs (Fv(:) - Fp(:))) / max (1, max (abs (Fp(:)))));
  end
  results.force_diff = fdiff;
  c = vm_demo_check (c, 'FN (V0 = 5) vs printed F_N (V0 = 10), rel.', fdiff, 0, 1e3 * eps, 'part', 'A');

  % ---- all runs: N x sigma ---------------------------------------------------------------------------
  sall = unique ([sigB, sigC]);
  runs = cell (numel (Ns), numel (sall));
  for iN = 1:numel (Ns)
    for is = 1:numel (sall)
      runs{iN, is} = solve_case (sys, sall(is), Ns(iN), r0, v0, T, order, ropts, Wtry, V0, R);
    end
  end

  % ---- B: the paper's grid N = 256 -------------------------------------------------------------------
  tg = linspace (0, T, Ns(1))';
  hard = gauss_integrate (sys, [0, T], r0, v0, 'RelTol', 1e-12, 'AbsTol', 1e-14, 'Contacts', 'hard', ...
                          'Restitution', 1, 'OutputTimes', tg);
  B = struct ('sigma', {}, 't', {}, 'q', {}, 'q_soft', {}, 'q_hard', {}, 'strategy', {}, ...
              'exitflag', {}, 'err_soft', {}, 'dev_hard', {}, 'dev_hard_soft', {}, 'energy_err', {}, ...
              'energy_err_soft', {}, 'Etot', {}, 'Emech', {});
  for k = 1:numel (sigB)
    r = runs{1, sall == sigB(k)};
    b.sigma = 1 / sigB(k);
    b.t = r.t;
    b.q = r.q;
    b.q_soft = r.q_soft;
    b.q_hard = hard.output.q;
    b.strategy = r.strategy;
    b.exitflag = r.exitflag;
    b.err_soft = r.err;
    b.dev_hard = max (sqrt (sum ((r.q - hard.output.q) .^ 2, 2)));
    b.dev_hard_soft = max (sqrt (sum ((r.q_soft - hard.output.q) .^ 2, 2)));
    b.energy_err = r.energy_err;
    b.energy_err_soft = r.energy_err_soft;
    b.Etot = r.Etot;
    b.Emech = r.Emech;
    B(k) = b;
    part = sprintf ('B 1/%d', sigB(k));
    c = vm_demo_check (c, 'Newton converged (1 = yes)', r.exitflag, 1, 0, 'part', part);
    c = vm_demo_check (c, sprintf ('converged from the constant start (strategy: %s)', r.strategy), ...
                       r.default_exitflag, NaN, NaN, 'part', part);
    c = vm_demo_check (c, 'max |r - r_soft| (discretization error)', r.err, 0, tol_err(k), 'part', part);
    c = vm_demo_check (c, 'max |r - r_hard| vs that of the soft reference', b.dev_hard, ...
                       b.dev_hard_soft, r.err + 1e-12, 'part', part);
    c = vm_demo_check (c, 'max |E - E0| (E with the barrier V0 Phi(-h/sigma))', r.energy_err, 0, ...
                       tol_en(k), 'part', part);
    c = vm_demo_check (c, 'max |E - E0| of the soft reference', r.energy_err_soft, 0, 1e-10, ...
                       'part', part);
  end
  dec = all (diff ([B.dev_hard]) < 0);
  c = vm_demo_check (c, 'max |r - r_hard| decreases with sigma (1 = yes)', double (dec), 1, 0, ...
                     'part', 'B');
  results.sigma_B = sigB;
  results.B = B;
  results.hard = struct ('t', hard.output.t, 'q', hard.output.q, 'impacts', hard.impacts.t);

  % ---- R: observed orders between N = 512 and 1024 ---------------------------------------------------
  rt = struct ('sigma', 1 ./ sigB, 'err', zeros (numel (Ns), numel (sigB)), ...
               'energy', zeros (numel (Ns), numel (sigB)), 'rate', zeros (1, numel (sigB)), ...
               'rate_energy', zeros (1, numel (sigB)));
  for k = 1:numel (sigB)
    for iN = 1:numel (Ns)
      r = runs{iN, sall == sigB(k)};
      rt.err(iN, k) = r.err;
      rt.energy(iN, k) = r.energy_err;
    end
    f = log ((Ns(3) - 1) / (Ns(2) - 1));
    rt.rate(k) = log (rt.err(2, k) / rt.err(3, k)) / f;
    rt.rate_energy(k) = log (rt.energy(2, k) / rt.energy(3, k)) / f;
    part = sprintf ('R 1/%d', sigB(k));
    % reference column: the least accepted order; error: the shortfall below it
    c = vm_demo_check (c, 'observed order of max |r - r_soft|, N = 512 -> 1024', rt.rate(k), ...
                       rate_min, 0, 'error', max (0, rate_min - rt.rate(k)), 'part', part);
    c = vm_demo_check (c, 'observed order of max |E - E0|, N = 512 -> 1024', rt.rate_energy(k), ...
                       rate_min, 0, 'error', max (0, rate_min - rt.rate_energy(k)), 'part', part);
  end
  results.rates = rt;

  % ---- C: how far sigma can go down as N grows --------------------------------------------------------
  cases = struct ('N', {}, 'sigma', {}, 'default_exitflag', {}, 'default_message', {}, ...
                  'guess_exitflag', {}, 'guess_iterations', {}, 'unresolved', {}, 'guess_message', {}, 'err_guess', {}, ...
                  'energy_guess', {}, 'windows', {}, 'err_windows', {}, 'windows_messages', {});
  smin = zeros (1, numel (Ns));
  smin_default = zeros (1, numel (Ns));
  for iN = 1:numel (Ns)
    for is = 1:numel (sall)
      r = runs{iN, is};
      cs.N = Ns(iN);
      cs.sigma = 1 / sall(is);
      cs.default_exitflag = r.default_exitflag;
      cs.default_message = r.default_message;
      cs.guess_exitflag = r.guess_exitflag;
      cs.guess_iterations = r.guess_iterations;
      cs.unresolved = r.unresolved;
      cs.guess_message = r.guess_message;
      cs.err_guess = r.err_guess;
      cs.energy_guess = r.energy_guess;
      cs.windows = r.windows;
      cs.err_windows = r.err_windows;
      cs.windows_messages = r.windows_messages;
      cases(end + 1) = cs; %#ok<AGROW>
      if r.guess_exitflag == 1 && r.err_guess <= res_tol
        smin(iN) = max (smin(iN), sall(is));
      end
      if r.default_exitflag == 1
        smin_default(iN) = max (smin_default(iN), sall(is));
      end
    end
    c = vm_demo_check (c, sprintf ('smallest resolved sigma (|r - r_soft| <= %g): 1/x', res_tol), ...
                       smin(iN), NaN, NaN, 'part', sprintf ('C N=%d', Ns(iN)));
    c = vm_demo_check (c, 'smallest sigma converging from the constant start: 1/x', smin_default(iN), ...
                       NaN, NaN, 'part', sprintf ('C N=%d', Ns(iN)));
  end
  c = vm_demo_check (c, 'smallest resolved sigma decreases as N doubles (1 = yes)', ...
                     double (all (diff (smin) > 0)), 1, 0, 'part', 'C');
  results.sigma_C = sall;
  results.Ns = Ns;
  results.cases = cases;
  results.sigma_min = 1 ./ smin;
  results.sigma_min_default = 1 ./ smin_default;
  results.checks = c;
  results.pass = vm_demo_verdict (c);

  if ~opt.quiet
    print_table (results);
  end
  vm_demo_png (opt, {'trajectory', 'convergence', 'energy', 'sigma'}, @(what) draw (results, what));
  if nargout == 0
    clear results;
  end
end

function r = solve_case (sys, s, N, r0, v0, T, order, ropts, Wtry, V0, R)
  % one (N, sigma): constant start, guess from the soft reference, windows
  sys.parameters.sig = 1 / s;
  tg = linspace (0, T, N)';
  ref = gauss_integrate (sys, [0, T], r0, v0, ropts{:}, 'OutputTimes', tg);
  if ref.exitflag ~= 1
    error ('demo_skg_tumbler: soft reference failed (sigma = 1/%d): %s', s, ref.message);
  end
  args = {'N', N, 'Order', order};
  % these fixed grids are the study: whether one resolves the contact layer is recorded
  % (sol.unresolved_windows, column "unres" of table C) instead of warned about at every solve
  ws = warning ('off', 'varmech:skg_solve:unresolved');
  restore = onCleanup (@() warning (ws));
  sd = skg_solve (sys, [0, T], r0, v0, args{:}, 'Guess', 'constant');
  r.default_exitflag = sd.exitflag;
  r.default_message = sd.message;
  sg = skg_solve (sys, [0, T], r0, v0, args{:}, 'Guess', ref.output.q);
  r.guess_exitflag = sg.exitflag;
  r.unresolved = sg.unresolved_windows;
  r.guess_iterations = sg.iterations;
  r.guess_message = sg.message;
  [r.err_guess, r.energy_guess] = errors (sg, ref, s, V0, R);
  % windows from the default guess (only where the default guess fails)
  r.windows = NaN;
  r.err_windows = NaN;
  r.windows_messages = {};
  sw = [];
  if sd.exitflag ~= 1
    for W = Wtry
      Nw = round ((N - 1) / W) + 1;
      sw = skg_solve (sys, [0, T], r0, v0, 'N', Nw, 'Order', order, 'Windows', W, ...
                      'Guess', 'constant');
      if sw.exitflag == 1
        refw = gauss_integrate (sys, [0, T], r0, v0, ropts{:}, 'OutputTimes', sw.t);
        r.windows = W;
        r.err_windows = errors (sw, refw, s, V0, R);
        break;
      end
      r.windows_messages{end + 1} = sprintf ('W = %d: %s', W, sw.message);
    end
  end
  % the solution used: first strategy that converged
  if sd.exitflag == 1
    sol = sd;
    r.strategy = 'default guess';
  elseif sg.exitflag == 1
    sol = sg;
    r.strategy = 'soft reference as guess';
  elseif ~isnan (r.windows)
    sol = sw;
    r.strategy = sprintf ('windows W = %d', r.windows);
    ref = gauss_integrate (sys, [0, T], r0, v0, ropts{:}, 'OutputTimes', sw.t);
  else
    sol = sg;
    r.strategy = 'none converged';
  end
  r.exitflag = sol.exitflag;
  r.t = sol.t;
  r.q = sol.q;
  r.q_soft = ref.output.q;
  [r.err, r.energy_err, r.Etot, r.Emech] = errors (sol, ref, s, V0, R);
  Es = ref.energy;   % at its steps, with the barrier: the solvers count V0/2 erfc(h/(sqrt(2) sigma))
  r.energy_err_soft = max (abs (Es - Es(1)));
end

function [err, een, Etot, Emech] = errors (sol, ref, s, V0, R)
  % max distance from the soft reference; energy with the barrier V0 Phi(-h/sigma)
  err = max (sqrt (sum ((sol.q - ref.output.q) .^ 2, 2)));
  Etot = sol.energy;   % the solver's energy includes the barrier (sol.contact_energy)
  Emech = Etot - sol.contact_energy;
  een = max (abs (Etot - Etot(1)));
end

function print_table (r)
  p = r.params;
  fprintf ('Tumbler with the regularized wall as the critical point of the SKG action (R & H Fig. 3)\n');
  fprintf ('m = %g, R = %g, g = %g, start at rest at (%g, %g), t in [0, %g], order %d\n', p.m, p.R, ...
           p.g, p.r0, p.T, p.order);
  fprintf ('varmech V0 = %g = printed force with the paper''s V0 = %g (misprint: factor 2)\n', p.V0, ...
           p.V0_paper);
  fprintf ('references: gauss_integrate dop853 soft contact (same sigma), and hard wall (e = 1)\n\n');
  vm_demo_table (r.checks, '%.4g', 'part');
  fprintf ('\nC: Newton from the default guess / soft reference as guess / windows, per N and sigma\n');
  fprintf ('%5s %7s | %7s | %5s %4s %5s %10s %10s | %4s %10s\n', 'N', 'sigma', 'default', 'guess', 'it', ...
           'unres', '|r-r_soft|', '|E-E0|', 'W', '|r-r_soft|');
  for k = 1:numel (r.cases)
    cs = r.cases(k);
    fprintf ('%5d %7s | %7d | %5d %4d %5d %10.2e %10.2e | %4g %10.2e\n', cs.N, sprintf ('1/%d', ...
             round (1 / cs.sigma)), cs.default_exitflag, cs.guess_exitflag, cs.guess_iterations, ...
             cs.unresolved, cs.err_guess, cs.energy_guess, cs.windows, cs.err_windows);
  end
  k = find ([r.cases.default_exitflag] == 0, 1);
  if ~isempty (k)
    fprintf ('e.g. N = %d, sigma = 1/%d, default guess: %s\n', r.cases(k).N, ...
             round (1 / r.cases(k).sigma), r.cases(k).default_message);
  end
  fprintf ('unres: windows of the guess solve that fail the contact check (the grid does not resolve\n');
  fprintf ('the contact layer: sol.unresolved_windows; skg_solve warns varmech:skg_solve:unresolved)\n');
  fprintf ('smallest resolved sigma: %s\n', sprintf ('1/%g (N = %d)  ', [1 ./ r.sigma_min; r.Ns]));
  [~, verdict] = vm_demo_verdict (r.checks);
  fprintf ('%s\n', verdict);
end

function draw (r, what)
  % every key in a strip above its axes (vm_demo_key), off the curves, and the axes tight to them
  B = r.B;
  R = r.params.R;
  ph = linspace (0, 2 * pi, 361);
  nb = numel (B);
  fs = 8;
  blue = [0, 0.447, 0.741];
  red = [0.85, 0.325, 0.098];
  no = {'linestyle', 'none'};
  switch what
    case 'trajectory'
      % zoomed on the motion (the lower part of the tumbler); SKG every 3rd node
      vm_demo_subplot (1, 1, 1, fs, [9.5, 2, 5.6, 3.4 + 1.6 * 3 + 1]);
      k = 1:3:numel (B(nb).t);
      plot (R * cos (ph), R * sin (ph), 'k-', 'linewidth', 1.5);
      hold on;
      plot (B(1).q_hard(:, 1), B(1).q_hard(:, 2), '-', 'color', blue, 'linewidth', 1.5);
      plot (B(nb).q(k, 1), B(nb).q(k, 2), 'o', 'color', red, 'markersize', 4);
      hold off;
      axis equal;
      axis ([-0.6, 0.1, -1.02, -0.72] * R);
      set (gca, 'fontsize', fs);
      xlabel ('x (m)');
      ylabel ('y (m)');
      title (sprintf ('tumbler: hard wall (gauss_integrate) and SKG, N = %d', numel (B(nb).t)), ...
             'interpreter', 'none');
      vm_demo_key ({{'k-', 'linewidth', 1.5}, {'-', 'color', blue, 'linewidth', 1.5}, ...
                    [{'o', 'color', red, 'markersize', 4}, no]}, ...
                   {'wall', 'hard wall (e = 1)', sprintf('SKG, sigma = 1/%d m^2 (every 3rd node)', ...
                    round (1 / B(nb).sigma))}, fs, 1);
      grid on;
    case 'convergence'
      names = {'x (m)', 'y (m)'};
      for i = 1:2
        vm_demo_subplot (2, 1, i, fs, [], 1.6 * 2 + 1);
        hold on;
        for k = 1:nb
          gr = 0.8 * (1 - (k - 1) / max (1, nb - 1));
          plot (B(k).t, B(k).q(:, i), '-', 'color', gr * [1, 1, 1]);
        end
        plot (B(1).t, B(1).q_hard(:, i), '--', 'color', blue, 'linewidth', 1.5);
        hold off;
        set (gca, 'fontsize', fs);
        xlabel ('t (s)');
        ylabel (names{i});
        grid on;
        if i == 1
          title (sprintf ('SKG, N = %d: sigma from 1/%d to 1/%d m^2', numel (B(1).t), ...
                          round (1 / B(1).sigma), round (1 / B(nb).sigma)));
        end
      end
      vm_demo_key ({{'-', 'color', 0.8 * [1, 1, 1]}, {'-', 'color', [0, 0, 0]}, ...
                    {'--', 'color', blue, 'linewidth', 1.5}}, ...
                   {sprintf('SKG, sigma = 1/%d m^2 (light)', round (1 / B(1).sigma)), ...
                    sprintf('SKG, sigma = 1/%d m^2 (dark)', round (1 / B(nb).sigma)), 'hard wall'}, fs, 2);
    case 'energy'
      vm_demo_subplot (1, 1, 1, fs, [9.5, 2, 5.6, 3.4 + 1.6 * 2 + 1]);
      hold on;
      for k = 1:nb - 1
        gr = 0.8 * (1 - (k - 1) / max (1, nb - 1));
        plot (B(k).t, B(k).Emech, '-', 'color', gr * [1, 1, 1]);
      end
      plot (B(nb).t, B(nb).Etot, '-', 'color', blue, 'linewidth', 1.5);
      plot (B(nb).t, B(nb).Emech, '-', 'color', red, 'linewidth', 1.5);
      hold off;
      E = [B.Emech];
      E = [E(:); B(nb).Etot(:)];
      ylim ([min(E), max(E)] + 0.05 * (max (E) - min (E)) * [-1, 1]);
      set (gca, 'fontsize', fs);
      xlabel ('t (s)');
      ylabel ('E (J)');
      title (sprintf ('SKG, N = %d: energy, sigma = 1/%d m^2', numel (B(nb).t), round (1 / B(nb).sigma)));
      vm_demo_key ({{'-', 'color', blue, 'linewidth', 1.5}, {'-', 'color', red, 'linewidth', 1.5}, ...
                    {'-', 'color', 0.6 * [1, 1, 1]}}, ...
                   {'total energy (with the barrier)', 'without the barrier', ...
                    'without the barrier, larger sigma'}, fs, 2);
      grid on;
    otherwise
      vm_demo_subplot (1, 1, 1, fs, [9.5, 2, 5.6, 3.4 + 1.6 * 2 + 1]);
      mk = {'o-', 's-', 'd-'};
      co = get (gca, 'colororder');
      specs = cell (1, numel (r.Ns) + 1);
      lab = cell (1, numel (r.Ns) + 1);
      hold on;
      for iN = 1:numel (r.Ns)
        sel = [r.cases.N] == r.Ns(iN);
        loglog ([r.cases(sel).sigma], [r.cases(sel).err_guess], mk{iN}, 'color', co(iN, :), 'linewidth', 1);
        specs{iN} = {mk{iN}, 'color', co(iN, :), 'linewidth', 1};
        lab{iN} = sprintf ('N = %d', r.Ns(iN));
      end
      plot ([min([r.cases.sigma]), max([r.cases.sigma])], r.params.resolution_tol * [1, 1], 'k--');
      specs{end} = {'k--'};
      lab{end} = sprintf ('resolution threshold (%g m)', r.params.resolution_tol);
      hold off;
      set (gca, 'xscale', 'log', 'yscale', 'log', 'fontsize', fs);
      e = [r.cases.err_guess];
      ylim ([min(e) / 3, max(e) * 3]);
      xlabel ('sigma (m^2; layer width in h = R^2 - x^2 - y^2)');
      ylabel ('max |r - r_{soft}| (m)');
      title ('SKG error against sigma (soft reference as guess)');
      vm_demo_key (specs, lab, fs, 2);
      grid on;
  end
end
