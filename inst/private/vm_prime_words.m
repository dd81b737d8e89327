% -*- texinfo -*-
% @deftypefn {} {[@var{words}, @var{count}] =} vm_prime_words (@var{L})
% The prime words over @{A, B@} of length 2 to @var{L}, one per rotation class: the Lyndon words
% (aperiodic, and smallest among their rotations with A < B), made by Duval's algorithm.  A
% periodic orbit crossing a section with two symbols has one of them as its itinerary: a word
% and its rotations are one orbit, a word and its mirror (A and B swapped) are two.  Length 1
% (A, B) is left out: on a two-wing attractor such as Lorenz's those itineraries are equilibria.
%
% @var{words}: a cell array of char rows, sorted by length and then alphabetically;
% @var{count}(k): the number of words of length k (count(1) = 0).  Cost: O(L) per word, about
% 2^(L+1)/L words.
% @end deftypefn

function [words, count] = vm_prime_words (L)
  words = {};
  w = 1;                                 % letters 1 (A) and 2 (B)
  while (~isempty (w))
    if (numel (w) >= 2)
      words{end + 1} = char ('A' + w - 1); %#ok<AGROW>
    end
    w = w(mod (0:L - 1, numel (w)) + 1); % the next: w repeated to length L,
    while (~isempty (w) && w(end) == 2)  % its trailing B's dropped,
      w(end) = [];
    end
    if (~isempty (w))
      w(end) = w(end) + 1;               % its last letter raised
    end
  end
  len = cellfun (@numel, words);
  [~, o] = sort (len);                   % stable: Duval's order is alphabetical
  words = words(o);
  count = accumarray (len(:), 1, [L, 1])';
end
