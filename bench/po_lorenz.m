% -*- texinfo -*-
% @deftypefn  {} {[@var{f}, @var{J}, @var{sec}] =} po_lorenz ()
% @deftypefnx {} {[@var{f}, @var{J}, @var{sec}] =} po_lorenz (@var{r})
% The Lorenz system (10, @var{r}, 8/3) (@var{r} default 28) for the shooting reference @code{po_shoot}, written by hand
% (independent of the package's compiled models): @var{f} the field on the columns of an n-by-m
% array, @var{J} its Jacobian (3-by-3-by-m), @var{sec} the section z = r - 1 (27; the height of the equilibria) crossed upwards with
% the symbol x (A where x < 0).  Shared by @code{po_lorenz_table} and
% @code{bench_periodic_catalogue} and the tests of po_shoot and periodic_continue.
% @end deftypefn

function [f, J, sec] = po_lorenz (r)
  if (nargin < 1)
    r = 28;
  end
  f = @(x) [10 * (x(2, :) - x(1, :)); x(1, :) .* (r - x(3, :)) - x(2, :); ...
            x(1, :) .* x(2, :) - 8 / 3 * x(3, :)];
  J = @(x) lorenz_jac (x, r);
  sec = struct ('normal', [0; 0; 1], 'value', r - 1, 'symbol', [1; 0; 0]);
end

function A = lorenz_jac (x, r)
  m = size (x, 2);
  A = zeros (9, m);
  A(1, :) = -10;
  A(2, :) = r - x(3, :);
  A(3, :) = x(2, :);
  A(4, :) = 10;
  A(5, :) = -1;
  A(6, :) = x(1, :);
  A(8, :) = -x(1, :);
  A(9, :) = -8 / 3;
  A = reshape (A, 3, 3, m);
end
