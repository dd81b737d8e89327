% -*- texinfo -*-
% @deftypefn  {} {@var{checks} =} vm_demo_check (@var{checks}, @var{name}, @var{value}, @var{reference}, @var{tol})
% @deftypefnx {} {@var{checks} =} vm_demo_check (@dots{}, @var{prop}, @var{val}, @dots{})
% Append one row (one compared quantity) to a demo's table of checks.
%
% @var{checks} is a struct array, possibly empty, whose fields are the
% layout of the table, chosen by the demo, e.g.@: @code{struct ('name', @{@},
% 'value', @{@}, 'reference', @{@}, 'error', @{@}, 'tol', @{@}, 'pass', @{@})}.
% The new row fills the fields of that layout, which may be
% @table @code
% @item name, value, reference, tol
% @var{name} (the quantity), @var{value}, @var{reference} (a number, or a
% string that describes it) and @var{tol} (the tolerance; NaN for a row
% without one, shown as info);
% @item error @r{or} err
% the error, @code{abs (@var{value} - @var{reference})} unless given;
% @item pass
% @code{error <= tol};
% @item info
% true for a row without tolerance;
% @item part
% a label shown before the quantity (default @code{''}).
% @end table
%
% Properties:
% @table @code
% @item "error", @var{err}
% the error (needed with a text @var{reference});
% @item "ratio", @var{ratio}
% @code{pass} is @code{@var{ratio} <= 1} instead (for a row that shows the
% worst of several items, each with its own tolerance);
% @item "part", @var{label}
% the label of the row.
% @end table
%
% A row without tolerance passes, except in a layout with an @code{info}
% field: there it is marked @code{info}, has @code{pass} false and is left
% out of the verdict (@code{vm_demo_verdict}).
% @seealso{vm_demo_table, vm_demo_verdict}
% @end deftypefn

function checks = vm_demo_check (checks, name, value, reference, tol, varargin)
  prop = struct ('part', '', 'error', [], 'ratio', []);
  if mod (numel (varargin), 2) ~= 0
    error ('vm_demo_check: properties must be name/value pairs');
  end
  for k = 1:2:numel (varargin)
    key = lower (varargin{k});
    if ~isfield (prop, key)
      error ('vm_demo_check: unknown property "%s"', varargin{k});
    end
    prop.(key) = varargin{k + 1};
  end
  err = prop.error;
  if isempty (err)
    if ischar (reference)
      error ('vm_demo_check: a row with a text reference needs the property "error"');
    end
    err = abs (value - reference);
  end
  info = isnan (tol);
  if info
    pass = ~isfield (checks, 'info');
  elseif ~isempty (prop.ratio)
    pass = prop.ratio <= 1;
  else
    pass = err <= tol;
  end
  % the row under every name a layout may use; the layout of checks picks its fields
  row = struct ('part', prop.part, 'name', name, 'value', value, 'reference', reference, ...
                'error', err, 'err', err, 'tol', tol, 'pass', pass, 'info', info);
  fields = fieldnames (checks);
  k = numel (checks) + 1;
  for i = 1:numel (fields)
    if ~isfield (row, fields{i})
      error ('vm_demo_check: unknown field "%s" in the table of checks', fields{i});
    end
    checks(k).(fields{i}) = row.(fields{i});
  end
end
