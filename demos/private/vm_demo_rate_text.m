% -*- texinfo -*-
% @deftypefn {} {@var{s} =} vm_demo_rate_text (@var{r}, @var{e1}, @var{e2}, @var{efloor})
% The rate @var{r} between two errors @var{e1}, @var{e2} as a convergence table prints it:
% @samp{%6.2f} followed by a blank, or by @samp{*} when an error is at or below the rounding floor
% @var{efloor} (a rate that is not used for the observed order).
% @seealso{vm_demo_rates}
% @end deftypefn

function s = vm_demo_rate_text (r, e1, e2, efloor)
  if e1 > efloor && e2 > efloor
    s = sprintf ('%6.2f ', r);
  else
    s = sprintf ('%6.2f*', r);
  end
end
