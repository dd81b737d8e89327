#!/bin/sh
# quickstart.sh -- on Debian 12: install the system packages varmech needs (if missing), build,
# install the package into Octave for the current user, and run the main demo.
set -e
cd "$(dirname "$0")"

PKGS="gcc make autoconf automake octave liboctave-dev libsuitesparse-dev libopenblas-dev gnuplot-nox fonts-freefont-otf ghostscript libmatheval-dev libsundials-dev coinor-libipopt-dev octave-parallel"
missing=""
for p in $PKGS; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO=sudo
  echo "Installing:$missing"
  $SUDO apt-get update
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $missing
fi

./bootstrap
./configure
make -j"$(nproc)"
make install-octave
mkdir -p figures
octave-cli --no-gui --norc --no-history --quiet --eval \
  "pkg load varmech; demo_sbp_convergence ('png', 'figures');"
