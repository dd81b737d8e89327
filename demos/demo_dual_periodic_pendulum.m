function results = demo_dual_periodic_pendulum (varargin)
% -*- texinfo -*-
% @deftypefn  {} {} demo_dual_periodic_pendulum ()
% @deftypefnx {} {results =} demo_dual_periodic_pendulum ()
% @deftypefnx {} {results =} demo_dual_periodic_pendulum (..., "quiet")
% @deftypefnx {} {results =} demo_dual_periodic_pendulum (..., "png", dir)
% The pendulum's periodic orbits by @code{periodic_orbit} (the dual action on a circle of
% Acharya and Sengupta, their Remark 5): a conservative system, whose orbits come in a family
% (one per energy), against the closed form of the period through the complete elliptic
% integral K; what the phase, period and energy conditions do there.
%
% @strong{Physics.}  The pendulum th'' = -g sin th (th in rad, g = 1/s^2: gravity over length) as
% the first-order system of the states th and w = th' (rad/s),
%
% @example
% th' = w,   w' = -g sin th,
% @end example
%
% keeps the energy E = w^2/2 - g cos th (per unit m L^2).  Below the separatrix (E < g) every
% level curve is a periodic orbit, a libration of amplitude a with E = -g cos a, and its period
% is the closed form T(E) = 4 K(m) / sqrt (g), m = k^2 = sin^2 (a/2) = (1 + E/g)/2, K the
% complete elliptic integral of the first kind (@code{ellipke (m)} in Octave and MATLAB, whose
% argument is the parameter m = k^2).  T grows from 2 pi/sqrt (g) at a = 0 to infinity at the
% separatrix a = pi; dT/dE = 2 K'(m)/g^(3/2) with K'(m) = (E(m) - (1 - m) K(m))/(2 m (1 - m)),
% E(m) the complete integral of the second kind (the second output of @code{ellipke}).
%
% @strong{The family and the conditions.}  A perturbation dx0 of the start x0 of an orbit
% changes its energy by dE = grad E . dx0 and its period by T'(E) dE, so after one period it is
% behind by T'(E) dE: the monodromy matrix is, in closed form,
%
% @example
% M = I - T'(E) F(x0) grad E(x0)',    grad E = (g sin th, w),  F = (w, -g sin th),
% @end example
%
% and since grad E . F = 0, M - I is nilpotent: both Floquet multipliers are 1, with a Jordan
% block (M is not I; |M - I| = |T'(E)| |F| |grad E|).  A computed M with entries accurate to
% delta has multipliers 1 +- sqrt (delta) (a Jordan block splits like a square root), which the
% demo reports.  The shooting form of the periodic problem shows what each condition does: the
% matrix [M - I, F(x0)] of the closure phi_T(x0) - x0 = 0 in the unknowns (x0, T) has rank 1 (M - I
% has the range F), so two null vectors: the time shift (F, 0) and the family
% (grad E/|grad E|^2, T'(E)) (the next orbit, with its longer period).  A phase condition (the
% row [F(x0)', 0] here; AUTO's integral condition in @code{periodic_orbit}) removes the shift and
% the period as an unknown is then determined, but the family is left: the 3-by-3 matrix is
% singular, and so is the Newton matrix of @code{periodic_orbit}, whose stationarity equations
% are the collocation equations of the same problem.  A condition on the energy (the row
% [grad E(x0)', 0, 0]; in @code{periodic_orbit} "Integral" I = E with "Level" E: the mean of E over
% the orbit), with an unfolding parameter e in x' = F(x) + e grad E (a column
% [d phi_T/de; 0; 0]; "Unfolding") to keep the system square, makes it regular: at a periodic
% orbit e = 0, since E would grow by e int |grad E|^2 dt over a period otherwise.
%
% @strong{Parts and tolerances.}  g = 1, amplitudes a = 0.5, 2 and 3 (T from 6.38 to 16.16;
% a = 3 is close to the separatrix a = pi).  The true orbit is integrated by @code{ode45} from
% (a, 0) at RelTol = AbsTol = 1e-12 on the hand-written field over 4 K(m) (200 points).
% @table @asis
% @item (1) with the energy condition
% ("Integral", 'w^2/2 - g*cos(th)', "Level", -g cos a, "Unfolding", @{'g*sin(th)', 'w'@}, defaults
% otherwise) from the rough guess: the true orbit with its time axis stretched by 1 % (period
% guess 1.01 T) and the states perturbed by 3e-3 (sin s, cos 2 s), s = 2 pi t / T.  Checks:
% exitflag 1; |T - 4 K|/(4 K) <= 1e-10 ("PeriodTol"; measured 4e-15 to 6e-14); |e| <= 1e-10; the
% energy at the nodes within 1e-9 of the level (measured 5e-13); the closure of the orbit
% integrated by @code{ode45} at 1e-12 (independent of periodic_orbit's DOP853) over sol.T from
% sol.y(1,:) <= 1e-9 (measured 2e-13 to 1.6e-12); the multipliers |mu - 1| <= 1e-4 (their
% splitting 1 +- i sqrt (delta): measured 2e-7, 2e-6, 1.2e-5 for the three amplitudes, growing
% with |M - I|); sol.monodromy against the closed form above, |M - M_closed|/|M_closed - I| <= 1e-6
% (measured 2e-12 to 5e-11); det M = 1 (Liouville: div F = 0) to 1e-9.  The shooting matrices,
% from @code{ode45} at 1e-12 along the converged orbit (M and d phi_T/de from the variational
% equations written here; the closure above is the same integration): the smallest over the
% largest singular value of [M - I, F] and of the 3-by-3 matrix with the phase row <= 1e-9
% (singular to the accuracy of M: measured 7e-14 to 2e-12), the null vector of the latter
% against the family's (grad E/|grad E|^2, T'(E)) (sine of the angle <= 1e-6, measured 1e-13),
% and the same ratio of the 4-by-4 matrix with the energy row and the unfolding column >= 1e-7
% (regular: measured 0.12, 1e-2 and 1.5e-5; near the separatrix T'(E) = 199 at a = 3 makes it
% ill-conditioned in these unscaled unknowns, but 1e7 times above the singular ones).
% @item (2) from a circle
% the same options from (a cos s, -a sin s) + 3e-3 (sin s, cos 2 s), period guess 1.01 T: for
% a = 0.5 and 2 exitflag 1 and T to 1e-10; for a = 3 the circle is far from the orbit (w reaches
% 2 sin (a/2) = 1.995, not 3, and the orbit is no ellipse near the separatrix) and Newton's search
% stalls (exitflag 0; a finding, an info row; the ellipse (a cos s, -2 sin (a/2) sin s) stalls too,
% measured during development).
% @item (3) without the energy condition
% (defaults), (a) from the rough guess of (1): exitflag 0 for every amplitude (Newton's search
% stalls: the residual cannot be driven to zero along a direction in which it does not change; a
% finding, info rows); (b) from the true orbit itself (ode45 at 1e-12, period 4 K): exitflag 1
% with the note of @code{periodic_orbit} that two Floquet multipliers are 1 (checked), but the
% member found is the one the search reached, not the one of the guess's energy: its energy (the
% mean over the nodes) differs from -g cos a by 1e-10 to 1e-9 and its period from 4 K(m) by
% 5e-11 to 2e-9 relative (info rows), while it agrees with the closed form at its own energy,
% 4 K((1 + E_found/g)/2), to 1e-10 (checked; measured 8e-15 to 7e-14): a correct orbit of the
% family, at an energy that the guess sets only to its own accuracy.
% @end table
%
% Options:
% @table @code
% @item "quiet"
% print nothing.
% @item "png", @var{dir}
% write @file{demo_dual_periodic_pendulum.png} into @var{dir}: the orbits in the (th, w) plane
% with the separatrix, and the family's period T(E) with the computed members.
% @end table
%
% @var{results} has @code{g}, @code{amplitudes}, @code{exact} (per amplitude: @code{a}, @code{E},
% @code{m}, @code{T} (4 K(m)/sqrt (g)), @code{dTdE}, @code{t}, @code{y} (the ode45 orbit)),
% @code{integral} (part 1, per amplitude: @code{exitflag}, @code{message}, @code{T}, @code{T_err},
% @code{unfolding}, @code{energy_err}, @code{closure_ode45}, @code{closure}, @code{floquet},
% @code{floquet_dev}, @code{jordan} (|M - I|), @code{jordan_ref}, @code{monodromy_err},
% @code{det_err}, @code{sv_closure}, @code{sv_phase}, @code{sv_energy} (smallest over largest
% singular value), @code{null_err}, @code{N}, @code{iterations}, @code{time}, @code{t}, @code{y}),
% @code{circle} (part 2: @code{exitflag}, @code{message}, @code{T}, @code{T_err},
% @code{iterations}), @code{free} (part 3: @code{rough_exitflag}, @code{rough_message},
% @code{exitflag}, @code{message}, @code{note}, @code{T}, @code{T_err}, @code{E}, @code{E_err},
% @code{T_family}, @code{T_family_err}, @code{floquet}, @code{t}, @code{y}), @code{tol},
% @code{checks}, @code{pass} and @code{time}.
% @seealso{periodic_orbit, demo_dual_periodic_vdp, demo_dual_periodic_lorenz}
% @end deftypefn

  opt = vm_demo_args ('demo_dual_periodic_pendulum', varargin, struct ());
  tstart = tic;
  tol = struct ('T', 1e-10, 'unfolding', 1e-10, 'energy', 1e-9, 'closure', 1e-9, ...
                'floquet', 1e-4, 'monodromy', 1e-6, 'det', 1e-9, 'singular', 1e-9, ...
                'regular', 1e-7, 'null', 1e-6);
  g = 1;
  amps = [0.5, 2, 3];
  pend = odesys ('states', {'th', 'w'}, 'parameters', struct ('g', g), ...
                 'rhs', {'w', '-g*sin(th)'});
  energy = {'Integral', 'w^2/2 - g*cos(th)', 'Unfolding', {'g*sin(th)', 'w'}};
  ode_opt = odeset ('RelTol', 1e-12, 'AbsTol', 1e-12);
  na = numel (amps);
  exact = [];
  runs1 = [];
  runs2 = [];
  runs3 = [];
  for k = 1:na
    a = amps(k);
    ex = closed_form (a, g);
    % the true orbit (ode45 at 1e-12 over the closed-form period)
    [ex.t, ex.y] = ode45 (@(t, y) pend_rhs (y, g), linspace (0, ex.T, 200)', [a; 0], ode_opt);
    exact = [exact, ex]; %#ok<AGROW>
    % (1) with the energy condition, from the rough guess
    s = 2 * pi * ex.t / ex.T;
    tr = 1.01 * ex.t;
    yr = ex.y + 3e-3 * [sin(s), cos(2 * s)];
    sol = periodic_orbit (pend, tr, yr, energy{:}, 'Level', ex.E);
    runs1 = [runs1, integral_run(sol, ex, g, ode_opt)]; %#ok<AGROW>
    % (2) the same from a circle
    tc = linspace (0, 1.01 * ex.T, 80)';
    sc = 2 * pi * tc / tc(end);
    yc = [a * cos(sc), -a * sin(sc)] + 3e-3 * [sin(sc), cos(2 * sc)];
    sol = periodic_orbit (pend, tc, yc, energy{:}, 'Level', ex.E);
    runs2 = [runs2, struct('exitflag', sol.exitflag, 'message', sol.message, 'T', sol.T, ...
                           'T_err', abs (sol.T - ex.T) / ex.T, ...
                           'iterations', sol.iterations)]; %#ok<AGROW>
    % (3) without the energy condition: from the rough guess, and from the true orbit
    rough = periodic_orbit (pend, tr, yr);
    sol = periodic_orbit (pend, ex.t, ex.y);
    runs3 = [runs3, free_run(sol, rough, ex, g)]; %#ok<AGROW>
  end

  results = struct ();
  results.g = g;
  results.amplitudes = amps;
  results.exact = exact;
  results.integral = runs1;
  results.circle = runs2;
  results.free = runs3;
  results.tol = tol;
  results.checks = make_checks (results);
  [results.pass, msg] = vm_demo_verdict (results.checks);
  results.time = toc (tstart);

  if ~opt.quiet
    print_tables (results, msg);
  end
  vm_demo_png (opt, '', @(name) draw (results), [1200, 550]);
  if nargout == 0
    clear results;
  end
end

function ex = closed_form (a, g)
  % energy, parameter m = k^2, period 4 K(m)/sqrt (g) and dT/dE of the libration of amplitude a
  m = sin (a / 2)^2;
  [K, E2] = ellipke (m);
  dK = (E2 - (1 - m) * K) / (2 * m * (1 - m));
  ex = struct ('a', a, 'E', -g * cos (a), 'm', m, 'T', 4 * K / sqrt (g), ...
               'dTdE', 2 * dK / g^1.5, 't', [], 'y', []);
end

function f = pend_rhs (y, g)
  % the pendulum's field, written by hand (the references do not use varmech)
  f = [y(2); -g * sin(y(1))];
end

function dz = pend_var (z, g)
  % the field, the variational equations (z(3:6) = M by columns) and the derivative of the flow
  % with respect to the unfolding parameter e of x' = F(x) + e grad E at e = 0 (z(7:8))
  th = z(1);
  w = z(2);
  A = [0, 1; -g * cos(th), 0];
  M = A * reshape (z(3:6), 2, 2);
  S = A * z(7:8) + [g * sin(th); w];
  dz = [pend_rhs(z, g); M(:); S];
end

function run = integral_run (sol, ex, g, ode_opt)
  % part (1): the orbit found with the energy condition against the closed forms and ode45
  run = struct ('exitflag', sol.exitflag, 'message', sol.message, 'T', sol.T, ...
                'T_err', abs (sol.T - ex.T) / ex.T, 'unfolding', NaN, 'energy_err', NaN, ...
                'closure_ode45', NaN, 'closure', sol.closure, 'floquet', [NaN; NaN], ...
                'floquet_dev', NaN, 'jordan', NaN, 'jordan_ref', NaN, 'monodromy_err', NaN, ...
                'det_err', NaN, 'sv_closure', NaN, 'sv_phase', NaN, 'sv_energy', NaN, ...
                'null_err', NaN, 'N', sol.N, 'iterations', sol.iterations, 'time', sol.time, ...
                't', sol.t, 'y', sol.y);
  if sol.exitflag ~= 1
    return;
  end
  run.unfolding = sol.unfolding;
  En = sol.y(:, 2) .^ 2 / 2 - g * cos (sol.y(:, 1));
  run.energy_err = max (abs (En - ex.E));
  run.floquet = sol.floquet(:);
  run.floquet_dev = max (abs (sol.floquet - 1));
  % the monodromy against its closed form at the orbit's first point
  x0 = sol.y(1, :)';
  F = pend_rhs (x0, g);
  gE = [g * sin(x0(1)); x0(2)];
  Mc = eye (2) - ex.dTdE * F * gE';
  run.jordan = norm (sol.monodromy - eye (2));
  run.jordan_ref = norm (Mc - eye (2));
  run.monodromy_err = norm (sol.monodromy - Mc) / run.jordan_ref;
  run.det_err = abs (det (sol.monodromy) - 1);
  % ode45 at 1e-12 over sol.T: the closure, M and d phi_T/de (one integration)
  z0 = [x0; 1; 0; 0; 1; 0; 0];
  [~, z] = ode45 (@(t, z) pend_var (z, g), [0, sol.T / 2, sol.T], z0, ode_opt);
  zT = z(end, :)';
  run.closure_ode45 = max (abs (zT(1:2) - x0));
  M = reshape (zT(3:6), 2, 2);
  Se = zT(7:8);
  J1 = [M - eye(2), F];
  J2 = [J1; F', 0];
  J3 = [M - eye(2), F, Se; F', 0, 0; gE', 0, 0];
  run.sv_closure = sv_ratio (J1);
  run.sv_phase = sv_ratio (J2);
  run.sv_energy = sv_ratio (J3);
  % the null vector of the phase-conditioned matrix against the family's direction
  [~, ~, V] = svd (J2);
  v = V(:, end);
  u = [gE / (gE' * gE); ex.dTdE];
  u = u / norm (u);
  run.null_err = norm (v - (u' * v) * u);   % the sine of the angle between them
end

function r = sv_ratio (J)
  s = svd (J);
  r = s(end) / s(1);
end

function run = free_run (sol, rough, ex, g)
  % part (3): without the energy condition
  run = struct ('rough_exitflag', rough.exitflag, 'rough_message', rough.message, ...
                'exitflag', sol.exitflag, 'message', sol.message, ...
                'note', ~isempty (strfind (sol.message, 'belongs to a family')), 'T', sol.T, ...
                'T_err', abs (sol.T - ex.T) / ex.T, 'E', NaN, 'E_err', NaN, 'T_family', NaN, ...
                'T_family_err', NaN, 'floquet', [NaN; NaN], 't', sol.t, 'y', sol.y);
  if sol.exitflag ~= 1
    return;
  end
  % the energy of the member found: the mean over the N nodes (the last row repeats the first)
  En = sol.y(1:end - 1, 2) .^ 2 / 2 - g * cos (sol.y(1:end - 1, 1));
  run.E = mean (En);
  run.E_err = run.E - ex.E;
  m = (1 + run.E / g) / 2;
  run.T_family = 4 * ellipke (m) / sqrt (g);
  run.T_family_err = abs (sol.T - run.T_family) / run.T_family;
  run.floquet = sol.floquet(:);
end

function checks = make_checks (res)
  tol = res.tol;
  checks = struct ('part', {}, 'name', {}, 'value', {}, 'reference', {}, 'error', {}, ...
                   'tol', {}, 'pass', {}, 'info', {});
  for k = 1:numel (res.amplitudes)
    a = res.amplitudes(k);
    ex = res.exact(k);
    r = res.integral(k);
    part = '';
    if k == 1
      part = '(1)';
    end
    lab = sprintf ('a = %g', a);
    checks = vm_demo_check (checks, [lab, ': exitflag'], r.exitflag, 1, 0, 'part', part);
    checks = vm_demo_check (checks, [lab, ': T vs 4 K(m)/sqrt(g) (rel.)'], r.T, ex.T, tol.T, ...
                            'error', r.T_err);
    checks = vm_demo_check (checks, [lab, ': unfolding parameter e'], r.unfolding, 0, ...
                            tol.unfolding);
    checks = vm_demo_check (checks, [lab, ': max |E - Level| at the nodes'], r.energy_err, 0, ...
                            tol.energy);
    checks = vm_demo_check (checks, [lab, ': closure, ode45 1e-12 over T'], r.closure_ode45, 0, ...
                            tol.closure);
    checks = vm_demo_check (checks, [lab, ': sol.closure (DOP853)'], r.closure, 0, NaN);
    checks = vm_demo_check (checks, [lab, ': Floquet max |mu - 1| (Jordan block)'], ...
                            r.floquet_dev, 0, tol.floquet);
    checks = vm_demo_check (checks, [lab, ': |M - I| vs |T''(E)| |F| |grad E|'], r.jordan, ...
                            r.jordan_ref, NaN);
    checks = vm_demo_check (checks, [lab, ': monodromy vs closed form (rel.)'], ...
                            r.monodromy_err, 0, tol.monodromy);
    checks = vm_demo_check (checks, [lab, ': |det M - 1|'], r.det_err, 0, tol.det);
    checks = vm_demo_check (checks, [lab, ': shooting [M-I, F]: s_min/s_max'], r.sv_closure, ...
                            0, tol.singular);
    checks = vm_demo_check (checks, [lab, ': + phase row: s_min/s_max'], r.sv_phase, 0, ...
                            tol.singular);
    checks = vm_demo_check (checks, [lab, ': its null vector vs the family (sin)'], ...
                            r.null_err, 0, tol.null);
    checks = vm_demo_check (checks, [lab, ': + energy row, unfolding: s_min/s_max'], ...
                            r.sv_energy, '>= 1e-7', 0, 'error', NaN, ...
                            'ratio', tol.regular / r.sv_energy);
  end
  for k = 1:numel (res.amplitudes)
    a = res.amplitudes(k);
    ex = res.exact(k);
    c = res.circle(k);
    part = '';
    if k == 1
      part = '(2)';
    end
    lab = sprintf ('a = %g, circle', a);
    if a < 2.5
      checks = vm_demo_check (checks, [lab, ': exitflag'], c.exitflag, 1, 0, 'part', part);
      checks = vm_demo_check (checks, [lab, ': T vs 4 K(m) (rel.)'], c.T, ex.T, tol.T, ...
                              'error', c.T_err);
    else
      checks = vm_demo_check (checks, [lab, ': exitflag (finding)'], c.exitflag, 1, NaN, ...
                              'part', part);
    end
  end
  for k = 1:numel (res.amplitudes)
    a = res.amplitudes(k);
    ex = res.exact(k);
    f = res.free(k);
    part = '';
    if k == 1
      part = '(3)';
    end
    lab = sprintf ('a = %g, no Integral', a);
    checks = vm_demo_check (checks, [lab, ', rough guess: exitflag (finding)'], ...
                            f.rough_exitflag, 1, NaN, 'part', part);
    checks = vm_demo_check (checks, [lab, ', true orbit: exitflag'], f.exitflag, 1, 0);
    checks = vm_demo_check (checks, [lab, ', true orbit: note "family" printed'], ...
                            double (f.note), 1, 0);
    checks = vm_demo_check (checks, [lab, ', true orbit: E_found vs Level'], f.E, ex.E, NaN, ...
                            'error', f.E_err);
    checks = vm_demo_check (checks, [lab, ', true orbit: T vs 4 K(m) (rel.)'], f.T, ex.T, NaN, ...
                            'error', f.T_err);
    checks = vm_demo_check (checks, [lab, ', true orbit: T vs 4 K at E_found'], f.T, ...
                            f.T_family, tol.T, 'error', f.T_family_err);
  end
end

function print_tables (res, msg)
  fprintf ('the pendulum th'''' = -g sin th (g = %g) by periodic_orbit (dual action on a circle)\n', ...
           res.g);
  fprintf ('against T = 4 K(m)/sqrt(g), m = sin(a/2)^2 (ellipke), and ode45 at RelTol 1e-12\n');
  fprintf ('(1) with Integral E = w^2/2 - g cos th, Level -g cos a, Unfolding grad E, from the true orbit\n');
  fprintf ('    with T + 1 %% and the states + 3e-3 (sin s, cos 2s):\n');
  fprintf ('%5s %10s %18s %18s %9s %5s %4s %7s  %s\n', 'a', 'E', 'T', '4 K(m)', 'rel err', ...
           'N', 'it', 'time s', 'Floquet multipliers');
  for k = 1:numel (res.amplitudes)
    ex = res.exact(k);
    r = res.integral(k);
    fl = r.floquet;
    fprintf ('%5g %10.6f %18.14f %18.14f %9.1e %5d %4d %7.2f  %.12f %+.3ei, %.12f %+.3ei\n', ...
             ex.a, ex.E, r.T, ex.T, r.T_err, r.N, r.iterations, r.time, real (fl(1)), ...
             imag (fl(1)), real (fl(2)), imag (fl(2)));
  end
  fprintf ('    shooting matrices (ode45 1e-12 along the orbit), smallest / largest singular value:\n');
  fprintf ('%5s %12s %12s %12s %14s %12s\n', 'a', '[M-I, F]', '+ phase', '+ energy', ...
           'null vs family', 'dT/dE');
  for k = 1:numel (res.amplitudes)
    r = res.integral(k);
    fprintf ('%5g %12.2e %12.2e %12.2e %14.2e %12.6f\n', res.amplitudes(k), r.sv_closure, ...
             r.sv_phase, r.sv_energy, r.null_err, res.exact(k).dTdE);
  end
  fprintf ('(2) the same options from a circle (a cos s, -a sin s) + 3e-3 (sin s, cos 2s), T + 1 %%:\n');
  for k = 1:numel (res.amplitudes)
    c = res.circle(k);
    fprintf ('  a = %g: exitflag %d, T = %.14f, rel err %.1e, %d iterations\n', ...
             res.amplitudes(k), c.exitflag, c.T, c.T_err, c.iterations);
  end
  fprintf ('(3) without Integral: from the rough guess of (1), and from the true orbit (ode45, T = 4 K):\n');
  for k = 1:numel (res.amplitudes)
    f = res.free(k);
    fprintf (['  a = %g: rough: exitflag %d; true orbit: exitflag %d, T = %.14f (vs 4 K(m) %.1e), ' ...
              'E_found - E = %.2e, T vs 4 K at E_found %.1e, note printed: %s\n'], ...
             res.amplitudes(k), f.rough_exitflag, f.exitflag, f.T, f.T_err, f.E_err, ...
             f.T_family_err, vm_demo_yesno (f.note));
  end
  fprintf ('\n');
  vm_demo_table (res.checks, '%.10g', 'part');
  fprintf ('%s (%.1f s)\n', msg, res.time);
end

function draw (res)
  fs = 5;
  g = res.g;
  colors = [0, 0.447, 0.741; 0.85, 0.325, 0.098; 0.466, 0.674, 0.188];
  vm_demo_subplot (1, 2, 1, fs);
  % the separatrix E = g: w = +-2 sqrt (g) |cos (th/2)|, through the saddles th = +-pi
  th = linspace (-3.5, 3.5, 401);
  ws = 2 * sqrt (g) * abs (cos (th / 2));
  h = plot (th, ws, '--', 'color', [0.4, 0.4, 0.4], 'linewidth', 1);
  hold on;
  plot (th, -ws, '--', 'color', [0.4, 0.4, 0.4], 'linewidth', 1);
  leg = {'separatrix E = g (saddles at \theta = \pm\pi)'};
  for k = 1:numel (res.amplitudes)
    ex = res.exact(k);
    h(end + 1) = plot (ex.y(:, 1), ex.y(:, 2), '-', 'color', colors(k, :), 'linewidth', 1.2); %#ok<AGROW>
    leg{end + 1} = sprintf ('a = %g rad: ode45 1e-12, T = 4 K = %.10f s', ex.a, ex.T); %#ok<AGROW>
  end
  for k = 1:numel (res.amplitudes)
    r = res.integral(k);
    if r.exitflag == 1
      step = max (1, floor (numel (r.t) / 60));
      hk = plot (r.y(1:step:end, 1), r.y(1:step:end, 2), 'o', 'color', colors(k, :), ...
                 'markersize', 3);
      if k == 1
        h(end + 1) = hk; %#ok<AGROW>
        leg{end + 1} = 'o: the dual action (periodic orbit with Integral E)'; %#ok<AGROW>
      end
    end
  end
  hold off;
  set (gca, 'fontsize', fs);
  axis ([-3.5, 3.5, -2.4, 4.2]);
  set (gca, 'ytick', -2:2);
  grid on;
  xlabel ('\theta (rad)');
  ylabel ('\omega = d\theta/dt (rad/s)');
  title ('pendulum orbits at E = -g cos a, g = 1/s^2');
  lh = legend (h, leg, 'location', 'north');
  set (lh, 'fontsize', fs - 1);
  vm_demo_subplot (1, 2, 2, fs);
  E = linspace (-g * 0.999, g * 0.995, 400);
  T = 4 * ellipke ((1 + E / g) / 2) / sqrt (g);
  plot (E, T, 'k-', 'linewidth', 1);
  hold on;
  for k = 1:numel (res.amplitudes)
    r = res.integral(k);
    plot (res.exact(k).E, r.T, 'o', 'color', colors(k, :), 'markersize', 6, 'linewidth', 1.5);
  end
  hold off;
  set (gca, 'fontsize', fs);
  grid on;
  xlabel ('E = \omega^2/2 - g cos \theta (1/s^2)');
  ylabel ('period T (s)');
  title ('the family: T(E) and the orbits found');
  lh = legend ([{'T(E) = 4 K((1 + E/g)/2) / sqrt(g)'}, cellfun(@(a) sprintf ('a = %g rad', a), ...
                num2cell (res.amplitudes), 'UniformOutput', false)], 'location', 'northwest');
  set (lh, 'fontsize', fs - 1);
end
