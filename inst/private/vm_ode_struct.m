% -*- texinfo -*-
% @deftypefn {} {@var{ode} =} vm_ode_struct (@var{def}, @var{blocks}, @var{compiled}, @var{pvalues})
% The struct of a compiled first-order system (the fields that @code{odesys} documents), from
% its definition @var{def} (fields @code{states}, @code{parameters}, @code{parameter_names},
% @code{rhs}, @code{algebraic}, @code{square}: the names and formulas as given), its compiled
% blocks and model (@code{vm_model_mex} "ode" or "period") and the parameter values at
% compilation.  One place for the layout of the struct, which
% @code{odesys} and the system with the period of @code{periodic_orbit} share.
% @end deftypefn

function ode = vm_ode_struct (def, blocks, compiled, pvalues)
  states = def.states;
  rhs = def.rhs;
  alg = def.algebraic;
  ode = struct ();
  ode.type = 'odesys';
  ode.states = states;
  ode.parameters = def.parameters;
  if (isnumeric (ode.parameters))
    ode.parameters = struct ();
  end
  ode.parameter_names = def.parameter_names;
  ode.rhs = rhs;
  ode.algebraic = alg;
  ode.ny = numel (states);
  ode.nd = numel (rhs);
  ode.na = numel (alg);
  ode.square = def.square;
  ode.blocks = blocks;
  ode.compiled_parameter_values = pvalues;
  ode.compiled = compiled;   % the compiled model, which the solvers load instead of parsing
end
