function results = demo_tumbler (varargin)
% -*- texinfo -*-
% @deftypefn  {} {} demo_tumbler ()
% @deftypefnx {} {results =} demo_tumbler (..., "quiet")
% @deftypefnx {} {results =} demo_tumbler (..., "png", dir)
% @deftypefnx {} {results =} demo_tumbler (..., "T", T, "e", e, "g", g)
% A point mass falling in a circular tumbler with hard walls (Rothkopf & Horowitz, "A variational
% approach to nonholonomic and inequality-constrained mechanics", eq.@: 11, Fig.@: 3): m = 1 kg,
% R = 1 m, start at rest at (-1/2, -3/4) m, the wall h = R^2 - x^2 - y^2 >= 0, impacts located as
% events by @code{gauss_integrate} with restitution e.  The reference is semi-analytic: parabolic
% flights whose exit from the disc is a root of a quartic, joined by the reflection
% v+ = v - (1+e) (v.nh) nh, nh = r/|r| (the impulse in the metric M = m I reduces to it, checked
% with @code{mechsys_eval}).  Impact times may be late by the event tolerance
% tau_ev(t) = 1e-12 max (1, |t|); global errors are bounded by that delay propagated through the chain.
% A: the paper's grid N = 256 on [0, 1/2] s, e = 1;  B: e = 1 on [0, T];  C: e < 1 (energy loss
% (1 - e^2) m vn^2/2 per impact);  D: e < 1 up to the accumulation point of the impacts;  E: the
% paper's regularized wall for sigma = 1/10, 1/30, 1/110 (Fig.@: 3, center and bottom).  The paper's
% normal force lacks a factor 2 (its barrier is V0/2): E shows that varmech's contact force with
% V0 = 5 is the printed force with V0 = 10.  Options: "T" (end of B, default 3 s), "e" (default
% 0.8), "g" (default 9.8 m/s^2), "png", dir (demo_tumbler_@{trajectory,energy@}.png).
% @var{results} holds one struct per part, the printed table @code{checks} and @code{pass}.
% @seealso{gauss_integrate, mechsys, demo_plane_particle}
% @end deftypefn

  opt = vm_demo_args ('demo_tumbler', varargin, struct ('T', 3, 'e', 0.8, 'g', 9.8));
  T = opt.T;
  e = opt.e;
  g = opt.g;
  if ~(isscalar (T) && isreal (T) && T > 0.5 && isscalar (g) && isreal (g) && g > 0)
    error ('demo_tumbler: T must be a scalar > 0.5 and g a positive scalar');
  end
  if ~(isscalar (e) && isreal (e) && e > 0 && e < 1)
    error ('demo_tumbler: e must be a scalar with 0 < e < 1');
  end

  % paper data
  m = 1;
  R = 1;
  r0 = [-1/2, -3/4];
  v0 = [0, 0];
  N = 256;
  tg = (0:N - 1)' / (2 * (N - 1));
  % numerical settings
  rtol = 1e-10;
  atol = 1e-12;
  Te = 1.05;
  tau_min = 1e-4;
  dfd = 1e-7;
  tev = @(t) 1e-12 * max (1, abs (t));
  tround = 1e-14;
  gtol_extra = 1e-13;
  etol = rtol * m * g * R;
  algtol = 1e-12;
  sigmas = [1/10, 1/30, 1/110];
  V0paper = 10;
  % max speed in the disc from the energy (lowest point y = -R)
  vmax = sqrt (2 * g * (r0(2) + R) + sum (v0 .^ 2));

  par = struct ('m', m, 'g', g, 'R', R, 'sig', sigmas(end), 'V0', V0paper / 2);
  contact = struct ('h', 'R^2 - x^2 - y^2', 'sigma', 'sig', 'V0', 'V0');
  sys = mechsys ('coordinates', {'x', 'y'}, 'parameters', par, ...
                 'lagrangian', 'm/2*(dot(x)^2 + dot(y)^2) - m*g*y', 'contacts', contact);
  iopts = {'RelTol', rtol, 'AbsTol', atol, 'Contacts', 'hard'};
  checks = struct ('part', {}, 'name', {}, 'value', {}, 'reference', {}, 'err', {}, 'tol', {}, ...
                   'pass', {});

  % ---- A: the paper's grid, e = 1 -------------------------------------------------------------
  sA = gauss_integrate (sys, [0, tg(end)], r0, v0, iopts{:}, 'Restitution', 1, 'OutputTimes', tg);
  irow = grid_rows (sA.output.t, tg);
  refA = ref_chain (r0, v0, 0, tg(end), 1, g, R, 0, 0);
  [qg, tolg] = grid_bound (refA, r0, v0, tg, 1, g, R, dfd, tev);
  A.nimpacts = numel (sA.impacts.t);
  A.nimpacts_ref = numel (refA.t);
  A.nrows = numel (sA.output.t);
  A.N = N;
  A.t = tg;
  A.q = sA.output.q(irow, :);
  A.q_ref = qg;
  A.grid_err = sqrt (sum ((A.q - qg) .^ 2, 2));
  A.grid_tol = tolg + gtol_extra;
  [w, iw] = max (A.grid_err ./ A.grid_tol);
  checks = vm_demo_check (checks, 'impacts in [0, 1/2]', A.nimpacts, A.nimpacts_ref, 0, 'part', 'A');
  checks = vm_demo_check (checks, 'output rows (= N requested)', A.nrows, N, 0, 'part', 'A');
  checks = vm_demo_check (checks, 'max |r - r_ref| on the grid', A.grid_err(iw), 0, A.grid_tol(iw), ...
                          'ratio', w, 'part', 'A');

  % ---- B: e = 1 on [0, T] -----------------------------------------------------------------------
  sB = gauss_integrate (sys, [0, T], r0, v0, iopts{:}, 'Restitution', 1);
  [B, checks] = compare_impacts (sys, sB, r0, v0, T, 1, g, R, m, dfd, tev, tround, gtol_extra, ...
                                 algtol, checks, 'B');
  B.sol = sB;
  B.energy_drift = max (abs (sB.energy - sB.energy(1)));
  B.energy_tol = etol;
  checks = vm_demo_check (checks, 'max |E - E0| (e = 1)', B.energy_drift, 0, etol, 'part', 'B');

  % ---- C: e < 1 on [0, Te] ----------------------------------------------------------------------
  % (for small e the impacts accumulate earlier: end before the flights get shorter than 10 ms)
  refS = ref_chain (r0, v0, 0, Te, e, g, R, 0, 0, 1e-2);
  if ~isempty (refS.flight) && refS.flight(end) < 1e-2
    Te = refS.t(end) + refS.flight(end) / 2;
  end
  sC = gauss_integrate (sys, [0, Te], r0, v0, iopts{:}, 'Restitution', e);
  [C, checks] = compare_impacts (sys, sC, r0, v0, Te, e, g, R, m, dfd, tev, tround, gtol_extra, ...
                                 algtol, checks, 'C');
  C.sol = sC;
  % energy constant during the flights (rows strictly between impacts)
  ti = [0; sC.impacts.t; Inf];
  Eafter = [sC.energy(1); C.E_after];
  dev = 0;
  for j = 1:numel (ti) - 1
    in = sC.t > ti(j) & sC.t < ti(j + 1);
    if any (in)
      dev = max (dev, max (abs (sC.energy(in) - Eafter(j))));
    end
  end
  C.flight_energy_dev = dev;
  checks = vm_demo_check (checks, 'max |E - E(after impact)| in flight', dev, 0, etol, 'part', 'C');

  % ---- D: e < 1 towards the accumulation point ----------------------------------------------------
  refD = ref_chain (r0, v0, 0, Inf, e, g, R, 0, 0, tau_min);
  D.t_end = refD.t(end) + 0.5 * refD.flight(end);
  D.t_accumulation = refD.t(end) + refD.flight(end) / (1 - e);
  sD = gauss_integrate (sys, [0, D.t_end], r0, v0, iopts{:}, 'Restitution', e);
  D.nimpacts = numel (sD.impacts.t);
  D.nimpacts_ref = numel (refD.t);
  D.min_flight_ref = refD.flight(end);
  D.overshoot = max (sqrt (sum (sD.q .^ 2, 2))) - R;
  D.overshoot_tol = 10 * vmax * tev (D.t_end);
  D.final_q = sD.q(end, :);
  D.sol = sD;
  checks = vm_demo_check (checks, sprintf ('impacts in [0, %.4f] (flights >= %.0e s)', D.t_end, ...
                                           tau_min), D.nimpacts, D.nimpacts_ref, 0, 'part', 'D');
  checks = vm_demo_check (checks, 'max |r| - R (stays in the disc)', D.overshoot, 0, ...
                          D.overshoot_tol, 'part', 'D');

  % ---- E: the paper's regularized (soft) wall -----------------------------------------------------
  E.sigma = sigmas;
  E.V0_paper = V0paper;
  E.V0_varmech = V0paper / 2;
  % barrier of the printed force: work against it along a radius through the layer
  sp = sigmas(end);
  fpaper = @(rho) V0paper / sqrt (2 * pi * sp^2) * exp (-(rho .^ 2 - R^2) .^ 2 / (2 * sp^2)) .* rho;
  E.barrier = integral (fpaper, 0, 2 * R, 'AbsTol', 1e-13, 'RelTol', 1e-12);
  checks = vm_demo_check (checks, 'barrier of the printed F_N (V0 = 10)', E.barrier, V0paper / 2, ...
                          1e-9 * V0paper, 'part', 'E');
  % varmech's contact force with V0 = 5 against the printed force with V0 = 10
  rr = [0.9, 0.3; -0.6, -0.795; 0.2, -0.99; -0.7071, -0.7071];
  sysE = sys;
  fdiff = 0;
  for is = 1:numel (sigmas)
    sysE.parameters.sig = sigmas(is);
    o = mechsys_eval (sysE, 0, rr, zeros (size (rr)), 'blocks', {'contacts'});
    gs = sum (rr .^ 2, 2) - R^2;
    Fp = -V0paper / sqrt (2 * pi * sigmas(is)^2) * (exp (-gs .^ 2 / (2 * sigmas(is)^2)) * [1, 1]) .* rr;
    Fv = reshape (o.FN, size (rr));
    fdiff = max (fdiff, max (max (abs (Fv - Fp))) / max (1, max (abs (Fp(:)))));
  end
  E.force_diff = fdiff;
  checks = vm_demo_check (checks, 'varmech FN (V0 = 5) vs printed F_N (V0 = 10)', fdiff, 0, algtol, ...
                          'part', 'E');
  E.deviation = zeros (size (sigmas));
  E.nsteps = zeros (size (sigmas));
  E.energy_return = zeros (size (sigmas));
  E.q = cell (size (sigmas));
  for is = 1:numel (sigmas)
    sysE.parameters.sig = sigmas(is);
    sE = gauss_integrate (sysE, [0, tg(end)], r0, v0, 'RelTol', rtol, 'AbsTol', atol, ...
                          'Contacts', 'soft', 'MaxStep', 1e-3, 'OutputTimes', tg);
    E.q{is} = sE.output.q;
    E.deviation(is) = max (sqrt (sum ((sE.output.q - qg) .^ 2, 2)));
    E.energy_return(is) = abs (sE.energy(end) - sE.energy(1));
    E.nsteps(is) = sE.stats.naccept;
  end
  % heuristic bound: the accepted local errors, summed, times |grad E| <= m sqrt(g^2 + vmax^2)
  E.energy_tol = max (E.nsteps) * (rtol * 2 * R + atol) * m * sqrt (g^2 + vmax^2);
  E.h_end = R^2 - sum (qg(end, :) .^ 2);
  for is = 1:numel (sigmas)
    checks = vm_demo_check (checks, sprintf ('max |r - r_hard| on the grid, sigma = 1/%g', ...
                                             round (1 / sigmas(is))), E.deviation(is), NaN, NaN, ...
                            'part', 'E');
  end
  dec = all (diff (E.deviation) < 0);
  checks = vm_demo_check (checks, 'deviation decreases with sigma', double (dec), 1, 0, 'part', 'E');
  checks = vm_demo_check (checks, sprintf ('|E(1/2) - E0| after the contacts, sigma = 1/%g', ...
                                           round (1 / sigmas(end))), E.energy_return(end), 0, ...
                          E.energy_tol, 'part', 'E');

  results.g = g;
  results.e = e;
  results.T = T;
  results.Te = Te;
  results.paper = A;
  results.elastic = B;
  results.inelastic = C;
  results.accumulation = D;
  results.soft = E;
  results.checks = checks;
  results.pass = vm_demo_verdict (checks);

  if ~opt.quiet
    print_table (results, m, R, r0, rtol);
  end
  % the motion spans 1.3 m by 0.3 m: a wide figure for it
  vm_demo_png (opt, {'trajectory'}, @(what) draw (results, R, refA, g, what), [1000, 560]);
  vm_demo_png (opt, {'energy'}, @(what) draw (results, R, refA, g, what));
  if nargout == 0
    clear results;
  end
