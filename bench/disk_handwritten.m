function out = disk_handwritten (t, q, qdot, lambda, p)
% -*- texinfo -*-
% @deftypefn {} {@var{out} =} disk_handwritten (@var{t}, @var{q}, @var{qdot}, @var{lambda}, @var{p})
% Hand-written, vectorized derivatives of the rolling-disk model (benchmark
% peer for the generated model code).
%
% Coordinates q = [x, y, theta, phi], velocities qdot = [xd, yd, thd, phd],
% multipliers lambda = [l1, l2].  @var{t} is N x 1 (the model does not depend
% on it), @var{q} and @var{qdot} are N x 4, @var{lambda} is N x 2: one point
% per row.  @var{p} is a struct with fields @code{M}, @code{g}, @code{alpha},
% @code{R}, @code{IS}, @code{ID}.
%
% Lagrangian and constraints:
% @example
% L  = M/2*(xd^2+yd^2) + IS/2*thd^2 + ID/2*phd^2 + M*g*x*sin(alpha)
% g1 = xd^2 + yd^2 - R^2*thd^2
% g2 = xd*sin(phi) - yd*cos(phi)
% @end example
%
% @var{out} is a struct, all fields "points first":
% @table @code
% @item L
% N x 1 Lagrangian.
% @item L_q, L_qdot
% N x 4 gradient blocks, e.g. L_qdot(:,j) = dL/dqdot_j.
% @item L_qq, L_qqdot, L_qdotqdot
% N x 4 x 4 Hessian blocks; L_qqdot(:,i,j) = d2L/dq_i dqdot_j.
% @item g
% N x 2 constraint values [g1, g2].
% @item g_q, g_qdot
% N x 2 x 4 Jacobians; g_q(:,a,j) = dg_a/dq_j.
% @item lg_qq, lg_qqdot, lg_qdotqdot
% N x 4 x 4 Hessian blocks of lambda(:,1).*g1 + lambda(:,2).*g2, same index
% convention as the blocks of L.
% @end table
%
% Every array is allocated with @code{zeros} and only its structurally
% nonzero entries are assigned (both halves of symmetric blocks); sin(phi)
% and cos(phi) are computed once.
% @seealso{bench_model}
% @end deftypefn

  if nargin ~= 5
    error ('disk_handwritten: usage: out = disk_handwritten (t, q, qdot, lambda, p)');
  end
  N = size (q, 1);
  if size (q, 2) ~= 4 || ~isequal (size (qdot), [N, 4]) || ~isequal (size (lambda), [N, 2])
    error ('disk_handwritten: Q and QDOT must be N x 4 and LAMBDA N x 2');
  end
  if ~isempty (t) && numel (t) ~= N
    error ('disk_handwritten: T must have one entry per point (N x 1)');
  end

  M = p.M;
  R2 = p.R ^ 2;
  IS = p.IS;
  ID = p.ID;
  Mgs = M * p.g * sin (p.alpha);

  x = q(:, 1);
  phi = q(:, 4);
  xd = qdot(:, 1);
  yd = qdot(:, 2);
  thd = qdot(:, 3);
  phd = qdot(:, 4);
  l1 = lambda(:, 1);
  l2 = lambda(:, 2);
  s = sin (phi);
  c = cos (phi);
  xd2 = xd .^ 2;
  yd2 = yd .^ 2;
  thd2 = thd .^ 2;

  % Lagrangian and its derivatives
  out.L = M / 2 * (xd2 + yd2) + IS / 2 * thd2 + ID / 2 * phd .^ 2 + Mgs * x;

  out.L_q = zeros (N, 4);
  out.L_q(:, 1) = Mgs;

  out.L_qdot = zeros (N, 4);
  out.L_qdot(:, 1) = M * xd;
  out.L_qdot(:, 2) = M * yd;
  out.L_qdot(:, 3) = IS * thd;
  out.L_qdot(:, 4) = ID * phd;

  out.L_qq = zeros (N, 4, 4);
  out.L_qqdot = zeros (N, 4, 4);
  out.L_qdotqdot = zeros (N, 4, 4);
  out.L_qdotqdot(:, 1, 1) = M;
  out.L_qdotqdot(:, 2, 2) = M;
  out.L_qdotqdot(:, 3, 3) = IS;
  out.L_qdotqdot(:, 4, 4) = ID;

  % Constraints and their Jacobians
  out.g = zeros (N, 2);
  out.g(:, 1) = xd2 + yd2 - R2 * thd2;
  out.g(:, 2) = xd .* s - yd .* c;

  out.g_q = zeros (N, 2, 4);
  out.g_q(:, 2, 4) = xd .* c + yd .* s;

  out.g_qdot = zeros (N, 2, 4);
  out.g_qdot(:, 1, 1) = 2 * xd;
  out.g_qdot(:, 1, 2) = 2 * yd;
  out.g_qdot(:, 1, 3) = -2 * R2 * thd;
  out.g_qdot(:, 2, 1) = s;
  out.g_qdot(:, 2, 2) = -c;

  % Hessian blocks of lambda(:,1).*g1 + lambda(:,2).*g2
  out.lg_qq = zeros (N, 4, 4);
  out.lg_qq(:, 4, 4) = l2 .* (yd .* c - xd .* s);

  out.lg_qqdot = zeros (N, 4, 4);
  out.lg_qqdot(:, 4, 1) = l2 .* c;
  out.lg_qqdot(:, 4, 2) = l2 .* s;

  out.lg_qdotqdot = zeros (N, 4, 4);
  twol1 = 2 * l1;
  out.lg_qdotqdot(:, 1, 1) = twol1;
  out.lg_qdotqdot(:, 2, 2) = twol1;
  out.lg_qdotqdot(:, 3, 3) = -R2 * twol1;

