% test_po_shoot.m -- the shooting reference of bench/ (po_shoot, po_flow, po_crossings, po_guess,
% po_words), written independently of the dual action so that periodic_orbit and its catalogue
% and continuation can be checked against it: the Lorenz periods it computes against Viswanath's
% published ones, its orbits close with the right itinerary, its multipliers obey Liouville, and
% the prime words it lists have the necklace counts.
%
% Lorenz (10, 28, 8/3), the section z = 27 crossed upward (z increasing), the symbol A where
% x < 0 and B where x > 0.  The guesses come from the itinerary of the trajectory from (1, 1, 1)
% over 100 time units after a transient of 10.
%
% The tolerances.  The reference is trusted to tol_ref = 1e-12 relative, and the first test
% asserts that its integration is that accurate: po.T_err = |T(H) - T(H/2)| is the whole error of
% T(H) up to a factor 1 + 2^-12 (order 12) and bounds that of T(H/2), which is returned, 4096
% times over; where it is below tol_ref T, the integration error is too.  Newton stops on steps
% below 1e-11 relative, which leaves an error of order their square.  Then:
% - the period:  |T - T_pub| <= tol_ref T + 5e-14, the second term the rounding of the published
%   13 decimals;
% - the closing: the node's error tol_ref max|x| grows at most by the leading multiplier mu1 over
%   one period, so the trajectory from the node returns to the section within mu1 tol_ref max|x|
%   of it, at the time T to within mu1 tol_ref T;
% - the multipliers: M is accurate to tol_ref |M| (relative to its norm), which moves the simple
%   eigenvalue 1 by at most kappa tol_ref |M|, kappa = 1/|l'r| its condition number (l, r the unit
%   left and right eigenvectors); det M_i has the relative error cond (M_i) tol_ref, and the
%   product of the dets equals exp (-(s + 1 + b) T) (div f = -(s + 1 + b)) to the sum of those.

%!shared f, J, sec, tc, xc, w, words, pub, sols, tol_ref
%! [f, J, sec] = po_lorenz ();
%! x = po_flow (f, [], [1; 1; 1], 10, 200);
%! [tc, xc, w] = po_crossings (f, x, 100, sec);
%! words = {'AB', 'AAB', 'AAAB', 'AABB'};
%! pub = [1.5586522107162, 2.3059072639399, 3.0235837034339, 3.0842767758221];   % Viswanath
%! tol_ref = 1e-12;
%! sols = cell (1, 4);
%! for k = 1:4
%!   [X0, t0] = po_guess (words{k}, tc, xc, w);
%!   sols{k} = po_shoot (f, J, X0, t0, sec);
%! end

%!test   % the itinerary of the trajectory: every crossing on z = 27 going up, with its symbol
%! assert (numel (w) > 100);
%! assert (abs (xc(3, :) - 27) <= 1e-12 * 27);
%! dz = f (xc);
%! assert (all (dz(3, :) > 0));
%! assert (w == 'A' + (xc(1, :) > 0));
%! assert (all (diff (tc) > 0));

%!test   % the published periods, and the integration as accurate as tol_ref says
%! for k = 1:4
%!   po = sols{k};
%!   assert (po.converged, words{k});
%!   assert (po.T_err <= tol_ref * po.T, words{k});
%!   assert (abs (po.T - pub(k)) <= tol_ref * po.T + 5e-14, sprintf ('%s: T = %.16g', words{k}, po.T));
%!   assert (abs (sum (po.t) - po.T) <= 4 * eps * po.T);
%!   assert (size (po.x), [3, numel(words{k})]);
%!   assert (abs (po.x(3, :) - 27) <= 1e-12 * 27);
%! end

%!test   % each orbit closes, and its crossings spell its word, starting with the node
%! for k = 1:4
%!   po = sols{k};
%!   word = words{k};
%!   tm = min (po.t);
%!   [t2, x2, w2] = po_crossings (f, po.x(:, 1), po.T + tm / 2, sec, 0.01);
%!   in = t2 > tm / 2;
%!   assert (w2(in), [word(2:end), word(1)]);
%!   assert (t2(in), cumsum (po.t), po.multipliers(1) * tol_ref * po.T);
%!   scale = max (abs (po.x(:)));
%!   assert (x2(:, in), po.x(:, [2:end, 1]), po.multipliers(1) * tol_ref * scale);
%! end

%!test   % the multipliers: one real unstable, the trivial one, Liouville
%! for k = 1:4
%!   po = sols{k};
%!   mu = po.multipliers;
%!   assert (isreal (mu(1)) && mu(1) > 1, words{k});
%!   [V, D, W] = eig (po.monodromy);
%!   [~, i1] = min (abs (diag (D) - 1));
%!   kappa = 1 / abs (W(:, i1)' * V(:, i1) / (norm (W(:, i1)) * norm (V(:, i1))));
%!   assert (abs (D(i1, i1) - 1) <= kappa * tol_ref * norm (po.monodromy), words{k});
%!   cm = 0;
%!   for i = 1:size (po.M, 3)
%!     cm = cm + cond (po.M(:, :, i));
%!   end
%!   assert (po.det, exp (-(10 + 1 + 8 / 3) * po.T), -cm * tol_ref);
%! end

%!test   % the prime words: the necklace counts (1/L) sum_{d|L} mobius(d) 2^(L/d)
%! [pw, count] = po_words (10);
%! assert (count, [2, 1, 2, 3, 6, 9, 18, 30, 56, 99]);
%! assert (sum (count(2:end)), 224);            % the Lorenz orbits up to length 10
%! for L = 1:10
%!   d = find (mod (L, 1:L) == 0);
%!   mob = zeros (size (d));
%!   for j = 1:numel (d)
%!     p = factor (d(j));
%!     mob(j) = (d(j) == 1) + (d(j) > 1) * (numel (unique (p)) == numel (p)) * (-1) ^ numel (p);
%!   end
%!   assert (count(L), sum (mob .* 2 .^ (L ./ d)) / L);
%! end
%! assert (numel (pw), sum (count));
%! assert (numel (unique (pw)), numel (pw));
%! assert (pw(1:8), {'A', 'B', 'AB', 'AAB', 'ABB', 'AAAB', 'AABB', 'ABBB'});
%! for i = 1:numel (pw)                        % prime, and the least of its rotations
%!   u = pw{i};
%!   L = numel (u);
%!   for s = 1:L - 1
%!     r = u([s + 1:L, 1:s]);
%!     assert (~strcmp (r, u), u);
%!     assert (issorted ({u, r}), u);
%!   end
%! end

%!test   % the guess is a stretch that spells the word; a word that is missing is refused with advice
%! [X0, t0, info] = po_guess ('AB', tc, xc, w);
%! assert (size (X0), [3, 2]);
%! assert (numel (t0), 2);
%! assert (info.count >= 1);
%! assert (w(info.k:info.k + 1), 'AB');

%!test   % the nodes chosen one by one (po_guess (..., 0)) give the same orbit
%! [X0, t0, info] = po_guess ('AAB', tc, xc, w, 0);
%! assert (numel (info.k), 3);
%! assert (w(info.k), 'AAB');
%! po = po_shoot (f, J, X0, t0, sec);
%! assert (po.converged);
%! assert (abs (po.T - pub(2)) <= tol_ref * po.T + 5e-14);

%!error <the word AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAB does not occur in the itinerary .* integrate a longer trajectory> ...
%! po_guess (['AAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', 'B'], [0 1 2], zeros (3, 3), 'ABA');
