% -*- texinfo -*-
% @deftypefn {} {} march_vs_fixed_table (@var{rows})
% Print the rows of @code{march_vs_fixed} (with the fields name, rtol, atol and note added by
% the caller) as one table, then each row's ladder of fixed windows (N: error).
% @end deftypefn

function march_vs_fixed_table (rows)
  fprintf ('%-22s %7s %7s | %9s %8s %6s %10s | %7s %9s %8s %6s %2s | %7s %s\n', 'problem', ...
           'RelTol', 'AbsTol', 'err adapt', 'time [s]', 'Newton', 'win (rej)', 'fixed N', ...
           'err fixed', 'time [s]', 'Newton', 'ok', 'f/a', '(range)');
  for k = 1:numel (rows)
    w = rows(k);
    nf = sprintf ('%d', w.N_f);
    if (~w.reached)
      nf = ['>' nf];
    end
    fprintf ('%-22s %7.0e %7.0e | %9.2e %8.3f %6d %10s | %7s %9.2e %8.3f %6d %2d | %7.2f (%.2f-%.2f)%s\n', ...
             w.name, w.rtol, w.atol, w.err_a, w.t_a, w.it_a, ...
             sprintf ('%d (%d)', w.windows_a, w.rejected_a), nf, w.err_f, w.t_f, w.it_f, ...
             w.flag_f, w.ratio, w.ratio_range(1), w.ratio_range(2), note_str (w));
  end
  fprintf ('ladders (fixed N: error, * = reaches the adaptive error, ! = Newton did not converge, exitflag 0):\n');
  for k = 1:numel (rows)
    w = rows(k);
    L = sortrows (w.ladder, 1);
    s = '';
    for j = 1:rows_of (L)
      mark = '';
      if (L(j, 2) <= w.err_a && L(j, 4) == 1)
        mark = '*';
      end
      if (L(j, 4) ~= 1)
        mark = [mark '!'];
      end
      s = [s sprintf(' %d:%.1e%s', L(j, 1), L(j, 2), mark)]; %#ok<AGROW>
    end
    fprintf ('  %s %.0e:%s\n', w.name, w.rtol, s);
  end
end

function s = note_str (w)
  s = '';
  if (~w.reached)
    if (w.flag_f == 1)
      s = sprintf ('  NOT reached up to N = %d: best converged error %.2e at N = %d', ...
                   max (w.ladder(:, 1)), w.err_f, w.N_f);
    else
      s = sprintf ('  NOT reached up to N = %d: no fixed window converged (best iterate error %.2e at N = %d)', ...
                   max (w.ladder(:, 1)), w.err_f, w.N_f);
    end
  end
  if (isfield (w, 'note') && ~isempty (w.note))
    s = [s '  ' w.note];
  end
end

function n = rows_of (M)
  n = size (M, 1);
end
