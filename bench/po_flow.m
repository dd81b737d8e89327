% -*- texinfo -*-
% @deftypefn  {} {@var{x} =} po_flow (@var{f}, @var{J}, @var{x0}, @var{t}, @var{N})
% @deftypefnx {} {[@var{x}, @var{M}] =} po_flow (@var{f}, @var{J}, @var{x0}, @var{t}, @var{N})
% Flow of x' = f(x) over the times @var{t}, and its derivative M = dx(t)/dx0 from the variational
% equations M' = J(x) M, by @var{N} fixed steps of Gragg-Bulirsch-Stoer extrapolation (the
% modified midpoint rule with 2, 4, ..., 12 substeps, extrapolated in h^2: order 12).
%
% Part of the shooting reference of @file{bench/po_shoot.m}; written independently of the
% package's integrators and of the dual action, so that it can check them.
%
% @var{f} maps an n-by-m array of states (one per column) to their n-by-m derivatives; @var{J}
% maps one state (n-by-1) to its n-by-n Jacobian, or, faster, n-by-m states to an
% n-by-n-by-m array (it is called with all m states and falls back to one call per state if the
% result is n-by-n).  @var{x0} is
% n-by-m: m independent initial states, each integrated over its own time @var{t}(k) (1-by-m, any
% sign, zero allowed) with the step @var{t}(k)/@var{N}.  @var{x} is n-by-m; @var{M} is
% n-by-n-by-m.
%
% Why fixed steps: the discrete flow is then a smooth function of x0 and t, and integrating the
% variational equations by the same scheme gives the exact derivative of that discrete flow, so
% Newton on it converges to rounding; the error is estimated by repeating with 2 @var{N} steps
% (order 12: the error of the finer result is about 1/4000 of the difference).
%
% Cost: 37 (N m) evaluations of @var{f} and, with @var{M}, 37 (N m) of @var{J}.
% @end deftypefn

function [x, M] = po_flow (f, J, x0, t, N)
  [n, m] = size (x0);
  h = reshape (t, 1, m) / N;
  var = nargout > 1;
  if (var)
    y = [x0; repmat(reshape (eye (n), [], 1), 1, m)];
    rhs = @(y) aug_rhs (f, J, y, n, m);
  else
    y = x0;
    rhs = f;
  end
  for k = 1:N
    y = gbs_step (rhs, y, h);
  end
  x = y(1:n, :);
  if (var)
    M = reshape (y(n + 1:end, :), n, n, m);
  end
end

function dy = aug_rhs (f, J, y, n, m)
  x = y(1:n, :);
  dy = zeros (size (y));
  dy(1:n, :) = f (x);
  A = J (x);
  if (m > 1 && size (A, 3) == 1)              % J takes one state only
    for k = 1:m
      dy(n + 1:end, k) = reshape (J (x(:, k)) * reshape (y(n + 1:end, k), n, n), [], 1);
    end
  else                                        % J(x) is n-by-n-by-m: all products at once
    dV = sum (reshape (A, n, n, 1, m) .* reshape (y(n + 1:end, :), 1, n, n, m), 2);
    dy(n + 1:end, :) = reshape (dV, n * n, m);
  end
end

function y = gbs_step (rhs, y0, H)
  % one extrapolated step of length H (a row: one step per column)
  ns = [2, 4, 6, 8, 10, 12];
  f0 = rhs (y0);
  P = {};
  for j = 1:numel (ns)
    h = H / ns(j);
    zm = y0;
    z = y0 + h .* f0;
    for i = 2:ns(j)
      zn = zm + 2 * h .* rhs (z);
      zm = z;
      z = zn;
    end
    % the row j of the Aitken-Neville tableau in h^2: R{k} has the order 2 k
    R = cell (1, j);
    R{1} = z;
    for k = 2:j
      R{k} = R{k - 1} + (R{k - 1} - P{k - 1}) / ((ns(j) / ns(j - k + 1)) ^ 2 - 1);
    end
    P = R;
  end
  y = R{end};
end
