#!/bin/sh
# pkg_check.sh BUILDDIR MAKE -- stage the Octave package tarball, install it into a throw-away
# prefix (never the user's package lists), pkg load, pkg test, uninstall.
# Prints "pkg check: N passed, N failed".  Environment: OCTAVE, PKG_TARBALL.
set -u
builddir=$1
make=${2:-make}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/varmech-pkg.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

cd "$builddir" || exit 1
if ! $make pkg > "$tmp/make-pkg.log" 2>&1; then
  cat "$tmp/make-pkg.log"
  echo "pkg check: 0 passed, 1 failed (make pkg)"
  exit 1
fi
tarball="$builddir/$PKG_TARBALL"

# HOME points into the throw-away folder too, so nothing reaches the user's ~/.local or ~/.config.
cd "$tmp" || exit 1
HOME="$tmp" "$OCTAVE" --no-gui --norc --no-history --quiet --eval "
  np = 0; nf = 0;
  pkg ('prefix', '$tmp/pkg', '$tmp/arch');
  pkg ('local_list', '$tmp/local_list');
  pkg ('global_list', '$tmp/global_list');
  step = {'install', 'load', 'mex on path', 'pkg test', 'uninstall'};
  try
    pkg ('install', '-local', '$tarball');
    np = np + 1;
    pkg ('load', 'varmech');
    np = np + 1;
    if (exist ('sbp_operator') == 2 && exist ('vm_sbp_mex') == 3 && exist ('demo_sbp_convergence') == 2 && exist ('mechsys') == 2 && exist ('vm_model_mex') == 3 && exist ('gauss_integrate') == 2 && exist ('vm_integrate_mex') == 3 && exist ('skg_solve') == 2 && exist ('vm_skg_mex') == 3 && exist ('dual_solve') == 2 && exist ('vm_dual_mex') == 3)
      np = np + 1;
    else
      nf = nf + 1;
      fprintf ('FAIL: sbp_operator, vm_sbp_mex (MEX), mechsys, vm_model_mex (MEX) or demo_sbp_convergence not found after pkg load\n');
    end
    % every installed function and MEX file has a name MATLAB accepts (it starts with a letter)
    info = pkg ('list', 'varmech');
    bad = {};
    roots = {info{1}.dir, info{1}.archprefix};
    while (~isempty (roots))
      d = roots{1};
      roots(1) = [];
      ents = dir (d);
      for k = 1:numel (ents)
        nm = ents(k).name;
        if (ents(k).isdir)
          if (~any (strcmp (nm, {'.', '..'})))
            roots{end+1} = fullfile (d, nm);
          end
        elseif (~isempty (regexp (nm, '\.(m|mex|oct)$', 'once')) && isempty (regexp (nm, '^[A-Za-z]', 'once')))
          bad{end+1} = fullfile (d, nm);
        end
      end
    end
    if (isempty (bad))
      np = np + 1;
    else
      nf = nf + 1;
      fprintf ('FAIL: installed names that do not start with a letter: %s\n', strjoin (bad, ', '));
    end
    % the installed demos run (with their private helpers): every check of the quiet runs passes
    r = demo_tumbler ('quiet');
    r2 = demo_plane_particle ('quiet');
    if (all (r.pass(:)) && all (r2.pass(:)))
      np = np + 1;
    else
      nf = nf + 1;
      fprintf ('FAIL: the installed demo_tumbler or demo_plane_particle failed a check\n');
    end
    out = evalc ('pkg (''test'', ''varmech'')');
    fprintf ('%s', out);
    tp = regexp (out, 'PASS\s+(\d+)', 'tokens', 'once');
    tf = regexp (out, 'FAIL\s+(\d+)', 'tokens', 'once');
    if (isempty (tp) || str2double (tp{1}) == 0)
      nf = nf + 1;
      fprintf ('FAIL: pkg test ran no test\n');
    else
      np = np + str2double (tp{1});
    end
    if (~isempty (tf))
      nf = nf + str2double (tf{1});
    end
    pkg ('unload', 'varmech');
    pkg ('uninstall', '-local', 'varmech');
    if (isempty (pkg ('list')))
      np = np + 1;
    else
      nf = nf + 1;
      fprintf ('FAIL: varmech still listed after pkg uninstall\n');
    end
  catch err
    nf = nf + 1;
    fprintf ('FAIL: %s\n', err.message);
  end
  fprintf ('pkg check: %d passed, %d failed\n', np, nf);
  exit (nf > 0);
"
