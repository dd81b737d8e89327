% -*- texinfo -*-
% @deftypefn  {} {} run_octave_tests (@var{srcdir}, @var{builddir})
% @deftypefnx {} {} run_octave_tests (@var{srcdir}, @var{builddir}, @var{names})
% Run every test block of the functions in @file{inst/}, every test file in @file{tests/octave} and
% the benchmark peers @file{bench/disk_handwritten*.m}
% against the MEX files in @var{builddir}; print one line per file and a closing
% @samp{octave tests: N passed, N failed}.  A file that declares no test counts as a failure, and
% so does a gateway @file{vm_*_mex} that is not the one in @var{builddir}.  @var{names} (a cell
% array of file names without @file{.m}) runs only those files (make check-asan).
% @end deftypefn

function run_octave_tests (srcdir, builddir, names)
  if (nargin < 3)
    names = {};
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
  if (~isempty (stale))
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
  for k = 1:numel (files)
    name = files(k).name(1:end-2);
    [n, nmax] = test (name, 'quiet', 1);
    if (nmax == 0)
      fprintf ('FAIL %s: no test blocks\n', name);
      nf = nf + 1;
    end
    fprintf ('  %-28s %3d / %3d\n', name, n, nmax);
    np = np + n;
    nf = nf + (nmax - n);
  end
  fprintf ('octave tests: %d passed, %d failed\n', np, nf);
  if (nf > 0)
    exit (1);
  end
end
