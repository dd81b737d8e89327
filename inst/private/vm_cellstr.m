% -*- texinfo -*-
% @deftypefn {} {@var{c} =} vm_cellstr (@var{x}, @var{fname}, @var{what}, @var{allow_numbers})
% Convert a string or a cell array of strings (and, when @var{allow_numbers}, real finite scalars,
% written with 17 significant digits) to a 1-by-n cell array of character row vectors.
% @end deftypefn

function c = vm_cellstr (x, fname, what, allow_numbers)
  if (nargin < 4)
    allow_numbers = false;
  end
  if (ischar (x) && (isempty (x) || size (x, 1) == 1))
    c = {x};
    return;
  end
  if (isnumeric (x) && isempty (x))
    c = cell (1, 0);
    return;
  end
  if (~iscell (x))
    vm_badarg (fname, '%s must be a string or a cell array of strings', what);
  end
  c = cell (1, numel (x));
  for k = 1:numel (x)
    v = x{k};
    if (ischar (v) && (isempty (v) || size (v, 1) == 1))
      c{k} = v;
    elseif (allow_numbers && isnumeric (v) && isreal (v) && isscalar (v) && isfinite (v))
      c{k} = sprintf ('%.17g', double (v));
    else
      if (allow_numbers)
        expected = 'a string (a formula) or a real finite number';
      else
        expected = 'a string';
      end
      vm_badarg (fname, '%s{%d} must be %s', what, k, expected);
    end
  end
end
