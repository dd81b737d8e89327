% -*- texinfo -*-
% @deftypefn {} {@var{code} =} vm_linsolve_code (@var{opts})
% The option LinearSolver of @var{opts} (checked by @code{vm_options}) as the gateways' code:
% 0 auto, 1 umfpack, 2 banded (mex/vm_linsolve_mx.h); 0 when @var{opts} has no such field.
% @end deftypefn

function code = vm_linsolve_code (opts)
  code = 0;
  if (isfield (opts, 'LinearSolver'))
    code = find (strcmp (opts.LinearSolver, {'auto', 'umfpack', 'banded'})) - 1;
  end
end
