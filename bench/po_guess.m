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
% fewer), for a second try where the first guess fails.  With @var{j} = 0 each node is chosen on
% its own, for words whose stretches do not return: node i is the crossing whose symbols before
% and after agree longest with the periodic itinerary around position i (the shorter agreement
% first); @code{info.k} then lists the L crossings and @code{info.count} is the shortest
% agreement.
% Error: a word that does not occur in @var{w}, with the advice to integrate longer.
%
% Cost: O(numel (w) L).
% @end deftypefn

function [X0, t0, info] = po_guess (word, tc, xc, w, j)
  if (nargin < 5)
    j = 1;
  end
  L = numel (word);
  if (j == 0)
    [X0, t0, info] = nodewise (word, tc, xc, w);
    return;
  end
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

function [X0, t0, info] = nodewise (word, tc, xc, w)
  % node i: the crossing whose symbols before and after agree longest with those of the
  % periodic itinerary around position i (the smaller of the two agreements, then their sum)
  L = numel (word);
  K = numel (w);
  cap = min (3 * L + 6, K - 1);
  X0 = zeros (size (xc, 1), L);
  t0 = zeros (1, L);
  ks = zeros (1, L);
  score = zeros (1, L);
  k = 1:K - 1;                          % the crossing k + 1 must exist (the segment's time)
  for i = 1:L
    fwd = zeros (1, K - 1);
    alive = true (1, K - 1);
    for j = 0:cap
      kk = k + j;
      ok = kk <= K;
      ok(ok) = w(kk(ok)) == word(mod (i - 1 + j, L) + 1);
      alive = alive & ok;
      fwd = fwd + alive;
    end
    bwd = zeros (1, K - 1);
    alive = true (1, K - 1);
    for j = 1:cap
      kk = k - j;
      ok = kk >= 1;
      ok(ok) = w(kk(ok)) == word(mod (i - 1 - j, L) + 1);
      alive = alive & ok;
      bwd = bwd + alive;
    end
    [~, o] = sortrows ([-min(fwd, bwd + 1); -(fwd + bwd)]');
    ks(i) = o(1);
    score(i) = min (fwd(o(1)), bwd(o(1)) + 1);
    X0(:, i) = xc(:, ks(i));
    t0(i) = tc(ks(i) + 1) - tc(ks(i));
  end
  if (score(1) == 0)
    error ('po_guess: the word %s does not occur in the itinerary (%d crossings); integrate a longer trajectory', ...
           word, K);
  end
  info = struct ('k', ks, 'dist', NaN, 'repeated', false, 'count', min (score));
end
