#!/bin/sh
# matlab_build_check.sh SRCDIR -- the MATLAB build path, run under Octave: copy varmech_build.m,
# inst/, csrc/ and mex/ (sources only) into a scratch folder, run there the commands of README.md
# ("Using varmech from MATLAB", its ```matlab block read from README.md: varmech_build, addpath and
# a pendulum through skg_solve), the pendulum against gauss_integrate, and the test blocks of every
# public function and a few test files against the MEX files varmech_build put into inst/private.  Nothing of the autotools
# build is on the path.  Prints "matlab build check: N passed, N failed".  Environment: OCTAVE.
set -u
srcdir=$1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/varmech-mbuild.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
top="$tmp/varmech"
mkdir -p "$top/inst/private" "$top/csrc" "$top/mex" "$top/tests" || exit 1
cp "$srcdir/varmech_build.m" "$top/" &&
cp "$srcdir"/inst/*.m "$top/inst/" &&
cp "$srcdir"/inst/private/*.m "$top/inst/private/" &&
cp -R "$srcdir"/csrc/. "$top/csrc/" &&
cp "$srcdir"/mex/*.c "$srcdir"/mex/*.h "$top/mex/" &&
cp "$srcdir"/tests/octave/test_model_ode.m "$srcdir"/tests/octave/test_skg_holonomic.m \
   "$srcdir"/tests/octave/test_initial_check.m "$srcdir"/tests/octave/test_model_helpers.m "$top/tests/" || {
  echo "matlab build check: 0 passed, 1 failed (copy)"; exit 1; }

# the first ```matlab block of README.md's section "Using varmech from MATLAB", run as it stands
sed -n '/^## Using varmech from MATLAB/,/^## /p' "$srcdir/README.md" \
  | awk '/^```matlab/ { n++; if (n == 1) { on = 1; next } } /^```$/ { on = 0 } on' > "$top/readme_matlab.m"
if ! grep -q varmech_build "$top/readme_matlab.m"; then
  echo "matlab build check: 0 passed, 1 failed (no \`\`\`matlab block with varmech_build in README.md)"
  exit 1
fi

cd "$top" || exit 1
HOME="$tmp" "$OCTAVE" --no-gui --norc --no-history --quiet --eval "
  np = 0; nf = 0;
  try
    % the commands of README.md, section 'Using varmech from MATLAB' (read from it: they build the
    % MEX files, put inst on the path and solve a pendulum, pend and sol)
    eval (fileread ('readme_matlab.m'));
    gws = {'vm_sbp_mex', 'vm_model_mex', 'vm_integrate_mex', 'vm_skg_mex', 'vm_dual_mex', 'vm_periodic_mex', 'vm_options_mex'};
    built = cellfun (@(g) ~isempty (dir (fullfile (pwd, 'inst', 'private', [g '.mex']))), gws);
    if (all (built))
      np = np + 1;
    else
      nf = nf + 1;
      fprintf ('FAIL: varmech_build did not build %s\n', strjoin (gws(~built), ', '));
    end
    % private: out of the user's way, and no other copy on the path
    if (all (cellfun (@(g) exist (g), gws) == 0))
      np = np + 1;
    else
      nf = nf + 1;
      fprintf ('FAIL: a gateway is visible outside inst/private\n');
    end
    % the README's pendulum (pend, sol), against gauss_integrate
    ref = gauss_integrate (pend, [0 10], 2, 0, 'RelTol', 1e-11, 'AbsTol', 1e-12);
    err = max (abs (sol.q(:) - interp1 (ref.t, ref.q, sol.t(:), 'spline')));
    if (sol.exitflag > 0 && ref.exitflag > 0 && err < 1e-5)
      np = np + 1;
    else
      nf = nf + 1;
      fprintf ('FAIL: pendulum: skg_solve and gauss_integrate differ by %g (exitflags %d, %d)\n', ...
               err, sol.exitflag, ref.exitflag);
    end
    fprintf ('pendulum: skg_solve against gauss_integrate on [0 10]: %.2e\n', err);
    % test blocks of the API and a few test files, against these MEX files
    addpath (fullfile (pwd, 'tests'));
    names = {'sbp_operator', 'sbp_apply', 'mechsys', 'mechsys_eval', 'odesys', 'odesys_eval', ...
             'gauss_integrate', 'skg_action', 'skg_solve', 'dual_action', 'dual_solve', 'dual_lorenz', ...
             'dual_pars', 'periodic_orbit', 'periodic_guesses', 'varmech_plot', ...
             'test_model_ode', 'test_skg_holonomic', 'test_initial_check', 'test_model_helpers'};
    for k = 1:numel (names)
      [n, nmax] = test (names{k}, 'quiet', stdout);
      fprintf ('  %-28s %3d / %3d\n', names{k}, n, nmax);
      if (nmax == 0)
        nf = nf + 1;
      end
      np = np + n;
      nf = nf + (nmax - n);
    end
  catch e
    nf = nf + 1;
    fprintf ('FAIL: %s\n', e.message);
  end
  fprintf ('matlab build check: %d passed, %d failed\n', np, nf);
  exit (nf > 0);
"
