% -*- texinfo -*-
% @deftypefn {} {@var{x} =} vm_points (@var{x}, @var{fname}, @var{what}, @var{ncol}, @var{N})
% Check a per-point input: a real full matrix with @var{ncol} columns and @var{N} rows (or 1 row,
% broadcast); @var{N} empty: any number of rows.  For @var{ncol} = 1 a vector is taken as a
% column when it can be one (its length is @var{N}, or @var{N} is free, or it is a column
% already); a row of another length is one point with that many columns, and is refused so.
% Returns @var{x} as double (integer and single classes converted; logical, char, cell, sparse
% and complex refused with their class).  Finiteness is checked by the gateway (in one pass,
% without temporaries), which names the input with @var{what}.
% @end deftypefn

function x = vm_points (x, fname, what, ncol, N)
  if (~isnumeric (x) || ~isreal (x) || issparse (x) || ndims (x) ~= 2)
    vm_badarg (fname, '%s must be a real full matrix; got %s', what, vm_describe (x));
  end
  x = double (x);
  if (ncol == 1 && isvector (x) && ~isempty (x) && (isempty (N) || numel (x) == N || size (x, 1) > 1))
    x = x(:);
  end
  if (size (x, 2) ~= ncol && ~(ncol == 0 && isempty (x)))
    vm_badarg (fname, '%s has %d columns; expected %d per point', what, size (x, 2), ncol);
  end
  if (~isempty (N) && size (x, 1) ~= N && size (x, 1) ~= 1)
    vm_badarg (fname, '%s has %d rows; expected %d (one per point) or 1', what, size (x, 1), N);
  end
end
