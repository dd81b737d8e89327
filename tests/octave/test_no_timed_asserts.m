% Guard: no test asserts a wall-clock time.  A timed assertion fails on a busy machine (make
% check running beside another make check) without any defect; speed is measured in bench/,
% against a peer timed in the same run.  This scans every test file and every %!test block of
% inst/ for an assert whose condition reads a timer (toc, cputime, clock, etime) or a solution's
% time field (.time, .setup_time, *_time, secs) and compares it with a bound.

%!test
%! % the source tree of this file (make check runs it from another folder)
%! root = fileparts (fileparts (fileparts (which ('test_no_timed_asserts'))));
%! files = [dir(fullfile (root, 'tests', 'octave', '*.m')); dir(fullfile (root, 'inst', '*.m')); ...
%!          dir(fullfile (root, 'demos', '*.m'))];
%! assert (numel (files) > 50, 'found only %d files under %s', numel (files), root);
%! timer = '(\<toc\s*\([^)]*\)|\<cputime\>|\<etime\s*\([^)]*\)|[\w.]*\.time\>|[\w.]*_time\>|\<secs\>|\<total\>)';
%! bad = {};
%! for k = 1:numel (files)
%!   f = fullfile (files(k).folder, files(k).name);
%!   if (strcmp (files(k).name, 'test_no_timed_asserts.m'))
%!     continue;
%!   end
%!   lines = strsplit (fileread (f), "\n");
%!   for j = 1:numel (lines)
%!     L = lines{j};
%!     if (isempty (regexp (L, '\<assert\s*\(', 'once')))
%!       continue;
%!     end
%!     % a bound on a timer: "timer < x", "timer <= x", "x > timer" inside an assert (a reported
%!     % time compared with another reported time, setup_time <= time, is a consistency check)
%!     if (~isempty (regexp (L, [timer, '\s*<=?(?![=\s]*[\w.]*time\>)'], 'once')) || ...
%!         ~isempty (regexp (L, ['(^|[^\w.])[\w.]*(?<!time)\s*>=?\s*', timer], 'once')))
%!       bad{end + 1} = sprintf ('%s:%d: %s', files(k).name, j, strtrim (L));
%!     end
%!   end
%! end
%! assert (isempty (bad), sprintf ('wall-clock assertions (move them to bench/):\n%s', strjoin (bad, "\n")));
