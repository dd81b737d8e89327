% -*- texinfo -*-
% @deftypefn {} {@var{p} =} vm_param_vector (@var{sys}, @var{fname}, @var{what})
% The current parameter values of a compiled system (@code{@var{sys}.parameters}), as a row in
% the order the system was compiled with (@code{@var{sys}.parameter_names}).
% @end deftypefn

function p = vm_param_vector (sys, fname, what)
  % fast path: the fields in compile order, each a real finite numeric scalar
  c = struct2cell (sys.parameters);
  if (numel (c) == numel (sys.parameter_names) && isequal (fieldnames (sys.parameters)', sys.parameter_names))
    if (isempty (c))
      p = zeros (1, 0);
      return;
    end
    try
      p = [c{:}];
    catch
      p = [];
    end
    if (isnumeric (p) && isreal (p) && numel (p) == numel (c) && all (isfinite (p)))
      p = double (reshape (p, 1, numel (p)));
      return;
    end
  end
  [pnames, pvalues] = vm_param_values (sys.parameters, fname);
  if (~isequal (sort (pnames), sort (sys.parameter_names)))
    vm_badarg (fname, '%s.parameters must have the fields %s (the parameters it was compiled with)', ...
               what, strjoin (sys.parameter_names, ', '));
  end
  p = zeros (1, numel (sys.parameter_names));
  for k = 1:numel (p)
    p(k) = pvalues(strcmp (pnames, sys.parameter_names{k}));
  end
end
