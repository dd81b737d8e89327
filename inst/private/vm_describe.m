% -*- texinfo -*-
% @deftypefn {} {@var{s} =} vm_describe (@var{x})
% The class and size of @var{x} as the argument checks report them, in the words of the gateways'
% checks (@file{mex/vm_mex_args.c}): @samp{sparse double 20x1}, @samp{complex double 1x2},
% @samp{int32 1x1 (4)}, @samp{cell 1x1}, @samp{char 1x5 ('euler')}; a numeric scalar with its
% value, a short string with its text.
% @end deftypefn

function s = vm_describe (x)
  s = class (x);
  if (isnumeric (x) && ~isreal (x))
    s = ['complex ' s];
  end
  if (issparse (x))
    s = ['sparse ' s];
  end
  s = [s ' ' sprintf('%dx', size (x))];
  s = s(1:end-1);
  if ((isnumeric (x) || islogical (x)) && isscalar (x) && ~issparse (x) && isreal (x))
    s = sprintf ('%s (%.15g)', s, double (x));
  elseif (ischar (x) && size (x, 1) == 1 && ndims (x) == 2 && numel (x) <= 40)
    s = sprintf ('%s (''%s'')', s, x);
  end
end
