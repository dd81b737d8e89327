% -*- texinfo -*-
% @deftypefn  {} {} vm_demo_table (@var{checks})
% @deftypefnx {} {} vm_demo_table (@var{checks}, @var{fmt})
% @deftypefnx {} {} vm_demo_table (@var{checks}, @var{fmt}, @var{parthead})
% Print a demo's table of checks: quantity | value | reference | error | tol | pass.
%
% @var{checks} is a struct array made with @code{vm_demo_check}.  Its
% @code{value} and @code{reference} are printed with the @code{sprintf}
% format @var{fmt} (default @code{'%.4e'}), error and tolerance with
% @code{'%.3e'}; a NaN is printed as @samp{-} and a text reference as it is.
% A row without tolerance is marked @samp{info} instead of @samp{yes} or
% @samp{NO}.  When @var{checks} has a field @code{part}, it is printed in a
% first column headed @var{parthead} (default @code{''}).  The columns are as
% wide as their widest entry.
% @seealso{vm_demo_check, vm_demo_verdict, vm_demo_yesno}
% @end deftypefn

function vm_demo_table (checks, fmt, parthead)
  if nargin < 2 || isempty (fmt)
    fmt = '%.4e';
  end
  if nargin < 3
    parthead = '';
  end
  if isfield (checks, 'error')
    errfield = 'error';
  else
    errfield = 'err';
  end
  n = numel (checks);
  cells = cell (n + 1, 7);
  cells(1, :) = {parthead, 'quantity', 'value', 'reference', 'error', 'tol', 'pass'};
  for k = 1:n
    c = checks(k);
    if isfield (c, 'part')
      cells{k + 1, 1} = c.part;
    else
      cells{k + 1, 1} = '';
    end
    cells{k + 1, 2} = c.name;
    cells{k + 1, 3} = cell_text (c.value, fmt);
    cells{k + 1, 4} = cell_text (c.reference, fmt);
    cells{k + 1, 5} = cell_text (c.(errfield), '%.3e');
    cells{k + 1, 6} = cell_text (c.tol, '%.3e');
    if isnan (c.tol) || (isfield (c, 'info') && c.info)
      cells{k + 1, 7} = 'info';
    else
      cells{k + 1, 7} = vm_demo_yesno (c.pass);
    end
  end
  % left-aligned: part, quantity, pass; right-aligned: the numbers
  w = max (cellfun ('length', cells), [], 1);
  rowfmt = sprintf ('%%-%ds | %%%ds | %%%ds | %%%ds | %%%ds | %%s\n', w(2:6));
  first = 2;
  if isfield (checks, 'part')
    rowfmt = [sprintf('%%-%ds ', w(1)), rowfmt];
    first = 1;
  end
  for k = 1:n + 1
    fprintf (rowfmt, cells{k, first:7});
  end
end

function s = cell_text (x, fmt)
  if ischar (x)
    s = x;
  elseif isnan (x)
    s = '-';
  else
    s = sprintf (fmt, x);
  end
end
