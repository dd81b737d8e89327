% -*- texinfo -*-
% @deftypefn {} {@var{ode} =} vm_ode_struct (@var{states}, @var{parameters}, @var{pnames}, @var{rhs}, @var{alg}, @var{square}, @var{blocks}, @var{compiled}, @var{pvalues})
% The struct of a compiled first-order system (the fields that @code{odesys} documents), from
% its names and formulas, its compiled blocks and model (@code{vm_model_mex} "ode" or "period")
% and the parameter values at compilation.  One place for the layout of the struct, which
% @code{odesys} and the system with the period of @code{periodic_orbit} share.
% @end deftypefn

function ode = vm_ode_struct (states, parameters, pnames, rhs, alg, square, blocks, compiled, pvalues)
  ode = struct ();
  ode.type = 'odesys';
  ode.states = states;
  ode.parameters = parameters;
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
  ode.compiled = compiled;   % the compiled model, which the solvers load instead of parsing
end
