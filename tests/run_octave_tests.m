% -*- texinfo -*-
% @deftypefn  {} {} run_octave_tests (@var{srcdir}, @var{builddir})
% @deftypefnx {} {} run_octave_tests (@var{srcdir}, @var{builddir}, @var{names})
% @deftypefnx {} {} run_octave_tests (@var{srcdir}, @var{builddir}, @{@}, [@var{k}, @var{n}])
% Run every test block of the functions in @file{inst/}, every test file in @file{tests/octave} and
% the benchmark peers @file{bench/disk_handwritten*.m}
% against the MEX files in @var{builddir}; print one line per file (name, tests passed / tests,
% seconds) and a closing @samp{octave tests: N passed, N failed}.  A file that declares no test
% counts as a failure, and so does a gateway @file{vm_*_mex} that is not the one in @var{builddir}.
% @var{names} (a cell array of file names without @file{.m}) runs only those files (make
% check-asan).  @code{[@var{k}, @var{n}]} runs lane @var{k} of @var{n}: the files are split into
% @var{n} lanes of about equal cost (@code{lane_of} below), so that @var{n} processes, one per lane,
% run every file exactly once (make check on several cores, @file{tests/run_checks.sh}).
% @end deftypefn

function run_octave_tests (srcdir, builddir, names, lane)
  if (nargin < 3)
    names = {};
  end
  if (nargin < 4)
    lane = [1, 1];
  end
  addpath (builddir);
  addpath (fullfile (srcdir, 'inst'));
  addpath (fullfile (srcdir, 'demos'));
  addpath (fullfile (srcdir, 'tests', 'octave'));
  addpath (fullfile (srcdir, 'bench'));
  warning ('off', 'Octave:gnuplot-graphics');
  set (0, 'defaultfigurevisible', 'off');
  % the benchmark peers are tested too: a benchmark against a wrong peer is no benchmark
  files = [dir(fullfile (srcdir, 'inst', '*.m')); dir(fullfile (srcdir, 'tests', 'octave', '*.m')); ...
           dir(fullfile (srcdir, 'bench', 'disk_handwritten*.m'))];
  np = 0;
  nf = 0;
  % MEX files that varmech_build put into inst/private would shadow the ones of builddir
  stale = dir (fullfile (srcdir, 'inst', 'private', 'vm_*_mex.*'));
  if (~isempty (stale) && lane(1) == 1)   % one report, not one per lane
    fprintf ('FAIL: %s in inst/private (from varmech_build) would be tested instead of the build; remove them\n', ...
             strjoin ({stale.name}, ', '));
    nf = nf + 1;
  end
  % the MEX files tested are those of builddir (not an installed copy, not another build)
  for g = {'vm_sbp_mex', 'vm_model_mex', 'vm_integrate_mex', 'vm_skg_mex', 'vm_dual_mex', ...
           'vm_periodic_mex', 'vm_options_mex'}
    w = which (g{1});
    if (~strcmp (fileparts (w), regexprep (builddir, '[/\\]+$', '')))
      fprintf ('FAIL %s: %s is not the one in %s\n', g{1}, w, builddir);
      nf = nf + 1;
    end
  end
  if (~isempty (names))
    keep = false (numel (files), 1);
    for k = 1:numel (files)
      keep(k) = any (strcmp (files(k).name(1:end-2), names));
    end
    for k = 1:numel (names)
      if (~any (strcmp ([names{k} '.m'], {files.name})))
        fprintf ('FAIL %s: no such test file\n', names{k});
        nf = nf + 1;
      end
    end
    files = files(keep);
  end
  if (lane(2) > 1)
    files = files(lane_of (srcdir, files, lane(2)) == lane(1));
    fprintf ('octave tests, lane %d of %d: %d files\n', lane(1), lane(2), numel (files));
  end
  for k = 1:numel (files)
    name = files(k).name(1:end-2);
    t0 = tic ();
    [n, nmax] = test (name, 'quiet', 1);
    if (nmax == 0)
      fprintf ('FAIL %s: no test blocks\n', name);
      nf = nf + 1;
    end
    fprintf ('  %-28s %3d / %3d  %6.1f s\n', name, n, nmax, toc (t0));
    np = np + n;
    nf = nf + (nmax - n);
  end
  fprintf ('octave tests: %d passed, %d failed\n', np, nf);
  if (nf > 0)
    exit (1);
  end
end

% lane_of (SRCDIR, FILES, N): the lane (1..N) of each file, a deterministic greedy split: the files
% taken by decreasing cost (ties in listing order), each given to the lane with the least cost so far
% (ties to the lowest lane).  The cost of a file is its seconds in tests/octave_costs.txt (a recorded
% run); a file not listed there is estimated from the length of its test blocks (%! lines), scaled
% by the listed files' seconds per character.  Why: the suite's files differ in cost by two orders
% of magnitude, and the lanes only end together if the few heavy files are spread.
function which_lane = lane_of (srcdir, files, n)
  nfile = numel (files);
  known = NaN (nfile, 1);
  chars = zeros (nfile, 1);
  table = fullfile (srcdir, 'tests', 'octave_costs.txt');
  rec = {{}, []};
  if (exist (table, 'file'))
    fid = fopen (table, 'r');
    rec = textscan (fid, '%s %f', 'CommentStyle', '#');
    fclose (fid);
  end
  for k = 1:nfile
    name = files(k).name(1:end-2);
    j = find (strcmp (rec{1}, name), 1);
    if (~isempty (j))
      known(k) = rec{2}(j);
    end
    txt = fileread (fullfile (files(k).folder, files(k).name));
    chars(k) = sum (cellfun (@numel, regexp (txt, '^%!.*$', 'match', 'lineanchors')));
  end
  have = ~isnan (known);
  rate = 1;
  if (any (have) && sum (chars(have)) > 0)
    rate = sum (known(have)) / sum (chars(have));
  end
  cost = known;
  cost(~have) = rate * chars(~have);
  [~, order] = sort (-cost);   % stable: ties keep the listing order
  load = zeros (n, 1);
  which_lane = zeros (nfile, 1);
  for k = order(:)'
    [~, j] = min (load);
    which_lane(k) = j;
    load(j) = load(j) + cost(k);
  end
end
