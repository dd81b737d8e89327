% -*- texinfo -*-
% @deftypefn  {} {sol =} gauss_integrate (sys, tspan, q0, qdot0)
% @deftypefnx {} {sol =} gauss_integrate (sys, tspan, q0, qdot0, name, value, ...)
% @deftypefnx {} {sol =} gauss_integrate (sys, tspan, q0, qdot0, opts)
% Integrate the classical constrained equations of motion of a system made by @code{mechsys}:
% the reference integrator (Gauss's principle), also for impacts on hard walls, fixed-step
% symplectic runs and other reaction laws.  Options:
% @multitable @columnfractions .2 .8
% @item "Method" @tab "dopri5" (default), "dop853", "gl4", "gl6", "rk4"
% @item "RelTol" @tab relative error tolerance (default 1e-8; "AbsTol": 1e-10)
% @item "Step" @tab the fixed step of gl4, gl6, rk4 (default (tf - t0)/1000)
% @item "OutputTimes" @tab times for @code{sol.output} (.t, .q, .qdot, .lambda)
% @item "Projection" @tab project onto the constraints: "on" (default "off")
% @end multitable
% Fields: @code{sol.t} (accepted steps), @code{sol.q}, @code{sol.qdot} (columns as in
% @code{sys.coordinates}), @code{sol.lambda} (multipliers), @code{sol.energy},
% @code{sol.impacts}, @code{sol.exitflag}, @code{sol.message}.  Example (a damped pendulum, the
% rod a constraint; th = atan2(x, -y) agrees with ode45 on d2th/dt2 = -g/l sin(th) - c dth/dt):
% @verbatim
% pend = mechsys ('coordinates', {'x', 'y'}, 'parameters', struct ('g', 9.81, 'l', 1, 'c', 0.5), ...
%   'lagrangian', '(dot(x)^2 + dot(y)^2)/2 - g*y', 'forces', {'-c*dot(x)', '-c*dot(y)'}, ...
%   'constraints', {'x^2 + y^2 - l^2'});
% sol = gauss_integrate (pend, [0 10], [sin(1) -cos(1)], [0 0], 'RelTol', 1e-10);
% th = atan2 (sol.q(:,1), -sol.q(:,2));  fprintf ('%s: th(10) = %.6f\n', sol.message, th(end));
% @end verbatim
%
% @strong{Reference.}  @var{sys} is a system made by @code{mechsys}, @var{tspan} = [t0 tf]
% (tf < t0 integrates backwards), @var{q0} and @var{qdot0} the initial position and velocity (n entries
% each, in the order of @code{sys.coordinates}).  Options are name/value pairs or one struct
% @var{opts} whose fields are the options.
%
% The accelerations solve @code{M qddot = f + R} with @code{M = d2L/dqdot2},
% @code{f = dL/dq - (d2L/dqdot dq) qdot - d2L/dqdot dt + F} and a reaction R that keeps the
% constraints @code{g(t, q, qdot) = 0}.  A constraint that does not depend on the velocities
% (holonomic) is used at velocity level, @code{dg/dt = 0}.
%
% @strong{Signs.}  The forces F of @code{mechsys} (and the regularized contact forces) are
% @emph{added} to dL/dq: a force along +q_i pushes q_i up, and a damping force is written
% @code{-c*dot(x)}.  A contact's h(q) >= 0 is the allowed side: the wall pushes along +grad h.
% The multipliers are in the convention of eq. 3 of the rolling-disk paper, the same as
% @code{skg_solve}: @code{M qddot = dL/dq + F + sum_a lambda_a dg_a/dqdot} (the f above on the
% right), and for a position constraint g(t, q): @code{+ lambda_a dg_a/dq}.  The reaction of
% constraint a is @code{lambda_a dg_a/dqdot}; its sign depends on how g is written (g and -g give
% opposite multipliers).
%
% The reaction law (option @code{"Reaction"}):
% @table @asis
% @item @code{"ideal"} (default)
% @code{R = A' * lambda} with @code{A = dphi/dqdot}: Gauss's principle of least constraint in the
% metric M (Lagrange-d'Alembert-Chetaev; Zubelevich eq. 1.4).  @code{sol.lambda} holds lambda,
% in the convention above.
% @item a k-by-n matrix B
% @code{R = B' * mu}: reactions along the rows of B only (Acharya and Sengupta, Sec. 5);
% @code{sol.lambda} holds mu (N-by-k).
% @item @code{"explicit"}
% no multiplier: the reaction is part of the model's forces; the constraints are only monitored
% (@code{sol.lambda} is zero).
% @item @code{"vakonomic"}
% the calculus-of-variations (vakonomic) law for constraints linear in the velocities,
% @code{g = a(t, q) . qdot + b(t, q)} (position constraints are used as @code{dg/dt}; any other
% constraint is refused with an error): the Euler-Lagrange equations of @code{L + sum_a mu_a g_a}
% with the multipliers mu varied too (Acharya and Sengupta, eq.@: 7),
% @code{M qddot = f - A' * mudot - W' * mu}, @code{W = d(A)/dt - dg/dq}.  For @code{a = a(q)},
% @code{b = 0} the term @code{(W' mu)_i = mu (d_j a_i - d_i a_j) qdot_j} is antisymmetric in
% qdot: the reaction does no work on a motion that keeps the constraint, like the ideal one, but
% the motion differs.  mu is a state of the integration (index 1: mudot follows from the
% constraint at acceleration level, as lambda does for the ideal law, @code{mudot = -lambda} of
% the ideal solve with the force @code{f - W' mu}).  Its initial value is option
% @code{"Multiplier0"} (default 0) and is free: each mu(0) gives another vakonomic motion from the
% same (q0, qdot0), an m-parameter family.  With mu(0) = 0 the acceleration at t0 is the ideal
% one, so the two motions part like (t - t0)^3.  For a position constraint W = 0 and the motion is
% the ideal one (@code{mudot = -lambda}).  @code{sol.lambda} holds mu (N-by-m) and
% @code{sol.lambda_rate} mudot; the reaction is @code{-A' * mudot - W' * mu}: in the convention
% above mudot plays the part of -lambda.  Hard contacts are refused (no impact law for mu); soft
% contacts act as forces.  See @code{demo_vakonomic} and doc/reactions.md, section 8.
% @end table
% Contacts of the model (@code{h(q) >= 0}) are hard walls by default (option
% @code{"Contacts"}, @code{"hard"}): the impact is located as an event and the velocity jumps by
% the restitution impulse @code{qdot+ = qdot - (1+e) (n.qdot)/(n M^-1 n) M^-1 n}, n = grad h, in
% the metric M.  Hard walls have no friction law (an impact changes only the normal velocity,
% and a hard wall holds no sliding contact): a model whose contact has a friction coefficient
% mu ~= 0 is refused with them; give @code{"Contacts", "soft"}, the model's regularized normal
% and friction forces, as in @code{skg_solve}.  With @code{"soft"} the regularized forces of the model act instead: the normal
% force @code{V0/sqrt(2 pi sigma^2) exp(-h^2/(2 sigma^2)) grad h} does all its work while h crosses
% a layer a few sigma wide, which a long step can jump over unseen.  So every step passes a layer
% check: over the step, the travel of h inside the layer @code{|h| <= 6 sigma} (estimated from h
% and @code{dh/dt} at both ends: the cubic Hermite path, the line from the start and the line back
% from the end) must be at most @code{sigma}.  Otherwise an adaptive step is retried shorter and a
% fixed step is split into 2^k sub-steps (at most k = 30, then the run stops with exitflag 0 and a
% message to use a smaller Step).  No "MaxStep" is needed for soft walls;
% @code{sol.stats.nlayer} counts the rejected steps (doc/integrators.md, section 3.1).
%
% The initial state must satisfy the constraints to within @code{"ConstraintTol"}, otherwise the
% error says by how much.
%
% Options (name/value pairs or a struct):
% @table @asis
% @item "Method"
% @code{"dopri5"} (default: adaptive Dormand-Prince 5(4), dense output), @code{"dop853"}
% (adaptive Dormand-Prince 8(5,3) of Hairer's DOP853, 7th-order dense output; fewer steps at tight
% tolerances), @code{"gl4"}, @code{"gl6"} (implicit Gauss-Legendre, symplectic, fixed step),
% @code{"rk4"} (fixed step).
% @item "RelTol", "AbsTol"
% error tolerances of dopri5 and dop853 (default 1e-8, 1e-10).
% @item "Step"
% the fixed step of gl4, gl6, rk4 (default (tf - t0)/1000).  The grid is t0 + k Step, the last
% step shortened to land on tf; a Step longer than the interval is one step over the interval.
% There is no error control: a step too long for the motion gives a wrong result with exitflag 1
% (check @code{sol.residual}).  Soft contacts shorten steps in their layer (see above).
% @item "InitialStep", "MaxStep", "MaxSteps"
% dopri5 and dop853 step controls (default 0: automatic).
% @item "OutputTimes"
% times at which the solution is wanted besides the steps, strictly monotone inside tspan
% (default: none): @code{sol.output} (below), by the method's dense output (dopri5, dop853:
% their continuous extensions of orders 4 and 7; gl4, gl6, rk4: the cubic Hermite interpolant of
% the step ends).  @code{sol.t} and every other per-step field keep the accepted steps, the same
% as without the option.
% @item "Reaction"
% the reaction law above: @code{"ideal"} (default), @code{"explicit"}, @code{"vakonomic"} or a
% k-by-n matrix.
% @item "Multiplier0"
% the initial multipliers mu(t0) of the @code{"vakonomic"} law, m entries (default zeros); an
% error with any other law.
% @item "Contacts"
% @code{"hard"} (default) or @code{"soft"}, see above.
% @item "Restitution"
% coefficient e in [0, 1] of the hard-wall impacts (default 1).
% @item "Projection"
% @code{"off"} (default) or @code{"on"}: project the state onto the constraints (M-metric Newton)
% at the 101 times @code{t0 + k (tf - t0)/100} (@code{sol.t} then holds those) and after impacts.
% @code{sol.output} between them is the dense output of the steps from the last projection; at
% a projection time it is the projected state.
% Without it a holonomic constraint drifts, since the equations of motion hold it at acceleration
% level only: the Cartesian pendulum (l = 1, 0.8 rad from rest) at the default tolerances has
% max |g| 3.9e-7 and a position error 7.4e-7 over 10 s, 3.9e-5 and 5.8e-4 over 100 s; with
% projection 9e-13 and 3.5e-6 (@code{sol.residual_position} reports |g|).  When the drift
% exceeds 100 tolerances (a residual |g_a| against the change that a state error of AbsTol +
% RelTol max|q| makes in it, |dg_a/dq| (AbsTol + RelTol max|q|); velocity-level residuals
% likewise with qdot), the message says so and names this option: the pendulum above over
% 100 s, "reached t = 100; the constraints drifted to 677 times the tolerance ...".
% @item "ConstraintTol"
% tolerance of the initial constraint residuals (default 1e-8).
% @end table
%
% @var{sol} is a struct with these fields (times in the unit of @var{tspan}, q in the units of
% the coordinates, N points, n coordinates, m constraints):
% @table @code
% @item solver
% @code{'gauss_integrate'}.
% @item names
% the coordinate names, 1-by-n cellstr (those of @code{sys.coordinates}).
% @item t
% N-by-1 times: t0 and every accepted step end (an impact's time twice: before and after the
% impulse; with "Projection" the 101 projection times), with or without "OutputTimes".
% @item q, qdot
% N-by-n positions and velocities (units of q per time unit).
% @item lambda
% N-by-m multipliers in the convention above (N-by-k for reaction directions B, zero for
% "explicit", mu for "vakonomic", N-by-0 without constraints).
% @item lambda_rate
% N-by-m, mudot for "vakonomic" (N-by-0 for the other laws).
% @item power
% N-by-1, the power @code{R . qdot} of the reaction, @code{R = M qddot - f} (units of L per
% time unit): 0 for an ideal or vakonomic reaction on a motion that keeps the constraints
% @code{a . qdot = 0}, up to the integration error.
% @item energy
% N-by-1, @code{qdot . dL/dqdot - L + contact_energy} (units of L): constant along a motion
% without friction, drag or time-dependent L (hard walls: lost at inelastic impacts only).
% @item contact_energy
% N-by-1, with @code{"Contacts", "soft"} the potential of the contacts' normal forces,
% @code{sum_c V0/2 erfc(h/(sqrt(2) sigma))} (@code{FN = -grad} of it); zeros for hard walls and
% without contacts.
% @item residual
% N-by-m, the velocity-level constraints phi: g itself for a constraint that depends on the
% velocities, @code{dg/dt = g_q qdot + g_t} for a position constraint g(t, q).
% @item residual_position
% N-by-m, the position constraints g(t, q); the columns of the constraints that depend on the
% velocities hold 0.
% @item impacts
% the hard-wall impacts: @code{t}, @code{contact} (its index), @code{q}, @code{qdot_before},
% @code{qdot_after} (one row per impact).
% @item stats
% @code{nsteps}, @code{naccept}, @code{nreject}, @code{nfev}, @code{nnewton}, @code{nlayer}.
% @item output
% only with @code{"OutputTimes"}: the solution at the K requested times, a struct with @code{t}
% (K-by-1, the requested times as a column) and, for a mechanical system, @code{q}, @code{qdot}
% (K-by-n) and @code{lambda} (K-by-m), for a first-order system @code{y} (K-by-ny) (dual_solve
% adds @code{D}, the duals); the same names in skg_solve, gauss_integrate, dual_solve and
% periodic_orbit.  Here: the method's dense output, @code{lambda} K-by-k for reaction directions
% B (mu for "vakonomic"); NaN at the times after a stop (exitflag 0).
% @item exitflag, message
% 1 on success; a failure (singular constraint matrix, non-finite state, step size too small)
% ends the integration there with @code{exitflag} 0 and a @code{message} that gives the time and
% the state; with no output argument it is an error.  A singular mass matrix d2L/dqdot2 leads the
% message, with the coordinates that have no kinetic term (a Lagrangian written without
% @code{dot()}).  The fixed-step methods (gl4, gl6, rk4) have no error control: their message
% gives the energy's change over the run, max|E - E(0)| / max(|E(0)|, the largest kinetic
% energy), and with constraints their drift against the tolerance scale; for a conservative
% system (no forces or contacts, t in neither L nor a constraint) a change above 1e-3 leads the
% message, which then says to halve "Step" (the run is complete: @code{exitflag} stays 1).
% @item method, time
% the method used and the wall-clock time in seconds.
% @end table
%
% Example (a damped oscillator, x'' = -x - c x', whose force -c*dot(x) is added to dL/dx;
% against the closed form):
% @verbatim
% c = 0.2;  w = sqrt (1 - c^2/4);
% osc = mechsys ('coordinates', {'x'}, 'parameters', struct ('c', c), ...
%   'lagrangian', 'dot(x)^2/2 - x^2/2', 'forces', {'-c*dot(x)'});
% sol = gauss_integrate (osc, [0 20], 1, 0, 'RelTol', 1e-10, 'AbsTol', 1e-12);
% ex = exp (-c*sol.t/2) .* (cos (w*sol.t) + c/(2*w) * sin (w*sol.t));
% fprintf ('max |x - closed form| = %.1e over %d steps\n', ...
%          max (abs (sol.q - ex)), numel (sol.t) - 1);
% @end verbatim
%
% Numbers of another real class than double (single, int32, ...) are converted to double;
% sparse, complex, logical, char, cell and other arrays where numbers are expected are refused
% with an error that names the argument, what it must be and the class and size received.
% @seealso{varmech_plot, skg_solve, mechsys, mechsys_eval}
% @end deftypefn

function sol = gauss_integrate (sys, tspan, q0, qdot0, varargin)
  % The arguments and options are checked by the gateway (its messages name gauss_integrate and
  % the argument, with its class and size): the checks in C cost microseconds, where the
  % interpreter would take about a millisecond.  Other real classes than double become double.
  if (nargin < 4)
    vm_badarg ('gauss_integrate', 'expected at least 4 inputs: sys, tspan, q0, qdot0 (see help gauss_integrate)');
  end
  t_start = tic;
  tspan = vm_double (tspan);
  q0 = vm_double (q0);
  qdot0 = vm_double (qdot0);
  check_initial (sys, tspan, q0, qdot0, varargin);
  try
    sol = vm_integrate_mex (sys, tspan, q0, qdot0, varargin{:});
  catch err
    vm_rethrow (err, 'gauss_integrate');
  end
  sol.time = toc (t_start);   % the other fields: the gateway's schema (mex/vm_integrate_sol_mx.h)
  if (sol.exitflag == 0)
    sol.message = mass_message (sol, sys, tspan, q0, qdot0);
  end
  if (sol.exitflag == 1 && any (strcmp (sol.method, {'gl4', 'gl6', 'rk4'})) && numel (sol.t) > 1)
    sol.message = energy_message (sol, sys, tspan, varargin);
  end
  if (sol.exitflag == 0 && nargout == 0)
    error ('varmech:gauss_integrate:failed', 'gauss_integrate: %s', sol.message);
  end
end

function check_initial (sys, tspan, q0, qdot0, args)
  % the initial data against the constraints, in the words of every solver (vm_check_initial:
  % rank, position and velocity level); only for well-formed arguments -- the gateway names
  % anything else
  if (~isstruct (sys) || ~isfield (sys, 'm') || ~isfield (sys, 'n') || ~isequal (sys.m, fix (sys.m)) ...
      || sys.m < 1 || ~isnumeric (tspan) || numel (tspan) ~= 2 || ~isreal (tspan) || issparse (tspan) ...
      || ~isnumeric (q0) || ~isnumeric (qdot0) || numel (q0) ~= sys.n || numel (qdot0) ~= sys.n ...
      || ~isreal (q0) || ~isreal (qdot0) || issparse (q0) || issparse (qdot0) ...
      || ~all (isfinite ([q0(:); qdot0(:); tspan(:)])))
    return;
  end
  persistent default_tol
  if (isempty (default_tol))
    d = vm_options_mex ('defaults', 'gauss_integrate');   % csrc/base/vm_schema.c
    default_tol = d.ConstraintTol;
  end
  tol = default_tol;
  for k = 1:2:numel (args) - 1
    if (ischar (args{k}) && strcmpi (args{k}, 'ConstraintTol'))
      tol = args{k + 1};
    end
  end
  if (isnumeric (tol) && isscalar (tol) && isreal (tol) && isfinite (tol) && tol > 0)
    vm_check_initial ('gauss_integrate', sys, tspan(1), q0, qdot0, double (tol));
  end
end


function msg = mass_message (sol, sys, tspan, q0, qdot0)
  % the message of a failed run led by a singular mass matrix: the gateway's (a refused M, with
  % the coordinates that have no kinetic term: a zero row of M is one everywhere, read at the
  % failing state), or, for another stop (the step size underflows as M degenerates), the
  % state where it stopped when M there is singular against its initial size (vm_mass_hint);
  % the state is read from the gateway's message ("q = [..], qdot = [..]")
  msg = sol.message;
  x = regexp (msg, 'at t = (\S+?)[:; (].*q = \[([^\]]*)\], qdot = \[([^\]]*)\]', 'tokens', 'once');
  if (numel (x) ~= 3)
    return;
  end
  t = str2double (x{1});
  q = str2num (['[' x{2} ']']); %#ok<ST2NM>
  qd = str2num (['[' x{3} ']']); %#ok<ST2NM>
  if (numel (q) ~= sys.n || numel (qd) ~= sys.n || ~isfinite (t))
    return;
  end
  remedy = ' gauss_integrate needs M positive definite at every point of the motion';
  if (strncmp (msg, 'the mass matrix d2L/dqdot2 is singular', 38))
    [~, cause] = vm_mass_hint (sys, t, q, qd);
    msg = [msg, cause];
    if (~isempty (strfind (cause, 'has no kinetic term')))
      remedy = [remedy, ': give every coordinate a kinetic term (skg_solve solves a coordinate ' ...
                'without one as an algebraic coordinate)'];
    end
  else
    hint = vm_mass_hint (sys, t, q, qd, struct ('t0', tspan(1), 'q0', q0, 'qdot0', qdot0));
    if (isempty (hint))
      return;
    end
    remedy = [remedy, '. The run: ', msg];
    msg = hint;
  end
  if (msg(end) ~= '?')
    msg = [msg, '.'];
  end
  msg = [msg, remedy];
end

function msg = energy_message (sol, sys, tspan, args)
  % the message of a fixed-step run (no error control), with the energy's change it saw,
  % max|E - E(0)| / max(|E(0)|, K) with K the largest kinetic energy qdot' M qdot / 2 at the
  % stored points (the scale of the energy's exchanges; |E(0)| alone may be 0).  For a system
  % whose energy is constant (no forces, no contacts, t in neither the Lagrangian nor a
  % constraint, and a reaction whose work over the run stays below the threshold) a change above
  % 1e-3 (0.1 %, a drift that a plot of the energy shows) is the step's error, and leads the
  % message with the remedy: the error of a method of order p falls by 2^p >= 16 when the step
  % is halved.  Cost: one evaluation of M at the stored points.
  msg = sol.message;
  E = sol.energy;
  try
    e = mechsys_eval (sys, sol.t, sol.q, sol.qdot, 'blocks', {'eom'});
    M = reshape (e.M, numel (sol.t), sys.n, sys.n);
    K = 0;
    for i = 1:sys.n
      for j = 1:sys.n
        K = K + M(:, i, j) .* sol.qdot(:, i) .* sol.qdot(:, j) / 2;
      end
    end
  catch
    return;
  end
  rel = max (abs (E - E(1))) / max ([abs(E(1)), max(abs (K)), realmin]);
  if (~isfinite (rel))
    return;
  end
  work = 0;
  if (sys.m > 0)
    work = sum (diff (sol.t) .* abs (sol.power(1:end - 1) + sol.power(2:end)) / 2);
    work = work / max ([abs(E(1)), max(abs (K)), realmin]);
  end
  tdep = '(?<![A-Za-z0-9_])t(?![A-Za-z0-9_])';
  conservative = (isempty (sys.forces) || all (strcmp (sys.forces, '0'))) && sys.nc == 0 ...
                 && isempty (regexp (sys.lagrangian, tdep, 'once')) ...
                 && all (cellfun (@isempty, regexp (sys.constraints, tdep, 'once'))) ...
                 && work <= 1e-3;
  if (conservative && rel > 1e-3)
    h = option_value (args, 'Step');
    if (isempty (h))
      h = abs (tspan(end) - tspan(1)) / 1000;
    end
    msg = sprintf (['the energy changed by %s over the run (a conservative system: it should ' ...
                    'stay constant): the step h = %.3g is too large for this system; halve ' ...
                    '''Step'' (or use an adaptive method, ''Method'', ''dop853''). The run: %s'], ...
                   percent (rel), min (h, abs (tspan(end) - tspan(1))), msg);
  else
    msg = sprintf ('%s; the energy changed by %.2g relative over the run (max|E - E(0)| / max(|E(0)|, the largest kinetic energy))', ...
                   msg, rel);
  end
end

function s = percent (r)
  % r as a percentage, with two significant digits
  if (r >= 0.01)
    s = sprintf ('%.1f %%', 100 * r);
  else
    s = sprintf ('%.2g %%', 100 * r);
  end
end

function v = option_value (args, name)
  % the value of option name in args (name/value pairs or one struct), [] when not given
  v = [];
  if (numel (args) == 1 && isstruct (args{1}))
    f = fieldnames (args{1});
    k = find (strcmpi (f, name), 1);
    if (~isempty (k))
      v = args{1}.(f{k});
    end
    return;
  end
  for k = 1:2:numel (args) - 1
    if (ischar (args{k}) && strcmpi (args{k}, name))
      v = args{k + 1};
    end
  end
end

%!shared pend
%! % planar pendulum as a point mass on a circle of radius l (holonomic constraint)
%! pend = mechsys ('coordinates', {'x', 'y'}, 'parameters', struct ('m', 1, 'g', 9.81, 'l', 1), ...
%!   'lagrangian', 'm/2*(dot(x)^2 + dot(y)^2) - m*g*y', 'constraints', {'x^2 + y^2 - l^2'});
%!test
%! % a Lagrangian written without dot(y): the singular mass matrix leads the message, with the
%! % coordinate and the slip it suggests
%! deg = mechsys ('coordinates', {'x', 'y'}, 'parameters', struct ('g', 9.81), ...
%!   'lagrangian', '(dot(x)^2 + y^2)/2 - g*y');
%! s = gauss_integrate (deg, [0 1], [0 1], [1 0]);
%! assert (s.exitflag, 0);
%! assert (strncmp (s.message, 'the mass matrix d2L/dqdot2 is singular or not positive definite at t = 0', 72));
%! assert (~isempty (strfind (s.message, 'y has no kinetic term (the Lagrangian does not contain dot(y)): did you mean dot(y)?')));
%! assert (isempty (strfind (s.message, 'x has no kinetic term')));
%!test
%! th0 = 0.3;
%! sol = gauss_integrate (pend, [0 2], [sin(th0) -cos(th0)], [0 0], 'RelTol', 1e-10, 'AbsTol', 1e-12);
%! assert (sol.exitflag, 1);
%! assert (max (abs (sol.energy - sol.energy(1))) < 1e-8);
%! assert (max (abs (sol.residual_position)) < 1e-8);
%!test
%! % projection at the 101 projection times (sol.t), constraints to the projection tolerance; the
%! % output times exactly those asked for, projection times among them: projected there too
%! s = gauss_integrate (pend, [0 2], [sin(0.3) -cos(0.3)], [0 0], 'Projection', 'on', ...
%!                      'OutputTimes', linspace (0, 2, 5), 'Method', 'rk4', 'Step', 1e-2);
%! assert (s.output.t', linspace (0, 2, 5), 1e-15);
%! assert (s.t', linspace (0, 2, 101), 1e-15);
%! assert (max (abs (s.residual_position)) < 1e-11);
%! assert (max (abs (s.residual)) < 1e-11);
%! assert (max (abs (sum (s.output.q .^ 2, 2) - 1)) < 1e-11);
%! assert (max (abs (2 * sum (s.output.q .* s.output.qdot, 2))) < 1e-11);
%!test
%! % a ball dropped from the centre of a unit tumbler hits the bottom at sqrt(2/g) and comes back
%! tum = mechsys ('coordinates', {'x', 'y'}, 'parameters', struct ('g', 9.81), ...
%!   'lagrangian', '(dot(x)^2 + dot(y)^2)/2 - g*y', 'contacts', struct ('h', '1 - x^2 - y^2', 'sigma', 0.01, 'V0', 10));
%! ti = sqrt (2/9.81);
%! s = gauss_integrate (tum, [0 2.5*ti], [0 0], [0 0], 'RelTol', 1e-10, 'AbsTol', 1e-12);
%! assert (s.impacts.t, ti, 1e-9);
%! assert (s.impacts.qdot_after(2), sqrt (2*9.81), 1e-8);
%! assert (max (abs (s.energy - s.energy(1))) < 1e-8);
%!test
%! % a ball bouncing on the floor with e = 0.8: impacts accumulate at t = sqrt(2/g) (1+e)/(1-e);
%! % beyond that the integration stops with exitflag 0 instead of falling through the floor
%! b = mechsys ('coordinates', {'x', 'y'}, 'parameters', struct ('g', 9.81), ...
%!   'lagrangian', '(dot(x)^2 + dot(y)^2)/2 - g*y', 'contacts', struct ('h', 'y', 'sigma', 1, 'V0', 1));
%! s = gauss_integrate (b, [0 5], [0 1], [0 0], 'Restitution', 0.8);
%! tacc = sqrt (2/9.81) * 1.8/0.2;
%! assert (s.exitflag, 0);
%! assert (abs (s.t(end) - tacc) < 1e-3);
%! assert (all (s.q(:,2) >= -1e-8));
%! assert (~isempty (strfind (s.message, 'left the admissible side')));
%!test
%! % a fixed step is limited to the interval: Step 10 on [0, 1] is one step that lands on tf, the
%! % same as Step 1, forwards and backwards; the grid t0 + k Step ends with a shortened step; output
%! % times are hit.  (rk4 at Step 1 ends about 0.55 off the constraint: omega h = 3.1 is outside
%! % RK4's stability interval; no error control, and sol.residual_position shows it.)
%! q0 = [sin(0.3) -cos(0.3)];
%! for meth = {'rk4', 'gl4', 'gl6'}
%!   a = gauss_integrate (pend, [0 1], q0, [0 0], 'Method', meth{1}, 'Step', 10);
%!   b = gauss_integrate (pend, [0 1], q0, [0 0], 'Method', meth{1}, 'Step', 1);
%!   assert (a.t, [0; 1]);
%!   assert (a.stats.nsteps, 1);
%!   assert ([a.q a.qdot], [b.q b.qdot]);
%!   c = gauss_integrate (pend, [1 0], q0, [0 0], 'Method', meth{1}, 'Step', 10);
%!   assert (c.t, [1; 0]);
%!   assert (c.stats.nsteps, 1);
%!   d = gauss_integrate (pend, [0 1], q0, [0 0], 'Method', meth{1}, 'Step', 0.3);
%!   assert (d.t, [0; 0.3; 0.6; 0.9; 1], 1e-15);
%!   e = gauss_integrate (pend, [0 1], q0, [0 0], 'Method', meth{1}, 'Step', 0.3, ...
%!                        'OutputTimes', [0.1 0.3 0.65 1]);
%!   assert (e.output.t, [0.1; 0.3; 0.65; 1]);
%!   assert (e.stats.nsteps, 4);
%!   assert ([e.output.q(end,:) e.output.qdot(end,:)], [d.q(end,:) d.qdot(end,:)]);
%!   assert (isequal ([e.t e.q e.qdot], [d.t d.q d.qdot]));
%! end
%! assert (max (abs (gauss_integrate (pend, [0 1], q0, [0 0], 'Method', 'rk4', 'Step', 10).residual_position)) > 0.1);
%!test
%! % soft contacts: no step crosses a wall's layer unseen.  The tumbler (sigma = 1/1000 and 1/3000,
%! % V0 = 5, from (-0.5, -0.75) at rest) was stepped over by dopri5 in 4 steps (radius 2.04, exitflag
%! % 1).  Every method now stays inside radius 1 + 3 sigma and agrees with the resolved reference
%! % (dop853 at RelTol 1e-12 with MaxStep sigma/4: h moves less than sigma per step).
%! tum = mechsys ('coordinates', {'x', 'y'}, 'parameters', struct ('m', 1, 'g', 9.8, 'sig', 1/1000, 'V0', 5), ...
%!   'lagrangian', 'm/2*(dot(x)^2 + dot(y)^2) - m*g*y', ...
%!   'contacts', struct ('h', '1 - x^2 - y^2', 'sigma', 'sig', 'V0', 'V0'));
%! tg = linspace (0, 0.5, 51);
%! runs = {{'dopri5'}, {'dop853'}, {'rk4', 'Step', 1e-2}, {'gl6', 'Step', 1e-2}};
%! tol = [1e-8, 1e-8, 2e-3, 1e-5];
%! for sig = [1/1000, 1/3000]
%!   tum.parameters.sig = sig;
%!   ref = gauss_integrate (tum, [0 0.5], [-0.5 -0.75], [0 0], 'Contacts', 'soft', 'Method', 'dop853', ...
%!                          'RelTol', 1e-12, 'AbsTol', 1e-14, 'MaxStep', sig/4, 'OutputTimes', tg);
%!   for k = 1:numel (runs)
%!     s = gauss_integrate (tum, [0 0.5], [-0.5 -0.75], [0 0], 'Contacts', 'soft', 'Method', runs{k}{:}, ...
%!                          'OutputTimes', tg);
%!     assert (s.exitflag, 1);
%!     assert (s.stats.nlayer > 0);
%!     assert (max (sqrt (sum (s.output.q .^ 2, 2))) < 1 + 3*sig);
%!     assert (s.output.q, ref.output.q, tol(k));
%!   end
%! end
%! % the hard wall is not affected by the check
%! s = gauss_integrate (tum, [0 0.5], [-0.5 -0.75], [0 0], 'Contacts', 'hard');
%! assert (s.exitflag, 1);
%! assert (s.stats.nlayer, 0);
%! assert (numel (s.impacts.t), 2);
%!error <a soft contact.s layer is not resolved even by sub-steps of 2\^-30 of the fixed step> gauss_integrate (mechsys ('coordinates', {'x', 'y'}, 'parameters', struct ('g', 9.8), 'lagrangian', '(dot(x)^2 + dot(y)^2)/2 - g*y', 'contacts', struct ('h', '1 - x^2 - y^2', 'sigma', 1e-12, 'V0', 5)), [0 0.5], [-0.5 -0.75], [0 0], 'Contacts', 'soft', 'Method', 'rk4', 'Step', 0.1)
%!test
%! % the drift note: the Cartesian pendulum released horizontal drifts off its circle at the
%! % defaults over 100 s (|g| 1.4e-5, about 700 tolerances): the message says so; projection keeps
%! % the circle (no note); over 10 s the drift stays below 100 tolerances (no note)
%! pl = mechsys ('coordinates', {'x', 'y'}, 'parameters', struct ('g', 9.81), ...
%!   'lagrangian', '(dot(x)^2 + dot(y)^2)/2 - g*y', 'constraints', {'x^2 + y^2 - 1'});
%! s = gauss_integrate (pl, [0 100], [1 0], [0 0]);
%! assert (s.exitflag, 1);
%! assert (~isempty (strfind (s.message, 'the constraints drifted to')));
%! assert (~isempty (strfind (s.message, '''Projection'', ''on'' keeps them')));
%! assert (max (abs (s.residual_position)) > 100 * 1e-8);
%! s = gauss_integrate (pl, [0 100], [1 0], [0 0], 'Projection', 'on');
%! assert (s.message, 'reached t = 100');
%! assert (max (abs (s.residual_position)) <= 1e-12);
%! s = gauss_integrate (pl, [0 10], [1 0], [0 0]);
%! assert (s.message, 'reached t = 10');
%!error <the initial position is outside contact 1> gauss_integrate (mechsys ('coordinates', {'x'}, 'lagrangian', 'dot(x)^2', 'contacts', struct ('h', 'x', 'sigma', 1, 'V0', 1)), [0 1], -1, 0)
%!error <gauss_integrate: contact 1 has Coulomb friction .mu = 0.3., which hard walls do not model .* use 'Contacts', 'soft'> gauss_integrate (mechsys ('coordinates', {'x', 'y'}, 'parameters', struct ('mu', 0.3), 'lagrangian', '(dot(x)^2 + dot(y)^2)/2 - 9.8*y', 'contacts', struct ('h', 'y', 'sigma', 1e-3, 'V0', 1, 'mu', 'mu')), [0 1], [0 0.01], [1 0])
%!test
%! % friction needs the soft contacts: a block sliding on the floor y >= 0 (the soft wall's
%! % equilibrium gap h0, where FN = g), decelerated by mu g; the regularized law gives the
%! % closed form x(t) = v0 t - mu g t^2 / 2 up to the slip smoothing (epsv = 1e-3: the friction
%! % force is mu FN v / sqrt (v^2 + epsv^2), relative deficit epsv^2 / (2 v^2) <= 1e-6 for v >= 0.7),
%! % and the same model with mu = 0 keeps the default hard walls
%! sig = 1e-3; V0 = 0.05; g = 9.8; mu = 0.3;
%! blk = mechsys ('coordinates', {'x', 'y'}, 'parameters', struct ('mu', mu, 'g', g), ...
%!   'lagrangian', '(dot(x)^2 + dot(y)^2)/2 - g*y', ...
%!   'contacts', struct ('h', 'y', 'sigma', sig, 'V0', V0, 'mu', 'mu'));
%! h0 = sqrt (-2 * sig^2 * log (g * sqrt (2 * pi) * sig / V0));
%! s = gauss_integrate (blk, [0 1], [0 h0], [4 0], 'Contacts', 'soft', 'RelTol', 1e-10, 'AbsTol', 1e-12);
%! assert (s.exitflag, 1);
%! assert (s.q(end, 1), 4 - mu * g / 2, 1e-5);
%! blk.parameters.mu = 0;
%! s = gauss_integrate (blk, [0 1], [0 h0], [4 0]);
%! assert (s.exitflag, 1);
%! assert (s.q(end, 1), 4, 1e-8);
%!error <gauss_integrate: the initial state violates constraint 1 .x\^2 \+ y\^2 - l\^2. by 0.75 .ConstraintTol = 1e-08.> gauss_integrate (pend, [0 1], [0 -0.5], [0 0])
%!error <gauss_integrate: the initial state violates constraint 1 .x\*dot.x. \+ y\*dot.y.. by 1 > gauss_integrate (mechsys ('coordinates', {'x', 'y'}, 'lagrangian', '(dot(x)^2 + dot(y)^2)/2', 'constraints', {'x*dot(x) + y*dot(y)'}), [0 1], [0 -1], [0 1])
%!error <gauss_integrate: the constraint Jacobian is rank-deficient at the initial state: constraints 1 .x. and 2 .x-1. are contradictory> gauss_integrate (mechsys ('coordinates', {'x', 'y'}, 'lagrangian', '(dot(x)^2 + dot(y)^2)/2', 'constraints', {'x', 'x-1'}), [0 1], [0 0], [0 0])
%!error <gauss_integrate: the constraint Jacobian is rank-deficient: constraint 1 .1. is a constant> gauss_integrate (mechsys ('coordinates', {'x', 'y'}, 'lagrangian', '(dot(x)^2 + dot(y)^2)/2', 'constraints', {'1'}), [0 1], [0 0], [0 0])
%!error <gauss_integrate: the constraint Jacobian is rank-deficient at the initial state: constraints 1 .x. and 2 .2\*x. are redundant> gauss_integrate (mechsys ('coordinates', {'x', 'y'}, 'lagrangian', '(dot(x)^2 + dot(y)^2)/2', 'constraints', {'x', '2*x'}), [0 1], [0 0], [0 0])
%!error <Method must be one of: dopri5, gl4, gl6, rk4, dop853> gauss_integrate (pend, [0 1], [0 -1], [0 0], 'Method', 'euler')
%!error <RelTol must be a finite number > gauss_integrate (pend, [0 1], [0 -1], [0 0], 'RelTol', -1)
%!error <Restitution must be a number in \[0, 1\]> gauss_integrate (pend, [0 1], [0 -1], [0 0], 'Restitution', 2)
%!error <Projection must be one of: off, on; got double 1x1 \(1\)> gauss_integrate (pend, [0 1], [0 -1], [0 0], 'Projection', 1)
%!error <OutputTimes must be strictly monotone> gauss_integrate (pend, [0 1], [0 -1], [0 0], 'OutputTimes', [0 0.5 0.4])
%!error <q0 must be a real full double vector with 2 entries; got double 1x3> gauss_integrate (pend, [0 1], [0 -1 0], [0 0])
%!error <q0 must be a real full double vector with 2 entries; got sparse double 1x2> gauss_integrate (pend, [0 1], sparse ([0 -1]), [0 0])
%!error <q0 must be a real full double vector with 2 entries; got complex double 1x2> gauss_integrate (pend, [0 1], [0 -1i], [0 0])
%!error <q0 must be a real full double vector with 2 entries; got logical 1x2> gauss_integrate (pend, [0 1], [false true], [0 0])
%!error <q0 must be a real full double vector with 2 entries; got cell 1x2> gauss_integrate (pend, [0 1], {0 -1}, [0 0])
%!error <qdot0 must be finite; entry 2 is NaN> gauss_integrate (pend, [0 1], [0 -1], [0 NaN])
%!error <tspan must be a real full double vector \[t0 tf\] with t0 ~= tf; got \[1 1\]> gauss_integrate (pend, [1 1], [0 -1], [0 0])
%!error <tspan must be a real full double vector \[t0 tf\] with t0 ~= tf; got sparse double 1x2> gauss_integrate (pend, sparse ([0 1]), [0 -1], [0 0])
%!error <tspan must be a real full double vector \[t0 tf\] with t0 ~= tf; got cell 1x2> gauss_integrate (pend, {0 1}, [0 -1], [0 0])
%!error <MaxSteps must be an integer in \[0, 1000000000000000\]; got double 1x1 \(1e\+20\)> gauss_integrate (pend, [0 1], [0 -1], [0 0], 'MaxSteps', 1e20)
%!test
%! % integer and single classes are converted (the same trajectory)
%! s1 = gauss_integrate (pend, [0 1], [0 -1], [0 0]);
%! s2 = gauss_integrate (pend, int8 ([0 1]), int32 ([0 -1]), single ([0 0]));
%! assert (isequal (s1.q, s2.q));
%!error <Reaction must be 'ideal', 'explicit', 'vakonomic' or a k-by-2 matrix> gauss_integrate (pend, [0 1], [0 -1], [0 0], 'Reaction', ones (1, 3))
%!error <Reaction must be 'ideal', 'explicit', 'vakonomic' or a k-by-2 matrix of reaction directions; got char 5x1> gauss_integrate (pend, [0 1], [0 -1], [0 0], 'Reaction', transpose ('ideal'))
%!error <Step must be a finite number > gauss_integrate (pend, [0 1], [0 -1], [0 0], 'Method', 'rk4', 'Step', 0)
%!error <AbsTol must be a finite number> gauss_integrate (pend, [0 1], [0 -1], [0 0], 'AbsTol', -1)
%!error <InitialStep must be a finite number> gauss_integrate (pend, [0 1], [0 -1], [0 0], 'InitialStep', NaN)
%!error <MaxStep must be a finite number> gauss_integrate (pend, [0 1], [0 -1], [0 0], 'MaxStep', 'a')
%!error <MaxSteps must be an integer in \[0, 1000000000000000\]; got double 1x1 \(1.5\)> gauss_integrate (pend, [0 1], [0 -1], [0 0], 'MaxSteps', 1.5)
%!error <Contacts must be one of: hard, soft> gauss_integrate (pend, [0 1], [0 -1], [0 0], 'Contacts', 'rigid')
%!error <ConstraintTol must be a finite number> gauss_integrate (pend, [0 1], [0 -1], [0 0], 'ConstraintTol', 0)
%!error <OutputTimes must be finite; entry 2 is Inf> gauss_integrate (pend, [0 1], [0 -1], [0 0], 'OutputTimes', [0 Inf])
%!error <options must be name/value pairs> gauss_integrate (pend, [0 1], [0 -1], [0 0], 'RelTol')
%!error <unknown option 'Tolerance'> gauss_integrate (pend, [0 1], [0 -1], [0 0], struct ('Tolerance', 1))
%!error <parameter 'g' must be a real finite scalar> gauss_integrate (setfield (pend, 'parameters', struct ('m', 1, 'g', NaN, 'l', 1)), [0 1], [0 -1], [0 0])
%!error <sys must be a system made by mechsys> gauss_integrate (struct ('type', 'odesys'), [0 1], 0, 0)
%!error <expected at least 4 inputs> gauss_integrate (pend, [0 1], [0 -1])
%!error <unknown option 'Tol'> gauss_integrate (pend, [0 1], [0 -1], [0 0], 'Tol', 1)
%!test
%! % vakonomic law, position constraint: W = 0, the ideal motion, mudot = -lambda (to the
%! % integration error: mu is a state under error control, so the steps differ); no work
%! % (the ideal run's dense output at the vakonomic run's steps)
%! o = {'RelTol', 1e-10, 'AbsTol', 1e-12};
%! b = gauss_integrate (pend, [0 1], [sin(0.3) -cos(0.3)], [0 0], o{:}, ...
%!                      'Reaction', 'vakonomic', 'Multiplier0', 2, 'OutputTimes', [0 0.5 1]);
%! a = gauss_integrate (pend, [0 1], [sin(0.3) -cos(0.3)], [0 0], o{:}, 'OutputTimes', b.t);
%! assert (b.q, a.output.q, 1e-9);
%! assert (b.lambda_rate, -a.output.lambda, 1e-9);
%! assert (b.lambda(1), 2);
%! assert (b.output.lambda(1), 2);
%! assert (size (a.lambda_rate), [numel(a.t) 0]);
%! assert (max (abs ([a.power; b.power])) < 1e-8);
%!test
%! % vakonomic law, Pars' particle x3 v1 - v2 = 0: mudot = (v1 v3 - mu x3 v3)/(1 + x3^2), the
%! % torque-free curl term mu (v3, 0, -v1) (Acharya and Sengupta eq. 7 with mu -> -mu), no work
%! pars = mechsys ('coordinates', {'x1', 'x2', 'x3'}, 'constraints', {'x3*dot(x1) - dot(x2)'}, ...
%!   'lagrangian', '(dot(x1)^2 + dot(x2)^2 + dot(x3)^2)/2');
%! s = gauss_integrate (pars, [0 2], [0.3 -0.2 -0.5], [0.8 -0.4 0.4], 'Reaction', 'vakonomic', ...
%!                      'Multiplier0', 0.3, 'RelTol', 1e-10, 'AbsTol', 1e-12);
%! x3 = s.q(:, 3);  v = s.qdot;  mu = s.lambda;
%! assert (s.lambda_rate, (v(:,1).*v(:,3) - mu.*x3.*v(:,3)) ./ (1 + x3.^2), 1e-12);
%! assert (max (abs (s.residual)) < 1e-9);
%! assert (max (abs (s.power)) < 1e-9);
%!error <Reaction 'vakonomic' needs constraints linear in the velocities, g = a\(t, q\) . qdot \+ b\(t, q\); constraint 1 is not> gauss_integrate (mechsys ('coordinates', {'x', 'y'}, 'lagrangian', '(dot(x)^2 + dot(y)^2)/2', 'constraints', {'dot(x)^2 + dot(y)^2 - 1'}), [0 1], [0 0], [1 0], 'Reaction', 'vakonomic')
%!error <Multiplier0 applies only to Reaction 'vakonomic'> gauss_integrate (pend, [0 1], [0 -1], [0 0], 'Multiplier0', 1)
%!error <Multiplier0 must be a real full double vector with 1 entry; got double 1x2> gauss_integrate (pend, [0 1], [0 -1], [0 0], 'Reaction', 'vakonomic', 'Multiplier0', [1 2])
%!error <Reaction 'vakonomic' does not handle hard contacts> gauss_integrate (mechsys ('coordinates', {'x'}, 'lagrangian', 'dot(x)^2/2', 'contacts', struct ('h', 'x', 'sigma', 1, 'V0', 1)), [0 1], 1, 0, 'Reaction', 'vakonomic')
%!demo
%! % A bead (m = 1 kg) sliding without friction on the parabolic wire y = a x^2, held by the
%! % position constraint y - a*x^2 = 0, released at rest at x = 1 m.  The reaction is
%! % lambda dg/dq = lambda (-2 a x, 1): lambda is the vertical component of the wire's force.
%! bead = mechsys ('coordinates', {'x', 'y'}, 'parameters', struct ('g', 9.81, 'a', 0.5), ...
%!   'lagrangian', '(dot(x)^2 + dot(y)^2)/2 - g*y', 'constraints', {'y - a*x^2'});
%! sol = gauss_integrate (bead, [0 6], [1 0.5], [0 0], 'RelTol', 1e-10, 'AbsTol', 1e-12);
%! fprintf ('%d steps, max |y - a x^2| = %.1e, energy drift %.1e J\n', sol.stats.nsteps, ...
%!          max (abs (sol.residual_position)), max (abs (sol.energy - sol.energy(1))));
%! varmech_plot (sol, 'Units', {'m', 'm'}, 'EnergyUnit', 'J', ...
%!               'Title', 'gauss_integrate: a bead on the wire y = a x^2');
