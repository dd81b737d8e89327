% Every help text that lists the SBP orders, or their smallest N, lists exactly the orders that
% csrc/sbp supports (vm_sbp_mex ('orders'), which asks csrc/sbp/sbp.h's one table).  Help texts
% are prose and cannot ask the table; this test holds them to it, so adding an order to the table
% fails here until every list in the help is updated.  A list is a run of three or more numbers
% that starts at the smallest order, on a comment line that mentions "order": "2, 4, 6 or 8",
% "2, 8, 12 and 16", "2, 4, 6, 8".

function [lists, bad] = test_sbp_orders_help ()
  [orders, nmin] = vm_sbp_mex ('orders');
  here = fileparts (mfilename ('fullpath'));
  files = dir (fullfile (here, '..', '..', 'inst', '*.m'));
  lists = 0;
  bad = {};
  for k = 1:numel (files)
    name = files(k).name;
    if (strncmp (name, 'vm_', 3))
      continue;
    end
    text = fileread (fullfile (files(k).folder, name));
    lines = strsplit (text, char (10));
    for j = 1:numel (lines)
      ln = lines{j};
      if (isempty (regexp (ln, '^\s*%', 'once')) || strncmp (strtrim (ln), '%!', 2) ...
          || isempty (strfind (lower (ln), 'order')))
        continue;
      end
      % "2, 4, 6 or 8", "2, 8, 12 and 16", "2, 4 (default), 6 or 8", or four or more numbers
      % separated by commas only ("2, 4, 6, 8")
      runs = [regexp(ln, '\d+(?: \(default\))?(?:, \d+(?: \(default\))?)*,? (?:or|and) \d+', 'match'), ...
              regexp(ln, '\d+(?:, \d+){3,}', 'match')];
      for r = 1:numel (runs)
        v = str2double (regexp (strrep (runs{r}, '(default)', ''), '\d+', 'match'));
        if (numel (v) < 3 || v(1) ~= orders(1))
          continue;   % not a list of orders or of their N: those start at the smallest, 2
        end
        lists = lists + 1;
        if (~(isequal (v, orders) || isequal (v, nmin)))
          bad{end + 1} = sprintf ('%s:%d: %s', name, j, strtrim (ln)); %#ok<AGROW>
        end
      end
    end
  end
end

%!test
%! [lists, bad] = test_sbp_orders_help ();
%! assert (lists >= 7);   % skg_solve, skg_action, dual_solve, periodic_orbit, sbp_operator (2), sbp_apply (2)
%! assert (bad, {});
