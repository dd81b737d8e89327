#!/bin/sh
# run_octave_asan.sh SRCDIR BUILDDIR [NAME...] -- Octave tests against the MEX files built with
# AddressSanitizer + UndefinedBehaviorSanitizer (make check-asan; also a suite of make check).
#
# The gateways compiled with $(SAN_FLAGS) and linked against libvarmech_san.a (csrc/ with the same
# flags) live in BUILDDIR/asan (the normal MEX files in BUILDDIR are not touched).  Octave itself is not instrumented: the ASan runtime is preloaded into
# octave-cli (LD_PRELOAD), so that it comes first in the library list and its malloc, with red
# zones, serves the arrays that Octave hands to the gateways.  Each test file runs in its own
# Octave process, so that a report in one file does not hide the others.  A sanitizer report, a
# process that dies or a failed test is a failure.  NAME: test files (without .m) to run; default
# the bad-input table, the gateway tests, the test blocks of the public functions and the unit-test
# files (see FILES below for the few left out, and why).
# ASAN_LANE=K/N (default 1/1) runs lane K of N: the units (one Octave process each, the bad-input
# table counting one unit per public function) in listing order, every N-th from the K-th, so that N
# such runs side by side (make check on several cores, tests/run_checks.sh) run every unit once.
#
# Settings (doc: tests/README.md):
#   ASAN_OPTIONS  detect_leaks=0: Octave's own allocations at exit (type registrations, ~160 KB)
#                 are reported as leaks, so the leak check is off (the C tests have it on);
#                 allow_user_segv_handler=0: Octave installs its own SIGSEGV handler ("fatal:
#                 caught signal") over ASan's; this keeps ASan's, which prints the stack of a wild
#                 read in a gateway; halt_on_error=1, abort_on_error=0: stop at the first report,
#                 exit status 1.
#   UBSAN_OPTIONS print_stacktrace=1:halt_on_error=1 (the kernels are built with
#                 -fno-sanitize-recover=all).
#   VM_BAD_INPUT_TRACE=1  test_bad_input writes each case to stderr before it runs, so a report
#                 follows the name of the call that caused it.
# Environment (from Makefile.am): OCTAVE, ASAN_RUNTIME (the path of libasan.so).
set -u
srcdir=$1
builddir=$2
shift 2
mexdir="$builddir/asan"
logdir="$builddir/test-logs/asan"
mkdir -p "$logdir"
here=$(pwd)

