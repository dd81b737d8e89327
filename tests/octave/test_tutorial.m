% Every ```octave block of doc/tutorial.md and of README.md runs, in order, in one workspace, as a
% reader would paste them into one Octave session (eval inside a function: tutorial_run below).
% The files are found relative to this file (../../doc/tutorial.md, ../../README.md; the folder of
% this file from which ('test_tutorial'), since mfilename is empty in a test block): the test runs
% from the source tree (make check); an installed package has no tests/octave and does not run it.
% Figures are invisible, the blocks run in a fresh temporary folder (their PNG files go there) that
% is removed afterwards, and every figure is closed.  A failing block is named by its number, its
% line in the file and its first line, with the error.
%
% Rules for the blocks: only blocks fenced ```octave run (```sh, ```text and ```matlab never do).
% In README.md, lines that are `pkg load ...` are removed before the block runs (the tests run
% against the build tree, where nothing is installed); nothing else is skipped or changed.  The
% tutorial itself must not call pkg at all (checked below).
%
% Besides "it runs", the tutorial's own claims are checked on the workspace it leaves: the solves
% it keeps succeed and agree as the text says, the multiplier relation T = -2 l lambda, the failures
% section 8 shows still fail (if a solver is fixed so that they no longer fail, the tutorial text
% is stale: update it), and the PNG files are written.

%!function vmtut_file = tutorial_file (vmtut_name)
%!  % this file's folder: inside a test block mfilename is empty, so ask the load path
%!  vmtut_here = fileparts (mfilename ('fullpath'));
%!  if (isempty (vmtut_here))
%!    vmtut_here = fileparts (which ('test_tutorial'));
%!  end
%!  vmtut_file = fullfile (vmtut_here, '..', '..', vmtut_name);
%!  if (~exist (vmtut_file, 'file'))
%!    error ('test_tutorial: %s not found (expected at %s; the test runs from the source tree)', ...
%!           vmtut_name, vmtut_file);
%!  end
%!endfunction

%!function vmtut_blocks = tutorial_blocks (vmtut_file, vmtut_drop)
%!  % the ```octave blocks of a markdown file: struct array with line (of the opening fence),
%!  % first (first line of code) and code; lines matching the regexp vmtut_drop are removed
%!  vmtut_lines = strsplit (strrep (fileread (vmtut_file), sprintf ('\r'), ''), sprintf ('\n'));
%!  vmtut_blocks = struct ('line', {}, 'first', {}, 'code', {});
%!  vmtut_open = 0;
%!  for vmtut_i = 1:numel (vmtut_lines)
%!    vmtut_s = vmtut_lines{vmtut_i};
%!    if (vmtut_open == 0)
%!      if (~isempty (regexp (vmtut_s, '^```octave\s*$', 'once')))
%!        vmtut_open = vmtut_i;
%!        vmtut_code = {};
%!      end
%!    elseif (~isempty (regexp (vmtut_s, '^```\s*$', 'once')))
%!      vmtut_b.line = vmtut_open;
%!      vmtut_b.first = '';
%!      if (~isempty (vmtut_code))
%!        vmtut_b.first = strtrim (vmtut_code{1});
%!      end
%!      vmtut_b.code = strjoin (vmtut_code, sprintf ('\n'));
%!      vmtut_blocks(end+1) = vmtut_b;
%!      vmtut_open = 0;
%!    elseif (isempty (vmtut_drop) || isempty (regexp (vmtut_s, vmtut_drop, 'once')))
%!      vmtut_code{end+1} = vmtut_s;
%!    end
%!  end
%!  if (vmtut_open > 0)
%!    error ('test_tutorial: %s: the ```octave block opened at line %d is not closed', vmtut_file, vmtut_open);
%!  end
%!endfunction

%!function [vmtut_ws, vmtut_log, vmtut_secs] = tutorial_run (vmtut_blocks, vmtut_where)
%!  % all blocks in this one workspace, in order, output captured; the variables left are returned
%!  vmtut_log = cell (1, numel (vmtut_blocks));
%!  vmtut_secs = zeros (1, numel (vmtut_blocks));
%!  for vmtut_k = 1:numel (vmtut_blocks)
%!    vmtut_t0 = tic ();
%!    try
%!      vmtut_log{vmtut_k} = evalc (vmtut_blocks(vmtut_k).code);
%!    catch vmtut_err
%!      error ('test_tutorial: %s block %d (line %d, "%s") failed: %s', vmtut_where, vmtut_k, ...
%!             vmtut_blocks(vmtut_k).line, vmtut_blocks(vmtut_k).first, vmtut_err.message);
%!    end
%!    vmtut_secs(vmtut_k) = toc (vmtut_t0);
%!  end
%!  vmtut_ws = struct ();
%!  vmtut_names = who ();
%!  for vmtut_k = 1:numel (vmtut_names)
%!    if (~strncmp (vmtut_names{vmtut_k}, 'vmtut_', 6))
%!      vmtut_ws.(vmtut_names{vmtut_k}) = eval (vmtut_names{vmtut_k});
%!    end
%!  end
%!endfunction

%!function [ws, log, secs, pngs] = tutorial_sandbox (blocks, where)
%!  % run the blocks in a temporary folder with invisible figures; restore everything afterwards
%!  olddir = pwd ();
%!  oldvis = get (0, 'defaultfigurevisible');
%!  oldwarn = warning ('query', 'Octave:gnuplot-graphics');
%!  d = tempname ();
%!  mkdir (d);
%!  unwind_protect
%!    warning ('off', 'Octave:gnuplot-graphics');
%!    set (0, 'defaultfigurevisible', 'off');
%!    cd (d);
%!    [ws, log, secs] = tutorial_run (blocks, where);
%!    pngs = dir (fullfile (d, '*.png'));
%!  unwind_protect_cleanup
%!    cd (olddir);
%!    close all;
%!    set (0, 'defaultfigurevisible', oldvis);
%!    warning (oldwarn.state, 'Octave:gnuplot-graphics');
%!    confirm_recursive_rmdir (false, 'local');
%!    rmdir (d, 's');
%!  end_unwind_protect
%!endfunction

%!test
%! file = tutorial_file (fullfile ('doc', 'tutorial.md'));
%! blocks = tutorial_blocks (file, '');
%! % an emptied or truncated tutorial fails here
%! assert (numel (blocks) >= 12, sprintf ('doc/tutorial.md has only %d octave blocks', numel (blocks)));
%! for k = 1:numel (blocks)
%!   assert (isempty (regexp (blocks(k).code, '(^|\W)pkg\s*[\s(]', 'once')), ...
%!           sprintf ('doc/tutorial.md block %d (line %d) calls pkg: install commands belong in sh/text blocks', k, blocks(k).line));
%! end
%! [ws, log, secs, pngs] = tutorial_sandbox (blocks, 'doc/tutorial.md');
%! % the solves the tutorial keeps succeed
%! assert ([ws.ref.exitflag, ws.skg.exitflag, ws.dsol.exitflag, ws.gdef.exitflag], [1 1 1 1]);
%! assert (ws.ref.lambda(1), -ws.p.m * ws.p.g * cos (ws.th0) / (2 * ws.p.l), 1e-10);
%! % the multiplier relation of section 4: T = -2 l lambda
%! assert (ws.dsol.y(1, 5), ws.p.m * ws.p.g * cos (ws.th0), 1e-8);
%! assert (max (abs (ws.lam_dual - ws.ref.output.lambda)) < 1e-7);
%! % the comparison of section 6, as the text quotes it (with a margin)
%! for k = 1:3
%!   assert (max (max (abs (ws.Q{k} - ws.ref.output.q))) < 1e-6);
%!   assert (max (max (abs (ws.V{k} - ws.ref.output.qdot))) < 2e-6);
%!   assert (max (abs (ws.LAM{k} - ws.ref.output.lambda)) < 2e-6);
%! end
%! assert (max (max (abs (ws.Q{2} - ws.ref.output.q))) < 3e-8);
%! assert (max (max (abs (ws.Q{3} - ws.ref.output.q))) < 3e-8);
%! % section 5: the energy balance and the constraint residuals
%! assert (abs (ws.skg.energy(end) - ws.skg.energy(1) - trapz (ws.skg.t, ws.P)) < 1e-6);
%! assert (max (abs (ws.skg.residual_position)) < 1e-12);
%! assert (max (abs (ws.gdual)) < 1e-7);
%! % the failures the text shows still fail (otherwise section 8 is stale)
%! assert (ws.bad.exitflag, 0);
%! allout = [log{:}];
%! assert (~isempty (strfind (allout, 'skg_solve: the initial state violates constraint 1')));
%! assert (~isempty (strfind (allout, 'at velocity level')));
%! % the figures were written
%! assert (numel (pngs) >= 5, sprintf ('%d PNG files written', numel (pngs)));
%! assert (all ([pngs.bytes] > 1000));

%!test
%! % README.md: every ```octave block, `pkg load` lines removed (the rule stated above)
%! file = tutorial_file ('README.md');
%! blocks = tutorial_blocks (file, '^\s*pkg\s+load\>');
%! assert (numel (blocks) >= 2, sprintf ('README.md has only %d octave blocks', numel (blocks)));
%! [ws, log] = tutorial_sandbox (blocks, 'README.md');
%! % the README's own system: skg_solve against gauss_integrate, as it says
%! assert ([ws.sol.exitflag, ws.ref.exitflag], [1 1]);
%! assert (max (max (abs (ws.sol.output.q - ws.ref.output.q))) < 1e-6);

%!test
%! % a failing block is named by its number, its line and its first line, with the error
%! f = [tempname() '.md'];
%! fid = fopen (f, 'w');
%! fprintf (fid, 'text\n```octave\nx = 1;\n```\n\n```sh\nls\n```\n```octave\ny = x + 1;\nerror (''boom'');\n```\n');
%! fclose (fid);
%! unwind_protect
%!   blocks = tutorial_blocks (f, '');
%!   assert (numel (blocks), 2);
%!   assert ({blocks.line}, {2, 8});
%!   msg = '';
%!   try
%!     tutorial_run (blocks, 'sample.md');
%!   catch err
%!     msg = err.message;
%!   end
%!   assert (msg, 'test_tutorial: sample.md block 2 (line 8, "y = x + 1;") failed: boom');
%! unwind_protect_cleanup
%!   delete (f);
%! end_unwind_protect
