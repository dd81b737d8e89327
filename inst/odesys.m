% -*- texinfo -*-
% @deftypefn  {} {ode =} odesys (name, value, ...)
% @deftypefnx {} {ode =} odesys (opts)
% Compile a first-order system @code{ydot = F(t, y)}, @code{G(t, y) = 0} written as formulas.
%
% Name/value pairs (or one struct with these fields):
% @table @asis
% @item "states"
% the names of the states y, a cell array (required).
% @item "parameters"
% a struct of named real scalars; change values later with @code{ode.parameters.name = value}.
% @item "rhs"
% right-hand sides: @code{rhs@{i@}} is the time derivative of state i, for the first
% @code{numel (rhs)} states (the differential states).
% @item "algebraic"
% algebraic equations G(t, y) = 0, one per remaining (algebraic) state.
% @item "square"
% true (default): as many equations as states.  false: any number of algebraic equations, for
% systems that are underdetermined on purpose, such as the Pars system of Acharya and Sengupta
% (constraint forces Q and a slack s as algebraic states, only the constraint and the power
% statement as equations); @code{dual_solve} then selects a solution through its potential H.
% @end table
% Formulas use the states, the parameters, @code{t}, @code{pi}, numbers, @code{+ - * / ^} and the
% functions of @code{mechsys}; @code{dot()} is not used here.  See @file{doc/language.md}.
%
% Example (the Lorenz system):
% @verbatim
% ode = odesys ('states', {'x', 'y', 'z'}, ...
%   'parameters', struct ('sigma', 10, 'rho', 28, 'beta', 8/3), ...
%   'rhs', {'sigma*(y - x)', 'x*(rho - z) - y', 'x*y - beta*z'});
% out = odesys_eval (ode, 0, [1 1 1]);   % out.F, out.F_y, ...
% @end verbatim
% @seealso{odesys_eval, mechsys}
% @end deftypefn

function ode = odesys (varargin)
  fname = 'odesys';
  defaults = struct ('states', {{}}, 'parameters', struct (), 'rhs', {{}}, 'algebraic', {{}}, ...
                     'square', true);
  opts = vm_options (fname, defaults, varargin);
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
    blocks = vm_model_mex ('ode', states, pnames, rhs, alg, double (square));
  catch err
    vm_rethrow (err, fname);
  end
  ode = struct ();
  ode.type = 'odesys';
  ode.states = states;
  ode.parameters = opts.parameters;
  if (isnumeric (ode.parameters))
    ode.parameters = struct ();
  end
  ode.parameter_names = pnames;
  ode.rhs = rhs;
  ode.algebraic = alg;
  ode.ny = numel (states);
  ode.nd = numel (rhs);
  ode.na = numel (alg);
  ode.square = square;
  ode.blocks = blocks;
  ode.compiled_parameter_values = pvalues;
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
