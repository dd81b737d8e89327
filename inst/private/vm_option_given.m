function tf = vm_option_given (args, name)
  % tf = vm_option_given (args, name): true when the options args of a call (name/value pairs, or
  % one struct) set option name (any case).  Why: a remedy that changes an option (a stalled
  % march retried at a higher Order) is tried only when the caller left that option at its default.
  if (numel (args) == 1 && isstruct (args{1}))
    tf = any (strcmpi (fieldnames (args{1}), name));
  else
    tf = any (cellfun (@(a) ischar (a) && strcmpi (a, name), args(1:2:end)));
  end
end