end

%!shared p, N, t, q, qd, lam, out, h, tol, fdq, fdv, rel
%! p = struct ('M', 1, 'g', 9.8, 'alpha', pi / 6, 'R', 1, 'IS', 1 / 2, 'ID', 1 / 4);
%! N = 7;
%! rand ('state', 42);
%! t = rand (N, 1);
%! q = 2 * rand (N, 4) - 1;
%! qd = 2 * rand (N, 4) - 1;
%! lam = 2 * rand (N, 2) - 1;
%! out = disk_handwritten (t, q, qd, lam, p);
%! h = 1e-6;
%! tol = 1e-6;
%! % central differences of f (q, qdot) -> N x k with respect to q(:,j) / qdot(:,j)
%! fdq = @(f, j) (f (q + h * ((1:4) == j), qd) - f (q - h * ((1:4) == j), qd)) / (2 * h);
%! fdv = @(f, j) (f (q, qd + h * ((1:4) == j)) - f (q, qd - h * ((1:4) == j))) / (2 * h);
%! % relative error against the largest entry of the reference (1 if it is all zero)
%! rel = @(a, b) max (abs (a(:) - b(:))) / max ([1; abs(b(:))]);

%!test
%! % sizes of the points-first layout
%! assert (size (out.L), [N, 1]);
%! assert (size (out.L_q), [N, 4]);
%! assert (size (out.L_qdot), [N, 4]);
%! assert (size (out.L_qq), [N, 4, 4]);
%! assert (size (out.L_qqdot), [N, 4, 4]);
%! assert (size (out.L_qdotqdot), [N, 4, 4]);
%! assert (size (out.g), [N, 2]);
%! assert (size (out.g_q), [N, 2, 4]);
%! assert (size (out.g_qdot), [N, 2, 4]);
%! assert (size (out.lg_qq), [N, 4, 4]);
%! assert (size (out.lg_qqdot), [N, 4, 4]);
%! assert (size (out.lg_qdotqdot), [N, 4, 4]);

