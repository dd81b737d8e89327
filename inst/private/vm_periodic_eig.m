% -*- texinfo -*-
% @deftypefn {} {[mu, info] =} vm_periodic_eig (F)
% @deftypefnx {} {[mu, info] =} vm_periodic_eig (F, Q0)
% The eigenvalues of the product M = F(:,:,K) * ... * F(:,:,2) * F(:,:,1) of K real n-by-n
% factors, without forming M, each to the relative accuracy of the factors: the multipliers of
% a monodromy given by its transfer matrices over K pieces of a period.
%
% Why: eig of the formed product finds an eigenvalue mu only to about eps ||M|| absolute, so
% the small ones of a product with a large spread (the stable Floquet multipliers of a chaotic
% flow) are lost; on the factors, each eigenvalue is found to about eps (or the factors' own
% relative error) times the factors' condition numbers, relative to itself.
%
% Method: the orthogonal (product QR) iteration on the factors, the periodic QR algorithm's
% simultaneous iteration (Bojanczyk, Golub and Van Dooren 1992; the discrete QR method for
% Lyapunov exponents).  One sweep from an orthogonal Q: F(:,:,k) Q_(k-1) = Q_k R_k (QR, diag of
% R_k made positive), k = 1..K, with Q_0 = Q; then M Q = Q_K R_K ... R_1, so
% Z' (Q' M Q) = R_K ... R_1 with Z = Q' Q_K.  Q_K is the next sweep's Q.  The leading j columns
% of Q converge to the invariant subspace of the j eigenvalues of largest modulus at the rate
% |mu_(j+1) / mu_j| per sweep; the lower-left j-by-(n-j) block of Z (its norm s_j) measures the
% remaining error.  Converged Z is block upper triangular with diagonal blocks 1-by-1 (+-1, a
% real eigenvalue) or larger (eigenvalues of equal modulus: a complex pair, a Jordan block):
% a real eigenvalue is mu_i = Z(i,i) prod_k R_k(i,i), a product of the factors' own diagonals
% (relative accuracy); a block I has the eigenvalues of Z(I,I) R_K(I,I) ... R_1(I,I), formed
% explicitly (with a running scale against overflow), whose eigenvalues are of similar modulus,
% so forming it loses accuracy only relative to the block's own size.  The first Q is Q0, or
% (default) an orthonormal basis of the eigenvectors of the formed product sorted by modulus
% (real and imaginary parts for a complex pair), which is already near the limit for the
% leading directions; sweeps go on while some s_j above 8 n eps still falls (at most 500).
% The product is split at j (into blocks) where s_j <= sqrt (eps) at the end.
%
% Output: mu (n-by-1, largest modulus first; complex only when M has complex eigenvalues),
% info.sweeps, info.split (1-by-(n-1) logical: split after j), info.s (the s_j),
% info.blocks (a cell of index vectors).  Cost: sweeps times K QR factorizations of n-by-n
% (O(sweeps K n^3)).  Errors: F must be real, finite, n-by-n-by-K (an internal error
% otherwise: the caller builds F).
% @end deftypefn

