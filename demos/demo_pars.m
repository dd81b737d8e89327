function results = demo_pars (varargin)
% -*- texinfo -*-
% @deftypefn  {} {} demo_pars ()
% @deftypefnx {} {results =} demo_pars (..., "quiet")
% @deftypefnx {} {results =} demo_pars (..., "png", dir)
% @deftypefnx {} {results =} demo_pars (..., "nu", nu, "T", T)
% Pars' particle: one anholonomic constraint, four reaction laws (Acharya & Sengupta, "Dual
% action principles ...", Sec.@: 4.1, eqs.@: 42-47, Sec.@: 5, eq.@: 51).  A unit mass in 3-d space
% with g = x3 v1 - v2 = a(x) . v = 0, a = (x3, -1, 0), x0 = (0.3, -0.2, -0.5),
% v0 = (0.8, -0.4, 0.4), t in [0, 5].  The paper's Q (vdot + Q = 0, eq.@: 42b) is minus the force,
% its power Q . v = -dK/dt.  Integrated with @code{gauss_integrate} (dopri5, RelTol 1e-10):
% (a) the ideal reaction Q = lam* a, eq.@: 44, against its closed form (@code{vm_pars_closed_form});
% (b0), (bnu) the reaction of eq.@: 45, lam* a + a x v + nu v (nu = 0, 0.5), as explicit forces
%     -(a x v) - nu v with an ideal multiplier, against @code{ode45} on eq.@: 47 and 47' (nu > 0,
%     @code{vm_pars_rhs}): Q . v = nu |v|^2, K = K0 exp (-2 nu t);
% (c) the minimal reaction of eq.@: 51 ("Reaction", [0 1 0]: v2 = x3 v1 solved for), whose power
%     -x3 v1^2 v3 changes sign with x3 (it is not in the class of Sec.@: 4).
% Compared: |a . v|, x against the reference, the power and energy, the hand-derived right-hand
% sides against the vector formulas at random states, and the misprint of eq.@: 48 (its sign of
% v1 z v3^0/(1 + z^2) must be +: the printed one leaves the constraint).  "nu" (> 0), "T" change
% the data; "png", dir writes demo_pars.png.  @var{results} holds @code{cases}, the differences
% between them, @code{formula_dev}, @code{misprint48_*}, @code{tol}, @code{pass} and @code{time}.
% @seealso{gauss_integrate, mechsys, demo_dual_pars}
% @end deftypefn

  opt = vm_demo_args ('demo_pars', varargin, struct ('nu', 0.5, 'T', 5));
  nu = opt.nu;
  T = opt.T;
  if ~(isscalar (nu) && isreal (nu) && nu > 0 && isscalar (T) && isreal (T) && T > 0)
    error ('demo_pars: nu and T must be positive scalars');
  end

  tstart = tic;
  % 100 RelTol for trajectories, the constraint drift, energies and powers (dopri5's global error is
  % RelTol times the error growth over [0, 5]); rounding for the formulas; O(1) for "differ"
  tol = struct ('traj', 1e-8, 'residual', 1e-8, 'power', 1e-8, 'energy', 1e-8, ...
                'formula', 1e-12, 'differ', 0.1, 'same', 1e-8);
  x0 = [0.3, -0.2, -0.5];
  v0 = [0.8, x0(3) * 0.8, 0.4];
  tout = linspace (0, T, 201)';
  gopt = {'RelTol', 1e-10, 'AbsTol', 1e-12, 'OutputTimes', tout};
  oopt = odeset ('RelTol', 1e-12, 'AbsTol', 1e-14);

  % the model: unit mass, no applied force, constraint a(x) . v = x3 v1 - v2 = 0
  lag = '1/2*(dot(x1)^2 + dot(x2)^2 + dot(x3)^2)';
  con = {'x3*dot(x1) - dot(x2)'};
  sys0 = mechsys ('coordinates', {'x1', 'x2', 'x3'}, 'lagrangian', lag, 'constraints', con);
  % the non-ideal part of (45) as explicit forces: F = -(a x v) - nu v, a x v = (-v3, -x3 v3, x3 v2 + v1);
  % the ideal multiplier then solves (a . a) lam = -v1 v3 - a . F, which is -lam* of (47')
  sysb = mechsys ('coordinates', {'x1', 'x2', 'x3'}, 'parameters', struct ('nu', 0), ...
                  'lagrangian', lag, 'constraints', con, ...
                  'forces', {'dot(x3) - nu*dot(x1)', 'x3*dot(x3) - nu*dot(x2)', ...
                             '-x3*dot(x2) - dot(x1) - nu*dot(x3)'});

  % derivation checks at random states
  fdev = formula_checks (nu);

  % closed forms
  z0 = x0(3);
  z = z0 + v0(3) * tout;
  [xa, vaa] = vm_pars_closed_form (tout, x0, v0);
  xc = [x0(1) + v0(1) * tout, x0(2) + v0(1) * (z0 * tout + v0(3) * tout .^ 2 / 2), z];
  vcc = [v0(1) * ones(size (z)), v0(1) * z, v0(3) * ones(size (z))];

  names = {'(a) ideal', '(b) nu = 0', sprintf('(b) nu = %g', nu), '(c) minimal'};
  refs = {'closed form (44)', 'ode45 on (47)', 'ode45 on (47'')', 'ode45 on (51)'};
  alts = {'ode45 on (44)', '-', '-', 'closed form (51)'};
  cases = struct ('name', names, 'reference', refs, 'alternative', alts, 'x', [], 'v', [], ...
                  'residual', NaN, 'dev_ref', NaN, 'dev_alt', NaN, 'dev_multiplier', NaN, ...
                  'power', [], 'power_min', NaN, 'power_dev', NaN, 'energy_dev', NaN, ...
                  'exitflag', 0, 'message', '');
  K0 = sum (v0 .^ 2) / 2;
  for ic = 1:4
    switch ic
      case 1
        sol = gauss_integrate (sys0, [0 T], x0, v0, gopt{:});
        xref = xa;
        vref = vaa;
        [~, y] = ode45 (@(t, y) rhs47 (y, 0, false), tout, [x0, v0]', oopt);
        xalt = y(:, 1:3);
        lamref = -vref(:, 1) .* vref(:, 3) ./ (1 + xref(:, 3) .^ 2);
        Kref = K0 * ones (size (tout));
        pref = zeros (size (sol.output.t));
        D = @(q) [q(:, 3), -ones(size (q, 1), 1), zeros(size (q, 1), 1)];
        Fx = @(q, v) zeros (size (q));
      case {2, 3}
        nuk = (ic == 3) * nu;
        sysb.parameters.nu = nuk;
        sol = gauss_integrate (sysb, [0 T], x0, v0, gopt{:});
        [~, y] = ode45 (@(t, y) rhs47 (y, nuk, true), tout, [x0, v0]', oopt);
        xref = y(:, 1:3);
        vref = y(:, 4:6);
        xalt = [];
        lamref = -lamstar (xref, vref, nuk);
        Kref = K0 * exp (-2 * nuk * tout);
        pref = nuk * sum (sol.output.qdot .^ 2, 2);
        D = @(q) [q(:, 3), -ones(size (q, 1), 1), zeros(size (q, 1), 1)];
        Fx = @(q, v) -axv (q, v) - nuk * v;
      otherwise
        sol = gauss_integrate (sys0, [0 T], x0, v0, gopt{:}, 'Reaction', [0 1 0]);
        [~, y] = ode45 (@(t, y) rhs51 (y), tout, [x0([1 2 3]), v0([1 3])]', oopt);
        xref = y(:, 1:3);
        vref = [y(:, 4), y(:, 3) .* y(:, 4), y(:, 5)];
        xalt = xc;
        lamref = v0(1) * v0(3) * ones (size (tout));
        Kref = sum (vcc .^ 2, 2) / 2;
        pref = -sol.output.q(:, 3) .* sol.output.qdot(:, 1) .^ 2 .* sol.output.qdot(:, 3);
        D = @(q) repmat ([0, 1, 0], size (q, 1), 1);
        Fx = @(q, v) zeros (size (q));
    end
    c = cases(ic);
    c.exitflag = sol.exitflag;
    c.message = sol.message;
    c.x = sol.output.q;
    c.v = sol.output.qdot;
    % a failed run (exitflag 0) is compared up to where it stopped, and fails the exitflag check
    nt = numel (sol.output.t);
    c.residual = max (abs (sol.residual));
    c.dev_ref = max (max (abs (sol.output.q - xref(1:nt, :))));
    if ~isempty (xalt)
      c.dev_alt = max (max (abs (sol.output.q - xalt(1:nt, :))));
    end
    c.dev_multiplier = max (abs (sol.output.lambda - lamref(1:nt)));
    % the paper's constraint force Q = -(R + F): R = D' lambda (a for the ideal solve, e2 for (c))
    R = D (sol.output.q) .* repmat (sol.output.lambda, 1, 3);
    Q = -(R + Fx (sol.output.q, sol.output.qdot));
    c.power = sum (Q .* sol.output.qdot, 2);
    c.power_min = min (c.power);
    c.power_dev = max (abs (c.power - pref));
    % the energy qdot . dL/dqdot - L = |v|^2/2 (L = K, unit mass) at the output times
    c.energy_dev = max (abs (sum (sol.output.qdot .^ 2, 2) / 2 - Kref(1:nt)));
    cases(ic) = c;
  end
  x3d = zeros (4);
  xd = zeros (4);
  for i = 1:4
    for j = 1:4
      nt = min (size (cases(i).x, 1), size (cases(j).x, 1));
      x3d(i, j) = max (abs (cases(i).x(1:nt, 3) - cases(j).x(1:nt, 3)));
      xd(i, j) = max (max (abs (cases(i).x(1:nt, :) - cases(j).x(1:nt, :))));
    end
  end

  % misprint check of eq. 48: the printed sign versus the corrected one
  [~, yp] = ode45 (@(t, y) vm_pars_rhs ('eq48', t, y, x0(3), v0(3), true), tout, v0(1:2)', oopt);
  [~, yc] = ode45 (@(t, y) vm_pars_rhs ('eq48', t, y, x0(3), v0(3), false), tout, v0(1:2)', oopt);

  results = struct ();
  results.x0 = x0;
  results.v0 = v0;
  results.T = T;
  results.nu = nu;
  results.t = tout;
  results.cases = cases;
  results.x3_diff = x3d;
  results.x_diff = xd;
  results.formula_dev = fdev;
  results.misprint48_printed_residual = max (abs (z .* yp(:, 1) - yp(:, 2)));
  results.misprint48_printed_dev = max (abs (yp(:, 1) - vaa(:, 1)));
  results.misprint48_corrected_dev = max (max (abs (yc - vaa(:, 1:2))));
  results.tol = tol;
  p = struct ();
  p.exitflag = all ([cases.exitflag] == 1);
  p.residual = all ([cases.residual] <= tol.residual);
  p.dev_ref = all ([cases.dev_ref] <= tol.traj);
  p.dev_alt = all ([cases([1 4]).dev_alt] <= tol.traj);
  p.multiplier = all ([cases.dev_multiplier] <= tol.traj);
  p.power = all ([cases.power_dev] <= tol.power);
  p.power_nonneg = all ([cases(1:3).power_min] >= -tol.power);
  p.energy = all ([cases.energy_dev] <= tol.energy);
  p.formulas = all ([fdev.eq44, fdev.eq47, fdev.eq47nu, fdev.lam] <= tol.formula);
  p.x3_differ = x3d(1, 2) >= tol.differ && x3d(1, 3) >= tol.differ && x3d(2, 3) >= tol.differ;
  p.x3_same_ac = x3d(1, 4) <= tol.same && xd(1, 4) >= tol.differ;
  p.misprint48 = results.misprint48_printed_dev >= tol.differ ...
                 && results.misprint48_corrected_dev <= tol.traj;
  results.pass = p;
  results.time = toc (tstart);

  if ~opt.quiet
    print_table (results);
  end
  vm_demo_png (opt, '', @(what) draw_plot (results), [800, 900]);
  if nargout == 0
    clear results;
  end
end

function c = axv (q, v)
  % a x v for a = (x3, -1, 0), rows are points
  c = [-v(:, 3), -q(:, 3) .* v(:, 3), q(:, 3) .* v(:, 2) + v(:, 1)];
end

function l = lamstar (q, v, nu)
  % the paper's lam* (x, v; nu) of Sec. 4.1 (re-derived), rows are points
  l = (v(:, 1) .* v(:, 3) + nu * (v(:, 2) - q(:, 3) .* v(:, 1))) ./ (1 + q(:, 3) .^ 2);
end

function dy = rhs47 (y, nu, nonideal)
  % (44) (nonideal false) or (47)/(47') (nonideal true), hand-derived scalar form; y = [x; v]
  if nonideal
    dy = vm_pars_rhs ('eq47', y, nu);
  else
    x3 = y(3);
    v1 = y(4);
    v3 = y(6);
    dy = [v1; y(5); v3; -v1 * x3 * v3 / (1 + x3^2); v1 * v3 / (1 + x3^2); 0];
  end
end

function dy = rhs51 (y)
  % (51) with v^(s) = v2 = x3 v1, v^(r) = (v1, v3), F = 0; y = [x1; x2; x3; v1; v3]
  dy = [y(4); y(3) * y(4); y(5); 0; 0];
end

function d = formula_checks (nu)
  % the scalar right-hand sides against the vector formulas vdot = -lam a - a x v - nu v with
  % lam from a . vdot + w = 0, at random states (off the constraint as well)
  % deterministic quasi-random points in [-2, 2]^6 (Kronecker sequence); half of them are put
  % on the constraint (v2 = x3 v1)
  N = 1000;
  alpha = sqrt ([2, 3, 5, 7, 11, 13]);
  P = 4 * mod ((1:N)' * alpha, 1) - 2;
  X = P(:, 1:3);
  V = P(:, 4:6);
  V(1:N / 2, 2) = X(1:N / 2, 3) .* V(1:N / 2, 1);
  d = struct ('eq44', 0, 'eq47', 0, 'eq47nu', 0, 'lam', 0);
  for i = 1:N
    x = X(i, :)';
    v = V(i, :)';
    a = [x(3); -1; 0];
    w = v(1) * v(3);
    for nk = [0, nu]
      for nonideal = [false, true]
        extra = nonideal * (cross (a, v) + nk * v);
        if ~nonideal && nk > 0
          continue;
        end
        l = (w - a' * extra) / (a' * a);
        acc = -l * a - extra;
        dy = rhs47 ([x; v], nk, nonideal);
        e = max (abs (dy(4:6) - acc));
        if ~nonideal
          d.eq44 = max (d.eq44, e);
        elseif nk == 0
          % (47) exactly as printed
          p47 = [-v(1) * x(3) * v(3) / (1 + x(3)^2) + v(3); v(1) * v(3) / (1 + x(3)^2) + x(3) * v(3); ...
                 -x(3) * v(2) - v(1)];
          d.eq47 = max ([d.eq47, e, max(abs (p47 - acc))]);
        else
          d.eq47nu = max (d.eq47nu, e);
        end
        if nonideal
          d.lam = max (d.lam, abs (l - lamstar (x', v', nk)));
        end
      end
    end
  end
end

function print_table (r)
  c = r.cases;
  t = r.tol;
  fprintf ('Pars'' particle (Acharya & Sengupta Sec. 4.1, 5): x3 v1 - v2 = 0, unit mass, no applied force\n');
  fprintf ('x0 = (%g, %g, %g), v0 = (%g, %g, %g), t in [0, %g], nu = %g; gauss_integrate dopri5 RelTol 1e-10\n', ...
           r.x0, r.v0, r.T, r.nu);
  fprintf ('Q = the paper''s constraint force (vdot = -Q), Q.v its dissipated power\n\n');
  tab = struct ('part', {}, 'name', {}, 'value', {}, 'reference', {}, 'error', {}, 'tol', {}, ...
                'pass', {});
  for ic = 1:numel (c)
    k = c(ic);
    if k.exitflag ~= 1
      tab = vm_demo_check (tab, ['gauss_integrate: ', k.message], k.exitflag, 1, 0, 'part', k.name);
    end
    tab = vm_demo_check (tab, 'max_t |x - x_ref|', NaN, k.reference, t.traj, 'error', k.dev_ref, ...
                         'part', k.name);
    if ~isnan (k.dev_alt)
      tab = vm_demo_check (tab, 'max_t |x - x_ref|', NaN, k.alternative, t.traj, 'error', k.dev_alt);
    end
    tab = vm_demo_check (tab, 'max_t |a.v| (residual)', k.residual, '0', t.residual, ...
                         'error', k.residual);
    tab = vm_demo_check (tab, 'multiplier', NaN, mult_ref (ic), t.traj, 'error', k.dev_multiplier);
    tab = vm_demo_check (tab, 'min_t Q.v (power)', k.power_min, power_ref (ic), t.power, ...
                         'error', k.power_dev);
    tab = vm_demo_check (tab, 'kinetic energy', NaN, energy_ref (ic), t.energy, 'error', k.energy_dev);
  end
  vm_demo_table (tab, '%.4g', 'case');
  fprintf ('\nmax_t |x3_i - x3_j| (and max_t |x_i - x_j|) between the cases\n');
  fprintf ('%-13s', '');
  for j = 1:numel (c)
    fprintf (' %21s', c(j).name);
  end
  fprintf ('\n');
  for i = 1:numel (c)
    fprintf ('%-13s', c(i).name);
    for j = 1:numel (c)
      fprintf (' %9.3g (%9.3g)', r.x3_diff(i, j), r.x_diff(i, j));
    end
    fprintf ('\n');
  end
  p = r.pass;
  fprintf ('\nx3 differs between (a), (b nu=0), (b nu=%g) (>= %g): %s; (a) and (c) share x3 (<= %g) but not x1, x2: %s\n', ...
           r.nu, t.differ, vm_demo_yesno (p.x3_differ), t.same, vm_demo_yesno (p.x3_same_ac));
  fprintf ('power Q.v >= -%g for (a), (b): %s (min %.3g, %.3g, %.3g); (c) does work: min Q.v = %.3g\n', ...
           t.power, vm_demo_yesno (p.power_nonneg), c(1).power_min, c(2).power_min, c(3).power_min, ...
           c(4).power_min);
  fprintf ('scalar formulas vs vector derivation at 1000 random states: (44) %.2g, (47) %.2g, (47'') %.2g, lam* %.2g (tol %g): %s\n', ...
           r.formula_dev.eq44, r.formula_dev.eq47, r.formula_dev.eq47nu, r.formula_dev.lam, ...
           t.formula, vm_demo_yesno (p.formulas));
  fprintf ('misprint in (48): printed sign: max |v1 - v1(44)| = %.3g, max |z v1 - v2| = %.3g; corrected: %.2g: %s\n', ...
           r.misprint48_printed_dev, r.misprint48_printed_residual, r.misprint48_corrected_dev, ...
           vm_demo_yesno (p.misprint48));
  fprintf ('all checks: %s (%.1f s)\n', vm_demo_yesno (all (cell2mat (struct2cell (p)))), ...
           r.time);
end

function s = mult_ref (ic)
  if ic == 4
    s = 'mu = v1 v3 (const)';
  else
    s = '-lam*(x, v; nu)';
  end
end

function s = power_ref (ic)
  refs = {'0', '0', 'nu |v|^2', '-x3 v1^2 v3'};
  s = refs{ic};
end

function s = energy_ref (ic)
  refs = {'K0', 'K0', 'K0 exp(-2 nu t)', '(v1^2 (1+x3^2)+v3^2)/2'};
  s = refs{ic};
end

function draw_plot (r)
  colors = [0, 0.447, 0.741; 0.85, 0.325, 0.098; 0.466, 0.674, 0.188; 0.494, 0.184, 0.556];
  styles = {'-', '--', '-.', ':'};
  c = r.cases;
  leg = {c.name};
  fs = 7;
  % one key for the three panels, in a strip above them (off the curves)
  top = 1.6 * 2 + 1;
  vm_demo_subplot (3, 1, 1, fs, [], top);
  hold on;
  specs = cell (1, numel (c));
  for i = 1:numel (c)
    plot (r.t(1:size (c(i).x, 1)), c(i).x(:, 3), styles{i}, 'color', colors(i, :), 'linewidth', 1.5);
    specs{i} = {styles{i}, 'color', colors(i, :), 'linewidth', 1.5};
  end
  % (c) has the x3 of (a): its symbols mark it on the line of (a)
  k = 1:10:size (c(end).x, 1);
  plot (r.t(k), c(end).x(k, 3), 'o', 'color', colors(numel (c), :), 'markersize', 4);
  hold off;
  set (gca, 'fontsize', fs);
  xlabel ('t (dimensionless)');
  ylabel ('x_3 (dimensionless)');
  title (sprintf ('Pars'' particle, x_3 v_1 - v_2 = 0: four reaction laws (nu = %g)', r.nu));
  leg{end} = [leg{end}, ' (o: x_3 as (a))'];
  vm_demo_key (specs, leg, fs, 2);
  grid on;
  vm_demo_subplot (3, 1, 2, fs, [], top);
  hold on;
  for i = 1:numel (c)
    res = abs (c(i).x(:, 3) .* c(i).v(:, 1) - c(i).v(:, 2));
    semilogy (r.t(1:numel (res)), max (res, 1e-18), styles{i}, 'color', colors(i, :), 'linewidth', 1.5);
  end
  hold off;
  set (gca, 'yscale', 'log', 'fontsize', fs, 'ytick', 10 .^ (-18:3:-6));
  ylim ([1e-18, 1e-6]);
  xlabel ('t (dimensionless)');
  ylabel ('|a . v| (dimensionless)');
  title ('constraint residual (an exact 0 is drawn at 1e-18)');
  grid on;
  vm_demo_subplot (3, 1, 3, fs, [], top);
  hold on;
  for i = 1:numel (c)
    plot (r.t(1:numel (c(i).power)), c(i).power, styles{i}, 'color', colors(i, :), 'linewidth', 1.5);
  end
  hold off;
  set (gca, 'fontsize', fs);
  xlabel ('t (dimensionless)');
  ylabel ('Q . v (dimensionless)');
  title ('power of the reaction');
  grid on;
end