%!test
%! % values at one point against the scalar formulas
%! k = 3;
%! x = q(k, 1); phi = q(k, 4);
%! xd = qd(k, 1); yd = qd(k, 2); thd = qd(k, 3); phd = qd(k, 4);
%! L = p.M / 2 * (xd ^ 2 + yd ^ 2) + p.IS / 2 * thd ^ 2 + p.ID / 2 * phd ^ 2 ...
%!     + p.M * p.g * x * sin (p.alpha);
%! assert (out.L(k), L, 1e-14);
%! assert (out.g(k, :), [xd ^ 2 + yd ^ 2 - p.R ^ 2 * thd ^ 2, xd * sin(phi) - yd * cos(phi)], 1e-14);
%! assert (out.lg_qqdot(k, 4, 1), lam(k, 2) * cos (phi), 1e-14);
%! assert (out.lg_qdotqdot(k, 1, 1), 2 * lam(k, 1), 1e-14);

%!test
%! % gradient of L and Jacobians of g against differences of L and g
%! fL = @(qq, vv) getfield (disk_handwritten (t, qq, vv, lam, p), 'L');
%! fg = @(qq, vv) getfield (disk_handwritten (t, qq, vv, lam, p), 'g');
%! for j = 1:4
%!   assert (rel (out.L_q(:, j), fdq (fL, j)) < tol);
%!   assert (rel (out.L_qdot(:, j), fdv (fL, j)) < tol);
%!   assert (rel (out.g_q(:, :, j), fdq (fg, j)) < tol);
%!   assert (rel (out.g_qdot(:, :, j), fdv (fg, j)) < tol);
%! end

%!test
%! % Hessian blocks of L against differences of its gradient
%! fLq = @(qq, vv) getfield (disk_handwritten (t, qq, vv, lam, p), 'L_q');
%! fLv = @(qq, vv) getfield (disk_handwritten (t, qq, vv, lam, p), 'L_qdot');
%! for j = 1:4
%!   assert (rel (out.L_qq(:, :, j), fdq (fLq, j)) < tol);
%!   assert (rel (out.L_qqdot(:, :, j), fdv (fLq, j)) < tol);
%!   assert (rel (out.L_qqdot(:, j, :), fdq (fLv, j)) < tol);
%!   assert (rel (out.L_qdotqdot(:, :, j), fdv (fLv, j)) < tol);
%! end

%!test
%! % Hessian blocks of lambda'*g against differences of the lambda-weighted gradient
%! wq = @(o) reshape (lam(:, 1) .* o.g_q(:, 1, :) + lam(:, 2) .* o.g_q(:, 2, :), N, 4);
%! wv = @(o) reshape (lam(:, 1) .* o.g_qdot(:, 1, :) + lam(:, 2) .* o.g_qdot(:, 2, :), N, 4);
%! fgq = @(qq, vv) wq (disk_handwritten (t, qq, vv, lam, p));
%! fgv = @(qq, vv) wv (disk_handwritten (t, qq, vv, lam, p));
%! for j = 1:4
%!   assert (rel (out.lg_qq(:, :, j), fdq (fgq, j)) < tol);
%!   assert (rel (out.lg_qqdot(:, :, j), fdv (fgq, j)) < tol);
%!   assert (rel (out.lg_qqdot(:, j, :), fdq (fgv, j)) < tol);
%!   assert (rel (out.lg_qdotqdot(:, :, j), fdv (fgv, j)) < tol);
%! end

%!test
%! % symmetric blocks are symmetric
%! assert (out.lg_qq, permute (out.lg_qq, [1 3 2]));
%! assert (out.lg_qdotqdot, permute (out.lg_qdotqdot, [1 3 2]));
%! assert (out.L_qdotqdot, permute (out.L_qdotqdot, [1 3 2]));

%!error <usage> disk_handwritten (1, 2, 3)
%!error <N x 4> disk_handwritten (0, zeros (2, 3), zeros (2, 4), zeros (2, 2), struct ())
