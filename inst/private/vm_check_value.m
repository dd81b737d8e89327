% -*- texinfo -*-
% @deftypefn {} {@var{x} =} vm_check_value (@var{fname}, @var{name}, @var{x}, @var{rule})
% Check the argument or option @var{name} of @var{fname} against @var{rule} and return it
% converted (numbers of any real full numeric class to double, choices to lower case).
% A refusal is the error @samp{varmech:@var{fname}:badarg}, worded as the gateways' checks:
% @samp{@var{fname}: @var{name} must be EXPECTED; got CLASS SIZE} (@code{vm_describe}).
%
% @var{rule} is a cell array whose first entry is the kind, with a leading @samp{?} when the
% empty array is accepted (and returned as it is):
% @table @code
% @item @{'int', lo, hi@}
% an integer-valued real scalar in [lo, hi] (a value outside is refused with the range);
% @item @{'real', lo, hi, b@}
% a real scalar in the interval from lo to hi, b = '[]', '[)', '(]' or '()' its brackets;
% @item @{'choice', @{...@}@}
% one of the strings (case-insensitive), given as a 1-by-n char row (a column, a matrix or an
% N-D char array is refused);
% @item @{'order'@}
% an SBP interior order that the C library supports (the list is asked from csrc);
% @item @{'logical'@}
% true or false (a logical scalar, or a real full numeric scalar 0 or 1);
% @item @{'vector', n@}
% a real full finite vector with n entries (n = []: any number), returned as a column;
% @item @{'interval'@}
% [t0 tf] with finite t0 < tf, returned as a row;
% @item @{'any'@}
% anything (the caller checks it).
% @end table
% @end deftypefn

function x = vm_check_value (fname, name, x, rule)
  % the accepting paths first, with builtins only (this runs for every option given); the
  % messages are made only for a refusal
  kind = rule{1};
  if (kind(1) == '?')
    if (isempty (x) && (isnumeric (x) || iscell (x) || ischar (x)))
      return;
    end
    kind = kind(2:end);
  end
  switch (kind)
    case 'any'
    case 'int'
      x = check_int (fname, name, x, rule{2}, rule{3});
    case 'real'
      x = check_real (fname, name, x, rule{2}, rule{3}, rule{4});
    case 'choice'
      x = check_choice (fname, name, x, rule{2});
    case 'order'
      orders = vm_sbp_mex ('orders');
      x = check_int (fname, name, x, 1, 64);
      if (~any (x == orders))
        refuse (fname, name, x, ['one of ' strjoin(arrayfun (@num2str, orders, 'UniformOutput', false), ', ')]);
      end
    case 'logical'
      if (~((islogical (x) || (isnumeric (x) && isreal (x) && ~issparse (x))) && isscalar (x)) ...
          || ~(double (x) == 0 || double (x) == 1))
        refuse (fname, name, x, 'true or false');
      end
      x = logical (x);
    case 'vector'
      x = check_vector (fname, name, x, rule{2});
    case 'interval'
      x = check_vector (fname, name, x, 2);
      if (~(x(2) > x(1)))
        vm_badarg (fname, '%s must be [t0 tf] with finite t0 < tf; got [%.15g %.15g]', name, x(1), x(2));
      end
      x = x';
    otherwise
      error ('vm_check_value: unknown rule ''%s''', kind);
  end
end

function refuse (fname, name, x, expected)
  vm_badarg (fname, '%s must be %s; got %s', name, expected, vm_describe (x));
end

function x = check_int (fname, name, x, lo, hi)
  if (~(isnumeric (x) && isreal (x) && ~issparse (x) && isscalar (x) && isfinite (x) ...
        && x == round (x) && x >= lo && x <= hi))
    refuse (fname, name, x, sprintf ('an integer in [%d, %d]', lo, hi));
  end
  x = double (x);
end

function x = check_real (fname, name, x, lo, hi, b)
  if (isnumeric (x) && isreal (x) && ~issparse (x) && isscalar (x) && isfinite (x))
    x = double (x);
    if ((x > lo || (b(1) == '[' && x == lo)) && (x < hi || (b(2) == ']' && x == hi)))
      return;
    end
  end
  if (isinf (hi) && isinf (lo))
    expected = 'a finite real scalar';
  elseif (isinf (hi))
    op = '>';
    if (b(1) == '[')
      op = '>=';
    end
    expected = sprintf ('a finite real scalar %s %.15g', op, lo);
  else
    expected = sprintf ('a real scalar in %s%.15g, %.15g%s', b(1), lo, hi, b(2));
  end
  refuse (fname, name, x, expected);
end

function x = check_choice (fname, name, x, choices)
  if (ischar (x) && ndims (x) == 2 && size (x, 1) == 1)
    hit = find (strcmpi (x, choices), 1);
    if (~isempty (hit))
      x = choices{hit};
      return;
    end
  end
  refuse (fname, name, x, ['one of ''' strjoin(choices, ''', ''') '''']);
end

function x = check_vector (fname, name, x, n)
  if (isnumeric (x) && isreal (x) && ~issparse (x) && (isvector (x) || (isempty (x) && isequal (n, 0))) ...
      && (isempty (n) || numel (x) == n))
    x = double (x(:));
    if (all (isfinite (x)))
      return;
    end
    bad = find (~isfinite (x), 1);
    vm_badarg (fname, '%s must be finite; entry %d is %s', name, bad, num2str (x(bad)));
  end
  if (isempty (n))
    expected = 'a real full vector';
  elseif (n == 1)
    expected = 'a real full vector with 1 entry';
  else
    expected = sprintf ('a real full vector with %d entries', n);
  end
  refuse (fname, name, x, expected);
end
