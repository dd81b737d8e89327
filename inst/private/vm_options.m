% -*- texinfo -*-
% @deftypefn {} {[@var{opts}, @var{defaults}] =} vm_options (@var{fname}, @var{args})
% Parse name/value pairs (or one options struct) into a struct with the options of the public
% function @var{fname} and their defaults, as the options' table has them
% (@file{csrc/base/vm_schema.c}, through @code{vm_option_rule}); @var{defaults} is that struct
% before @var{args} are applied (a default [] means that @var{fname} decides from other options).
%
% Names are matched case-insensitively; an unknown name, a name that is not a string, or a
% missing value is an error that names the function and lists the accepted names.  Every value
% given is checked against its rule in the same table (@code{vm_option_rule}:
% class, range, integer-ness, allowed strings) and converted (numbers to double, choices to
% their spelling in the table); defaults are taken as they are.  Refusals are errors
% @samp{varmech:@var{fname}:badarg} that name the option, what it must be and what it got.
% @end deftypefn

function [opts, defaults] = vm_options (fname, args)
  [rules, fast, defaults] = vm_option_rule (fname);
  opts = defaults;
  if (isempty (args))
    return;
  end
  keys = {};   % the option names: asked for only when a name needs a search or a message
  if (numel (args) == 1 && isstruct (args{1}) && isscalar (args{1}))
    s = args{1};
    f = fieldnames (s);
    args = cell (1, 2 * numel (f));
    for k = 1:numel (f)
      args{2*k-1} = f{k};
      args{2*k} = s.(f{k});
    end
  end
  if (mod (numel (args), 2) ~= 0)
    vm_badarg (fname, 'options must be name/value pairs (got an odd number of arguments)');
  end
  % the pairs whose value is a real scalar within its rule, and those of the options with no rule
  % (any value: fname checks it), are set in C (mex/vm_options_mex.c: the same test as the rows of
  % fast); the others, in order, here
  [opts, slow] = vm_options_mex (defaults, fast, args);
  for k = slow
    name = args{k};
    if (~(ischar (name) && ndims (name) == 2 && size (name, 1) == 1))
      keys = fieldnames (defaults);
      vm_badarg (fname, 'argument %d must be an option name (a string); expected one of: %s', ...
             k, strjoin (keys', ', '));
    end
    if (isfield (defaults, name))
      key = name;   % spelled as in the table (the common case: no search)
    else
      if (isempty (keys))
        keys = fieldnames (defaults);
      end
      hit = find (strcmpi (name, keys));
      if (isempty (hit))
        vm_badarg (fname, 'unknown option ''%s''; expected one of: %s', ...
               name, strjoin (keys', ', '));
      end
      key = keys{hit};
    end
    if (isfield (rules, key))
      opts.(key) = vm_check_value (fname, key, args{k+1}, rules.(key));
    else
      opts.(key) = args{k+1};   % no row: checked by fname
    end
  end
end
