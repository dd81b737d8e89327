% -*- texinfo -*-
% @deftypefn {} {[@var{words}, @var{count}] =} po_words (@var{L})
% The prime words over @{A, B@} of length 1 to @var{L}, one per rotation class: the Lyndon words
% (aperiodic, and lexicographically smallest among their rotations), by Duval's algorithm.
%
% Part of the shooting reference of @file{bench/po_shoot.m}: a periodic orbit of a flow with a
% two-symbol section has one such word as its itinerary (a word and its rotations are one orbit;
% a word and its mirror, A and B swapped, are two).  On Lorenz the words of length 1, A and B,
% stand for the equilibria C- and C+ and are no orbits.
%
% @var{words} is a cell array of char rows, sorted by length and then alphabetically (A < B);
% @var{count}(k) the number of words of length k, the necklace number
% (1/k) sum over d | k of mobius(d) 2^(k/d).  Cost: O(L) per word, 2^(L+1)/L words in all.
% @end deftypefn

function [words, count] = po_words (L)
  words = {};
  w = 1;                               % letters 1 (A) and 2 (B)
  while (~isempty (w))
    words{end + 1} = char ('A' + w - 1); %#ok<AGROW>
    m = numel (w);
    w = w(mod (0:L - 1, m) + 1);        % the next word: repeat w to length L,
    while (~isempty (w) && w(end) == 2)  % strip the trailing last letters,
      w(end) = [];
    end
    if (~isempty (w))
      w(end) = w(end) + 1;             % and increment the last one
    end
  end
  len = cellfun (@numel, words);
  [~, o] = sortrows ([len(:), (1:numel (len))']);   % stable: Duval's order is alphabetical
  words = words(o);
  count = accumarray (len(:), 1, [L, 1])';
end