function [mu, info] = vm_periodic_eig (F, Q0)
  if (~isreal (F) || ndims (F) > 3 || size (F, 1) ~= size (F, 2) || ~all (isfinite (F(:))))
    error ('varmech:vm_periodic_eig:badarg', ...
           'vm_periodic_eig: internal: F must be real, finite and n-by-n-by-K');
  end
  n = size (F, 1);
  K = size (F, 3);
  if (nargin < 2 || isempty (Q0))
    Q0 = start_basis (F);
  end
  Q = Q0;
  tiny = 8 * n * eps;
  maxsweeps = 500;
  s = Inf (1, max (n - 1, 0));
  hist = zeros (0, numel (s));
  R = zeros (n, n, K);
  sweeps = 0;
  while (true)
    [Qk, R] = sweep (F, Q);
    Z = Q' * Qk;
    sweeps = sweeps + 1;
    s = lower_norms (Z);
    hist(end + 1, :) = s; %#ok<AGROW>
    Q = Qk;
    if (all (s <= tiny) || sweeps >= maxsweeps || ~falling (hist, tiny))
      break;
    end
  end
  % the last sweep's Q and factors: Z relates its first and last Q
  [Qk, R] = sweep (F, Q);
  Z = Q' * Qk;
  s = lower_norms (Z);
  split = s <= sqrt (eps);
  edges = [0, find(split), n];
  blocks = cell (1, numel (edges) - 1);
  mu = zeros (n, 1);
  for b = 1:numel (blocks)
    I = edges(b) + 1:edges(b + 1);
    blocks{b} = I;
    if (numel (I) == 1)
      mu(I) = Z(I, I) * prod (R(I, I, :));
    else
      mu(I) = block_eig (Z(I, I), R(I, I, :));
    end
  end
  [~, idx] = sort (abs (mu), 'descend');
  mu = mu(idx);
  info = struct ('sweeps', sweeps + 1, 'split', split, 's', s, 'blocks', {blocks});
end

% one sweep of the product QR from Q: the factors' triangles R(:,:,k) and the last Q
function [Q, R] = sweep (F, Q)
  [n, ~, K] = size (F);
  R = zeros (n, n, K);
  for k = 1:K
    [Q, Rk] = qr (F(:, :, k) * Q);
    d = sign (diag (Rk));
    d(d == 0) = 1;
    Q = Q .* repmat (d', n, 1);
    R(:, :, k) = Rk .* repmat (d, 1, n);
  end
end

% s_j = norm of Z(j+1:n, 1:j), j = 1..n-1
function s = lower_norms (Z)
  n = size (Z, 1);
  s = zeros (1, max (n - 1, 0));
  for j = 1:n - 1
    s(j) = norm (Z(j + 1:n, 1:j), 'fro');
  end
end

% true while some s_j above tiny fell by at least half over the last 5 sweeps (or fewer than 6
% sweeps were made)
function tf = falling (hist, tiny)
  m = size (hist, 1);
  if (m < 6)
    tf = true;
    return;
  end
  cur = hist(m, :);
  before = hist(m - 5, :);
  tf = any (cur > tiny & cur <= 0.5 * before);
end

% the eigenvalues of Z R_K ... R_1 on a block, the product formed with a running scale
function e = block_eig (Z, R)
  m = size (Z, 1);
  P = eye (m);
  lsc = 0;
  for k = 1:size (R, 3)
    P = R(:, :, k) * P;
    c = norm (P, 1);
    if (c > 0)
      P = P / c;
      lsc = lsc + log (c);
    end
  end
  e = eig (Z * P) * exp (lsc);
end

% an orthonormal basis whose leading j columns approximate the span of the j eigenvectors of
% largest modulus of the formed (scaled) product; the identity if that is not finite
function Q = start_basis (F)
  [n, ~, K] = size (F);
  P = eye (n);
  for k = 1:K
    P = F(:, :, k) * P;
    c = norm (P, 1);
    if (c > 0)
      P = P / c;
    end
  end
  Q = eye (n);
  if (~all (isfinite (P(:))))
    return;
  end
  [V, D] = eig (P);
  [~, idx] = sort (abs (diag (D)), 'descend');
  V = V(:, idx);
  W = zeros (n);
  j = 1;
  while (j <= n)
    if (j < n && ~isreal (V(:, j)) && abs (imag (D(idx(j), idx(j)))) > 0)
      W(:, j) = real (V(:, j));
      W(:, j + 1) = imag (V(:, j));
      j = j + 2;
    else
      W(:, j) = real (V(:, j));
      j = j + 1;
    end
  end
  [Qw, ~] = qr (W);
  if (all (isfinite (Qw(:))))
    Q = Qw;
  end
end
