% -*- texinfo -*-
% @deftypefn  {} {[@var{R}, @var{missing}] =} po_lorenz_table (@var{Lmax}, @var{tf})
% @deftypefnx {} {[@var{R}, @var{missing}] =} po_lorenz_table (@var{Lmax}, @var{tf}, @var{file})
% Every Lorenz (10, 28, 8/3) periodic orbit whose itinerary is a prime word of length 2 to
% @var{Lmax}, by the shooting reference @code{po_shoot}, each verified; with @var{file}, the
% table written there, one line per orbit as it is found (@file{bench/lorenz_periods.txt}, the
% reference for the catalogue's tests, holds the lines up to length 8 of
% @code{po_lorenz_table (10, 3000, @var{file})}).
%
% The section z = 27 crossed upward, the symbol A where x < 0 and B where x > 0; the guesses come
% from the crossings of the trajectory from (1, 1, 1) over @var{tf} time units after a transient
% of 10 (@code{po_crossings}, @code{po_guess}: the best stretch, then the nodes chosen one by one,
% then the second stretch).  An orbit is kept when (the bounds of
% @file{tests/octave/test_po_shoot.m}, tol_ref = 1e-12):
% Newton converged; T_err <= tol_ref T; the trajectory from its node crosses the section with
% the word's symbols and returns to the node within mu1 tol_ref max|x|; mu1 is real and above 1;
% the trivial multiplier is within kappa tol_ref |M| of 1; the product of the dets M_i equals
% exp (-(s + 1 + b) T) to (sum cond M_i) tol_ref.
%
% @var{Lmax} may also be a cell array of the words to find.
%
% @var{R}: a struct array with @code{word}, @code{T}, @code{T_err}, @code{x0} (the node where
% the word starts, on z = 27), @code{mu1} (the leading multiplier), @code{guess_dist}.
% @var{missing}: a cell array of words not found, each with its reason.  The file has one line
% per orbit: word, T, x0 (3 numbers), T_err, mu1 (%.17g), after comment lines starting with #.
% Cost: about 40 tf/0.05 evaluations for the trajectory, and a few seconds per orbit.
% @end deftypefn

function [R, missing] = po_lorenz_table (Lmax, tf, file)
  [f, J, sec] = po_lorenz ();
  tol_ref = 1e-12;
  x = po_flow (f, [], [1; 1; 1], 10, 200);
  [tc, xc, w] = po_crossings (f, x, tf, sec);
  if (iscell (Lmax))
    words = Lmax;
  else
    words = po_words (Lmax);
    words = words(cellfun (@numel, words) >= 2);
  end
  fid = -1;
  if (nargin >= 3)
    fid = fopen (file, 'w');
    fprintf (fid, '# Lorenz (s, r, b) = (10, 28, 8/3): periodic orbits by their prime word, section z = 27\n');
    fprintf (fid, '# crossed upward, symbol A where x < 0, B where x > 0.  Made by bench/po_lorenz_table.m\n');
    fprintf (fid, '# (multiple shooting, bench/po_shoot.m); each verified as its help says.\n');
    fprintf (fid, '# word T x0 y0 z0 T_err mu1   (x0 y0 z0: the orbit''s point on z = 27 where the word starts)\n');
    fclose (fid);
  end
  R = struct ('word', {}, 'T', {}, 'T_err', {}, 'x0', {}, 'mu1', {}, 'guess_dist', {});
  missing = {};
  for i = 1:numel (words)
    word = words{i};
    if (isempty (strfind (w(1:end - numel (word)), word)))
      missing{end + 1} = sprintf ('%s: not in the itinerary of %d crossings', word, numel (w)); %#ok<AGROW>
      fprintf ('%s\n', missing{end});
      continue;
    end
    why = '';
    for j = [1, 0, 2]                  % the best stretch, the nodes one by one, the next stretch
      [X0, t0, info] = po_guess (word, tc, xc, w, j);
      po = po_shoot (f, J, X0, t0, sec);
      why = verify (po, word, f, sec, tol_ref);
      if (isempty (why))
        break;
      end
    end
    if (~isempty (why))
      missing{end + 1} = sprintf ('%s: %s', word, why); %#ok<AGROW>
      fprintf ('%s\n', missing{end});
      continue;
    end
    R(end + 1) = struct ('word', word, 'T', po.T, 'T_err', po.T_err, 'x0', po.x(:, 1), ...
                         'mu1', po.multipliers(1), 'guess_dist', info.dist); %#ok<AGROW>
    if (fid >= 0)                      % written as found: a stopped run keeps what it has
      fid = fopen (file, 'a');
      fprintf (fid, '%s %.17g %.17g %.17g %.17g %.3g %.17g\n', word, po.T, po.x(:, 1), po.T_err, ...
               po.multipliers(1));
      fclose (fid);
    end
    fprintf ('%-10s T = %.15f  T_err %.1e  mu1 %.6g  (guess %d, distance %.2g)\n', word, po.T, ...
             po.T_err, po.multipliers(1), j, info.dist);
  end
end

function why = verify (po, word, f, sec, tol_ref)
  why = '';
  if (~po.converged)
    why = 'Newton did not converge';
    return;
  end
  if (po.T_err > tol_ref * po.T)
    why = sprintf ('T_err %.2g above %.0e T', po.T_err, tol_ref);
    return;
  end
  mu = po.multipliers;
  if (~isreal (mu(1)) || mu(1) <= 1)
    why = 'the leading multiplier is not real above 1';
    return;
  end
  tm = min (po.t);
  [t2, x2, w2] = po_crossings (f, po.x(:, 1), po.T + tm / 2, sec, 0.01);
  in = t2 > tm / 2;
  scale = max (abs (po.x(:)));
  if (~strcmp (w2(in), [word(2:end), word(1)]))
    why = sprintf ('its crossings spell %s', w2(in));
    return;
  end
  if (max (abs (t2(in) - cumsum (po.t))) > mu(1) * tol_ref * po.T || ...
      max (max (abs (x2(:, in) - po.x(:, [2:end, 1])))) > mu(1) * tol_ref * scale)
    why = 'the trajectory from the node does not return to it';
    return;
  end
  [V, D, W] = eig (po.monodromy);
  [~, i1] = min (abs (diag (D) - 1));
  kappa = 1 / abs (W(:, i1)' * V(:, i1) / (norm (W(:, i1)) * norm (V(:, i1))));
  if (abs (D(i1, i1) - 1) > kappa * tol_ref * norm (po.monodromy))
    why = sprintf ('the trivial multiplier is %.12g', D(i1, i1));
    return;
  end
  cm = 0;
  for i = 1:size (po.M, 3)
    cm = cm + cond (po.M(:, :, i));
  end
  liou = exp (-(10 + 1 + 8 / 3) * po.T);
  if (abs (po.det - liou) > cm * tol_ref * liou)
    why = sprintf ('det M = %.12g, Liouville %.12g', po.det, liou);
  end
end

