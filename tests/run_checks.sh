#!/bin/sh
# run_checks.sh SRCDIR BUILDDIR MAKE -- the whole test suite behind `make check`.
#
# Suites: C unit tests; the same tests under AddressSanitizer + UndefinedBehaviorSanitizer; every
# %!test block of inst/ and every test file of tests/octave (in the build tree); the bad-input table
# and the gateway tests again with the MEX files built with ASan + UBSan (tests/run_octave_asan.sh);
# the MATLAB build path (varmech_build.m under Octave in a scratch folder,
# tests/matlab_build_check.sh); the pkg round trip (make pkg, install into a throw-away prefix,
# pkg load, pkg test, uninstall).  Each suite reports "N passed, N failed"; a suite that crashes or
# reports nothing counts as one failure.  The last line is the total; the exit status is non-zero
# on any failure.
# Environment (from Makefile.am): OCTAVE, C_TESTS, C_SAN_TESTS, PKG_TARBALL, ASAN_MEX (empty without
# sanitizers), ASAN_RUNTIME.
set -u
srcdir=$1
builddir=$2
make=${3:-make}
passed=0
failed=0
logdir="$builddir/test-logs"
mkdir -p "$logdir"

# count SUITE LOGFILE STATUS: add the last "N passed, N failed" line of LOGFILE to the totals
count () {
  line=$(grep -E '[0-9]+ passed, [0-9]+ failed' "$2" | tail -n 1)
  if [ -z "$line" ]; then
    echo "  $1: no result line (status $3): counted as 1 failure; see $2"
    failed=$((failed + 1))
    return
  fi
  p=$(echo "$line" | grep -oE '[0-9]+ passed' | tail -n 1 | grep -oE '[0-9]+')
  f=$(echo "$line" | grep -oE '[0-9]+ failed' | tail -n 1 | grep -oE '[0-9]+')
  if [ "$3" -ne 0 ] && [ "$f" -eq 0 ]; then
    f=1
    echo "  $1: exited with status $3 although it reported no failure: counted as 1 failure"
  fi
  echo "  $1: $p passed, $f failed"
  passed=$((passed + p))
  failed=$((failed + f))
}

echo "== C unit tests"
for t in $C_TESTS; do
  name=$(basename "$t")
  "$builddir/$t" > "$logdir/$name.log" 2>&1
  st=$?
  grep '^FAIL' "$logdir/$name.log" | head -n 20
  count "$name" "$logdir/$name.log" $st
done

echo "== C unit tests under ASan + UBSan"
if [ -z "$C_SAN_TESTS" ]; then
  echo "  the compiler has no ASan/UBSan runtime (Debian packages: libasan8 libubsan1): counted as 1 failure"
  failed=$((failed + 1))
else
  for t in $C_SAN_TESTS; do
    name=$(basename "$t")
    ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:abort_on_error=0 \
    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
      "$builddir/$t" > "$logdir/$name.log" 2>&1
    st=$?
    if grep -qE 'ERROR: (Address|Leak)Sanitizer|runtime error:' "$logdir/$name.log"; then
      echo "  $name: sanitizer report:"
      grep -E -A5 'ERROR: (Address|Leak)Sanitizer|runtime error:' "$logdir/$name.log" | head -n 30
      failed=$((failed + 1))
    fi
    count "$name" "$logdir/$name.log" $st
  done
fi

echo "== fuzzing corpus replay (tests/fuzz/corpus, sanitizers when available)"
FUZZ_REPLAY=${FUZZ_REPLAY:-}
if [ -z "$FUZZ_REPLAY" ]; then
  echo "  no replay program: counted as 1 failure"
  failed=$((failed + 1))
else
  ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:abort_on_error=0 \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    "$builddir/$FUZZ_REPLAY" "$srcdir"/tests/fuzz/corpus/* > "$logdir/fuzz_replay.log" 2>&1
  st=$?
  if grep -qE 'ERROR: (Address|Leak)Sanitizer|runtime error:' "$logdir/fuzz_replay.log"; then
    echo "  fuzz_replay: sanitizer report:"
    grep -E -A5 'ERROR: (Address|Leak)Sanitizer|runtime error:' "$logdir/fuzz_replay.log" | head -n 30
    failed=$((failed + 1))
  fi
  count "fuzz_replay" "$logdir/fuzz_replay.log" $st
fi

echo "== Octave tests (inst/ %!test blocks, tests/octave)"
(cd "$logdir" && "$OCTAVE" --no-gui --norc --no-history --quiet \
   --eval "addpath ('$srcdir/tests'); run_octave_tests ('$srcdir', '$builddir')") \
   > "$logdir/octave.log" 2>&1
st=$?
grep -vE '^(  [a-z_]+ +[0-9]+ / +[0-9]+|octave tests:)' "$logdir/octave.log" | head -n 60
count "octave" "$logdir/octave.log" $st

echo "== Octave tests with the MEX files under ASan + UBSan (asan/, libasan preloaded into octave-cli)"
if [ -z "${ASAN_MEX:-}" ]; then
  echo "  the compiler has no ASan/UBSan runtime (Debian packages: libasan8 libubsan1): counted as 1 failure"
  failed=$((failed + 1))
else
  OCTAVE="$OCTAVE" ASAN_RUNTIME="${ASAN_RUNTIME:-}" $SHELL "$srcdir/tests/run_octave_asan.sh" "$srcdir" "$builddir" \
    > "$logdir/octave_asan.log" 2>&1
  st=$?
  grep -vE '^  [A-Za-z_-]+: [0-9]+ passed, 0 failed$' "$logdir/octave_asan.log" | grep -vE '^    #([5-9]|1[0-9])' | head -n 60
  count "octave-asan" "$logdir/octave_asan.log" $st
fi

echo "== MATLAB build path under Octave (varmech_build in a scratch folder)"
OCTAVE="$OCTAVE" $SHELL "$srcdir/tests/matlab_build_check.sh" "$srcdir" > "$logdir/matlab_build.log" 2>&1
st=$?
grep -E '^(matlab build check|FAIL|pendulum)' "$logdir/matlab_build.log"
count "matlab build" "$logdir/matlab_build.log" $st

echo "== pkg install round trip"
OCTAVE="$OCTAVE" PKG_TARBALL="$PKG_TARBALL" $SHELL "$srcdir/tests/pkg_check.sh" "$builddir" "$make" \
  > "$logdir/pkg.log" 2>&1
st=$?
grep -E '^(pkg check|FAIL|  (PASS|FAIL))' "$logdir/pkg.log"
count "pkg" "$logdir/pkg.log" $st

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
