% -*- texinfo -*-
% @deftypefn  {} {br =} periodic_continue (ode, po, name, [p0 p1])
% @deftypefnx {} {br =} periodic_continue (..., name, value, ...)
% Continue a periodic orbit @var{po} of @var{ode} in its parameter @var{name} from p0 towards
% p1, through folds, with its Floquet multipliers and the special points where they cross the
% unit circle.  Options:
% @multitable @columnfractions .2 .8
% @item "InitialStep" @tab the first step of the scaled arclength (default 0.02)
% @item "MaxStep", "MinStep" @tab its bounds (defaults 0.1 and 0.0001)
% @item "SpecialTol" @tab the bracket of a special point (default 1e-6)
% @end multitable
% Fields: @code{br.p}, @code{br.T}, @code{br.y} (the orbits), @code{br.floquet},
% @code{br.stable}, @code{br.special} (.type 'fold', 'period-doubling' or 'torus', .p, .T),
% @code{br.exitflag} (1: reached p1), @code{br.message}.  Example (a fold at mu = -1/4):
% @verbatim
% f = 'mu + (x^2+y^2) - (x^2+y^2)^2';
% sys = odesys ('states', {'x', 'y'}, 'parameters', struct ('mu', 0.1), 'rhs', ...
%   {['x*(' f ') - y*(1 + x^2+y^2)'], ['y*(' f ') + x*(1 + x^2+y^2)']});
% t = linspace (0, 3, 40)';  r = sqrt ((1 + sqrt (1.4)) / 2);
% po = periodic_orbit (sys, t, r * [cos(2*pi*t/3), sin(2*pi*t/3)]);
% br = periodic_continue (sys, po, 'mu', [0.1 -0.5], 'MaxSteps', 15);
% fprintf ('%s at mu = %.10f\n', br.special(1).type, br.special(1).p);
% plot (br.p, br.T);  xlabel ('mu');  ylabel ('T')
% @end verbatim
%
% @strong{Reference.}  @var{ode} is made by @code{odesys} (differential states only, right-hand
% sides that do not depend on t); @var{po} is a converged solution of @code{periodic_orbit}
% (exitflag 1) found with the parameter @var{name} (a string, one of @code{ode.parameter_names})
% at p0.  The branch starts at @var{po} corrected at p0 and goes towards p1 until it reaches p1
% (exitflag 1), comes back to p0 after a fold (exitflag 2), takes "MaxSteps" steps (exitflag
% 0) or its step falls below "MinStep" (exitflag -1: the corrector fails, for example where
% the orbit shrinks to an equilibrium at a Hopf point or its period grows without bound at a
% homoclinic orbit).  @code{br.message} says which, and where.
%
% @strong{Method.}  The parameter becomes a state with zero derivative: a second system, with
% the parameter's name among the states, is compiled once per call.  Its orbits form a family
% (one per value of the parameter), which @code{periodic_orbit}'s integral condition selects
% from, as for a conservative system: the branch is measured in the coordinates
% z = (p / |p1 - p0|, the means over the orbit of x_i / X_i and of (x_i - c_i)^2 / X_i^2), X_i
% and c_i the amplitude and the mean of state i on @var{po}, and a step of length ds from the
% point z_k along the unit secant tau (the first step: along p alone) solves the orbit with
% the condition dot (tau, z - z_k) = ds, the pseudo-arclength condition of Keller in these
% coordinates, written as the mean over the orbit of a formula in the states and the parameter
% (the "Integral", at "Level" ds).  The unfolding term (@code{periodic_orbit}'s "Unfolding") is
% a rate e of the parameter, dp/dt = e: periodicity of p forces e = 0, and the constant p it
% frees is fixed by the condition.  At a fold, where the parameter turns, tau has a component
% along the orbit's change, so the system stays regular.  The predictor is the secant through
% the last two points (their orbits resampled on one grid), the corrector
% @code{periodic_orbit} with its defaults (orders, grids doubled to "PeriodTol"); a step whose
% corrector fails, or whose secant turns by more than 25 degrees from tau, is halved; after a
% step taking at most 4 Newton iterations per grid the next is 1.5 times longer (up to
% "MaxStep"), after one taking more than 8, 0.7 times.  A step past p1 (or back past p0) is
% replaced by the orbit at p1 (or p0) itself, with the condition p = p1.
%
% @strong{Floquet multipliers and special points.}  At each point the multipliers of the
% original system at that p are those of @code{periodic_orbit} (the transfer matrices of K
% pieces of the period and their product's eigenvalues from the factors, each to relative
% accuracy), largest modulus first.  The trivial multiplier is removed exactly for the tests:
% with f the vector field at the orbit's first point (M f = f), the nontrivial multipliers are
% the eigenvalues of A = Q' M Q, Q an orthonormal basis of the complement of f.  The test
% functions det (A - I) (a multiplier through +1: a fold), det (A + I) (through -1: a period
% doubling) and the product over pairs of (mu_i mu_j - 1) (a complex pair across the unit
% circle: a torus bifurcation; a sign change with two real multipliers of product 1, a neutral
% saddle, is not reported) are compared between successive points; a sign change is refined
% along the step's arclength by regula falsi (Illinois) with a corrector solve per iterate,
% until the bracket is at most "SpecialTol" wide in the scaled arclength (@code{sigma_tol},
% the bracket reached).  Since |dp/dsigma| <= |p1 - p0|, the located p is within
% SpecialTol |p1 - p0| of the test function's root (at a fold far closer: p is extremal there),
% plus the solver's own error.  A multiplier through +1 where p does not turn (a branch point)
% is reported as a fold too: the continuation goes on along the branch it is on.
%
% Options:
% @table @asis
% @item "InitialStep"
% the first step in the scaled arclength (default 0.02: 2 % of the range in p).
% @item "MaxStep", "MinStep"
% the longest step (default 0.1) and the shortest before the continuation stops (default
% 0.0001).
% @item "MaxSteps"
% the most points after the first (default 200).
% @item "SpecialTol"
% the width in the scaled arclength of a special point's final bracket (default 1e-6).
% @item "PeriodTol", "FlowTol"
% @code{periodic_orbit}'s tolerances of the period (default 1e-10) and of the monodromy's
% integration (default 1e-12), for every point.
% @item "Display"
% "off" (default); "final" or "iter": a line per corrector solve.
% @end table
%
% Fields of @var{br}:
% @table @code
% @item p, T
% the parameter and the period at the K points (K-by-1, in the order of the branch).
% @item s
% the arclength of each point from the first, in the scaled coordinates z (the sum of the
% chords).
% @item y
% K-by-1 cell: the orbits, one period each, closed (N_k + 1 rows, the last is the first).
% @item floquet
% K-by-n: the Floquet multipliers of each point, largest modulus first (one is the trivial 1).
% @item stable
% K-by-1 logical: every nontrivial multiplier inside the unit circle.
% @item special
% a struct array, one element per special point in the order of the branch: @code{type}
% ('fold', 'period-doubling' or 'torus'), @code{p}, @code{T}, @code{y} (the orbit),
% @code{floquet}, @code{sigma_tol} (the final bracket's width) and @code{segment} (k: between
% the points k and k + 1 of the branch).
% @item exitflag, message
% why the branch ended (above).
% @item name, names, time, solver
% the parameter's name, the state names, seconds, "periodic_continue".
% @end table
%
% @seealso{periodic_orbit, periodic_guesses, odesys}
% @end deftypefn

function br = periodic_continue (ode, po, name, prange, varargin)
  fname = 'periodic_continue';
  tic0 = tic;
  vm_check_flow_system (fname, ode, 'xdot = F(x, p) (eliminate them first)');
  check_orbit (fname, ode, po);
  check_name (fname, ode, name);
  prange = check_range (fname, prange);
  opts = vm_options (fname, varargin);   % names, defaults, rules: csrc/base/vm_schema.c
  if (opts.MinStep > opts.InitialStep || opts.InitialStep > opts.MaxStep)
    vm_badarg (fname, ['InitialStep = %g is not between MinStep = %g and MaxStep = %g; change ' ...
                       'one of them'], opts.InitialStep, opts.MinStep, opts.MaxStep);
  end
  C = setup (ode, po, name, prange, opts);
  % the first point: po corrected at p0 (the parameter held there)
  [pt, ~, why] = correct (C, po_guess (po, prange(1)), natural (C, prange(1)), 0);
  if (isempty (pt))
    error (['varmech:' fname ':noconv'], ['%s: po is not near a periodic orbit at %s = %g ' ...
           '(the correction at p0 failed: %s); give the orbit periodic_orbit found with ' ...
           '%s = %g, or p0 = the value it was found at'], fname, name, prange(1), why, ...
           name, prange(1));
  end
  pts = pt;
  specials = struct ('type', {}, 'p', {}, 'T', {}, 'y', {}, 'floquet', {}, 'sigma_tol', {}, ...
                     'segment', {});
  tau = [C.dir, zeros(1, 2 * C.n)];   % the first step in p alone
  ds = opts.InitialStep;
  exitflag = 0;
  note = '';
  while (true)
    if (numel (pts) > opts.MaxSteps)
      message = sprintf (['MaxSteps = %d steps taken, the branch ends at %s = %.10g before ' ...
                          'p1 = %g: raise "MaxSteps" or "MaxStep"'], opts.MaxSteps, name, ...
                         pts(end).p, prange(2));
      break;
    end
    a = pts(end);
    if (numel (pts) == 1)
      g = po_guess (struct ('T', a.T, 'y', a.y), a.p + ds * C.Sp * tau(1));
    else
      b = pts(end - 1);
      g = extrapolate (a, b, ds / norm (a.z - b.z));
    end
    [pt, its, why] = correct (C, g, integral_text (C, a.z, tau), ds);
    if (~isempty (pt))
      d = pt.z - a.z;
      if (~(dot (d, tau) > 0.9 * norm (d)))   % turned by more than 25 degrees: too long a step
        pt = [];
        why = sprintf ('the branch turned by %.0f degrees in one step', ...
                          acosd (max (-1, min (1, dot (d, tau) / norm (d)))));
      end
    end
    if (isempty (pt))
      ds = ds / 2;
      if (ds < opts.MinStep)
        exitflag = -1;
        message = sprintf (['the step fell below MinStep = %g at %s = %.10g: the corrector ' ...
                            'failed (%s); the branch may end there (at an equilibrium, or a ' ...
                            'homoclinic orbit whose period grows without bound), or give a ' ...
                            'smaller "MinStep"'], opts.MinStep, name, a.p, why);
        break;
      end
      continue;
    end
    % a point past p1 (or back past p0 after a fold): the end of the range instead
    past = [(pt.p - prange(2)) * C.dir >= 0, numel(pts) > 1 && (pt.p - prange(1)) * C.dir < 0];
    if (any (past))
      e = prange(3 - find (past, 1));
      [pe, ~, why] = correct (C, blend (a, pt, (e - a.p) / (pt.p - a.p), e), natural (C, e), 0);
      if (~isempty (pe))
        pt = pe;
      else
        note = sprintf (['; the last point is at %s = %.10g, past the end (the solve at %s = ' ...
                         '%g itself failed: %s)'], name, pt.p, name, e, why);
      end
      exitflag = 1 + ~past(1);   % 1: reached p1; 2: back at p0
    end
    pt.sigma = dot (pt.z - a.z, tau);
    pt.s = a.s + norm (pt.z - a.z);
    found = specials_between (C, a, pt, tau);
    for j = 1:numel (found)
      found(j).segment = numel (pts);
      specials(end + 1) = found(j); %#ok<AGROW>
    end
    pts(end + 1) = pt; %#ok<AGROW>
    tau = (pt.z - a.z) / norm (pt.z - a.z);
    if (exitflag == 1)
      message = sprintf ('reached %s = %g: %d points, %d special%s', name, prange(2), ...
                         numel (pts), numel (specials), note);
      break;
    elseif (exitflag == 2)
      message = sprintf (['the branch turned at a fold and came back to %s = p0 = %g: %d ' ...
                          'points, %d special%s'], name, prange(1), numel (pts), ...
                         numel (specials), note);
      break;
    end
    % the step from Newton's iterations per grid: few, longer; many, shorter
    if (its <= 4)
      ds = min (opts.MaxStep, 1.5 * ds);
    elseif (its > 8)
      ds = max (opts.MinStep, 0.7 * ds);
    end
  end
  br = assemble (C, pts, specials, exitflag, message);
  br.time = toc (tic0);
end

% ----------------------------------------------------------------------------------------------
% the continuation's context: the augmented system (the parameter as a state with zero
% derivative, compiled once), the scales of the branch's coordinates z and the options
function C = setup (ode, po, name, prange, opts)
  n = ode.nd;
  pars = rmfield (ode.parameters, name);
  try
    C.aug = odesys ('states', [reshape(ode.states, 1, []), {name}], 'parameters', pars, ...
                    'rhs', [reshape(ode.rhs, 1, []), {'0'}]);
  catch err
    vm_rethrow (err, 'periodic_continue');
  end
  C.ode = ode;
  C.n = n;
  C.name = name;
  C.names = reshape (ode.states, 1, []);
  C.Sp = abs (prange(2) - prange(1));
  C.dir = sign (prange(2) - prange(1));
  C.prange = prange;
  y = po.y(1:end - 1, :);
  C.cen = mean (y, 1);
  C.X = amplitudes (y);
  C.opts = opts;
  C.last = '';
  C.unfolding = [repmat({'0'}, 1, n), {'1'}];
