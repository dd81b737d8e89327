% -*- texinfo -*-
% @deftypefn {} {[@var{tc}, @var{xc}, @var{w}] =} po_crossings (@var{f}, @var{x0}, @var{tf}, @var{sec}, @var{H})
% Upward crossings of the section n'x = c by the trajectory of x' = f(x) from @var{x0} over the
% times (0, @var{tf}]: the times @var{tc} (1-by-k), the states @var{xc} (n-by-k, on the section to
% rounding) and the symbols @var{w} (a char row: A where s'x < 0, B where s'x > 0).
%
% Part of the shooting reference of @file{bench/po_shoot.m} (the itinerary of a long trajectory
% gives its guesses; the itinerary of an orbit checks its word).  @var{sec} is a struct with the
% fields @code{normal} (n, the normal vector), @code{value} (c) and @code{symbol} (s); upward means
% n'x increasing.  The trajectory is integrated by @code{po_flow} with fixed steps of at most
% @var{H} (default 0.05, about 1e-8 absolute per unit time on Lorenz); a crossing is a sign change
% of n'x - c from negative to non-negative between two steps (a double crossing inside one step
% is missed: take @var{H} well below the shortest time between crossings), located by Newton on the
% time inside the step, each iterate one step of @code{po_flow} from the step's start.
%
% Cost: about 37 tf/H evaluations of @var{f} on one state.
% @end deftypefn

function [tc, xc, w] = po_crossings (f, x0, tf, sec, H)
  if (nargin < 5 || isempty (H))
    H = 0.05;
  end
  nv = sec.normal(:);
  c = sec.value;
  N = max (1, ceil (tf / H));
  h = tf / N;
  tc = zeros (1, 0);
  xc = zeros (numel (x0), 0);
  x = x0(:);
  g = nv' * x - c;
  for k = 1:N
    xn = po_flow (f, [], x, h, 1);
    gn = nv' * xn - c;
    if (g < 0 && gn >= 0)
      tau = h * g / (g - gn);
      for it = 1:6
        xt = po_flow (f, [], x, tau, 1);
        dtau = -(nv' * xt - c) / (nv' * f (xt));
        tau = tau + dtau;
        if (abs (dtau) <= 1e-15 * h)
          break;
        end
      end
      xt = po_flow (f, [], x, tau, 1);
      tc(end + 1) = (k - 1) * h + tau; %#ok<AGROW>
      xc(:, end + 1) = xt; %#ok<AGROW>
    end
    x = xn;
    g = gn;
  end
  w = repmat ('A', 1, numel (tc));
  w(sec.symbol(:)' * xc > 0) = 'B';
end
