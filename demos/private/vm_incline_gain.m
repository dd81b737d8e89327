% -*- texinfo -*-
% @deftypefn {} {@var{G} =} vm_incline_gain (@var{sa}, @var{m})
% The speed gain over epsv of a mass sliding down an incline with the friction smoothed as
% v/sqrt (v^2 + epsv^2), shared by @code{demo_incline} and @code{demo_skg_incline}: @var{sa} =
% sin (alpha), @var{m} the friction level relative to M g (mu cos (alpha) on a line).  The
% smoothed law gives udot = g (sa - m u/sqrt (u^2 + epsv^2)) for the downhill speed u, which gains
% speed while u is O(epsv): @var{G} = m J(m), J(m) = (2 m/sqrt (sa^2 - m^2)
% atan (sqrt ((sa + m)/(sa - m))) + 1)/(sa + m), and 0 for m = 0.
% @end deftypefn

function G = vm_incline_gain (sa, m)
  if m == 0
    G = 0;
  else
    G = m * (2 * m / sqrt (sa ^ 2 - m ^ 2) * atan (sqrt ((sa + m) / (sa - m))) + 1) / (sa + m);
  end
end
