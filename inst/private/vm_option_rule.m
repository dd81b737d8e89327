% -*- texinfo -*-
% @deftypefn {} {[@var{rules}, @var{fast}, @var{defaults}] =} vm_option_rule (@var{fname})
% The options of the public function @var{fname} as the one table of the options of varmech
% has them (@file{csrc/base/vm_schema.c}, read through @code{vm_options_mex}).
%
% @var{rules}: a struct with one field per option of @var{fname} that has a rule, its cell for
% @code{vm_check_value}; an option without one (kind any) has no field: @var{fname} checks it
% (its check depends on other arguments, sizes of the system or of the grid).  @var{fast}: the
% rows of @code{vm_options_mex}'s fast path, one per option: [kind lo hi lc hc ...], kind 1 for
% 'int', 2 for 'real', 3 for 'order' (lo, hi the smallest and largest order, followed by the list
% of orders; lc, hc 1 where lo, hi are included), and [0 0 0 0 0] (any value) for an option
% without a rule; a 'choice', 'logical' or 'vector' option has no row (its value is checked by
% @code{vm_check_value}).  @var{defaults}: the struct of the options and their defaults, in the
% order of the help text.  All three are made at the first call for @var{fname} and kept, so
% that an option check costs a field lookup, not a search of the table.
% @end deftypefn

function [rules, fast, defaults] = vm_option_rule (fname)
  persistent byfn fastfn deffn
  if (isempty (byfn))
    byfn = struct ();
    fastfn = struct ();
    deffn = struct ();
  end
  if (~isfield (byfn, fname))
    deffn.(fname) = vm_options_mex ('defaults', fname);
    byfn.(fname) = vm_options_mex ('rules', fname);
    fastfn.(fname) = fast_of (byfn.(fname), fieldnames (deffn.(fname)));
  end
  rules = byfn.(fname);
  fast = fastfn.(fname);
  defaults = deffn.(fname);
end

function fast = fast_of (rules, names)
  % the 'int', 'real' and 'order' rules as rows [kind lo hi lc hc ...], for vm_options_mex's
  % accepting test of a double scalar without a function call
  fast = struct ();
  for k = 1:numel (names)
    if (~isfield (rules, names{k}))
      fast.(names{k}) = [0 0 0 0 0];   % no rule: checked by the function
      continue;
    end
    r = rules.(names{k});
    kind = r{1};
    if (kind(1) == '?')
      kind = kind(2:end);
    end
    if (strcmp (kind, 'int'))
      fast.(names{k}) = [1 r{2} r{3} isfinite(r{2}) isfinite(r{3})];
    elseif (strcmp (kind, 'real'))
      % a closed infinite bound admits nothing more than an open one (the values are finite)
      fast.(names{k}) = [2 r{2} r{3} (r{4}(1) == '[' && isfinite (r{2})) ...
                         (r{4}(2) == ']' && isfinite (r{3}))];
    elseif (strcmp (kind, 'order'))
      orders = vm_sbp_mex ('orders');
      fast.(names{k}) = [3 min(orders) max(orders) 1 1 orders(:)'];
    end
  end
end