end

function [S, checks] = compare_impacts (sys, sol, r0, v0, tf, e, g, R, m, dfd, tev, tround, ...
                                        gextra, algtol, checks, part)
  % Impacts of one run against the reference chain: count, local and global times, positions,
  % energies after the impacts, and the algebra of the impulse.
  ref = ref_chain (r0, v0, 0, tf, e, g, R, 0, 0);
  ti = sol.impacts.t;
  K = min (numel (ti), numel (ref.t));
  S.e = e;
  S.nimpacts = numel (ti);
  S.nimpacts_ref = numel (ref.t);
  S.t = ti;
  S.t_ref = ref.t;
  % local errors: the reference restarted from varmech's state after the previous impact
  loc = zeros (K, 1);
  tstart = 0;
  rs = r0;
  vs = v0;
  for j = 1:K
    tau = first_hit (rs, vs, g, R);
    loc(j) = ti(j) - (tstart + tau);
    tstart = ti(j);
    rs = sol.impacts.q(j, :);
    vs = sol.impacts.qdot_after(j, :);
  end
  S.err_local = loc;
  S.tol_local = tev (ti(1:K)) + tround;
  % global errors and their propagated bound
  [Lt, Lr, LE] = sensitivities (ref, r0, v0, e, g, R, dfd);
  w = tev (ref.t(1:K));
  S.err_global = ti(1:K) - ref.t(1:K);
  S.tol_global = (abs (Lt(1:K, 1:K))' * w) + gextra;
  S.err_pos = sqrt (sum ((sol.impacts.q(1:K, :) - ref.rb(1:K, :)) .^ 2, 2));
  S.tol_pos = (abs (Lr(1:K, 1:K))' * w) + gextra;
  q = sol.impacts.q;
  vb = sol.impacts.qdot_before;
  va = sol.impacts.qdot_after;
  S.E_after = m / 2 * sum (va .^ 2, 2) + m * g * q(:, 2);
  S.E_before = m / 2 * sum (vb .^ 2, 2) + m * g * q(:, 2);
  S.E_after_ref = m / 2 * sum (ref.va .^ 2, 2) + m * g * ref.rb(:, 2);
  S.err_E = abs (S.E_after(1:K) - S.E_after_ref(1:K));
  S.tol_E = (abs (LE(1:K, 1:K))' * w) + gextra;
  % impulse algebra at varmech's impact points
  nh = q ./ (sqrt (sum (q .^ 2, 2)) * [1, 1]);
  th = [-nh(:, 2), nh(:, 1)];
  vnb = sum (vb .* nh, 2);
  vna = sum (va .* nh, 2);
  vscale = sqrt (sum (vb .^ 2, 2));
  S.normal_ratio = vna ./ vnb;
  S.kn_ratio = S.normal_ratio .^ 2;
  S.tangential_jump = abs (sum ((va - vb) .* th, 2)) ./ vscale;
  S.energy_loss = S.E_before - S.E_after;
  S.energy_loss_ref = (1 - e^2) * m / 2 * vnb .^ 2;
  % the M-metric impulse from mechsys_eval, against the reflection and varmech's velocities
  o = mechsys_eval (sys, ti, q, vb, 'blocks', {'eom', 'contacts'});
  vM = zeros (size (vb));
  for j = 1:numel (ti)
    Mj = reshape (o.M(j, :, :), 2, 2);
    nj = reshape (o.h_q(j, 1, :), 2, 1);
    Mn = Mj \ nj;
    vM(j, :) = vb(j, :) - (1 + e) * (nj' * vb(j, :)') / (nj' * Mn) * Mn';
  end
  vrefl = vb - (1 + e) * (vnb * [1, 1]) .* nh;
  S.impulse_err = max ([max(abs (vM(:) - vrefl(:))), max(abs (va(:) - vrefl(:)))]) / max (vscale);

  checks = vm_demo_check (checks, sprintf ('impacts in [0, %g] (e = %g)', tf, e), S.nimpacts, ...
                          S.nimpacts_ref, 0, 'part', part);
  [w1, i1] = max (S.err_local ./ S.tol_local);
  checks = vm_demo_check (checks, 'local impact time error (<= tau_ev)', S.err_local(i1), 0, ...
                          S.tol_local(i1), 'ratio', w1, 'part', part);
  checks = vm_demo_check (checks, 'min local impact time error (far side, >= 0)', min (S.err_local), ...
                          0, tround, 'ratio', double (-min (S.err_local) / tround), 'part', part);
  [w2, i2] = max (abs (S.err_global) ./ S.tol_global);
  checks = vm_demo_check (checks, 'global impact time error', S.err_global(i2), 0, S.tol_global(i2), ...
                          'ratio', w2, 'part', part);
  [w3, i3] = max (S.err_pos ./ S.tol_pos);
  checks = vm_demo_check (checks, 'impact position error', S.err_pos(i3), 0, S.tol_pos(i3), 'ratio', ...
                          w3, 'part', part);
  checks = vm_demo_check (checks, 'M-metric impulse vs reflection (rel.)', S.impulse_err, 0, algtol, ...
                          'part', part);
  if e < 1
    [w4, i4] = max (S.err_E ./ S.tol_E);
    checks = vm_demo_check (checks, 'energy after impact vs reference', S.err_E(i4), 0, S.tol_E(i4), ...
                            'ratio', w4, 'part', part);
    [~, i5] = max (abs (S.kn_ratio - e^2));
    checks = vm_demo_check (checks, 'normal kinetic energy ratio (e^2)', S.kn_ratio(i5), e^2, ...
                            algtol, 'part', part);
    checks = vm_demo_check (checks, 'tangential velocity jump (rel.)', max (S.tangential_jump), 0, ...
                            algtol, 'part', part);
    [~, i6] = max (abs (S.energy_loss - S.energy_loss_ref));
    checks = vm_demo_check (checks, 'energy loss at an impact, (1-e^2) m vn^2/2', S.energy_loss(i6), ...
                            S.energy_loss_ref(i6), algtol * max (abs (S.E_before)), 'part', part);
  end
end

function irow = grid_rows (t, tg)
  % the rows of sol.output.t at the requested output times (the last one when a time repeats)
  irow = zeros (numel (tg), 1);
  for i = 1:numel (tg)
    k = find (t == tg(i), 1, 'last');
    if isempty (k)
      error ('demo_tumbler: output time %.17g missing from the solution', tg(i));
    end
    irow(i) = k;
  end
end

function ch = ref_chain (r, v, t, tf, e, g, R, jlate, dlate, tau_stop, kmax)
  % Semi-analytic reference: flights (parabolas) and reflections from (t, r, v) until tf.  The
  % impact number jlate is made dlate late (on the far side), as varmech's event location does.
  % With tau_stop > 0, the chain ends at the first impact followed by a flight shorter than
  % tau_stop; with kmax, after kmax impacts.
  if nargin < 10
    tau_stop = 0;
  end
  if nargin < 11
    kmax = Inf;
  end
  a = [0, -g];
  ch.g = g;
  ch.t0 = t;
  ch.r0 = r;
  ch.v0 = v;
  ch.t = zeros (0, 1);
  ch.rb = zeros (0, 2);
  ch.vb = zeros (0, 2);
  ch.va = zeros (0, 2);
  ch.flight = zeros (0, 1);
  k = 0;
  while true
    tau = first_hit (r, v, g, R);
    if t + tau > tf
      break;
    end
    k = k + 1;
    if k == jlate
      tau = tau + dlate;
    end
    rb = r + v * tau + a * tau^2 / 2;
    vb = v + a * tau;
    nh = rb / norm (rb);
    va = vb - (1 + e) * (vb * nh') * nh;
    ch.t(k, 1) = t + tau;
    ch.rb(k, :) = rb;
    ch.vb(k, :) = vb;
    ch.va(k, :) = va;
    t = t + tau;
    r = rb;
    v = va;
    if tau_stop > 0
      ch.flight(k, 1) = first_hit (r, v, g, R);
      if ch.flight(k) < tau_stop
        break;
      end
    end
    if k >= kmax
      break;
    end
  end
end

function tau = first_hit (r, v, g, R)
  % first s > 0 at which the parabola r + v s + (0, -g) s^2/2 leaves the disc |r| <= R
  c = [g^2 / 4, -g * v(2), v * v' - g * r(2), 2 * (r * v'), r * r' - R^2];
  dc = polyder (c);
  z = roots (c);
  z = real (z(abs (imag (z)) <= 1e-10 * max (1, abs (z))));
  z = z(z > 0);
  z = z(polyval (dc, z) > 0);
  if isempty (z)
    error ('demo_tumbler: no exit point of the flight from r = [%g %g], v = [%g %g]', r, v);
  end
  tau = min (z);
  for it = 1:2
    tau = tau - polyval (c, tau) / polyval (dc, tau);
  end
end

function [q, v] = ref_eval (ch, tq)
  % positions and velocities of a reference chain at the times tq
  a = [0, -ch.g];
  ts = [ch.t0; ch.t];
  rs = [ch.r0; ch.rb];
  vs = [ch.v0; ch.va];
  q = zeros (numel (tq), 2);
  v = zeros (numel (tq), 2);
  for i = 1:numel (tq)
    j = find (ts <= tq(i), 1, 'last');
    s = tq(i) - ts(j);
    q(i, :) = rs(j, :) + vs(j, :) * s + a * s^2 / 2;
    v(i, :) = vs(j, :) + a * s;
  end
end

function [Lt, Lr, LE] = sensitivities (ref, r0, v0, e, g, R, dfd)
  % d(impact k)/d(delay of impact j) by finite differences of the reference chain
  K = numel (ref.t);
  Lt = zeros (K);
  Lr = zeros (K);
  LE = zeros (K);
  E0 = sum (ref.va .^ 2, 2) / 2 + g * ref.rb(:, 2);
  for j = 1:K
    p = ref_chain (r0, v0, 0, Inf, e, g, R, j, dfd, 0, K);
    kk = j:min (K, numel (p.t));
    Lt(j, kk) = (p.t(kk) - ref.t(kk))' / dfd;
    Lr(j, kk) = sqrt (sum ((p.rb(kk, :) - ref.rb(kk, :)) .^ 2, 2))' / dfd;
    Ep = sum (p.va(kk, :) .^ 2, 2) / 2 + g * p.rb(kk, 2);
    LE(j, kk) = abs (Ep - E0(kk))' / dfd;
  end
end

function [q, tol] = grid_bound (ref, r0, v0, tq, e, g, R, dfd, tev)
  % reference positions at tq and the propagated bound of the event-location errors
  q = ref_eval (ref, tq);
  tol = zeros (numel (tq), 1);
  for j = 1:numel (ref.t)
    p = ref_chain (r0, v0, 0, tq(end), e, g, R, j, dfd);
    qp = ref_eval (p, tq);
    tol = tol + sqrt (sum ((qp - q) .^ 2, 2)) / dfd * tev (ref.t(j));
  end
end

function print_table (res, m, R, r0, rtol)
  fprintf ('Point mass in a circular tumbler with hard walls (Rothkopf & Horowitz, eq. 11, Fig. 3)\n');
  fprintf ('m = %g kg, R = %g m, g = %g m/s^2, start at rest at (%g, %g) m; gauss_integrate dopri5, RelTol %g\n', ...
           m, R, res.g, r0, rtol);
  fprintf ('reference: semi-analytic chain of parabolas and reflections (quartic roots + Newton)\n');
  fprintf ('A: paper grid N = 256 on [0, 1/2], e = 1;  B: e = 1 on [0, %g];  C: e = %g on [0, %g];\n', ...
           res.T, res.e, res.Te);
  fprintf ('D: e = %g towards the accumulation point (about t = %.4f s);  E: soft wall, paper sigma\n', ...
           res.e, res.accumulation.t_accumulation);
  fprintf ('(where the tolerance varies per impact or grid point, the worst item relative to its tolerance is shown)\n\n');
  vm_demo_table (res.checks, '%.6g');
  B = res.elastic;
  fprintf ('\nB: impact times (s) and errors, e = 1\n');
  fprintf ('%4s %12s %11s %11s %11s %11s\n', 'k', 't_k', 'local err', 'tau_ev', 'global err', 'bound');
  for j = 1:min (B.nimpacts, B.nimpacts_ref)
    fprintf ('%4d %12.8f %11.2e %11.2e %11.2e %11.2e\n', j, B.t(j), B.err_local(j), ...
             B.tol_local(j), B.err_global(j), B.tol_global(j));
  end
  D = res.accumulation;
  fprintf ('\nD: %d of %d impacts found before t = %.5f s; final position (%.4g, %.4g) m\n', ...
           D.nimpacts, D.nimpacts_ref, D.t_end, D.final_q);
  [~, verdict] = vm_demo_verdict (res.checks);
  fprintf ('%s\n', verdict);
end

function draw (res, R, refA, g, what)
  if strcmp (what, 'trajectory')
    draw_trajectory (res, R, refA, g);
  else
    draw_energy (res);
  end
end

function draw_trajectory (res, R, refA, g)
  B = res.elastic;
  C = res.inelastic;
  c1 = [0, 0.447, 0.741];
  c2 = [0.85, 0.325, 0.098];
  fs = 8;
  % the key in a strip above the axes (4 rows), off the motion
  vm_demo_subplot (1, 1, 1, fs, [9.5, 2, 5.6, 3.4 + 1.6 * 4 + 1]);
  ph = linspace (0, 2 * pi, 361);
  plot (R * cos (ph), R * sin (ph), 'k-', 'linewidth', 1.5);
  hold on;
  % reference curves sampled finely; varmech's impacts and the paper-grid run as markers
  ref = ref_chain (B.sol.q(1, :), B.sol.qdot(1, :), 0, res.T, 1, g, R, 0, 0);
  qB = ref_eval (ref, linspace (0, res.T, 3001)');
  plot (qB(:, 1), qB(:, 2), '-', 'color', c1, 'linewidth', 0.75);
  refC = ref_chain (C.sol.q(1, :), C.sol.qdot(1, :), 0, res.Te, res.e, g, R, 0, 0);
  qC = ref_eval (refC, linspace (0, res.Te, 2001)');
  plot (qC(:, 1), qC(:, 2), '-', 'color', c2, 'linewidth', 1);
  plot (B.sol.impacts.q(:, 1), B.sol.impacts.q(:, 2), 'o', 'color', c1, 'markersize', 5);
  plot (C.sol.impacts.q(:, 1), C.sol.impacts.q(:, 2), 's', 'color', c2, 'markersize', 5);
  kp = 1:4:size (res.paper.q, 1);
  c3 = [0.466, 0.674, 0.188];
  plot (res.paper.q(kp, 1), res.paper.q(kp, 2), '.', 'color', c3, 'markersize', 8);
  plot (refA.r0(1), refA.r0(2), 'k*', 'markersize', 8);
  hold off;
  axis equal;
  % zoomed on the motion (the lower part of the tumbler)
  axis ([-0.62, 0.62, -1.03, -0.7] * R);
  set (gca, 'fontsize', fs);
  xlabel ('x (m)');
  ylabel ('y (m)');
  title (sprintf ('tumbler, g = %g: e = 1 on [0, %g] s, e = %g on [0, %g] s', g, res.T, res.e, res.Te), ...
         'fontsize', 9);
  no = {'linestyle', 'none'};
  vm_demo_key ({{'k-', 'linewidth', 1.5}, [{'k*'}, no], {'-', 'color', c1}, {'-', 'color', c2}, ...
                [{'o', 'color', c1}, no], [{'s', 'color', c2}, no], [{'.', 'color', c3, 'markersize', 8}, no]}, ...
               {'wall', 'start', 'e = 1, reference', sprintf('e = %g, reference', res.e), ...
                'e = 1, varmech impacts', sprintf('e = %g, varmech impacts', res.e), ...
                'paper grid, varmech (every 4th point)'}, fs, 2);
end

function draw_energy (res)
  B = res.elastic;
  C = res.inelastic;
  vm_demo_subplot (2, 1, 1, 8);
  plot (B.sol.t, B.sol.energy - B.sol.energy(1), '.-', 'color', [0, 0.447, 0.741]);
  set (gca, 'fontsize', 8);
  xlabel ('t (s)');
  ylabel ('E(t) - E(0) (J)');
  title ('e = 1: energy error of gauss_integrate', 'fontsize', 9, 'interpreter', 'none');
  grid on;
  vm_demo_subplot (2, 1, 2, 8);
  plot (C.sol.t, C.sol.energy, '.-', 'color', [0.85, 0.325, 0.098]);
  hold on;
  ts = [0; C.t_ref];
  Es = [C.sol.energy(1); C.E_after_ref];
  stairs ([ts; res.Te], [Es; Es(end)], 'k--');
  hold off;
  xlim ([0, res.Te]);
  set (gca, 'fontsize', 8);
  xlabel ('t (s)');
  ylabel ('E (J)');
  title (sprintf ('e = %g: energy; each impact removes (1-e^2) m v_n^2/2', res.e), 'fontsize', 9);
  lh = legend ({'varmech', 'reference'}, 'location', 'northeast');
  set (lh, 'fontsize', 7);
  grid on;
end
