% -*- texinfo -*-
% @deftypefn {} {@var{res} =} vm_catalogue_chunk (@var{ode}, @var{marks}, @var{words}, @var{itin}, @var{opts}, @var{file}, @var{key})
% One chunk of @code{periodic_catalogue}: the orbits of @var{words} one by one
% (@code{vm_catalogue_word}), a struct array in their order; with a @var{file} name (not ''),
% written there with @var{key} (the catalogue's identity) when the chunk ends, under a temporary
% name first and then renamed, so that a stopped run leaves no chunk file half written.  With
% "Display" "iter" a line per word.  A function of its own (not a subfunction) because
% @code{parcellfun} runs it in another process.  Cost: the words' solves.
% @end deftypefn

function res = vm_catalogue_chunk (ode, marks, words, itin, opts, file, key)
  res = cell (1, numel (words));
  for j = 1:numel (words)
    res{j} = vm_catalogue_word (ode, marks, words{j}, itin, opts);
    if (strcmp (opts.Display, 'iter'))
      if (res{j}.exitflag == 1)
        line = sprintf ('T = %.13f', res{j}.T);
      else
        line = res{j}.message;
      end
      fprintf ('%-12s %s  (%.1f s)\n', words{j}, line, res{j}.time);
    end
  end
  res = [res{:}];
  if (~isempty (file))
    tmp = [file '.part'];
    save ('-v7', tmp, 'res', 'key');
    movefile (tmp, file, 'f');
  end
end
