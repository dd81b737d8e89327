% -*- texinfo -*-
% @deftypefn  {} {sys =} mechsys (name, value, ...)
% @deftypefnx {} {sys =} mechsys (opts)
% Compile a mechanical system written as formulas: the model that @code{skg_solve},
% @code{gauss_integrate} and @code{mechsys_eval} take.  Names (the full list below):
% @multitable @columnfractions .2 .8
% @item "coordinates" @tab a cell array of names; the velocity of x is dot(x)
% @item "parameters" @tab a struct of named numbers, e.g.@: struct ('c', 0.5)
% @item "lagrangian" @tab L(t, q, qdot), a formula such as 'dot(x)^2/2 - x^2/2'
% @item "forces" @tab added to dL/dq, one per coordinate; damping '-c*dot(x)'
% @item "constraints" @tab g(t, q, qdot) = 0, a cell array of formulas
% @item "contacts" @tab walls h(q) >= 0 (a struct array; see below)
% @end multitable
% Fields: @code{sys.coordinates}, @code{sys.parameters} (edit freely), @code{sys.n} and
% @code{sys.m} (the numbers of coordinates and constraints).  Example (a damped pendulum;
% mechsys_eval gives M = 1 and f = -g sin(th) - c dth/dt, here at th = 1, dth/dt = 0.5):
% @verbatim
% pend = mechsys ('coordinates', {'th'}, 'parameters', struct ('g', 9.81, 'c', 0.5), ...
%   'lagrangian', 'dot(th)^2/2 + g*cos(th)', 'forces', {'-c*dot(th)'});
% out = mechsys_eval (pend, 0, 1, 0.5);               % t, q, qdot
% fprintf ('M = %g, f = %.6f\n', out.M, out.f);
% pend.parameters.c = 0.2;                            % less damping, no recompilation
% sol = gauss_integrate (pend, [0 10], 1, 0);  plot (sol.t, sol.q)
% @end verbatim
%
% @strong{Reference.}  The system is given by name/value pairs (or one struct @var{opts} with
% these fields):
% @table @asis
% @item "coordinates"
% the generalized coordinates, a cell array of names (or one name).  The velocity of coordinate
% @code{x} is written @code{dot(x)}.
% @item "parameters"
% a struct of named real scalars, e.g. @code{struct ("M", 1, "g", 9.8)}.  Their values are inputs
% of the compiled code: change them with @code{sys.parameters.g = 3.7} without recompiling.
% @item "lagrangian"
% L(t, q, qdot), a formula (required, not empty), or a number (a real full finite scalar of any
% numeric class: a constant lagrangian).  A coordinate without kinetic term (L free of its
% velocity) is accepted with a warning when no formula contains its velocity ("x has no kinetic
% term ...: did you mean dot(x)?", id @code{varmech:mechsys:nokinetic}): @code{skg_solve}
% integrates it as an algebraic coordinate, and @code{mechsys_eval} evaluates any L; a solver
% that stops on the singular mass matrix says so first and names the coordinate.
% @item "forces"
% generalized nonconservative forces F(t, q, qdot), one formula (or number) per coordinate.
% They are @emph{added} to dL/dq in the equations of motion (below): a positive F_i pushes q_i
% up, and a damping force is written @code{-c*dot(x)}.
% @item "constraints"
% equality constraints g(t, q, qdot) = 0 of any velocity dependence, a cell array of formulas.
% A constraint without velocities, g(t, q), is a position (holonomic) constraint.
% @item "contacts"
% inequalities h(q) >= 0 (h >= 0 is the allowed side: a wall at x = 1 that keeps x below it is
% @code{h = '1 - x'}), a struct array with fields @code{h} (formula in the coordinates and
% parameters), @code{sigma} (width of the Gaussian regularization), @code{V0} (barrier), and
% optionally @code{mu} (kinetic friction coefficient, default 0) and @code{epsv} (slip speed below
% which friction is smoothed, default 1e-3); the coefficients are numbers or formulas in the
% parameters.  Each contact adds to the forces the normal force
% @code{FN = V0/sqrt(2*pi*sigma^2) * exp(-h^2/(2*sigma^2)) * grad h}, along +grad h (into the
% allowed side), and the Coulomb friction
% @code{FR = -mu*|FN| * v/sqrt(|v|^2 + epsv^2)}, with @code{v} the velocity tangent to
% @code{h = const} (opposing the sliding).  @code{gauss_integrate} treats contacts as hard walls
% by default (option "Contacts").
% @end table
%
% @strong{Equations of motion and signs.}  All solvers of the package integrate
% @code{d/dt dL/dqdot = dL/dq + F + sum_a lambda_a dg_a/dqdot} (for a position constraint
% g(t, q): @code{+ lambda_a dg_a/dq}), the convention of eq. 3 of the rolling-disk paper, and
% report these lambda (one per constraint, @code{sol.lambda}).  The reaction of constraint a is
% @code{lambda_a dg_a/dqdot}: writing -g instead of g flips the sign of its multiplier.
%
% Formulas use numbers, the names above, @code{t}, @code{pi}, @code{+ - * / ^} (also
% @code{.* ./ .^}), parentheses and the functions @code{sin cos tan exp log sqrt abs sinh cosh tanh
% asin acos atan atan2 sign min max}; see @file{doc/language.md}.  A malformed formula is an error
% that quotes it, gives the column, and says what was expected.
%
% The result @var{sys} is a struct with @code{type} (@code{'mechsys'}), @code{coordinates}
% (1-by-n cellstr), @code{parameters} (the struct given), @code{parameter_names},
% @code{lagrangian}, @code{forces}, @code{constraints} (the formulas), @code{contacts} (struct
% array, every coefficient a formula string), @code{n}, @code{m}, @code{nc} (the numbers of
% coordinates, constraints and contacts), the compiled blocks @code{blocks} that
% @code{mechsys_eval} and the solvers evaluate, @code{compiled_parameter_values} (the
% parameter values at compile time; @code{sys.parameters} is read at every call) and
% @code{compiled} (the compiled model, a uint8 row that the solvers load: the formulas are
% parsed once, here).  To change a formula, call @code{mechsys} again: a solver refuses a
% @var{sys} whose formula fields differ from the compiled ones.
%
% Example (a bead on a hoop of radius R spinning at the rate w about its vertical diameter: above
% w^2 = g/R the bottom is unstable and the bead oscillates about cos(th) = g/(R w^2)):
% @verbatim
% hoop = mechsys ('coordinates', {'th'}, 'parameters', struct ('R', 0.5, 'w', 6, 'g', 9.81), ...
%   'lagrangian', 'R^2/2*(dot(th)^2 + w^2*sin(th)^2) + g*R*cos(th)');
% th_eq = acos (9.81 / (0.5 * 6^2));        % the off-axis relative equilibrium
% out = mechsys_eval (hoop, 0, th_eq, 0);
% fprintf ('at th_eq = %.4f: f = %.1e (an equilibrium), M = %g\n', th_eq, out.f, out.M);
% sol = gauss_integrate (hoop, [0 5], th_eq + 0.1, 0);
% fprintf ('from th_eq + 0.1, th(t) stays in [%.4f, %.4f]\n', min (sol.q), max (sol.q));
% @end verbatim
%
% Example (forces and a contact: a ball with linear air drag bouncing on the floor y >= 0):
% @verbatim
% ball = mechsys ('coordinates', {'x', 'y'}, 'parameters', struct ('g', 9.81, 'c', 0.1), ...
%   'lagrangian', '(dot(x)^2 + dot(y)^2)/2 - g*y', ...
%   'forces', {'-c*dot(x)', '-c*dot(y)'}, ...
%   'contacts', struct ('h', 'y', 'sigma', 1e-3, 'V0', 20));
% sol = gauss_integrate (ball, [0 3], [0 1], [1 0], 'Restitution', 0.9);
% fprintf ('%d bounces, at t = %s\n', numel (sol.impacts.t), mat2str (sol.impacts.t', 4));
% @end verbatim
% @seealso{mechsys_eval, gauss_integrate, skg_solve, odesys}
% @end deftypefn

function sys = mechsys (varargin)
  fname = 'mechsys';
  opts = vm_options (fname, varargin);   % names, defaults, rules: csrc/base/vm_schema.c
  coords = vm_cellstr (opts.coordinates, fname, 'coordinates');
  if (isempty (coords))
    vm_badarg (fname, 'no coordinates; expected "coordinates" with at least one name');
  end
  [pnames, pvalues] = vm_param_values (opts.parameters, fname);
  lag = opts.lagrangian;
  if (isnumeric (lag))
    % a number is the constant formula: a real full finite scalar of any numeric class
    if (~(isscalar (lag) && isreal (lag) && ~issparse (lag) && isfinite (lag)))
      vm_badarg (fname, 'the lagrangian must be a formula (a string) or a real full finite scalar; got %s', ...
                 vm_describe (lag));
    end
    lag = sprintf ('%.17g', double (lag));
  end
  if (~ischar (lag) || size (lag, 1) > 1 || ndims (lag) > 2)
    vm_badarg (fname, 'the lagrangian must be a formula (a string); got %s', vm_describe (lag));
  end
  forces = vm_cellstr (opts.forces, fname, 'forces', true);
  if (~isempty (forces) && numel (forces) ~= numel (coords))
    vm_badarg (fname, '%d forces for %d coordinates; expected one generalized force per coordinate', ...
               numel (forces), numel (coords));
  end
  cons = vm_cellstr (opts.constraints, fname, 'constraints');
  contacts = normalize_contacts (opts.contacts, fname);
  check_contact_parameters (contacts, pnames, pvalues, fname);
  try
    [blocks, compiled] = vm_model_mex ('mech', coords, pnames, lag, forces, cons, contacts);
  catch err
    vm_rethrow (err, fname);
  end
  sys = struct ();
  sys.type = 'mechsys';
  sys.coordinates = coords;
  sys.parameters = opts.parameters;
  if (isnumeric (sys.parameters))
    sys.parameters = struct ();
  end
  sys.parameter_names = pnames;
  sys.lagrangian = lag;
  sys.forces = forces;
  sys.constraints = cons;
  sys.contacts = contacts;
  sys.n = numel (coords);
  sys.m = numel (cons);
  sys.nc = numel (contacts);
  sys.blocks = blocks;
  % The values at compile time; mechsys_eval reads sys.parameters at each call.
  sys.compiled_parameter_values = pvalues;
  % The compiled model itself, which the solvers load instead of parsing the formulas again
  sys.compiled = compiled;
  warn_no_kinetic (sys, fname);
end

function warn_no_kinetic (sys, fname)
  % A coordinate whose velocity no formula contains (not the Lagrangian, the forces or the
  % constraints) is algebraic: skg_solve solves for it, gauss_integrate cannot (its mass matrix is
  % singular).  Usually it is a slip (x^2 written for dot(x)^2), so say so here, where it is known,
  % before a solver fails on it; a warning, not an error, because the algebraic reading is valid.
  texts = [{sys.lagrangian}, sys.forces(:)', sys.constraints(:)'];
  missing = {};
  for k = 1:sys.n
    c = sys.coordinates{k};
    pat = ['(^|[^A-Za-z0-9_])dot\s*\(\s*', c, '\s*\)'];
    if (all (cellfun (@(f) isempty (regexp (f, pat, 'once')), texts)))
      missing{end + 1} = c; %#ok<AGROW>
    end
  end
  if (isempty (missing))
    return;
  end
  dots = cellfun (@(c) sprintf ('dot(%s)', c), missing, 'UniformOutput', false);
  if (numel (missing) == 1)
    who = sprintf ('%s has no kinetic term', missing{1});
  else
    who = sprintf ('%s have no kinetic term', strjoin (missing, ', '));
  end
  warning (['varmech:' fname ':nokinetic'], ['%s: %s (no formula contains %s): did you mean %s? ' ...
           'As written it is an algebraic coordinate: skg_solve solves for it, gauss_integrate ' ...
           'stops on the singular mass matrix (warning (''off'', ''varmech:mechsys:nokinetic'') ' ...
           'silences this)'], fname, who, strjoin (dots, ', '), strjoin (dots, ', '));
end

function check_contact_parameters (c, pnames, pvalues, fname)
  % a contact coefficient that is a parameter: its value inside the domain that the C side checks
  % for constants (csrc/model/model.c): sigma > 0, mu >= 0, epsv > 0
  keys = {'sigma', 'mu', 'epsv'};   % epsv only with friction (mu not 0)
  need = {'> 0 (the width of the contact layer)', '>= 0 (the friction coefficient)', ...
          '> 0 (the slip velocity of the friction regularization)'};
  for k = 1:numel (c)
    for j = 1:numel (keys)
      i = find (strcmp (c(k).(keys{j}), pnames), 1);
      if (j == 3 && strcmp (c(k).mu, '0'))
        i = [];
      end
      if (~isempty (i))
        v = pvalues(i);
        if (~(v > 0 || (j == 2 && v == 0)))
          vm_badarg (fname, 'contact %d: %s = %s = %g; expected a number %s', k, keys{j}, ...
                     pnames{i}, v, need{j});
        end
      end
    end
  end
end

function c = normalize_contacts (x, fname)
  keys = {'h', 'sigma', 'V0', 'mu', 'epsv'};
  defaults = {'', '', '', '0', '1e-3'};
  c = struct ('h', {}, 'sigma', {}, 'V0', {}, 'mu', {}, 'epsv', {});
  if (isempty (x))
    return;
  end
  if (iscell (x))
    if (~all (cellfun (@isstruct, x(:))))
      vm_badarg (fname, 'contacts must be a struct array (or a cell array of structs)');
    end
    x = x(:)';
  elseif (isstruct (x))
    x = num2cell (x(:)');
  else
    vm_badarg (fname, 'contacts must be a struct array with fields h, sigma, V0 (and mu, epsv)');
  end
  for k = 1:numel (x)
    s = x{k};
    f = fieldnames (s);
    for j = 1:numel (f)
      if (~any (strcmp (f{j}, keys)))
        vm_badarg (fname, 'contacts(%d) has an unknown field ''%s''; expected h, sigma, V0, mu, epsv', ...
                   k, f{j});
      end
    end
    for j = 1:numel (keys)
      if (isfield (s, keys{j}))
        v = s.(keys{j});
      else
        v = defaults{j};
      end
      if (isnumeric (v) && isscalar (v) && isreal (v) && isfinite (v))
        v = sprintf ('%.17g', double (v));
      end
      if (~ischar (v) || size (v, 1) > 1)
        vm_badarg (fname, 'contacts(%d).%s must be a formula or a real finite number', k, keys{j});
      end
      if (isempty (v))
        vm_badarg (fname, 'contacts(%d).%s is required', k, keys{j});
      end
      c(k).(keys{j}) = v;
    end
  end
end

%!shared sys
%! sys = mechsys ('coordinates', {'x', 'y', 'theta', 'phi'}, ...
%!   'parameters', struct ('M', 1, 'g', 9.8, 'alpha', pi/6, 'R', 1, 'IS', 1/2, 'ID', 1/4), ...
%!   'lagrangian', 'M/2*(dot(x)^2 + dot(y)^2) + IS/2*dot(theta)^2 + ID/2*dot(phi)^2 + M*g*x*sin(alpha)', ...
%!   'constraints', {'dot(x)^2 + dot(y)^2 - R^2*dot(theta)^2', 'dot(x)*sin(phi) - dot(y)*cos(phi)'});
%!test
%! assert (sys.n, 4);
%! assert (sys.m, 2);
%! assert (sys.parameter_names, {'M', 'g', 'alpha', 'R', 'IS', 'ID'});
%! assert (isfield (sys.blocks, 'lagrangian') && isfield (sys.blocks, 'eom'));
%!test
%! % one coordinate given as a string, a numeric lagrangian term, forces as numbers and formulas
%! s = mechsys ('coordinates', 'x', 'lagrangian', 'dot(x)^2/2 - x^2/2', 'forces', {'-0.1*dot(x)'});
%! assert (s.n, 1);
%! o = mechsys_eval (s, 0, 1, 2);
%! assert (o.F, -0.2, 1e-15);
%!test
%! % an options struct works like name/value pairs
%! s = mechsys (struct ('coordinates', {{'q'}}, 'lagrangian', 'dot(q)^2'));
%! assert (s.coordinates, {'q'});
%!error <mechsys: no coordinates> mechsys ('lagrangian', 'x')
%!error <mechsys: unknown option 'lagrangain'> mechsys ('coordinates', {'x'}, 'lagrangain', 'x')
%!error <lagrangian: column 1: empty expression> mechsys ('coordinates', {'x'}, 'lagrangian', '')
%!error <lagrangian: column 10: unknown name 'y'> mechsys ('coordinates', {'x'}, 'lagrangian', 'dot(x) + y')
%!error <'x' is a coordinate, not a function; write dot\(x\)> mechsys ('coordinates', {'x'}, 'lagrangian', 'x(1)^2')
%!error <coordinate 2: the name 'x' is used twice> mechsys ('coordinates', {'x', 'x'}, 'lagrangian', 'dot(x)^2')
%!error <parameter 1: the name 'x' is used twice> mechsys ('coordinates', {'x'}, 'parameters', struct ('x', 1), 'lagrangian', 'dot(x)^2')
%!error <coordinate 1: 'pi' is a reserved name> mechsys ('coordinates', {'pi'}, 'lagrangian', '1')
%!error <parameter 'g' must be a real finite scalar> mechsys ('coordinates', {'x'}, 'parameters', struct ('g', NaN), 'lagrangian', 'dot(x)^2')
%!error <2 forces for 1 coordinates> mechsys ('coordinates', {'x'}, 'lagrangian', 'dot(x)^2', 'forces', {'0', '1'})
%!error <constraint 1: column 8: found the end of the expression> mechsys ('coordinates', {'x'}, 'lagrangian', 'dot(x)^2', 'constraints', {'dot(x)+'})
%!error <contact 1: h: column 5: velocities are not allowed here> mechsys ('coordinates', {'x'}, 'lagrangian', 'dot(x)^2', 'contacts', struct ('h', 'x + dot(x)', 'sigma', 0.1, 'V0', 1))
%!error <contact 1: sigma = 0; expected a number . 0 .the width of the contact layer.> mechsys ('coordinates', {'x'}, 'lagrangian', 'dot(x)^2', 'contacts', struct ('h', 'x', 'sigma', 0, 'V0', 1))
%!error <contact 1: sigma = -1; expected a number . 0> mechsys ('coordinates', {'x'}, 'lagrangian', 'dot(x)^2', 'contacts', struct ('h', 'x', 'sigma', -1, 'V0', 1))
%!error <contact 1: mu = -3; expected a number .= 0 .the friction coefficient.> mechsys ('coordinates', {'x'}, 'lagrangian', 'dot(x)^2', 'contacts', struct ('h', 'x', 'sigma', 0.1, 'V0', 1, 'mu', -3))
%!error <contact 1: epsv = 0; expected a number . 0 .the slip velocity> mechsys ('coordinates', {'x'}, 'lagrangian', 'dot(x)^2', 'contacts', struct ('h', 'x', 'sigma', 0.1, 'V0', 1, 'mu', 0.2, 'epsv', 0))
%!test
%! % without friction (mu = 0) the slip regularization is not used: epsv = 0 is accepted
%! s = mechsys ('coordinates', {'x'}, 'lagrangian', 'dot(x)^2', 'contacts', struct ('h', 'x', 'sigma', 0.1, 'V0', 1, 'epsv', 0));
%! assert (s.nc, 1);
%!error <contact 1: sigma = sig = 0; expected a number . 0> mechsys ('coordinates', {'x'}, 'parameters', struct ('sig', 0), 'lagrangian', 'dot(x)^2', 'contacts', struct ('h', 'x', 'sigma', 'sig', 'V0', 1))
%!error <lagrangian: column 15: this constant expression evaluates to Inf> mechsys ('coordinates', {'x'}, 'lagrangian', 'dot(x)^2/2 + 1/0*x')
%!error <contacts\(1\).sigma is required> mechsys ('coordinates', {'x'}, 'lagrangian', 'dot(x)^2', 'contacts', struct ('h', 'x'))
%!error <quote characters are not part of the language> mechsys ('coordinates', {'x'}, 'lagrangian', 'x''^2')
%!error <the lagrangian must be a formula \(a string\) or a real full finite scalar; got sparse double 1x1> mechsys ('coordinates', {'x'}, 'lagrangian', sparse (1))
%!error <the lagrangian must be a formula \(a string\); got cell 1x1> mechsys ('coordinates', {'x'}, 'lagrangian', {'dot(x)^2'})
%!test
%! % coordinates without kinetic term are accepted: an algebraic coordinate and a velocity
%! % constraint's integral (skg_solve integrates both: tests/octave/test_messages.m), and one
%! % that no formula mentions (mechsys_eval evaluates such a model)
%! w = warning ('off', 'varmech:mechsys:nokinetic');
%! s = mechsys ('coordinates', {'x', 'y'}, 'lagrangian', 'dot(x)^2/2 - (x - y)^2/2 - y^2');
%! warning (w);
%! assert (s.n, 2);
%! s = mechsys ('coordinates', {'x', 'y'}, 'lagrangian', 'dot(x)^2/2', 'constraints', {'dot(y) - x'});
%! assert (s.m, 1);
%! w = warning ('off', 'varmech:mechsys:nokinetic');
%! s = mechsys ('coordinates', {'x', 'y'}, 'lagrangian', 'dot(x)^2/2');
%! warning (w);
%! o = mechsys_eval (s, 0, [1 2], [3 4], 'blocks', {'eom'});
%! assert (reshape (o.M, 2, 2), [1 0; 0 0]);
%!warning <mechsys: y has no kinetic term \(no formula contains dot\(y\)\): did you mean dot\(y\)\?> mechsys ('coordinates', {'x', 'y'}, 'lagrangian', '(dot(x)^2 + y^2)/2 - y');
%!warning <mechsys: x, y have no kinetic term .*did you mean dot\(x\), dot\(y\)\?> mechsys ('coordinates', {'x', 'y'}, 'lagrangian', '(x^2 + y^2)/2 - 9.81*y');
%!test
%! % a velocity that only a constraint contains is not algebraic: no warning
%! lastwarn ('');
%! s = mechsys ('coordinates', {'x', 'y'}, 'lagrangian', 'dot(x)^2/2', 'constraints', {'dot(y) - x'});
%! assert (lastwarn (), '');
%!warning <mechsys: x has no kinetic term \(no formula contains dot\(x\)\)> mechsys ('coordinates', {'x', 'xx'}, 'lagrangian', 'dot(xx)^2/2 + x^2');
%!error <coordinates\{2\} must be a string> mechsys ('coordinates', {'x', 3}, 'lagrangian', '1')
%!demo
%! % A bead on a hoop (R = 0.5 m) spinning at w about its vertical diameter: phase portraits below
%! % and above the critical rate sqrt(g/R) = 4.43 rad/s.  Above it the bottom th = 0 is a saddle and
%! % the bead oscillates about th = +-acos(g/(R w^2)).
%! hoop = mechsys ('coordinates', {'th'}, 'parameters', struct ('R', 0.5, 'w', 3, 'g', 9.81), ...
%!   'lagrangian', 'R^2/2*(dot(th)^2 + w^2*sin(th)^2) + g*R*cos(th)');
%! rates = [3 7];
%! figure ();
%! for k = 1:2
%!   hoop.parameters.w = rates(k);   % a new value, no recompilation
%!   subplot (1, 2, k);
%!   hold on;
%!   for th0 = [-1.2 -0.6 -0.1 0.1 0.6 1.2]
%!     sol = gauss_integrate (hoop, [0 4], th0, 0);
%!     plot (sol.q, sol.qdot);
%!   end
%!   hold off;
%!   xlabel ('th (rad)');  ylabel ('dth/dt (rad/s)');
%!   title (sprintf ('mechsys: bead on a hoop, w = %g rad/s', rates(k)));
%!   legend ('th0 = -1.2', '-0.6', '-0.1', '0.1', '0.6', '1.2', 'Location', 'southoutside');
%! end
