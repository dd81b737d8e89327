% -*- texinfo -*-
% @deftypefn {} {[@var{X0}, @var{t0}, @var{info}] =} po_guess (@var{word}, @var{tc}, @var{xc}, @var{w})
% A guess for the periodic orbit of itinerary @var{word} (a char row over A, B) from the upward
% section crossings of a long trajectory (@var{tc}, @var{xc}, @var{w} from @code{po_crossings}):
% the stretch of crossings k, ..., k + L - 1 whose symbols spell the word, L = numel (@var{word}),
% and whose next crossing k + L comes closest to crossing k.  Stretches after which the word
% repeats (symbols k to k + 2 L - 1 spell it twice, so that the trajectory shadows the orbit for
% two periods) are preferred; only without one is any stretch taken.
%
% Part of the shooting reference of @file{bench/po_shoot.m}: @var{X0} (n-by-L, the crossings
% k, ..., k + L - 1) and @var{t0} (1-by-L, the times between them) are its nodes and segment
% times.  @var{info} has the fields @code{k}, @code{dist} (|x(k + L) - x(k)|), @code{repeated}
% (true if the word repeats after the stretch) and @code{count} (the number of stretches found).
% Error: a word that does not occur in @var{w}, with the advice to integrate longer.
%
% Cost: O(numel (w) L).
% @end deftypefn

function [X0, t0, info] = po_guess (word, tc, xc, w)
  L = numel (word);
  K = numel (w) - L;               % crossing k + L must exist
  best = [Inf, Inf];               % the distances: repeated, any
  kb = [0, 0];
  cnt = 0;
  for k = 1:K
    if (~strcmp (w(k:k + L - 1), word))
      continue;
    end
    cnt = cnt + 1;
    d = norm (xc(:, k + L) - xc(:, k));
    rep = k + 2 * L - 1 <= numel (w) && strcmp (w(k + L:k + 2 * L - 1), word);
    if (rep && d < best(1))
      best(1) = d;
      kb(1) = k;
    end
    if (d < best(2))
      best(2) = d;
      kb(2) = k;
    end
  end
  if (cnt == 0)
    error ('po_guess: the word %s does not occur in the itinerary (%d crossings); integrate a longer trajectory', ...
           word, numel (w));
  end
  j = 2 - (kb(1) > 0);
  k = kb(j);
  X0 = xc(:, k:k + L - 1);
  t0 = diff (tc(k:k + L));
  info = struct ('k', k, 'dist', best(j), 'repeated', j == 1, 'count', cnt);
end
