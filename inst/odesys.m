% -*- texinfo -*-
% @deftypefn  {} {ode =} odesys (name, value, ...)
% @deftypefnx {} {ode =} odesys (opts)
% Compile a first-order system @code{ydot = F(t, y)}, @code{G(t, y) = 0} written as formulas:
% the model that @code{dual_solve}, @code{periodic_orbit} and @code{odesys_eval} take.  Names:
% @multitable @columnfractions .2 .8
% @item "states" @tab the names of the states y, a cell array
% @item "parameters" @tab a struct of named numbers, e.g.@: struct ('r', 28)
% @item "rhs" @tab dy/dt of the first numel (rhs) states, one formula each
% @item "algebraic" @tab equations G(t, y) = 0 for the remaining states
% @item "square" @tab true (default): as many equations as states
% @end multitable
% Fields: @code{ode.states}, @code{ode.parameters} (edit freely, no recompilation),
% @code{ode.ny}, @code{ode.nd} (numbers of states, of differential states).  Example (the Lorenz
% system; odesys_eval gives F = (s (y - x), x (r - z) - y, x y - b z)):
% @verbatim
% lor = odesys ('states', {'x', 'y', 'z'}, 'parameters', struct ('s', 10, 'r', 28, 'b', 8/3), ...
%   'rhs', {'s*(y - x)', 'x*(r - z) - y', 'x*y - b*z'});
% out = odesys_eval (lor, 0, [1 2 3]);                 % at t = 0, (x, y, z) = (1, 2, 3)
% fprintf ('F = %s\n', mat2str (out.F));
% lor.parameters.r = 20;                               % another r, no recompilation
% sol = dual_solve (lor, [0 2], [1 1 1]);  plot (sol.t, sol.y)
% @end verbatim
%
% @strong{Reference.}  The first nd = numel (rhs) states are differential (@code{rhs@{i@}} is the
% time derivative of state i); the remaining ny - nd states are algebraic: unknowns fixed by the
% algebraic equations G(t, y) = 0 (a multiplier, a constraint force, a slack...).  The system is
% evaluated by @code{odesys_eval} and solved by @code{dual_solve}.
%
% Name/value pairs (or one struct @var{opts} with these fields):
% @table @asis
% @item "states"
% the names of the states y, a cell array of names or one name (required).
% @item "parameters"
% a struct of named real scalars; change values later with @code{ode.parameters.name = value}
% (no recompilation).
% @item "rhs"
% right-hand sides: @code{rhs@{i@}} is the time derivative of state i, for the first
% @code{numel (rhs)} states (the differential states).
% @item "algebraic"
% algebraic equations G(t, y) = 0, one per remaining (algebraic) state.  The sign is yours:
% the duals D_a of @code{dual_solve} multiply G as written, and writing -G flips them.
% @item "square"
% true (default): as many equations as states.  false: any number of algebraic equations, for
% systems that are underdetermined on purpose, such as the Pars system of Acharya and Sengupta
% (constraint forces Q and a slack s as algebraic states, only the constraint and the power
% statement as equations); @code{dual_solve} then selects a solution through its potential H.
% @end table
% Formulas use the states, the parameters, @code{t}, @code{pi}, numbers, @code{+ - * / ^} and the
% functions of @code{mechsys}; @code{dot()} is not used here.  See @file{doc/language.md}.  A
% malformed formula is an error that quotes it, gives the column, and says what was expected.
%
% A mechanical system with a multiplier is written with the multiplier as an algebraic state and
% an index-1 condition as its equation; its sign is that of your formulas.  For the package-wide
% convention (eq.@: 3 of the rolling-disk paper, @code{sol.lambda} of @code{gauss_integrate} and
% @code{skg_solve}: @code{M qddot = dL/dq + F + sum_a lambda_a dg_a/dqdot}, for a position
% constraint @code{+ lambda_a dg_a/dq}) write the accelerations with @code{+ lambda*dg/dq}; see
% the pendulum example of @code{dual_solve}.
%
% Fields of @var{ode}:
% @table @code
% @item type
% "odesys".
% @item states, rhs, algebraic
% the names and formulas as given (1-by-n cell arrays).
% @item parameters, parameter_names
% the parameter struct (edit its values freely) and its field names.
% @item ny, nd, na
% the numbers of states, of differential states (right-hand sides) and of algebraic
% @emph{equations} (ny - nd is the number of algebraic states; they differ when "square" is false).
% @item square
% true or false, as given.
% @item blocks, compiled_parameter_values, compiled
% the compiled code that @code{odesys_eval} and the solvers run, the parameter values at
% compilation, and the compiled model (a uint8 row) that the solvers load instead of parsing
% the formulas again (internal).  To change a formula, call @code{odesys} again: a solver refuses
% an @var{ode} whose formula fields differ from the compiled ones.
% @end table
%
% Example (a Lotka-Volterra predator-prey system; its first integral V checks a solve):
% @verbatim
% p = struct ('a', 1, 'b', 0.5, 'c', 0.75, 'd', 0.25);
% ode = odesys ('states', {'prey', 'pred'}, 'parameters', p, ...
%   'rhs', {'a*prey - b*prey*pred', '-c*pred + d*prey*pred'});
% out = odesys_eval (ode, 0, [2 1]);
% disp (squeeze (out.F_y))                % the Jacobian dF_i/dy_j at (2, 1)
% sol = dual_solve (ode, [0 20], [2 1]);
% V = p.d*sol.y(:,1) - p.c*log (sol.y(:,1)) + p.b*sol.y(:,2) - p.a*log (sol.y(:,2));
% fprintf ('%s\nfirst integral V drifts by %.1e\n', sol.message, max (V) - min (V));
% @end verbatim
% @seealso{odesys_eval, dual_solve, dual_action, mechsys}
% @end deftypefn

