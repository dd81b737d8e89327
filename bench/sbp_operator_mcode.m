function [D, H, Q, coef] = sbp_operator_mcode (N, order, tspan)
% -*- texinfo -*-
% @deftypefn  {} {[@var{D}, @var{H}, @var{Q}] =} sbp_operator_mcode (@var{N}, @var{order}, @var{tspan})
% @deftypefnx {} {[@var{D}, @var{H}, @var{Q}, @var{coef}] =} sbp_operator_mcode (@dots{})
% Plain vectorized m-code builder of the diagonal-norm SBP first-derivative
% operator (benchmark peer and cross-check of @code{sbp_operator}).
%
% The grid is t_k = t0 + (k-1) h, h = (tf - t0) / (N - 1), k = 1..N, with
% @var{tspan} = [t0, tf] (default [0, 1]).  @var{order} is the interior order
% 2, 4, 6 or 8 (boundary order @var{order}/2).  Minimum @var{N} is 2, 8, 12, 16.
%
% @var{Q} is sparse with Q + Q' = diag (-1, 0, @dots{}, 0, 1), @var{H} is the
% sparse diagonal norm (quadrature weights, includes h) and D = H \ Q.
% The interior bands of Q are laid down with @code{spdiags}; the two
% nb x nb corner blocks (nb = 1, 4, 6, 8) are then corrected with one sparse
% update.  The right corner is the mirror of the left one:
% Q(N+1-i, N+1-j) = -Q(i,j), H weights reversed.
%
% The optional fourth output @var{coef} is a struct with fields
% @code{w} (boundary H weights), @code{c} (interior stencil c_1..c_width,
% Q(i,i+d) = c_d), @code{qb} (nb x nb boundary block of Q for h = 1),
% @code{nb}, @code{h}, @code{t0}.
%
% Coefficients: csrc/sbp/sbp_tables.h (Mattsson & Nordstrom 2004; order 8 with
% the free parameters of doc/sbp.md), copied here with 17 significant
% digits.
% @end deftypefn

  if nargin < 2 || nargin > 3
    error ('sbp_operator_mcode: usage: [D, H, Q] = sbp_operator_mcode (N, order, [t0 tf])');
  end
  if nargin < 3 || isempty (tspan)
    tspan = [0, 1];
  end
  if ~isscalar (order) || ~isnumeric (order)
    error ('sbp_operator_mcode: ORDER must be 2, 4, 6 or 8');
  end
  if ~isnumeric (tspan) || numel (tspan) ~= 2 || ~all (isfinite (tspan)) || tspan(2) <= tspan(1)
    error ('sbp_operator_mcode: TSPAN must be [t0 tf] with finite t0 < tf');
  end

  switch order
    case 2
      w = [0.5];
      c = [0.5];
      qb = [-0.5];
    case 4
      w = [0.35416666666666669, 1.2291666666666667, 0.89583333333333337, 1.0208333333333333];
      c = [0.66666666666666663, -0.083333333333333329];
      qb = [ ...
            -0.5, 0.61458333333333337, -0.083333333333333329, -0.03125; ...
            -0.61458333333333337, 0, 0.61458333333333337, 0; ...
            0.083333333333333329, -0.61458333333333337, 0, 0.61458333333333337; ...
            0.03125, 0, -0.61458333333333337, 0];
    case 6
      w = [0.31594907407407408, 1.3903935185185186, 0.62754629629629632, 1.2405092592592593, ...
           0.91168981481481481, 1.0139120370370371];
      c = [0.75, -0.14999999999999999, 0.016666666666666666];
      qb = [ ...
            -0.5, 0.60190393518518515, 0.11744984567901234, -0.3855439814814815, ...
            0.19517361111111112, -0.028983410493827161; ...
            -0.60190393518518515, 0, -0.0059992283950617287, 1.1706597222222221, ...
            -0.70419560185185182, 0.14143904320987655; ...
            -0.11744984567901234, 0.0059992283950617287, 0, -0.43036265432098764, ...
            0.79643132716049381, -0.25461805555555556; ...
            0.3855439814814815, -1.1706597222222221, 0.43036265432098764, 0, ...
            0.23998842592592592, 0.098097993827160487; ...
            -0.19517361111111112, 0.70419560185185182, -0.79643132716049381, -0.23998842592592592, ...
            0, 0.66073109567901234; ...
            0.028983410493827161, -0.14143904320987655, 0.25461805555555556, -0.098097993827160487, ...
            -0.66073109567901234, 0];
    case 8
      w = [0.29489067617787856, 1.5257206238977072, 0.257452876984127, 1.7981137014991182, ...
           0.41270805776014108, 1.2784846230158731, 0.92329557980599652, 1.0093338608591584];
      c = [0.80000000000000004, -0.20000000000000001, 0.038095238095238099, -0.0035714285714285713];
      qb = [ ...
            -0.5, 0.66097578782879818, -0.0037651574357520784, -0.23498817198181743, ...
            -0.00079521946334089192, 0.11854005205026455, -0.036661373755144035, -0.0033059172430083142; ...
            -0.66097578782879818, 0, 0.11369052505291005, 0.82418105820105825, ...
            -0.11669793739711934, -0.24286967457671957, 0.071766194179894174, 0.010905622368774671; ...
            0.0037651574357520784, -0.11369052505291005, 0, -0.078411928439153442, ...
            0.43896350152116403, -0.37866731071428572, 0.15242600190476191, -0.024384896655328798; ...
            0.23498817198181743, -0.82418105820105825, 0.078411928439153442, 0, ...
            -0.31691017956349204, 1.3011775604497355, -0.54162878057025277, 0.068142357464096748; ...
            0.00079521946334089192, 0.11669793739711934, -0.43896350152116403, 0.31691017956349204, ...
            0, -0.30719344768518519, 0.41953003776455028, -0.10420499641072478; ...
            -0.11854005205026455, 0.24286967457671957, 0.37866731071428572, -1.3011775604497355, ...
            0.30719344768518519, 0, 0.51482342000000003, -0.058360049999999997; ...
            0.036661373755144035, -0.071766194179894174, -0.15242600190476191, 0.54162878057025277, ...
            -0.41953003776455028, -0.51482342000000003, 0, 0.74573168999999995; ...
            0.0033059172430083142, -0.010905622368774671, 0.024384896655328798, -0.068142357464096748, ...
            0.10420499641072478, 0.058360049999999997, -0.74573168999999995, 0];
    otherwise
      error ('sbp_operator_mcode: ORDER must be 2, 4, 6 or 8');
  end

  nb = numel (w);
  width = numel (c);
  nmin = max (2, 2 * nb);
  if ~isscalar (N) || ~isnumeric (N) || N ~= fix (N) || N < nmin
    error ('sbp_operator_mcode: N must be an integer >= %d for order %d', nmin, order);
  end

  t0 = tspan(1);
  h = (tspan(2) - t0) / (N - 1);

  % Interior bands: Q(i,i+d) = c_d, Q(i,i-d) = -c_d, d = 1..width.
  d = [-(width:-1:1), 1:width];
  Q = spdiags (repmat ([-c(end:-1:1), c], N, 1), d, N, N);

  % Corner correction: replace the band values inside the nb x nb corner
  % blocks by the boundary closure (left) and its mirror (right).
  [jj, ii] = meshgrid (1:nb, 1:nb);
  off = jj - ii;
  band = zeros (nb, nb);
  for k = 1:width            % width <= 4 band offsets, not a loop per entry
    band(off == k) = c(k);
    band(off == -k) = -c(k);
  end
  corr = qb - band;
  m = corr ~= 0;
  ii = ii(m);  jj = jj(m);  v = corr(m);
  Q = Q + sparse ([ii; N + 1 - ii], [jj; N + 1 - jj], [v; -v], N, N);

  hw = h * ones (N, 1);
  hw(1:nb) = h * w(:);
  hw(N - nb + 1:N) = h * w(end:-1:1).';
  H = spdiags (hw, 0, N, N);
  D = spdiags (1 ./ hw, 0, N, N) * Q;

  if nargout > 3
    coef = struct ('w', w, 'c', c, 'qb', qb, 'nb', nb, 'h', h, 't0', t0);
  end
end
