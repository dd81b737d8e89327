% -*- texinfo -*-
% @deftypefn  {} {@var{opt} =} vm_demo_args (@var{demo}, @var{args})
% @deftypefnx {} {@var{opt} =} vm_demo_args (@var{demo}, @var{args}, @var{defaults})
% Parse the options of a varmech demo.
%
% @var{args} is the demo's @code{varargin}.  Accepted are the flag
% @code{"quiet"}, the pair @code{"png", @var{dir}} and a pair
% @code{@var{name}, @var{value}} for every field @var{name} of the struct
% @var{defaults} (names matched case-insensitively).  The result @var{opt} has
% the fields of @var{defaults} (their default or given values) and
% @table @code
% @item demo
% @var{demo}, the name used in error messages and by @code{vm_demo_png};
% @item quiet
% true when @code{"quiet"} was given;
% @item png
% the directory of @code{"png"}, or @code{''}.
% @end table
%
% An option that is not a string, an unknown option, an option without its
% value and a @code{"png"} directory that is not a string are errors prefixed
% with @var{demo}.  The values of the other options are the demo's to check.
% @seealso{vm_demo_png, vm_demo_check}
% @end deftypefn

function opt = vm_demo_args (demo, args, defaults)
  if nargin < 3
    defaults = struct ();
  end
  names = fieldnames (defaults);
  opt = defaults;
  opt.demo = demo;
  opt.quiet = false;
  opt.png = '';
  k = 1;
  while k <= numel (args)
    key = args{k};
    if ~ischar (key)
      error ('%s: options must be strings', demo);
    end
    if strcmpi (key, 'quiet')
      opt.quiet = true;
      k = k + 1;
      continue;
    end
    if strcmpi (key, 'png')
      field = 'png';
    else
      hit = find (strcmpi (key, names), 1);
      if isempty (hit)
        error ('%s: unknown option "%s"', demo, key);
      end
      field = names{hit};
    end
    if k == numel (args)
      error ('%s: option "%s" needs a value', demo, key);
    end
    opt.(field) = args{k + 1};
    k = k + 2;
  end
  if isempty (opt.png)
    opt.png = '';
  elseif ~ischar (opt.png)
    error ('%s: "png" needs a directory name', demo);
  end
end
