% test_floquet.m -- Floquet multipliers of periodic_orbit to full relative accuracy, the tiny
% stable ones included (issue 44, item 4).  periodic_orbit integrates the variational equations
% over the period in pieces of moderate condition number and finds the eigenvalues of the
% product of the pieces' transfer matrices without forming it (inst/private/vm_periodic_eig.m,
% the product QR iteration); eig of the formed monodromy finds a multiplier only to about
% eps max |mu| absolute.
% (1) the kernel on products with known spectra: real multipliers spread over 20 decades, a
%     complex pair with a tiny real one, a double multiplier 1 (a block): each to
%     10 K eps max cond (F_k) relative (K factors, each exact to rounding);
% (2) Lorenz (10, 28, 8/3), orbit AB: the trivial multiplier within 1e-10 of 1, the product of
%     the multipliers within 1e-10 (relative) of exp (int div f dt) = exp (-(s + 1 + b) T) (div f
%     is constant), hence the stable one (about 1e-10) to 2e-10 relative of that over mu_1;
% (3) a limit cycle with known multipliers: r' = r (1 - r^2), theta' = 1 (orbit r = 1, T = 2 pi,
%     multiplier exp (-2 T)) and z' = -lam z (exp (-lam T), about 1e-30), in the coordinates
%     (x, y, w = z + x) that couple them: each multiplier to 1e-10 relative;
% (4) Van der Pol, mu = 1 and 3: the nontrivial multiplier (8.6e-4 and 7e-16) against
%     exp (int_0^T mu (1 - x^2) dt), the integral by the trapezoidal rule on the orbit's periodic
%     grid (exact to rounding for the orbit's trigonometric interpolant), to 1e-10 relative.
% The bound 1e-10 is the issue's; the integration runs at the default FlowTol 1e-12.

%!function varargout = peig (varargin)
%!  p = fullfile (fileparts (which ('periodic_orbit')), 'private');
%!  addpath (p);
%!  unwind_protect
%!    [varargout{1:nargout}] = vm_periodic_eig (varargin{:});
%!  unwind_protect_cleanup
%!    rmpath (p);
%!  end_unwind_protect
%!endfunction

%!function [F, tol] = factors (B)
%!  % K = 12 factors S_(k+1) B^(1/K) S_k^(-1) with S_(K+1) = S_1 (deterministic, well conditioned),
%!  % whose product is S_1 B S_1^(-1); tol = 10 K eps max cond (F_k)
%!  n = size (B, 1);
%!  K = 12;
%!  Bk = real (expm (logm (B) / K));
%!  S = cell (1, K + 1);
%!  for k = 1:K
%!    [i, j] = ndgrid (1:n, 1:n);
%!    S{k} = eye (n) + 0.4 * sin (3 * k + 2 * i + 5 * j);
%!  end
%!  S{K + 1} = S{1};
%!  F = zeros (n, n, K);
%!  c = 0;
%!  for k = 1:K
%!    F(:, :, k) = S{k + 1} * Bk / S{k};
%!    c = max (c, cond (F(:, :, k)));
%!  end
%!  tol = 10 * K * eps * c;
%!endfunction

%!test
%! % (1) real multipliers 5, 1, 1e-20: each to tol relative, largest first
%! mu = [5; 1; 1e-20];
%! [F, tol] = factors (diag (mu));
%! [m, info] = peig (F);
%! assert (isreal (m));
%! assert (abs (m - mu) ./ mu <= tol);
%! assert (info.split, [true true]);
%! % the formed product loses the smallest entirely
%! M = F(:, :, end);
%! for k = size (F, 3) - 1:-1:1
%!   M = M * F(:, :, k);
%! end
%! e = sort (abs (eig (M)), 'descend');
%! assert (abs (e(3) - mu(3)) / mu(3) > 1);

%!test
%! % (1) a complex pair 2 exp (+-0.7 i), a real 1 and 1e-25: the pair from its 2-by-2 block
%! th = 0.7;
%! B = blkdiag (2 * [cos(th), -sin(th); sin(th), cos(th)], 1, 1e-25);
%! mu = [2 * exp(1i * th); 2 * exp(-1i * th); 1; 1e-25];
%! [F, tol] = factors (B);
%! [m, info] = peig (F);
%! assert (abs (m(1:2)) >= abs (m(3)));
%! assert (sort (imag (m(1:2))), [-1; 1] * 2 * sin (th), 2 * tol);
%! assert (real (m(1:2)), [1; 1] * 2 * cos (th), 2 * tol);
%! assert (abs (m(3:4) - mu(3:4)) ./ abs (mu(3:4)) <= tol);
%! assert (info.blocks{1}, [1 2]);

%!test
%! % (1) a double multiplier 1 (a Jordan block, as for a conservative orbit) and 1e-12: the pair
%! % from a block, to sqrt of rounding (a Jordan block's eigenvalues split by the square root of
%! % a perturbation), the small one to tol
%! B = [1 1 0; 0 1 0; 0 0 1e-12];
%! [F, tol] = factors (B);
%! m = peig (F);
%! assert (abs (m(1:2) - 1) <= sqrt (tol));
%! assert (abs (m(3) - 1e-12) / 1e-12 <= tol);

%!error <F must be real, finite and n-by-n-by-K> peig (ones (2, 3))
%!error <F must be real, finite and n-by-n-by-K> peig (NaN (2, 2, 2))

%!test
%! % (2) Lorenz, orbit AB (the 2-loop candidate from (1, 1, 1) over 300)
%! s = 10;  r = 28;  b = 8 / 3;
%! lor = odesys ('states', {'x', 'y', 'z'}, 'parameters', struct ('s', s, 'r', r, 'b', b), ...
%!               'rhs', {'s*(y - x)', 'x*(r - z) - y', 'x*y - b*z'});
%! c = periodic_guesses (lor, [1 1 1], 300);
%! c = c([c.loops] == 2);
%! sol = periodic_orbit (lor, c(1));
%! assert (sol.exitflag, 1);
%! assert (abs (sol.T - 1.5586522107162) <= 1e-10 * sol.T);
%! mu = sol.floquet;
%! assert (isreal (mu) && numel (mu) == 3);
%! assert (abs (mu(2) - 1) <= 1e-10);
%! ex = exp (-(s + 1 + b) * sol.T);
%! assert (abs (prod (mu) - ex) <= 1e-10 * ex);
%! assert (abs (mu(3) - ex / mu(1)) <= 2e-10 * ex / mu(1));
%! % the monodromy (the product of the pieces) has these eigenvalues, to its own accuracy
%! assert (sort (abs (eig (sol.monodromy)), 'descend'), abs (mu), 1e-10 * mu(1));

%!test
%! % (3) r' = r (1 - r^2), theta' = 1, z' = -lam z, coupled by w = z + x
%! lam = 11;
%! sys = odesys ('states', {'x', 'y', 'w'}, 'parameters', struct ('lam', lam), 'rhs', ...
%!   {'x*(1 - x^2 - y^2) - y', 'y*(1 - x^2 - y^2) + x', '-lam*(w - x) + x*(1 - x^2 - y^2) - y'});
%! t = linspace (0, 6.4, 50)';
%! a = 2 * pi * t / 6.4;
%! sol = periodic_orbit (sys, t, [1.05 * cos(a), sin(a), cos(a) + 0.01 * sin(a)]);
%! assert (sol.exitflag, 1);
%! assert (abs (sol.T - 2 * pi) <= 1e-10 * 2 * pi);
%! ref = [1; exp(-2 * sol.T); exp(-lam * sol.T)];
%! assert (ref(3) < 1e-29);
%! assert (abs (sol.floquet - ref) ./ ref <= 1e-10);

%!test
%! % (4) Van der Pol: the nontrivial multiplier is exp (int div f dt), div f = mu (1 - x^2)
%! for mu = [1 3]
%!   vdp = odesys ('states', {'x', 'v'}, 'parameters', struct ('mu', mu), ...
%!                 'rhs', {'v', 'mu*(1 - x^2)*v - x'});
%!   c = periodic_guesses (vdp, [2 0], 60);
%!   sol = periodic_orbit (vdp, c(1));
%!   assert (sol.exitflag, 1);
%!   N = size (sol.y, 1) - 1;
%!   ex = exp (sol.T * mean (mu * (1 - sol.y(1:N, 1).^2)));
%!   assert (abs (sol.floquet(1) - 1) <= 1e-10);
%!   assert (abs (sol.floquet(2) - ex) <= 1e-10 * ex);
%! end
