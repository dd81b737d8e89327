% -*- texinfo -*-
% @deftypefn {} {[@var{tc}, @var{yc}, @var{sym}] =} vm_section_crossings (@var{marks}, @var{t}, @var{Y}, @var{F})
% The upward crossings of a section h(x) = 0 by a trajectory given at its integrator's steps,
% and the symbol of each.  @var{marks} is an @code{odesys} in the trajectory's states whose first
% right-hand side is h and second the symbol's expression s; @var{t} (K-by-1), @var{Y} and
% @var{F} (K-by-n) are the steps, the states there and the right-hand sides there.  A crossing
% is a step interval where h goes from negative to non-negative; on it the trajectory is the
% cubic Hermite interpolant of the two ends (the states and their derivatives F, accurate to the
% fourth power of the step), and h on it is solved for by Newton's method from the linear
% interpolation of h, kept inside the interval.  @var{tc}, @var{yc}: the crossings' times and
% states; @var{sym}: 'A' where s < 0, 'B' where s >= 0 (a char row).  Cost: an evaluation of h
% at the K steps, then 6 at the crossings.
% @end deftypefn

function [tc, yc, sym] = vm_section_crossings (marks, t, Y, F)
  out = odesys_eval (marks, 0, Y);
  h = out.F(:, 1);
  j = find (h(1:end-1) < 0 & h(2:end) >= 0);
  if (isempty (j))
    tc = zeros (0, 1);
    yc = zeros (0, size (Y, 2));
    sym = '';
    return;
  end
  dt = t(j + 1) - t(j);
  th = h(j) ./ (h(j) - h(j + 1));             % linear interpolation of h
  for it = 1:6                                % Newton on h(y(theta)) = 0
    [y, dy] = hermite (Y(j, :), Y(j + 1, :), F(j, :) .* dt, F(j + 1, :) .* dt, th);
    o = odesys_eval (marks, 0, y);
    g = sum (reshape (o.F_y(:, 1, :), numel (j), []) .* dy, 2);
    step = o.F(:, 1) ./ g;
    step(~isfinite (step)) = 0;
    th = min (max (th - step, 0), 1);
  end
  y = hermite (Y(j, :), Y(j + 1, :), F(j, :) .* dt, F(j + 1, :) .* dt, th);
  tc = t(j) + th .* dt;
  yc = y;
  o = odesys_eval (marks, 0, yc);
  sym = char ('A' + (o.F(:, 2) >= 0)');
end

% the cubic Hermite interpolant on [0, 1] with end values a, b and end derivatives da, db (per
% unit of theta), and its derivative in theta
function [y, dy] = hermite (a, b, da, db, th)
  h00 = 2 * th.^3 - 3 * th.^2 + 1;
  h10 = th.^3 - 2 * th.^2 + th;
  h01 = -2 * th.^3 + 3 * th.^2;
  h11 = th.^3 - th.^2;
  y = h00 .* a + h10 .* da + h01 .* b + h11 .* db;
  dy = (6 * th.^2 - 6 * th) .* a + (3 * th.^2 - 4 * th + 1) .* da ...
       + (-6 * th.^2 + 6 * th) .* b + (3 * th.^2 - 2 * th) .* db;
end