end

% the coordinates of a point on the branch in which the arclength is measured: p / Sp, the means
% of the states and of their squared deviations from the first orbit's centre, each state in
% units of its amplitude on the first orbit (means over the N nodes, as the solver's integral
% condition takes them)
function z = coords (C, p, y)
  y = y(1:end - 1, :);
  z = [p / C.Sp, mean(y, 1) ./ C.X, mean((y - C.cen).^2, 1) ./ C.X.^2];
end

% the integral condition of a step: tau . (z - zb), the mean over the orbit of a formula in the
% states and the parameter (a state of the augmented system)
function txt = integral_text (C, zb, tau)
  n = C.n;
  terms = {};
  if (tau(1) ~= 0)
    terms{end + 1} = sprintf ('(%.17g)*((%s)/(%.17g) - (%.17g))', tau(1), C.name, C.Sp, zb(1));
  end
  for i = 1:n
    s = C.names{i};
    if (tau(1 + i) ~= 0)
      terms{end + 1} = sprintf ('(%.17g)*((%s)/(%.17g) - (%.17g))', tau(1 + i), s, C.X(i), ...
                                zb(1 + i)); %#ok<AGROW>
    end
    if (tau(1 + n + i) ~= 0)
      terms{end + 1} = sprintf ('(%.17g)*(((%s) - (%.17g))^2/(%.17g) - (%.17g))', tau(1 + n + i), ...
                                s, C.cen(i), C.X(i)^2, zb(1 + n + i)); %#ok<AGROW>
    end
  end
  txt = strjoin (terms, ' + ');
