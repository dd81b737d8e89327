% test_option_schema.m -- every public function's help text against the options' schema
% (csrc/base/vm_schema.c, read through vm_options_mex): the options listed by the @item lines of
% its option table are exactly the schema's options of the function, and each option whose
% default is a number or a word is documented with it ("default 1e-6", "(default 50)", or, for a
% row of names, "defaults 1e-6 and 1e-8").  A function whose help has no option table is held in
% its prose: every option name appears quoted.  (gauss_integrate's options are converted by its
% own gateway, mex/vm_integrate_mex.c, from the same table.)

%!function txt = help_of (fn)
%!  % the leading comment block of inst/FN.m, without the comment signs
%!  lines = strsplit (fileread (which (fn)), "\n");
%!  k = 1;
%!  while (k <= numel (lines) && (isempty (lines{k}) || lines{k}(1) ~= '%'))
%!    k = k + 1;
%!  end
%!  txt = {};
%!  while (k <= numel (lines) && ~isempty (lines{k}) && lines{k}(1) == '%')
%!    txt{end + 1} = regexprep (lines{k}, '^% ?', '');
%!    k = k + 1;
%!  end
%!endfunction

%!function [names, paras] = option_items (txt, known)
%!  % the quoted names of the top-level @item lines of the "@table @asis" that lists most of the
%!  % option names known (a help may have other tables of quoted words), and each item's
%!  % paragraph (its @item line and the text up to the next item)
%!  names = {};  paras = {};
%!  depth = 0;  inside = false;  cur = '';  curn = {};  tn = {};  tp = {};
%!  for k = 1:numel (txt)
%!    l = txt{k};
%!    if (strncmp (l, '@table', 6))
%!      depth = depth + 1;
%!      if (depth == 1)
%!        inside = strncmp (l, '@table @asis', 12);  cur = '';  curn = {};  tn = {};  tp = {};
%!      end
%!    elseif (strncmp (l, '@end table', 10))
%!      depth = depth - 1;
%!      if (depth == 0 && inside)
%!        [tn, tp] = flush (tn, tp, curn, cur);
%!        if (numel (intersect (tn, known)) > numel (intersect (names, known)))
%!          names = tn;  paras = tp;
%!        end
%!        inside = false;
%!      end
%!    elseif (inside && depth == 1 && strncmp (l, '@item ', 6))
%!      [tn, tp] = flush (tn, tp, curn, cur);
%!      curn = regexp (l, '"(\w+)"', 'tokens');
%!      curn = cellfun (@(c) c{1}, curn, 'UniformOutput', false);
%!      cur = l;
%!    elseif (inside)
%!      cur = [cur ' ' l];
%!    end
%!  end
%!endfunction

%!function [names, paras] = flush (names, paras, curn, cur)
%!  for j = 1:numel (curn)
%!    names{end + 1} = curn{j};
%!    paras{end + 1} = cur;
%!  end
%!endfunction

%!function s = shown (v)
%!  % a default as a help text writes it: 1e-6, 100000, 0.02, off
%!  if (ischar (v))
%!    s = v;
%!  else
%!    s = regexprep (sprintf ('%.15g', v), 'e([+-])0*(\d)', 'e$1$2');
%!    s = regexprep (s, 'e\+', 'e');
%!  end
%!endfunction

%!function ok = mentions_default (para, v)
%!  % the paragraph says "default" and shows v as a token of its own
%!  s = regexptranslate ('escape', shown (v));
%!  ok = ~isempty (regexp (para, 'default', 'once')) ...
%!       && ~isempty (regexp (para, ['(?<![\w.\-])' s '(?![\w.])'], 'once'));
%!  if (~ok && ~ischar (v) && abs (v - 8/3) < 1e-15)
%!    ok = ~isempty (strfind (para, '8/3'));
%!  end
%!endfunction

%!test
%! % the schema describes every public function that takes options, and only those
%! fns = vm_options_mex ('functions');
%! assert (sort (fns), sort ({'skg_solve', 'dual_solve', 'dual_lorenz', 'dual_pars', ...
%!   'dual_action', 'gauss_integrate', 'mechsys', 'mechsys_eval', 'odesys', 'odesys_eval', 'periodic_catalogue', ...
%!   'periodic_guesses', 'periodic_orbit', 'periodic_continue', 'varmech_plot'}));

%!test
%! % every help text's option list holds against the schema: names and defaults
%! fns = vm_options_mex ('functions');
%! bad = {};
%! for f = fns
%!   rows = vm_options_mex ('schema', f{1});
%!   txt = help_of (f{1});
%!   [names, paras] = option_items (txt, {rows.name});
%!   if (isempty (names))
%!     % no option table: each option named in the prose
%!     prose = strjoin (txt, ' ');
%!     for r = rows'
%!       if (isempty (strfind (prose, ['"' r.name '"'])))
%!         bad{end + 1} = sprintf ('%s: option %s is not in its help', f{1}, r.name);
%!       end
%!     end
%!     continue;
%!   end
%!   extra = setdiff (names, {rows.name});
%!   missing = setdiff ({rows.name}, names);
%!   for e = extra
%!     bad{end + 1} = sprintf ('%s: help item "%s" is not in the schema', f{1}, e{1});
%!   end
%!   for e = missing
%!     bad{end + 1} = sprintf ('%s: option %s has no help item', f{1}, e{1});
%!   end
%!   for r = rows'
%!     v = r.default;
%!     if (~isempty (r.implied))
%!       v = r.implied;
%!     end
%!     k = find (strcmp (names, r.name), 1);
%!     if (isempty (k) || ~((ischar (v) && ~isempty (v)) || (isnumeric (v) && isscalar (v))))
%!       continue;
%!     end
%!     if (~mentions_default (paras{k}, v))
%!       bad{end + 1} = sprintf ('%s: the help item of %s does not give its default %s', ...
%!                               f{1}, r.name, shown (v));
%!     end
%!   end
%! end
%! assert (bad, {});

%!test
%! % one row per shared option: the rule of RelTol is the same in every function that has it
%! % and does not set its own (a function's own row is a row of the schema, visible there)
%! r1 = vm_options_mex ('schema', 'dual_solve');
%! r2 = vm_options_mex ('schema', 'dual_lorenz');
%! a = r1(strcmp ({r1.name}, 'RelTol'));
%! b = r2(strcmp ({r2.name}, 'RelTol'));
%! assert (b, a);
%! assert (a.implied, 1e-6);

%!test
%! % the defaults that the front ends see are the schema's
%! d = vm_options_mex ('defaults', 'skg_solve');
%! assert (d.Tol, 1e-10);
%! assert (d.RelTol, []);   % not given: error control decides; the kernel's default applies
%! assert (d.Display, 'off');

%!error <internal: no options schema for 'no_such'> vm_options_mex ('defaults', 'no_such')
%!error <expected vm_options_mex> vm_options_mex ('defaults')
