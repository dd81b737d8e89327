% -*- texinfo -*-
% @deftypefn {} {[@var{r}, @var{obs}, @var{pair}] =} vm_demo_rates (@var{h}, @var{e}, @var{efloor}, @var{Ns})
% Convergence rates between consecutive grids: @var{r}(k) = log (e(k)/e(k+1)) / log (h(k)/h(k+1)).
% The observed order @var{obs} is the rate of the finest pair whose two errors are both above the
% rounding floor @var{efloor}; @var{pair} holds its two N (NaN when there is none).
% @end deftypefn

function [r, obs, pair] = vm_demo_rates (h, e, efloor, Ns)
  r = log (e(1:end - 1) ./ e(2:end)) ./ log (h(1:end - 1) ./ h(2:end));
  ok = e(1:end - 1) > efloor & e(2:end) > efloor;
  k = find (ok, 1, 'last');
  if isempty (k)
    obs = NaN;
    pair = [NaN, NaN];
  else
    obs = r(k);
    pair = Ns([k, k + 1]);
  end
end
