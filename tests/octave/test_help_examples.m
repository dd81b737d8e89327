% The help texts of the public functions of inst/ (every inst/*.m whose name does not start with
% vm_; inst/private is not public) are coursework material: each has a usage line (@deftypefn), a
% line with 'Example' and at least one runnable example in a @verbatim block (MATLAB's help prints
% the raw comment, so no Texinfo escapes), a @seealso line, and at least one %!demo block.  The
% examples and the demos must run: every @verbatim block of the help is evaluated in a fresh
% function workspace, and every demo through demo (name, k), with figures invisible.
%
% The help text is the leading comment block of the file: the lines starting with '%' before the
% first 'function' line, with the leading '% ' (or '%') removed.  The list of functions is read
% from inst/ (relative to this file) at run time, so a new public function is checked as soon as
% it exists.  One %!test per kind of check, each listing every function that fails it.

%!function d = help_inst_dir ()
%!  % inst/ relative to this file: mfilename of a %!function names no file (the test blocks are
%!  % evaluated), so the file is the one that test () found on the path under this name
%!  me = mfilename ('fullpath');
%!  if (isempty (regexp (me, 'test_help_examples$', 'once')))
%!    me = which ('test_help_examples');
%!  end
%!  d = fullfile (fileparts (me), '..', '..', 'inst');
%!endfunction

%!function names = help_public_names ()
%!  f = dir (fullfile (help_inst_dir (), '*.m'));
%!  names = {};
%!  for k = 1:numel (f)
%!    if (~strncmp (f(k).name, 'vm_', 3))
%!      names{end+1} = f(k).name(1:end-2);
%!    end
%!  end
%!endfunction

%!function [help_lines, file_text] = help_text (name)
%!  % the leading comment block (before the first 'function' line), comment marks stripped
%!  file_text = fileread (fullfile (help_inst_dir (), [name '.m']));
%!  lines = regexp (file_text, '\r?\n', 'split');
%!  help_lines = {};
%!  for k = 1:numel (lines)
%!    s = lines{k};
%!    if (~isempty (regexp (s, '^\s*function\>', 'once')))
%!      break;
%!    end
%!    if (~isempty (regexp (s, '^\s*%', 'once')))
%!      help_lines{end+1} = regexprep (s, '^\s*% ?', '');
%!    end
%!  end
%!endfunction

%!function blocks = help_verbatim_blocks (help_lines)
%!  % the contents of the @verbatim ... @end verbatim blocks, one char row per block
%!  blocks = {};
%!  inside = false;
%!  for k = 1:numel (help_lines)
%!    s = strtrim (help_lines{k});
%!    if (~inside && strcmp (s, '@verbatim'))
%!      inside = true;
%!      code = {};
%!    elseif (inside && strcmp (s, '@end verbatim'))
%!      inside = false;
%!      blocks{end+1} = strjoin (code, char (10));
%!    elseif (inside)
%!      code{end+1} = help_lines{k};
%!    end
%!  end
%!endfunction

%!function help_run_block (help_block_code__)
%!  % a fresh function workspace: the example sees only its own variables; its printing is kept
%!  % out of the test's output
%!  evalc (help_block_code__);
%!endfunction

%!function help_fail_if (bad, what)
%!  if (~isempty (bad))
%!    error ('%s:\n  %s', what, strjoin (bad, '\n  '));
%!  end
%!endfunction

%!function help_check_each (test_fn, what)
%!  bad = {};
%!  names = help_public_names ();
%!  for k = 1:numel (names)
%!    [h, f] = help_text (names{k});
%!    if (~test_fn (h, f))
%!      bad{end+1} = names{k};
%!    end
%!  end
%!  help_fail_if (bad, what);
%!endfunction

%!test
%! % the list of public functions is found (and the files of this package are in it)
%! names = help_public_names ();
%! assert (all (ismember ({'mechsys', 'skg_solve', 'gauss_integrate'}, names)));
%! assert (~any (strncmp (names, 'vm_', 3)));

%!test
%! % a usage line per function: @deftypefn
%! help_check_each (@(h, f) any (~cellfun (@isempty, regexp (h, '^@deftypefn\>', 'once'))), ...
%!                  'help without a usage line (@deftypefn)');

%!test
%! % a line that announces an example
%! help_check_each (@(h, f) any (~cellfun (@isempty, strfind (h, 'Example'))), ...
%!                  'help without a line containing ''Example''');

%!test
%! % at least one @verbatim example block
%! help_check_each (@(h, f) ~isempty (help_verbatim_blocks (h)), ...
%!                  'help without a @verbatim ... @end verbatim example');

%!test
%! % a @seealso line
%! help_check_each (@(h, f) any (~cellfun (@isempty, strfind (h, '@seealso{'))), ...
%!                  'help without @seealso{...}');

%!test
%! % at least one %!demo block in the file
%! help_check_each (@(h, f) ~isempty (regexp (f, '(^|\n)%!demo', 'once')), ...
%!                  'file without a %!demo block');

%!test
%! % every @verbatim example of every help runs (figures invisible)
%! old = get (0, 'defaultfigurevisible');
%! set (0, 'defaultfigurevisible', 'off');
%! bad = {};
%! names = help_public_names ();
%! for k = 1:numel (names)
%!   blocks = help_verbatim_blocks (help_text (names{k}));
%!   for j = 1:numel (blocks)
%!     try
%!       help_run_block (blocks{j});
%!     catch err
%!       bad{end+1} = sprintf ('%s, example block %d: %s\n%s', names{k}, j, err.message, blocks{j});
%!     end
%!     close all;
%!   end
%! end
%! set (0, 'defaultfigurevisible', old);
%! help_fail_if (bad, 'help examples that fail');

%!test
%! % every demo runs: demo (name, k) for each demo block (figures invisible); demo itself only
%! % prints 'NAME example K: failed', so its output is searched for that
%! old = get (0, 'defaultfigurevisible');
%! set (0, 'defaultfigurevisible', 'off');
%! bad = {};
%! names = help_public_names ();
%! for k = 1:numel (names)
%!   [code, idx] = test (names{k}, 'grabdemo');
%!   for j = 1:numel (idx) - 1
%!     out = evalc ('demo (names{k}, j);');
%!     if (~isempty (strfind (out, sprintf ('%s example %d: failed', names{k}, j))))
%!       bad{end+1} = sprintf ('%s, demo %d:\n%s', names{k}, j, out);
%!     end
%!     close all;
%!   end
%! end
%! set (0, 'defaultfigurevisible', old);
%! help_fail_if (bad, 'demos that fail');