end

% the condition p = pv (the natural parameter)
function txt = natural (C, pv)
  txt = sprintf ('(%s)/(%.17g) - (%.17g)', C.name, C.Sp, pv / C.Sp);
end

% a guess from a closed orbit y (N + 1 rows) at period T and parameter p
function g = po_guess (po, p)
  N = size (po.y, 1) - 1;
  g.t = po.T * (0:N)' / N;
  g.y = [po.y, p * ones(N + 1, 1)];
end

% the predictor: the secant through the last two points b, a, extended by the fraction f of
% their distance (the orbits resampled on a's grid by trigonometric interpolation)
function g = extrapolate (a, b, f)
  g = blend (b, a, 1 + f, a.p + f * (a.p - b.p));
end

% the orbit at fraction f from a to b (f outside [0, 1] extrapolates), its parameter pv
function g = blend (a, b, f, pv)
  N = size (b.y, 1) - 1;
  ya = a.y(1:end - 1, :);
  if (size (ya, 1) ~= N)
    ya = real (interpft (ya, N));
  end
  yb = b.y(1:end - 1, :);
  y = ya + f * (yb - ya);
  T = a.T + f * (b.T - a.T);
  g.t = T * (0:N)' / N;
  g.y = [y([1:N, 1], :), pv * ones(N + 1, 1)];
end

% the corrector: periodic_orbit on the augmented system with the step's integral condition at
% level; the weights of H are those of periodic_orbit's automatic ones, but the parameter's in
% units of the range |p1 - p0| (its own size, periodic_orbit's scale of a constant state, made
% Newton crawl) and the unfolding parameter's those of the e that changes the parameter's rate
% by the range in one period.  Returns [] and why when it fails, else the point (orbit,
% multipliers, test functions) and Newton's iterations per grid.
function [pt, its, why] = correct (C, g, itxt, level)
  n = C.n;
  its = Inf;
  pt = [];
  why = '';
  y = g.y(1:end - 1, :);
  X = amplitudes (y(:, 1:n));
  P = g.t(end) / (2 * pi);
  out = odesys_eval (C.aug, 0, y);
  Fs = reshape (out.F(:, 1:n), size (y, 1), n) ./ X;
  es = sqrt (mean (Fs(:).^2) * (n + 1) / n) * C.Sp;
  if (~(es > 0))
    es = 1;
  end
  c = [1 ./ X.^2, 1 / C.Sp^2, 1 / P^2, 1 / es^2];
  o = C.opts;
  try
    sol = periodic_orbit (C.aug, g.t, g.y, 'Integral', itxt, 'Level', level, ...
                          'Unfolding', C.unfolding, 'c', c, 'PeriodTol', o.PeriodTol, ...
                          'FlowTol', o.FlowTol);
  catch err
    why = err.message;
    return;
  end
  if (~strcmp (o.Display, 'off'))
    fprintf ('periodic_continue: %s = %.10g: %s\n', C.name, mean (sol.y(1:end - 1, n + 1)), ...
             sol.message);
  end
  if (sol.exitflag ~= 1)
    why = sol.message;
    return;
  end
  its = sol.iterations / numel (sol.grids);
  p = mean (sol.y(1:end - 1, n + 1));
  [pt, why] = point (C, p, sol.T, sol.y(:, 1:n));
end

% a point of the branch: the orbit y (closed) at parameter p with period T, its coordinates z,
% and the Floquet multipliers of the original system at p (vm_periodic_factors and
% vm_periodic_eig, as periodic_orbit's own), with the test functions of the special points
% (vm_continue_tests)
function [pt, why] = point (C, p, T, y)
  pt = [];
  why = '';
  ode = C.ode;
  ode.parameters.(C.name) = p;
  n = C.n;
  [F, ~, msg] = vm_periodic_factors (ode, y(1, :), T, C.opts.FlowTol, amplitudes (y));
  if (~isempty (msg))
    why = sprintf ('the monodromy integration failed: %s', msg);
    return;
  end
  M = eye (n);
  for k = 1:size (F, 3)
    M = F(:, :, k) * M;
  end
  f = odesys_eval (ode, 0, y(1, :));
  [phi, nontrivial] = vm_continue_tests (M, reshape (f.F(1:n), n, 1));
  pt = struct ('p', p, 'T', T, 'y', y, 'z', coords (C, p, y), 'floquet', vm_periodic_eig (F), ...
               'phi', phi, 'nontrivial', nontrivial, 'stable', all (abs (nontrivial) < 1), ...
               'sigma', 0, 's', 0);
end

% The special points between the points a and b of a step along tau from a: a test function of
% vm_continue_tests that changes sign (a multiplier through +1: fold; through -1: period
% doubling; a complex pair across the unit circle: torus) is refined along the step's
% arclength sigma (the integral condition dot (tau, z - z_a) = sigma) by the Illinois variant of
% regula falsi until the bracket is at most SpecialTol wide; the point returned is the last
% secant's.  A sign change of the torus function without a complex pair near the circle there
% (a neutral saddle: two real multipliers with product 1) is no special point.
function found = specials_between (C, a, b, tau)
  names = {'fold', 'period-doubling', 'torus'};
  found = struct ('type', {}, 'p', {}, 'T', {}, 'y', {}, 'floquet', {}, 'sigma_tol', {}, ...
                  'segment', {});
  tol = C.opts.SpecialTol;
  for j = 1:3
    fa = a.phi(j);
    fb = b.phi(j);
    if (~(isfinite (fa) && isfinite (fb)) || sign (fa) * sign (fb) >= 0)
      continue;
    end
    sa = 0;
    sb = b.sigma;
    best = [];
    side = 0;
    itxt = integral_text (C, a.z, tau);
    for it = 1:60
      if (abs (sb - sa) <= tol)
        break;
      end
      s = sb - fb * (sb - sa) / (fb - fa);
      if (~(s > min (sa, sb) && s < max (sa, sb)))
        s = (sa + sb) / 2;
      end
      pm = correct (C, blend (a, b, s / b.sigma, a.p + (b.p - a.p) * s / b.sigma), itxt, s);
      if (isempty (pm))
        s = (sa + sb) / 2;
        pm = correct (C, blend (a, b, s / b.sigma, a.p + (b.p - a.p) * s / b.sigma), itxt, s);
        if (isempty (pm))
          break;
        end
      end
      best = pm;
      fm = pm.phi(j);
      if (sign (fm) == sign (fb))
        sb = s;
        fb = fm;
        if (side == 1)
          fa = fa / 2;   % Illinois: the end kept twice has its value halved
        end
        side = 1;
      else
        sa = s;
        fa = fm;
        if (side == -1)
          fb = fb / 2;
        end
        side = -1;
      end
      if (fm == 0)
        break;
      end
    end
    if (isempty (best))
      best = b;
    end
    if (j == 3 && ~any (abs (imag (best.nontrivial)) > 0 & abs (abs (best.nontrivial) - 1) < 1e-3))
      continue;   % a neutral saddle
    end
    found(end + 1) = struct ('type', names{j}, 'p', best.p, 'T', best.T, 'y', best.y, ...
                             'floquet', best.floquet, 'sigma_tol', abs (sb - sa), 'segment', 0); %#ok<AGROW>
  end
end

% the peak-to-peak amplitude of each state (column of y), as periodic_orbit takes it: a state
% whose amplitude is below 1e-8 of its modulus gets its modulus, one that is 0 gets 1 (a state
% constant on the orbit would otherwise ask for an absolute tolerance of zero)
function X = amplitudes (y)
  X = max (y, [], 1) - min (y, [], 1);
  mx = max (abs (y), [], 1);
  flat = ~(X > 1e-8 * mx);
  X(flat) = mx(flat);
  X(~(X > 0)) = 1;
end

% the branch
function br = assemble (C, pts, specials, exitflag, message)
  K = numel (pts);
  br.p = reshape ([pts.p], K, 1);
  br.T = reshape ([pts.T], K, 1);
  br.s = reshape ([pts.s], K, 1);
  br.y = reshape ({pts.y}, K, 1);
  n = C.n;
  br.floquet = zeros (K, n);
  for k = 1:K
    br.floquet(k, :) = pts(k).floquet(:).';
  end
  br.stable = reshape ([pts.stable], K, 1);
  br.special = specials;
  br.exitflag = exitflag;
  br.message = message;
  br.name = C.name;
  br.names = C.names;
  br.solver = 'periodic_continue';
end


function check_orbit (fname, ode, po)
  if (~isstruct (po) || ~isscalar (po) || ~isfield (po, 'T') || ~isfield (po, 'y') ...
      || ~isfield (po, 'exitflag'))
    vm_badarg (fname, 'po must be a solution of periodic_orbit (a struct with T, y, exitflag); got %s', ...
               vm_describe (po));
  end
  if (~isequal (po.exitflag, 1) || ~isscalar (po.T) || ~(po.T > 0) || size (po.y, 2) ~= ode.nd ...
      || size (po.y, 1) < 5)
    vm_badarg (fname, ['po must be a converged orbit of this system (exitflag 1, a period T > 0, ' ...
                       'y with %d columns); got exitflag %s: find one with periodic_orbit ' ...
                       'first'], ode.nd, mat2str (po.exitflag));
  end
end

function check_name (fname, ode, name)
  if (~vm_isrow_string (name) || ~any (strcmp (name, ode.parameter_names)))
    vm_badarg (fname, 'name must be the name of a parameter of ode (one of: %s); got %s', ...
               strjoin (reshape (ode.parameter_names, 1, []), ', '), vm_describe (name));
  end
end

function prange = check_range (fname, prange)
  if (~isnumeric (prange) || ~isreal (prange) || numel (prange) ~= 2 || ~all (isfinite (prange)) ...
      || prange(1) == prange(2))
    vm_badarg (fname, ['the range must be [p0 p1], two different finite real values (from p0, ' ...
                       'where po was found, towards p1); got %s'], vm_describe (prange));
  end
  prange = double (prange(:)).';
end

%!shared sys, po
%! % a fold of periodic orbits in closed form (not a paper's example): in polar coordinates
%! % r' = r (mu + r^2 - r^4), theta' = 1 + r^2, so the orbits are the circles u = r^2 with
%! % mu = u^2 - u, the period is T = 2 pi / (1 + u), and the nontrivial multiplier is
%! % exp (T d/dr (r (mu + r^2 - r^4))) = exp (2 u (1 - 2 u) T); the fold is at u = 1/2,
%! % mu = -1/4, T = 4 pi / 3, stable outside (u > 1/2) and unstable inside
%! f = 'mu + (x^2+y^2) - (x^2+y^2)^2';
%! sys = odesys ('states', {'x', 'y'}, 'parameters', struct ('mu', 0.1), 'rhs', ...
%!   {['x*(' f ') - y*(1 + x^2+y^2)'], ['y*(' f ') + x*(1 + x^2+y^2)']});
%! t = linspace (0, 3, 40)';  r = sqrt ((1 + sqrt (1.4)) / 2);
%! po = periodic_orbit (sys, t, r * [cos(2*pi*t/3), sin(2*pi*t/3)]);

%!test
%! % the branch passes the fold: every point on the closed form, the fold at mu = -1/4 within
%! % SpecialTol |p1 - p0| (|dp/dsigma| <= |p1 - p0|), the stability changing there
%! br = periodic_continue (sys, po, 'mu', [0.1 -0.5], 'MaxSteps', 15);
%! assert (br.exitflag, 0);
%! assert (~isempty (strfind (br.message, 'MaxSteps = 15')));
%! K = numel (br.p);
%! assert (K, 16);
%! u = cellfun (@(y) mean (sum (y(1:end-1, :).^2, 2)), br.y);
%! % the orbit's error (PeriodTol 1e-10 on T) moves u and so mu by about as much
%! assert (abs (br.p - (u.^2 - u)) <= 1e-9);
%! assert (abs (br.T - 2*pi ./ (1 + u)) <= 1e-9 * br.T);
%! mu2 = exp (2 * u .* (1 - 2*u) .* br.T);
%! [~, j] = max (abs (br.floquet - 1), [], 2);
%! mun = br.floquet(sub2ind (size (br.floquet), (1:K)', j));
%! assert (abs (mun - mu2) <= 1e-8 * max (1, mu2));
%! assert (numel (br.special), 1);
%! s = br.special;
%! assert (s.type, 'fold');
%! assert (abs (s.p + 1/4) <= 1e-6 * 0.6 + 1e-10);
%! assert (s.sigma_tol <= 1e-6);
%! k = s.segment;
%! assert (all (br.stable(1:k)) && ~any (br.stable(k+1:end)));
%! assert (min (br.p) >= -1/4 - 1e-9);
%! assert (br.p(end) > br.p(k + 1));   % back towards mu = 0 on the inner branch
%! % T off by the bracket times T's rate along the arclength (twice the fold segment's chord's)
%! rate = abs (br.T(k + 1) - br.T(k)) / (br.s(k + 1) - br.s(k));
%! assert (abs (s.T - 4*pi/3) <= 2 * rate * s.sigma_tol + 1e-9 * s.T);
%! assert (br.s(1) == 0 && all (diff (br.s) > 0));

%!test
%! % the end of the range: from mu = 0.1 to 0 on the outer branch, the last point at mu = 0
%! % exactly (the condition p = p1), r = 1 there, T = pi
%! br = periodic_continue (sys, po, 'mu', [0.1 0], 'InitialStep', 0.1, 'MaxStep', 0.5);
%! assert (br.exitflag, 1);
%! assert (br.p(end), 0, 1e-12);
%! assert (br.T(end), pi, 1e-9 * pi);
%! assert (isempty (br.special));
%! assert (all (br.stable));

%!test
%! % a torus bifurcation in closed form (not a paper's example): in cylindrical coordinates
%! % r' = r (1 - r^2 - 4 z), theta' = 5/2, z' = r^2 - 1 + p z, the circle r = 1, z = 0 is an orbit
%! % of period T = 4 pi / 5 for every p, and its nontrivial multipliers are those of exp (T J),
%! % J = [-2 -4; 2 p] the Jacobian of (r', z') there: a complex pair that leaves the unit circle
%! % at p = 2 (trace 0).  The states are x, y and w = z + x, so that none is constant on the orbit.
%! z = '(w - x)';
%! a = ['(1 - x^2 - y^2 - 4*' z ')'];
%! tor = odesys ('states', {'x', 'y', 'w'}, 'parameters', struct ('p', 1), 'rhs', ...
%!   {['x*' a ' - 2.5*y'], ['y*' a ' + 2.5*x'], ['x^2 + y^2 - 1 + p*' z ' + x*' a ' - 2.5*y']});
%! T = 4*pi/5;  t = linspace (0, T, 40)';
%! pt = periodic_orbit (tor, t, [1.05*cos(2.5*t), sin(2.5*t), cos(2.5*t)]);
%! br = periodic_continue (tor, pt, 'p', [1 3]);
%! assert (br.exitflag, 1);
%! assert (abs (br.T - T) <= 1e-9 * T);
%! for k = 1:numel (br.p)
%!   mu = eig (expm (T * [-2 -4; 2 br.p(k)]));
%!   [~, j] = sort (abs (br.floquet(k, :) - 1), 'descend');
%!   got = sort (br.floquet(k, j(1:2)));
%!   % the multipliers to about FlowTol per piece of the period, relative
%!   assert (abs (got(:) - sort (mu)) <= 1e-8 * abs (mu));
%!   assert (br.stable(k), abs (mu(1)) < 1);
%! end
%! assert (numel (br.special), 1);
%! s = br.special;
%! assert (s.type, 'torus');
%! % within SpecialTol |p1 - p0|; the pair's modulus changes at T/2 |mu| per unit of p there
%! assert (abs (s.p - 2) <= 1e-6 * 2);
%! [~, j] = sort (abs (s.floquet - 1), 'descend');
%! assert (abs (abs (s.floquet(j(1:2))) - 1) <= T/2 * 1e-6 * 2 + 1e-9);
%! assert (abs (s.floquet(j(1))), 1, 1e-5);
%! assert (abs (angle (s.floquet(j(1)))), 2*pi/5, 1e-5);

%!demo
%! % the fold of the help example: T against mu, stable points solid, unstable ones dashed
%! f = 'mu + (x^2+y^2) - (x^2+y^2)^2';
%! sys = odesys ('states', {'x', 'y'}, 'parameters', struct ('mu', 0.1), 'rhs', ...
%!   {['x*(' f ') - y*(1 + x^2+y^2)'], ['y*(' f ') + x*(1 + x^2+y^2)']});
%! t = linspace (0, 3, 40)';  r = sqrt ((1 + sqrt (1.4)) / 2);
%! po = periodic_orbit (sys, t, r * [cos(2*pi*t/3), sin(2*pi*t/3)]);
%! br = periodic_continue (sys, po, 'mu', [0.1 -0.5], 'MaxSteps', 20);
%! s = br.stable;
%! plot (br.p(s), br.T(s), 'b.-', br.p(~s), br.T(~s), 'r.--', br.special(1).p, br.special(1).T, 'ko');
%! xlabel ('mu');  ylabel ('T');  legend ('stable', 'unstable', 'fold');
%! title (br.message);

%!error <ode must be a system made by odesys> periodic_continue (struct ('a', 1), po, 'mu', [0 1])
%!error <the system has algebraic states or equations> periodic_continue (odesys ('states', {'x', 'l'}, 'rhs', {'-x*l'}, 'algebraic', {'l - 1'}), po, 'mu', [0 1])
%!error <depends on t> periodic_continue (odesys ('states', {'x', 'v'}, 'rhs', {'v', '-x + cos(t)'}), po, 'mu', [0 1])
%!error <po must be a solution of periodic_orbit> periodic_continue (sys, struct ('T', 1), 'mu', [0 1])
%!error <po must be a converged orbit of this system \(exitflag 1> periodic_continue (sys, setfield (po, 'exitflag', 0), 'mu', [0 1])
%!error <name must be the name of a parameter of ode \(one of: mu\); got char 1x2> periodic_continue (sys, po, 'nu', [0 1])
%!error <the range must be \[p0 p1\], two different finite real values> periodic_continue (sys, po, 'mu', [1 1])
%!error <the range must be \[p0 p1\]> periodic_continue (sys, po, 'mu', [0 NaN])
%!error <InitialStep = 0.2 is not between MinStep = 0.0001 and MaxStep = 0.1; change one of them> periodic_continue (sys, po, 'mu', [0.1 0], 'InitialStep', 0.2)
%!error <po is not near a periodic orbit at mu = 5> periodic_continue (sys, po, 'mu', [5 6])
%!test
%! % the options' defaults, as the help gives them (one row each in csrc/base/vm_schema.c)
%! d = vm_options_mex ('defaults', 'periodic_continue');
%! assert ([d.InitialStep, d.MaxStep, d.MinStep, d.MaxSteps, d.SpecialTol, d.PeriodTol, d.FlowTol], ...
%!         [0.02, 0.1, 1e-4, 200, 1e-6, 1e-10, 1e-12]);
%! assert (d.Display, 'off');
%!error <MaxStep must be> periodic_continue (sys, po, 'mu', [0.1 0], 'MaxStep', 2)
%!error <MinStep must be> periodic_continue (sys, po, 'mu', [0.1 0], 'MinStep', -1)
%!error <Display must be> periodic_continue (sys, po, 'mu', [0.1 0], 'Display', 'loud')
%!error <InitialStep must be> periodic_continue (sys, po, 'mu', [0.1 0], 'InitialStep', 0)
%!error <MaxSteps must be> periodic_continue (sys, po, 'mu', [0.1 0], 'MaxSteps', 0.5)
%!error <SpecialTol must be> periodic_continue (sys, po, 'mu', [0.1 0], 'SpecialTol', 1)
%!error <unknown option 'Bogus'> periodic_continue (sys, po, 'mu', [0.1 0], 'Bogus', 1)
