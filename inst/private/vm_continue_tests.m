% -*- texinfo -*-
% @deftypefn {} {[phi, mu] =} vm_continue_tests (M, f)
% The test functions of the special points of a branch of periodic orbits, from the monodromy
% matrix @var{M} (n-by-n) of an orbit and the vector field @var{f} (n-by-1) at its first point
% (the eigenvector of the trivial multiplier 1: M f = f).
%
% The trivial multiplier is removed exactly by passing to the quotient by f: with Q an
% orthonormal basis of the complement of f, M in the basis [f/|f|, Q] is [1, *; 0, A] with
% A = Q' M Q, whose n - 1 eigenvalues @var{mu} (the nontrivial multipliers, those of the
% Poincare map) are returned.  Near a fold, where the trivial and the fold's multiplier form a
% Jordan block of M and eig (M) splits them by the square root of the error, the fold's
% multiplier is a simple eigenvalue of A.
%
% @var{phi} = [det(A - I), det(A + I), prod_(i<j) (mu_i mu_j - 1)] (real): the first changes
% sign where a multiplier passes through +1 (a fold), the second through -1 (a period
% doubling), the third where a complex pair crosses the unit circle (a torus bifurcation; also
% at a neutral saddle, two real multipliers with product 1, which the caller tells apart); NaN
% for the third when n < 3.  Cost O(n^3).
% @end deftypefn

function [phi, mu] = vm_continue_tests (M, f)
  n = size (M, 1);
  [Q, ~] = qr (f / norm (f));
  Q = Q(:, 2:n);
  A = Q' * M * Q;
  mu = eig (A);
  [~, k] = sort (abs (mu), 'descend');
  mu = mu(k);
  phi = [det(A - eye (n - 1)), det(A + eye (n - 1)), NaN];
  if (n >= 3)
    P = mu * mu.';
    phi(3) = real (prod (P(triu (true (n - 1), 1)) - 1));
  end
end