function ode = odesys (varargin)
  fname = 'odesys';
  opts = vm_options (fname, varargin);   % names, defaults, rules: csrc/base/vm_schema.c
  states = vm_cellstr (opts.states, fname, 'states');
  if (isempty (states))
    vm_badarg (fname, 'no states; expected "states" with at least one name');
  end
  [pnames, pvalues] = vm_param_values (opts.parameters, fname);
  rhs = vm_cellstr (opts.rhs, fname, 'rhs', true);
  alg = vm_cellstr (opts.algebraic, fname, 'algebraic', true);
  square = logical (opts.square);
  if (numel (rhs) > numel (states))
    vm_badarg (fname, '%d states but %d right-hand sides; expected at most one per state', ...
               numel (states), numel (rhs));
  end
  if (square && numel (rhs) + numel (alg) ~= numel (states))
    vm_badarg (fname, ['%d states but %d right-hand sides and %d algebraic equations; expected one ' ...
                       'equation per state (the first numel (rhs) states are differential)'], ...
               numel (states), numel (rhs), numel (alg));
  end
  try
    [blocks, compiled] = vm_model_mex ('ode', states, pnames, rhs, alg, double (square));
  catch err
    vm_rethrow (err, fname);
  end
  def.states = states;
  def.parameters = opts.parameters;
  def.parameter_names = pnames;
  def.rhs = rhs;
  def.algebraic = alg;
  def.square = square;
  ode = vm_ode_struct (def, blocks, compiled, pvalues);
end

%!test
%! ode = odesys ('states', {'x', 'y', 'z'}, 'parameters', struct ('sigma', 10, 'rho', 28, 'beta', 8/3), ...
%!   'rhs', {'sigma*(y - x)', 'x*(rho - z) - y', 'x*y - beta*z'});
%! assert ([ode.ny ode.nd ode.na], [3 3 0]);
%!test
%! % a differential-algebraic system: pendulum in Cartesian velocity form with a multiplier state
%! ode = odesys ('states', {'x', 'v', 'lam'}, 'rhs', {'v', '-x + lam*x'}, 'algebraic', {'x*v'});
%! assert ([ode.nd ode.na], [2 1]);
%!test
%! % the Pars system of Acharya and Sengupta: 4 algebraic states (Q, s), 2 algebraic equations
%! ode = odesys ('states', {'x1', 'x2', 'x3', 'v1', 'v2', 'v3', 'Q1', 'Q2', 'Q3', 's'}, ...
%!   'rhs', {'v1', 'v2', 'v3', '-Q1', '-Q2', '-Q3'}, ...
%!   'algebraic', {'x3*v1 - v2', 'Q1*v1 + Q2*v2 + Q3*v3 - s^2/2'}, 'square', false);
%! assert ([ode.ny ode.nd ode.na ode.square], [10 6 2 0]);
%! out = odesys_eval (ode, 0, [0 0 2 1 2 0 0 0 0 1]);
%! assert (out.G(:)', [0 -0.5]);
%!error <odesys: no states> odesys ('rhs', {'1'})
%!error <2 states but 3 right-hand sides> odesys ('states', {'x', 'y'}, 'rhs', {'1', '2', '3'}, 'square', false)
%!error <square must be true or false> odesys ('states', {'x'}, 'rhs', {'1'}, 'square', 'no')
%!error <3 states but 2 right-hand sides and 0 algebraic> odesys ('states', {'x', 'y', 'z'}, 'rhs', {'y', 'x'})
%!error <right-hand side 1 \(dx/dt\): column 1: velocities are not allowed here> odesys ('states', {'x'}, 'rhs', {'dot(x)'})
%!error <right-hand side 2 \(dy/dt\): column 3: unknown name 'q'> odesys ('states', {'x', 'y'}, 'rhs', {'y', 'x+q'})
%!error <state 2: the name 'x' is used twice> odesys ('states', {'x', 'x'}, 'rhs', {'1', '2'})
%!error <odesys: square must be true or false; got cell 1x1> odesys ('states', {'x'}, 'rhs', {'x'}, 'square', {1})
%!error <odesys: square must be true or false; got double 1x1 \(Inf\)> odesys ('states', {'x'}, 'rhs', {'x'}, 'square', Inf)

%!demo
%! % Lotka-Volterra: the same compiled system solved for two predation rates (parameters
%! % changed without recompiling)
%! ode = odesys ('states', {'prey', 'pred'}, ...
%!   'parameters', struct ('a', 1, 'b', 0.5, 'c', 0.75, 'd', 0.25), ...
%!   'rhs', {'a*prey - b*prey*pred', '-c*pred + d*prey*pred'});
%! s1 = dual_solve (ode, [0 20], [2 1]);
%! ode.parameters.b = 0.8;
%! s2 = dual_solve (ode, [0 20], [2 1]);
%! figure ();
%! subplot (2, 1, 1);
%! plot (s1.t, s1.y, '-', s2.t, s2.y, '--');
%! xlabel ('t');  ylabel ('population');
%! legend ('prey, b = 0.5', 'predators, b = 0.5', 'prey, b = 0.8', 'predators, b = 0.8', ...
%!   'location', 'eastoutside');
%! title ('odesys + dual_solve: Lotka-Volterra', 'interpreter', 'none');
%! subplot (2, 1, 2);
%! plot (s1.y(:, 1), s1.y(:, 2), '-', s2.y(:, 1), s2.y(:, 2), '--');
%! xlabel ('prey');  ylabel ('predators');
%! legend ('b = 0.5', 'b = 0.8', 'location', 'eastoutside');
%! title ('phase portrait (closed orbits: V is a first integral)');
