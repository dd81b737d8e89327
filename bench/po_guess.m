% -*- texinfo -*-
% @deftypefn  {} {[@var{X0}, @var{t0}, @var{info}] =} po_guess (@var{word}, @var{tc}, @var{xc}, @var{w})
% @deftypefnx {} {[@var{X0}, @var{t0}, @var{info}] =} po_guess (@var{word}, @var{tc}, @var{xc}, @var{w}, @var{j})
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
% @code{po_guess (@dots{}, @var{j})} takes the j-th stretch in that order (the last if there are
% fewer), for a second try where the first guess fails.
% Error: a word that does not occur in @var{w}, with the advice to integrate longer.
%
% Cost: O(numel (w) L).
% @end deftypefn

function [X0, t0, info] = po_guess (word, tc, xc, w, j)
  if (nargin < 5)
    j = 1;
  end
  L = numel (word);
  ks = strfind (w(1:end - L), word);   % crossing k + L must exist
  cnt = numel (ks);
  if (cnt == 0)
    error ('po_guess: the word %s does not occur in the itinerary (%d crossings); integrate a longer trajectory', ...
           word, numel (w));
  end
  d = sqrt (sum ((xc(:, ks + L) - xc(:, ks)) .^ 2, 1));
  rep = false (1, cnt);
  for i = 1:cnt
    rep(i) = ks(i) + 2 * L - 1 <= numel (w) && strcmp (w(ks(i) + L:ks(i) + 2 * L - 1), word);
  end
  [~, o] = sortrows ([~rep(:), d(:)]);
  i = o(min (j, cnt));
  k = ks(i);
  X0 = xc(:, k:k + L - 1);
  t0 = diff (tc(k:k + L));
  info = struct ('k', k, 'dist', d(i), 'repeated', rep(i), 'count', cnt);
end
