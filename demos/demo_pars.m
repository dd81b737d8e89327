function results = demo_pars (varargin)
% -*- texinfo -*-
% @deftypefn  {} {} demo_pars ()
% @deftypefnx {} {results =} demo_pars ()
% @deftypefnx {} {results =} demo_pars (..., "quiet")
% @deftypefnx {} {results =} demo_pars (..., "png", dir)
% @deftypefnx {} {results =} demo_pars (..., "nu", nu, "T", T)
% Pars' particle: one anholonomic constraint, four reaction laws.
%
% Acharya and Sengupta, "Dual action principles ..." (Sec.@: 4.1, eqs.@: 42-47; Sec.@: 5,
% eq.@: 51), after Pars (1954).  A particle of unit mass in 3-d space, no applied force, subject
% to the linear anholonomic constraint
%
% @example
% g = x3 v1 - v2 = a(x) . v = 0,    a(x) = (x3, -1, 0),   v = xdot.
% @end example
%
% The paper writes Newton's law as @code{vdot + Q = 0} (eq.@: 42b): its "constraint force" Q is
% MINUS the force on the particle, and its power @code{Q . v = -dK/dt} (K = |v|^2/2) is the
% power dissipated by the reaction.  varmech's reaction R (@code{M qddot = f + R}) is the force on
% the particle, so @code{Q = -R - F} where F are the model's explicit forces.
%
% @strong{Derivations} (redone here; each is also checked numerically by the demo, see below).
% Differentiating the constraint: @code{a . vdot + w = 0}, @code{w = adot . v = v1 v3}
% (eq.@: 43: correct).
%
% (a) Ideal reaction (Gauss's least constraint with unit mass): @code{Q = lam* a}.  Then
% @code{-lam* |a|^2 + w = 0}, @code{lam* = v1 v3 / (1 + x3^2)} and
%
% @example
% x1'' = -x1' x3 x3' / (1 + x3^2),  x2'' = x1' x3' / (1 + x3^2),  x3'' = 0       (44)
% @end example
%
% as printed.  (44) has a closed form: with @code{z = x3 = x3^0 + v3^0 t},
% @code{d log v1 / dt = -z z' / (1 + z^2)} gives @code{v1 = v1^0 sqrt ((1 + z0^2) / (1 + z^2))},
% @code{v2 = z v1} (the constraint; it also solves the second equation), hence
% @code{x1 = x1^0 + C (asinh z - asinh z0)}, @code{x2 = x2^0 + C (sqrt (1 + z^2) - sqrt (1 + z0^2))},
% @code{C = v1^0 sqrt (1 + z0^2) / v3^0}.  The kinetic energy is conserved.
%
% (b) The reaction (45) @code{Q = lam* a + a x v + nu v}, nu >= 0.  With
% @code{a x v = (-v3, -x3 v3, x3 v2 + v1)} (as printed) and @code{vdot = -Q}, the constraint gives
% @code{lam* = (v1 v3 + nu (v2 - x3 v1)) / (1 + x3^2)} (as printed) and, for nu = 0, eq.@: (47)
% as printed:
%
% @example
% x1'' = -x1' x3 x3' / (1 + x3^2) + x3',   x2'' = x1' x3' / (1 + x3^2) + x3 x3',
% x3'' = -x3 x2' - x1'.                                                      (47)
% @end example
%
% For nu > 0 (derived here; the paper gives only nu = 0):
%
% @example
% x1'' = -x3 lam* + v3 - nu v1,  x2'' = lam* + x3 v3 - nu v2,  x3'' = -x3 v2 - v1 - nu v3,
% lam* = (v1 v3 + nu (v2 - x3 v1)) / (1 + x3^2).                           (47')
% @end example
%
% On the constraint the nu term of lam* vanishes.  Power: @code{Q . v = lam* (a . v) +
% (a x v) . v + nu |v|^2 = nu |v|^2 >= 0}, so @code{K = K0 exp (-2 nu t)} (closed form).
% In varmech the non-ideal part is the model's force @code{F = -(a x v) - nu v} and the multiplier
% part stays ideal (@code{Reaction = "ideal"}): the ideal multiplier solves
% @code{(a . a) lam = -w - a . F}, which is @code{-lam*} of (47') also off the constraint.
%
% (c) Minimal reaction, Sec.@: 5 (eq.@: 51).  @code{dg/dv2 = -1} never vanishes, so the constraint
% is solved globally for @code{v^(s) = v2 = x3 v1}; @code{v^(r) = (v1, v3)}.  With F = 0, eq.@: (51)
% reads @code{x1' = v1, x2' = x3 v1, x3' = v3, v1' = 0, v3' = 0}, and the reaction is
% @code{F^(c)(r) = 0}, @code{F^(c)(s) = F^(c)_2 = d(x3 v1)/dt = v1 v3}: the reaction acts along e2
% only, i.e.@: @code{Reaction = [0 1 0]} (B = row 2 of the identity = of M).  The closed form is
% @code{x1 = x1^0 + v1 t, x3 = z, x2 = x2^0 + v1 (x3^0 t + v3 t^2/2)}, and varmech's multiplier
% is @code{mu = v1^0 v3^0} (constant).  The other split @code{v^(s) = v1 = v2 / x3}
% (@code{Reaction = [1 0 0]}) is singular at x3 = 0 and is not used: with the data below
% gauss_integrate stops at t = 1.225 (x3 = -0.01, v1 = 40, rcond < 1e-13), as it should.
% The minimal reaction (e2) does work:
% @code{Q . v = -F^(c) . v = -x3 v1^2 v3}, which changes sign when x3 does (the initial data
% below make x3 cross 0 at t = 1.25), so the minimal reaction of Sec.@: 5 is NOT in the class
% "power of the constraint forces non-negative" of Sec.@: 4; the demo reports its (negative)
% minimum power against this closed form.
%
% @strong{Misprint} (eq.@: 48, Sec.@: 4.1).  (48) prints @code{vdot1 - v1 z v3^0 / (1 + z^2) = 0};
% from (44) (and from the derivation above) it must be @code{vdot1 + v1 z v3^0 / (1 + z^2) = 0}.
% The wrong sign propagates into the pre-dual Lagrangian after (48), the DtP mapping
% @code{v1^(H)} and the dual action (49) (the terms @code{lambda1 v1 z v3^0 / (1 + z^2)} change
% sign).  Checked: the printed (48) integrated with ode45 leaves the constraint
% (@code{z v1 - v2} grows to O(1)) and its v1 departs from the solution of (44) by O(1), while the
% corrected sign reproduces (44) to 1e-12 (fields @code{misprint48_*}).  (The text of the E-L
% equations after (49), @code{vdot1^(H) / v1^(H) - ...}, also does not balance dimensionally; it
% should read @code{vdot1^(H) + v1^(H) z v3^0 / (1 + z^2) = 0}; this may be a transcription
% artefact of the text version.)  Eqs.@: 43, 44, the two lam* formulas, @code{n x v} and (47)
% were checked and are correct.
%
% @strong{Data}.  The paper gives no numbers: generic consistent data
% @code{x0 = (0.3, -0.2, -0.5)}, @code{v0 = (0.8, x3^0 v1^0, 0.4) = (0.8, -0.4, 0.4)}, t in
% [0, 5] (option "T"), nu = 0.5 for the dissipative case (option "nu").
%
% @strong{What is compared}.  varmech's @code{gauss_integrate} (dopri5, RelTol 1e-10, AbsTol
% 1e-12, 201 output times, no projection) for
% @table @asis
% @item (a) ideal
% the default reaction; reference: the closed form above (ode45 on (44) is a cross-check);
% multiplier against @code{-lam* = -v1 v3 / (1 + x3^2)} on the closed form.
% @item (b0), (bnu)
% forces @code{-(a x v) - nu v} with nu = 0 and nu; reference: Octave's ode45 (RelTol 1e-12,
% AbsTol 1e-14) on (47) / (47') as derived, multiplier against @code{-lam*} on the reference.
% @item (c) minimal
% @code{Reaction = [0 1 0]}; reference: ode45 on (51) (the closed form is a cross-check).
% @end table
% For each: the max constraint residual |a . v|, the max deviation of x(t) from the reference,
% the min power Q . v and its deviation from the exact power (0, 0, nu |v|^2,
% @code{-x3 v1^2 v3}), the kinetic energy against its closed form, and the max differences of
% x3(t) between the cases.  Also: the hand-derived scalar right-hand sides (44), (47), (47'),
% lam* are compared at 1000 random states (on and off the constraint) with the vector formulas
% @code{vdot = -lam* a - a x v - nu v} (cross products, lam* from @code{a . vdot + w = 0}).
%
% @strong{Tolerances}.  dopri5's local error control makes the global error roughly
% proportional to RelTol = 1e-10 times the error growth over [0, 5] (measured errors are
% 1e-10 to 3e-10); we allow 1e-8 = 100 RelTol for the trajectories, the residual (the constraint
% is imposed at acceleration level, so the drift is accumulated local error of the same order),
% the energies and the powers (|Q . v - exact| <= |lam| |a . v| with |lam| <= 1).  ode45 at
% RelTol 1e-12 adds less than 1e-11.  The formula checks are rounding-level: 1e-12.  "Not small"
% for the x3 differences means >= 0.1 (they are O(1)).  x3 of (a) and (c) are the same
% (x3'' = 0 in both): that difference must be <= 1e-8, the x1, x2 differences are O(1).
%
% Options: @code{"quiet"} prints nothing; @code{"png", @var{dir}} writes
% @file{demo_pars.png} (x3(t), |a . v| and Q . v of all cases) into @var{dir};
% @code{"nu"}, @code{"T"} change nu (> 0) and the final time.
%
% @var{results} is a struct with fields @code{x0}, @code{v0}, @code{T}, @code{nu},
% @code{t} (output times), @code{cases} (struct array, one per case: @code{name},
% @code{reference}, @code{x}, @code{residual}, @code{dev_ref}, @code{dev_alt} (deviation from the
% cross-check reference), @code{dev_multiplier}, @code{power_min}, @code{power_dev},
% @code{energy_dev}, @code{exitflag}, @code{message}), @code{x3_diff} (4-by-4, max_t |x3_i - x3_j|),
% @code{x_diff} (4-by-4, max_t |x_i - x_j|), @code{formula_dev} (struct: @code{eq44},
% @code{eq47}, @code{eq47nu}, @code{lam}), @code{misprint48_printed_residual},
% @code{misprint48_printed_dev}, @code{misprint48_corrected_dev}, @code{tol} (struct of the
% tolerances), @code{pass} (struct of logical results) and @code{time}.
% @seealso{gauss_integrate, mechsys}
% @end deftypefn

  opt = vm_demo_args ('demo_pars', varargin, struct ('nu', 0.5, 'T', 5));
  nu = opt.nu;
  T = opt.T;
  if ~(isscalar (nu) && isreal (nu) && nu > 0 && isscalar (T) && isreal (T) && T > 0)
    error ('demo_pars: nu and T must be positive scalars');
  end

  tstart = tic;
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
  % the non-ideal part of (45) as explicit forces: F = -(a x v) - nu v, a x v = (-v3, -x3 v3, x3 v2 + v1)
  sysb = mechsys ('coordinates', {'x1', 'x2', 'x3'}, 'parameters', struct ('nu', 0), ...
                  'lagrangian', lag, 'constraints', con, ...
                  'forces', {'dot(x3) - nu*dot(x1)', 'x3*dot(x3) - nu*dot(x2)', ...
                             '-x3*dot(x2) - dot(x1) - nu*dot(x3)'});

  % derivation checks at random states
  fdev = formula_checks (nu);

  % closed forms
  z0 = x0(3);
  z = z0 + v0(3) * tout;
  C = v0(1) * sqrt (1 + z0^2) / v0(3);
  va1 = v0(1) * sqrt ((1 + z0^2) ./ (1 + z .^ 2));
  xa = [x0(1) + C * (asinh (z) - asinh (z0)), x0(2) + C * (sqrt (1 + z .^ 2) - sqrt (1 + z0^2)), z];
  vaa = [va1, z .* va1, v0(3) * ones(size (z))];
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
        pref = zeros (size (sol.t));
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
        pref = nuk * sum (sol.qdot .^ 2, 2);
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
        pref = -sol.q(:, 3) .* sol.qdot(:, 1) .^ 2 .* sol.qdot(:, 3);
        D = @(q) repmat ([0, 1, 0], size (q, 1), 1);
        Fx = @(q, v) zeros (size (q));
    end
    c = cases(ic);
    c.exitflag = sol.exitflag;
    c.message = sol.message;
    c.x = sol.q;
    c.v = sol.qdot;
    % a failed run (exitflag 0) is compared up to where it stopped, and fails the exitflag check
    nt = numel (sol.t);
    c.residual = max (abs (sol.residual));
    c.dev_ref = max (max (abs (sol.q - xref(1:nt, :))));
    if ~isempty (xalt)
      c.dev_alt = max (max (abs (sol.q - xalt(1:nt, :))));
    end
    c.dev_multiplier = max (abs (sol.lambda - lamref(1:nt)));
    % the paper's constraint force Q = -(R + F): R = D' lambda (a for the ideal solve, e2 for (c))
    R = D (sol.q) .* repmat (sol.lambda, 1, 3);
    Q = -(R + Fx (sol.q, sol.qdot));
    c.power = sum (Q .* sol.qdot, 2);
    c.power_min = min (c.power);
    c.power_dev = max (abs (c.power - pref));
    c.energy_dev = max (abs (sol.energy - Kref(1:nt)));
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
  results.misprint48_printed_dev = max (abs (yp(:, 1) - va1));
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
  vm_demo_subplot (3, 1, 1, fs);
  hold on;
  hl = zeros (1, numel (c));
  for i = 1:numel (c)
    hl(i) = plot (r.t(1:size (c(i).x, 1)), c(i).x(:, 3), styles{i}, 'color', colors(i, :), ...
                  'linewidth', 1.5);
  end
  % (c) has the x3 of (a): its symbols mark it on the line of (a)
  k = 1:10:size (c(end).x, 1);
  plot (r.t(k), c(end).x(k, 3), 'o', 'color', colors(numel (c), :), 'markersize', 4);
  hold off;
  set (gca, 'fontsize', fs);
  xlabel ('t (dimensionless)');
  ylabel ('x_3 (dimensionless)');
  title (sprintf ('Pars'' particle, x_3 v_1 - v_2 = 0: four reaction laws (nu = %g)', r.nu));
  ylim ([-2, 3]);
  leg{end} = [leg{end}, ' (o: x_3 as (a))'];
  lh = legend (hl, leg, 'location', 'north', 'orientation', 'horizontal');
  set (lh, 'fontsize', 6);
  grid on;
  vm_demo_subplot (3, 1, 2, fs);
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
  vm_demo_subplot (3, 1, 3, fs);
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