if [ $# -gt 0 ]; then
  FILES="$*"
else
  FILES="test_bad_input"
  for f in "$srcdir"/tests/octave/test_*gateway*.m; do
    FILES="$FILES $(basename "$f" .m)"
  done
  FILES="$FILES skg_action dual_action mechsys_eval odesys_eval sbp_apply sbp_operator gauss_integrate"
  # the solvers' and the other public functions' own test blocks and the unit-test files of the
  # suite; left out for their time under ASan (measured on 2 shared cores): periodic_orbit's
  # blocks (6 min: Van der Pol orbits on grids of thousands of nodes), test_dual_march (over
  # 10 min: Lorenz over [0, 10] at RelTol 1e-9), test_skg_march, test_help_examples and
  # test_tutorial (they run every example and demo), the demo acceptance tests, test_dual_slabs
  # (it keeps a copy of the old .m loop to compare with)
  FILES="$FILES skg_solve dual_solve dual_lorenz dual_pars mechsys odesys periodic_guesses varmech_plot"
  FILES="$FILES test_dual_convergence test_skg_holonomic test_initial_check test_model_ode"
  FILES="$FILES test_model_derivatives test_model_contacts test_model_helpers"
fi

if [ -z "${ASAN_RUNTIME:-}" ] || [ ! -f "$ASAN_RUNTIME" ]; then
  echo "no ASan runtime to preload (ASAN_RUNTIME='${ASAN_RUNTIME:-}'; Debian package: libasan8)"
  echo "0 passed, 1 failed"
  exit 1
fi

lane=${ASAN_LANE:-1/1}
lane_k=${lane%/*}
lane_n=${lane#*/}
case "$lane_k" in ''|*[!0-9]*) lane_k=0 ;; esac
case "$lane_n" in ''|*[!0-9]*) lane_n=0 ;; esac
case "$lane" in */*) ;; *) lane_k=0 ;; esac
if [ "$lane_k" -lt 1 ] || [ "$lane_k" -gt "$lane_n" ]; then
  echo "ASAN_LANE='$lane' is not K/N with 1 <= K <= N: set it as 2/3, say, or leave it unset"
  echo "0 passed, 1 failed"
  exit 1
fi
unit=0

passed=0
failed=0

# run_unit NAME CODE: run CODE in octave-cli under the sanitizers, log to $logdir/NAME.log, count
# its "octave tests: N passed, N failed" line, a sanitizer report or a missing result line
run_unit () {
  unit=$((unit + 1))
  # not this lane's unit
  [ $(((unit - 1) % lane_n + 1)) -eq "$lane_k" ] || return 0
  log="$logdir/$1.log"
  # in the log folder: the current folder comes first in Octave's path (the build folder holds the
  # plain MEX files)
  cd "$logdir" || exit 1
  LD_PRELOAD="$ASAN_RUNTIME" \
  ASAN_OPTIONS=detect_leaks=0:allow_user_segv_handler=0:halt_on_error=1:abort_on_error=0 \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  VM_BAD_INPUT_TRACE=1 \
    "$OCTAVE" --no-gui --norc --no-history --quiet --eval "$2" > "$log" 2>&1
  st=$?
  cd "$here" || exit 1
  line=$(grep -E 'octave tests: [0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
  p=0
  f=0
  if [ -n "$line" ]; then
    p=$(echo "$line" | grep -oE '[0-9]+ passed' | grep -oE '[0-9]+')
    f=$(echo "$line" | grep -oE '[0-9]+ failed' | grep -oE '[0-9]+')
  fi
  if grep -qE 'ERROR: AddressSanitizer|runtime error:' "$log"; then
    echo "  $1: sanitizer report (log: $log):"
    # the case that was running (test_bad_input traces its calls), then the report
    sed -n '1,/ERROR: AddressSanitizer\|runtime error:/p' "$log" | grep 'bad-input case:' | tail -n 1
    grep -E -A12 'ERROR: AddressSanitizer|runtime error:' "$log" | head -n 16
    f=$((f + 1))
  elif [ -z "$line" ]; then
    echo "  $1: no result line (status $st; log: $log):"
    grep -E 'bad-input case:' "$log" | tail -n 1
    tail -n 5 "$log"
    f=$((f + 1))
  elif [ "$st" -ne 0 ] && [ "$f" -eq 0 ]; then
    echo "  $1: exited with status $st although it reported no failure"
    f=1
  fi
  echo "  $1: $p passed, $f failed"
  passed=$((passed + p))
  failed=$((failed + f))
}

for name in $FILES; do
  if [ "$name" = test_bad_input ]; then
    # one process per public function, so that a report stops one function's table only; what
    # counts here is that the table runs to its end without a report (the messages are checked
    # by the plain Octave suite)
    for g in "$srcdir"/inst/*.m; do
      fn=$(basename "$g" .m)
      run_unit "test_bad_input-$fn" "addpath ('$mexdir', '$srcdir/inst', '$srcdir/tests/octave'); \
        w = fileparts (which ('vm_model_mex')); \
        if (~strcmp (w, '$mexdir')), error ('the gateways in use are in %s, not in $mexdir', w); end; \
        r = test_bad_input ('$fn'); \
        fprintf ('octave tests: 1 passed, 0 failed (%d bad-input cases of $fn ran)\\n', r.ncases);"
    done
  else
    run_unit "$name" "addpath ('$srcdir/tests'); run_octave_tests ('$srcdir', '$mexdir', {'$name'})"
  fi
done
if [ "$lane_n" -gt 1 ]; then
  echo "octave tests under ASan, lane $lane_k of $lane_n: $passed passed, $failed failed"
else
  echo "octave tests under ASan: $passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
