% -*- texinfo -*-
% @deftypefn  {} {@var{sol} =} gauss_integrate (@var{sys}, @var{tspan}, @var{q0}, @var{qdot0})
% @deftypefnx {} {@var{sol} =} gauss_integrate (@dots{}, @var{name}, @var{value}, @dots{})
% Integrate the classical constrained equations of motion of a system made by @code{mechsys}.
%
% The accelerations solve @code{M qddot = f + R} with @code{M = d2L/dqdot2},
% @code{f = dL/dq - (d2L/dqdot dq) qdot - d2L/dqdot dt + F} and a reaction R that keeps the
% constraints @code{g(t, q, qdot) = 0}.  A constraint that does not depend on the velocities
% (holonomic) is used at velocity level, @code{dg/dt = 0}.  The reaction law (option
% @code{"Reaction"}):
% @table @asis
% @item @code{"ideal"} (default)
% @code{R = A' * lambda} with @code{A = dphi/dqdot}: Gauss's principle of least constraint in the
% metric M (Lagrange-d'Alembert-Chetaev; Zubelevich eq. 1.4).  @code{sol.lambda} holds lambda.
% @item a k-by-n matrix B
% @code{R = B' * mu}: reactions along the rows of B only (Acharya and Sengupta, Sec. 5).
% @item @code{"explicit"}
% no multiplier: the reaction is part of the model's forces; the constraints are only monitored.
% @end table
% Contacts of the model (@code{h(q) >= 0}) are hard walls by default (option
% @code{"Contacts"}, @code{"hard"}): the impact is located as an event and the velocity jumps by
% the restitution impulse @code{qdot+ = qdot - (1+e) (n.qdot)/(n M^-1 n) M^-1 n}, n = grad h, in
% the metric M.  With @code{"soft"} the regularized forces of the model act instead.
%
% @var{tspan} is @code{[t0 tf]}; @var{q0}, @var{qdot0} the initial state.  The initial state must
% satisfy the constraints to within @code{"ConstraintTol"}, otherwise the error says by how much.
%
% Options (name/value pairs or a struct):
% @table @asis
% @item "Method"
% @code{"dopri5"} (default: adaptive Dormand-Prince 5(4), dense output), @code{"gl4"},
% @code{"gl6"} (implicit Gauss-Legendre, symplectic, fixed step), @code{"rk4"} (fixed step).
% @item "RelTol", "AbsTol"
% error tolerances of dopri5 (default 1e-8, 1e-10).
% @item "Step"
% the fixed step of gl4, gl6, rk4 (default (tf - t0)/1000).
% @item "InitialStep", "MaxStep", "MaxSteps"
% dopri5 step controls (0: automatic).
% @item "OutputTimes"
% times at which to return the solution (default: every accepted step).
% @item "Restitution"
% coefficient e in [0, 1] of the hard-wall impacts (default 1).
% @item "Projection"
% @code{"off"} (default) or @code{"on"}: project the state onto the constraints (M-metric Newton)
% at every output time (100 equal intervals when no output times are given) and after impacts.
% @item "ConstraintTol"
% tolerance of the initial constraint residuals (default 1e-8).
% @end table
%
% @var{sol} has the fields @code{t} (N-by-1), @code{q}, @code{qdot} (N-by-n), @code{lambda}
% (N-by-m multipliers, or N-by-k for reaction directions), @code{energy} (qdot . dL/dqdot - L),
% @code{residual} (the velocity-level constraints phi), @code{residual_position} (the holonomic
% constraints), @code{impacts} (struct with @code{t}, @code{contact}, @code{qdot_before},
% @code{qdot_after}, @code{q}), @code{stats} (@code{nsteps}, @code{naccept}, @code{nreject},
% @code{nfev}, @code{nnewton}), @code{exitflag} (1 on success), @code{message}, @code{method} and
% @code{time} (seconds).  A failure (singular constraint matrix, non-finite state, step size too
% small) ends the integration there: @code{exitflag} is 0 and @code{message} gives the time and
% the state; with no output argument it is an error.
% @seealso{mechsys, mechsys_eval}
% @end deftypefn

function sol = gauss_integrate (sys, tspan, q0, qdot0, varargin)
  fname = 'gauss_integrate';
  if (nargin < 4)
    vm_badarg (fname, 'expected at least 4 inputs: sys, tspan, q0, qdot0 (see help gauss_integrate)');
  end
  if (~isstruct (sys) || ~isfield (sys, 'type') || ~strcmp (sys.type, 'mechsys'))
    vm_badarg (fname, 'sys must be a system made by mechsys');
  end
  if (~isfield (sys.blocks, 'motion'))
    vm_badarg (fname, 'sys was compiled by an older varmech; rebuild it with mechsys');
  end
  defaults = struct ('Method', 'dopri5', 'RelTol', 1e-8, 'AbsTol', 1e-10, 'Step', [], ...
                     'InitialStep', 0, 'MaxStep', 0, 'MaxSteps', 0, 'OutputTimes', [], ...
                     'Reaction', 'ideal', 'Contacts', 'hard', 'Restitution', 1, ...
                     'Projection', 'off', 'ConstraintTol', 1e-8);
  opts = vm_options (fname, defaults, varargin);
  n = sys.n;
  if (~isnumeric (tspan) || ~isreal (tspan) || numel (tspan) ~= 2 || ~all (isfinite (tspan)) ...
      || tspan(1) == tspan(2))
    vm_badarg (fname, 'tspan must be [t0 tf] with finite t0 ~= tf');
  end
  tspan = double (tspan(:)');
  q0 = check_vec (q0, fname, 'q0', n);
  qdot0 = check_vec (qdot0, fname, 'qdot0', n);
  methods = {'dopri5', 'gl4', 'gl6', 'rk4'};
  method = check_choice (opts.Method, methods, fname, 'Method');
  o = struct ();
  o.method = method - 1;
  if (isempty (opts.Step))
    opts.Step = abs (diff (tspan)) / 1000;
  end
  % the numeric options: names, values, whether 0 is allowed
  nums = {'RelTol', opts.RelTol, false; 'AbsTol', opts.AbsTol, true; 'Step', opts.Step, false; ...
          'InitialStep', opts.InitialStep, true; 'MaxStep', opts.MaxStep, true; ...
          'MaxSteps', opts.MaxSteps, true; 'ConstraintTol', opts.ConstraintTol, false};
  vals = zeros (1, 7);
  for k = 1:7
    v = nums{k, 2};
    if (~isnumeric (v) || ~isscalar (v) || ~isreal (v) || ~isfinite (v) || v < 0 || (~nums{k, 3} && v == 0))
      if (nums{k, 3})
        vm_badarg (fname, '%s must be a finite number >= 0', nums{k, 1});
      else
        vm_badarg (fname, '%s must be a finite number > 0', nums{k, 1});
      end
    end
    vals(k) = double (v);
  end
  if (vals(6) ~= round (vals(6)))
    vm_badarg (fname, 'MaxSteps must be a nonnegative integer');
  end
  o.rtol = vals(1);
  o.atol = vals(2);
  o.h = vals(3);
  o.h0 = vals(4);
  o.hmax = vals(5);
  o.max_steps = vals(6);
  ctol = vals(7);
  o.B = [];
  if (ischar (opts.Reaction))
    law = check_choice (opts.Reaction, {'ideal', 'explicit'}, fname, 'Reaction');
    codes = [0 2];
    o.law = codes(law);
  elseif (isnumeric (opts.Reaction) && isreal (opts.Reaction) && ismatrix (opts.Reaction) ...
          && size (opts.Reaction, 2) == n && size (opts.Reaction, 1) >= 1 ...
          && all (isfinite (opts.Reaction(:))))
    o.law = 1;
    o.B = double (opts.Reaction);
  else
    vm_badarg (fname, 'Reaction must be ''ideal'', ''explicit'' or a k-by-%d matrix of reaction directions', n);
  end
  o.hard = double (check_choice (opts.Contacts, {'hard', 'soft'}, fname, 'Contacts') == 1);
  if (~isnumeric (opts.Restitution) || ~isscalar (opts.Restitution) || ~isreal (opts.Restitution) ...
      || ~(opts.Restitution >= 0 && opts.Restitution <= 1))
    vm_badarg (fname, 'Restitution must be a number in [0, 1]');
  end
  o.restitution = double (opts.Restitution);
  o.project = double (check_choice (opts.Projection, {'off', 'on'}, fname, 'Projection') == 2);
  o.project_tol = 0;
  o.max_impacts = 0;
  tout = opts.OutputTimes;
  if (~isempty (tout))
    if (~isnumeric (tout) || ~isreal (tout) || ~isvector (tout) || ~all (isfinite (tout)))
      vm_badarg (fname, 'OutputTimes must be a vector of finite times');
    end
    tout = double (tout(:));
    s = sign (tspan(2) - tspan(1));
    if (any (s * diff (tout) <= 0) || s * (tout(1) - tspan(1)) < 0 || s * (tspan(2) - tout(end)) < 0)
      vm_badarg (fname, 'OutputTimes must be strictly monotone and inside tspan = [%g %g]', tspan);
    end
  end
  p = vm_param_vector (sys, fname, 'sys');
  o.ctol = ctol;
  blocks = {sys.blocks.eom, sys.blocks.motion, []};
  if (sys.nc > 0)
    blocks{3} = sys.blocks.contacts;
  end
  t_start = tic;
  try
    r = __vm_integrate__ (blocks, p, tspan, [q0; qdot0], tout, o);
  catch err
    vm_rethrow (err, fname);
  end
  elapsed = toc (t_start);
  sol = struct ();
  sol.t = r.t;
  sol.q = r.q;
  sol.qdot = r.qdot;
  sol.lambda = r.mult;
  sol.energy = r.energy;
  sol.residual = r.phi;
  sol.residual_position = r.gpos;
  sol.impacts = struct ('t', r.impact_t, 'contact', r.impact_contact, ...
                        'q', r.impact_before(:, 1:n), 'qdot_before', r.impact_before(:, n+1:end), ...
                        'qdot_after', r.impact_after(:, n+1:end));
  sol.stats = struct ('nsteps', r.nsteps, 'naccept', r.naccept, 'nreject', r.nreject, ...
                      'nfev', r.nfev, 'nnewton', r.nnewton);
  sol.method = methods{method};
  sol.time = elapsed;
  if (r.status == 0)
    sol.exitflag = 1;
    sol.message = sprintf ('reached t = %g', r.t_end);
  else
    sol.exitflag = 0;
    fs = r.fail_state;
    nn = (numel (fs) - 1) / 2;
    msg = sprintf ('stopped at t = %.17g: %s', fs(1), r.status_text);
    if (~isempty (strfind (r.status_text, 'singular')) || ~isempty (strfind (r.status_text, 'positive definite')))
      msg = sprintf ('%s (rcond %.3g)', msg, r.rcond);
    end
    sol.message = sprintf ('%s; q = [%s], qdot = [%s]', msg, num2str (fs(2:nn+1), ' %.6g'), ...
                           num2str (fs(nn+2:end), ' %.6g'));
    if (nargout == 0)
      error ('varmech:gauss_integrate:failed', '%s: %s', fname, sol.message);
    end
  end
end

function x = check_vec (x, fname, what, n)
  if (~isnumeric (x) || ~isreal (x) || numel (x) ~= n || ~all (isfinite (x(:))))
    vm_badarg (fname, '%s must be a real finite vector with %d entries (one per coordinate)', what, n);
  end
  x = double (x(:));
end

function k = check_choice (v, choices, fname, what)
  if (~ischar (v) || ~any (strcmpi (v, choices)))
    vm_badarg (fname, '%s must be one of: %s', what, strjoin (choices, ', '));
  end
  k = find (strcmpi (v, choices));
end

%!shared pend
%! % planar pendulum as a point mass on a circle of radius l (holonomic constraint)
%! pend = mechsys ('coordinates', {'x', 'y'}, 'parameters', struct ('m', 1, 'g', 9.81, 'l', 1), ...
%!   'lagrangian', 'm/2*(dot(x)^2 + dot(y)^2) - m*g*y', 'constraints', {'x^2 + y^2 - l^2'});
%!test
%! th0 = 0.3;
%! sol = gauss_integrate (pend, [0 2], [sin(th0) -cos(th0)], [0 0], 'RelTol', 1e-10, 'AbsTol', 1e-12);
%! assert (sol.exitflag, 1);
%! assert (max (abs (sol.energy - sol.energy(1))) < 1e-8);
%! assert (max (abs (sol.residual_position)) < 1e-8);
%!test
%! % projection at the output times: exactly those times, constraints to the projection tolerance
%! s = gauss_integrate (pend, [0 2], [sin(0.3) -cos(0.3)], [0 0], 'Projection', 'on', ...
%!                      'OutputTimes', linspace (0, 2, 5), 'Method', 'rk4', 'Step', 1e-2);
%! assert (s.t', linspace (0, 2, 5), 1e-15);
%! assert (max (abs (s.residual_position)) < 1e-11);
%! assert (max (abs (s.residual)) < 1e-11);
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
%!error <the initial position is outside contact 1> gauss_integrate (mechsys ('coordinates', {'x'}, 'lagrangian', 'dot(x)^2', 'contacts', struct ('h', 'x', 'sigma', 1, 'V0', 1)), [0 1], -1, 0)
%!error <gauss_integrate: the initial state violates constraint 1 by 0.75> gauss_integrate (pend, [0 1], [0 -0.5], [0 0])
%!error <Method must be one of: dopri5, gl4, gl6, rk4> gauss_integrate (pend, [0 1], [0 -1], [0 0], 'Method', 'euler')
%!error <RelTol must be a finite number > gauss_integrate (pend, [0 1], [0 -1], [0 0], 'RelTol', -1)
%!error <Restitution must be a number in \[0, 1\]> gauss_integrate (pend, [0 1], [0 -1], [0 0], 'Restitution', 2)
%!error <Projection must be one of: off, on> gauss_integrate (pend, [0 1], [0 -1], [0 0], 'Projection', 1)
%!error <OutputTimes must be strictly monotone> gauss_integrate (pend, [0 1], [0 -1], [0 0], 'OutputTimes', [0 0.5 0.4])
%!error <q0 must be a real finite vector with 2 entries> gauss_integrate (pend, [0 1], [0 -1 0], [0 0])
%!error <tspan must be \[t0 tf\]> gauss_integrate (pend, [1 1], [0 -1], [0 0])
%!error <Reaction must be 'ideal', 'explicit' or a k-by-2 matrix> gauss_integrate (pend, [0 1], [0 -1], [0 0], 'Reaction', ones (1, 3))
%!error <Step must be a finite number > gauss_integrate (pend, [0 1], [0 -1], [0 0], 'Method', 'rk4', 'Step', 0)
%!error <unknown option 'Tol'> gauss_integrate (pend, [0 1], [0 -1], [0 0], 'Tol', 1)
