% -*- texinfo -*-
% @deftypefn {} {} run_octave_tests (@var{srcdir}, @var{builddir})
% Run every test block of the functions in @file{inst/} and every test file in @file{tests/octave}
% against the MEX files in @var{builddir}; print one line per file and a closing
% @samp{octave tests: N passed, N failed}.  A file that declares no test counts as a failure.
% @end deftypefn

function run_octave_tests (srcdir, builddir)
  addpath (builddir);
  addpath (fullfile (srcdir, 'inst'));
  addpath (fullfile (srcdir, 'demos'));
  addpath (fullfile (srcdir, 'tests', 'octave'));
  warning ('off', 'Octave:gnuplot-graphics');
  set (0, 'defaultfigurevisible', 'off');
  files = [dir(fullfile (srcdir, 'inst', '*.m')); dir(fullfile (srcdir, 'tests', 'octave', '*.m'))];
  np = 0;
  nf = 0;
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
