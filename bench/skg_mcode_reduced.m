function f = skg_mcode_reduced (pr, x)
% SKG_MCODE_REDUCED  the reduced equations of the m-code peer: unknowns x = [q+; lambda+] per grid
% point (n + m values), q- = lambda- = 0; f = dS/dq-, dS/dlambda- (n + m per grid point), the same
% system as skg_solve's default 'reduced' mode.
  N = pr.N;  n = pr.n;  m = pr.m;  nb = pr.nb;
  X = reshape (x, n + m, N);
  Z = zeros (nb, N);
  Z(1:n, :) = X(1:n, :);
  Z(2*n+1:2*n+m, :) = X(n+1:n+m, :);
  g = reshape (skg_mcode_action (pr, Z(:)), nb, N);
  f = reshape (g([n+1:2*n, 2*n+m+1:2*n+2*m], :), [], 1);
end
