% -*- texinfo -*-
% @deftypefn {} {[@var{names}, @var{values}] =} vm_param_values (@var{p}, @var{fname})
% Names and values of a parameter struct: every field a real finite numeric scalar.
% @end deftypefn

function [names, values] = vm_param_values (p, fname)
  if (isnumeric (p) && isempty (p))
    names = cell (1, 0);
    values = zeros (1, 0);
    return;
  end
  if (~isstruct (p) || ~isscalar (p))
    vm_badarg (fname, 'parameters must be a scalar struct of name = value');
  end
  names = fieldnames (p)';
  values = zeros (1, numel (names));
  for k = 1:numel (names)
    v = p.(names{k});
    if (~(isnumeric (v) || islogical (v)) || ~isreal (v) || ~isscalar (v) || ~isfinite (v))
      vm_badarg (fname, 'parameter ''%s'' must be a real finite scalar', ...
             names{k});
    end
    values(k) = double (v);
  end
end
