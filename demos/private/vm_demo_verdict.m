% -*- texinfo -*-
% @deftypefn {} {[@var{pass}, @var{msg}] =} vm_demo_verdict (@var{checks})
% The verdict of a demo's table of checks (see @code{vm_demo_check}).
%
% @var{pass} is true when every row passes; rows marked @code{info} are left
% out.  @var{msg} is the line that states it: @samp{all @var{n} checks pass},
% or @samp{NO: @var{k} of @var{n} checks fail: } followed by the failing
% quantities (with their @code{part}, if any).
% @seealso{vm_demo_check, vm_demo_table}
% @end deftypefn

function [pass, msg] = vm_demo_verdict (checks)
  use = true (size (checks));
  if isfield (checks, 'info')
    use = reshape (~[checks.info], size (checks));
  end
  counted = checks(use);
  ok = logical ([counted.pass]);
  pass = all (ok);
  if pass
    msg = sprintf ('all %d checks pass', numel (counted));
  else
    bad = counted(~ok);
    names = cell (1, numel (bad));
    for k = 1:numel (bad)
      names{k} = bad(k).name;
      if isfield (bad, 'part') && ~isempty (bad(k).part)
        names{k} = [bad(k).part, ' ', names{k}];
      end
    end
    msg = sprintf ('NO: %d of %d checks fail: %s', numel (bad), numel (counted), strjoin (names, '; '));
  end
end
