% -*- texinfo -*-
% @deftypefn {} {[@var{x}, @var{v}, @var{Q}] =} vm_pars_closed_form (@var{t}, @var{x0}, @var{v0})
% The closed-form Gauss motion of the Pars particle (Acharya & Sengupta eq. 44, integrated by hand:
% v3 is constant and v1 sqrt (1 + x3^2) too): z = x3 = z0 + v30 t, v1 = v1^0 sqrt ((1 + z0^2)/(1 + z^2)),
% v2 = z v1, and the constraint force Q = lam* a, lam* = v3 v1/(1 + z^2), a = (x3, -1, 0).
% @var{t} is a column; rows of @var{x}, @var{v}, @var{Q} are the points (x needs v30 ~= 0).
% @end deftypefn

function [x, v, Q] = vm_pars_closed_form (t, x0, v0)
  z0 = x0(3);
  z = z0 + v0(3) * t;
  C = v0(1) * sqrt (1 + z0 ^ 2) / v0(3);
  v1 = v0(1) * sqrt ((1 + z0 ^ 2) ./ (1 + z .^ 2));
  x = [x0(1) + C * (asinh (z) - asinh (z0)), x0(2) + C * (sqrt (1 + z .^ 2) - sqrt (1 + z0 ^ 2)), z];
  v = [v1, z .* v1, v0(3) * ones(size (z))];
  lam = v(:, 3) .* v(:, 1) ./ (1 + z .^ 2);
  Q = [lam .* z, -lam, zeros(size (z))];
end
