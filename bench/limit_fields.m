% -*- texinfo -*-
% @deftypefn {} {@var{v} =} limit_fields (@var{line})
% The "name value" pairs of a line printed by @file{bench/skg_limit.c} (SKGLIMIT ...) or
% @file{bench/dual_limit.c} (DUALLIMIT ...), the tag removed, as a struct of numbers (part (l) of
% @code{bench_skg} and @code{bench_dual}).
% @end deftypefn

function v = limit_fields (line)
  t = strsplit (strtrim (line), ' ');
  v = struct ();
  for k = 1:2:numel (t) - 1
    v.(t{k}) = str2double (t{k + 1});
  end
end
