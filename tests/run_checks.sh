#!/bin/sh
# run_checks.sh SRCDIR BUILDDIR MAKE -- the whole test suite behind `make check`.
#
# Suites: C unit tests; the same tests under AddressSanitizer + UndefinedBehaviorSanitizer; the
# fuzzing corpus replay; every %!test block of inst/ and every test file of tests/octave (in the
# build tree); the bad-input table and the gateway tests again with the MEX files built with ASan +
# UBSan (tests/run_octave_asan.sh); the MATLAB build path (varmech_build.m under Octave in a scratch
# folder, tests/matlab_build_check.sh); the pkg round trip (make pkg, install into a throw-away
# prefix, pkg load, pkg test, uninstall).  Each suite reports "N passed, N failed"; a suite, or a
# lane of a suite, that crashes or reports nothing counts as one failure.  The line before the last
# gives the wall time, the last line the total; the exit status is non-zero on any failure.
#
# Lanes, so that make check uses every core: JOBS = $VM_CHECK_JOBS, by default the number of cores
# (nproc).  The suites are cut into tasks (one process each, its own log): with JOBS > 1 the Octave
# tests in 2*JOBS lanes (run_octave_tests (..., [K N]): a fixed greedy split by the recorded cost of
# each file, tests/octave_costs.txt) and the ASan Octave tests in JOBS lanes (ASAN_LANE=K/N: every
# N-th unit), each lane run in its own current folder; at most JOBS tasks run at once, the short C
# suites first, then the lanes, the round trips last.  A suite's summary (one line per lane, then the
# suite's sum) is printed once all its lanes have ended and every suite before it is printed, so the
# output keeps the order above whatever the order the tasks end in.  JOBS = 1 runs the suites one
# after another, each in one process, as a serial run.  The lanes add up to the serial run's counts:
# each test file runs in exactly one lane (run_octave_tests' one stale-MEX check runs in lane 1
# only, its gateway check in every lane).  The tests write only into tempname() folders (Octave),
# mktemp -d folders (matlab build, pkg round trip: prefix, HOME) and per-file or per-lane logs, so
# the lanes do not meet (tests/README.md, "Lanes").  Ctrl-C or a TERM ends every running task.
# Environment (from Makefile.am): OCTAVE, C_TESTS, C_SAN_TESTS, PKG_TARBALL, ASAN_MEX (empty without
# sanitizers), ASAN_RUNTIME; VM_CHECK_JOBS (optional, a positive number) from the caller.
set -u
srcdir=$1
builddir=$2
make=${3:-make}
passed=0
failed=0
logdir="$builddir/test-logs"
statedir="$logdir/tasks"
t0=$(date +%s)

jobs=${VM_CHECK_JOBS:-}
if [ -z "$jobs" ]; then
  jobs=$(nproc 2>/dev/null || getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
fi
case "$jobs" in
  ''|*[!0-9]*|0) echo "VM_CHECK_JOBS='$jobs' is not a positive number of tasks: running one at a time"
                 jobs=1 ;;
esac
if [ "$jobs" -gt 1 ]; then
  oct_lanes=$((2 * jobs))
  asan_lanes=$jobs
else
  oct_lanes=1
  asan_lanes=1
fi

# the logs and task states of an earlier run (in another number of lanes, say) would be read as
# this run's (the ASan units' logs in asan/ are rewritten each time)
rm -rf "$statedir" "$logdir"/octave-lane*
rm -f "$logdir"/*.log
mkdir -p "$logdir" "$statedir" || exit 1

# oct_log K, asan_log K: the log of lane K (octave.log, octave_asan.log with one lane)
oct_log () {
  if [ "$oct_lanes" -eq 1 ]; then echo "$logdir/octave.log"; else echo "$logdir/octave-lane$1.log"; fi
}
asan_log () {
  if [ "$asan_lanes" -eq 1 ]; then echo "$logdir/octave_asan.log"; else echo "$logdir/octave_asan-lane$1.log"; fi
}

# --- tasks: run_task ID runs one task in the current process; its exit status is the task's ----
san_env () {
  ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:abort_on_error=0 \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 "$@"
}
run_task () {
  case "$1" in
    c)
      for t in $C_TESTS; do
        name=$(basename "$t")
        "$builddir/$t" > "$logdir/$name.log" 2>&1
        echo $? > "$statedir/$name.status"
      done ;;
    csan)
      for t in $C_SAN_TESTS; do
        name=$(basename "$t")
        san_env "$builddir/$t" > "$logdir/$name.log" 2>&1
        echo $? > "$statedir/$name.status"
      done ;;
    fuzz)
      san_env "$builddir/$FUZZ_REPLAY" "$srcdir"/tests/fuzz/corpus/* > "$logdir/fuzz_replay.log" 2>&1 ;;
    oct*)
      k=${1#oct}
      # the current folder comes first in Octave's path: the log folder (one per lane) holds no .m
      if [ "$oct_lanes" -eq 1 ]; then
        dir=$logdir
      else
        dir="$logdir/octave-lane$k"
        mkdir -p "$dir" || return 1
      fi
      (cd "$dir" && "$OCTAVE" --no-gui --norc --no-history --quiet \
         --eval "addpath ('$srcdir/tests'); run_octave_tests ('$srcdir', '$builddir', {}, [$k $oct_lanes])") \
         > "$(oct_log "$k")" 2>&1 ;;
    asan*)
      OCTAVE="$OCTAVE" ASAN_RUNTIME="${ASAN_RUNTIME:-}" ASAN_LANE="${1#asan}/$asan_lanes" \
        $SHELL "$srcdir/tests/run_octave_asan.sh" "$srcdir" "$builddir" > "$(asan_log "${1#asan}")" 2>&1 ;;
    matlab)
      OCTAVE="$OCTAVE" $SHELL "$srcdir/tests/matlab_build_check.sh" "$srcdir" > "$logdir/matlab_build.log" 2>&1 ;;
    pkg)
      OCTAVE="$OCTAVE" PKG_TARBALL="$PKG_TARBALL" $SHELL "$srcdir/tests/pkg_check.sh" "$builddir" "$make" \
        > "$logdir/pkg.log" 2>&1 ;;
  esac
}

# launch ID: run task ID in the background; at its end "STATUS SECONDS" goes to $statedir/ID.rc
launch () {
  (
    s=$(date +%s)
    run_task "$1"
    st=$?
    echo "$st $(($(date +%s) - s))" > "$statedir/$1.rc.new" && mv "$statedir/$1.rc.new" "$statedir/$1.rc"
  ) < /dev/null > "$statedir/$1.out" 2>&1 &
  echo $! > "$statedir/$1.pid"
}

# ended ID: true once task ID has ended; a task whose process is gone without a status (killed)
# gets status 99
ended () {
  [ -f "$statedir/$1.rc" ] && return 0
  [ -f "$statedir/$1.pid" ] || return 1
  kill -0 "$(cat "$statedir/$1.pid")" 2>/dev/null && return 1
  [ -f "$statedir/$1.rc" ] || echo "99 0" > "$statedir/$1.rc"
  return 0
}
status_of () { cut -d' ' -f1 "$statedir/$1.rc"; }
secs_of () {
  s=$(cut -d' ' -f2 "$statedir/$1.rc")
  echo "$((s / 60)) min $((s % 60)) s"
}

# kill_tree PID: PID and every process below it
kill_tree () {
  for c in $(pgrep -P "$1" 2>/dev/null); do
    kill_tree "$c"
  done
  kill "$1" 2>/dev/null
}
stop_all () {
  for f in "$statedir"/*.pid; do
    [ -f "$f" ] || continue
    id=$(basename "$f" .pid)
    [ -f "$statedir/$id.rc" ] || kill_tree "$(cat "$f")"
  done
  echo "make check: interrupted; the running tasks were ended"
  exit 130
}
trap stop_all INT TERM

# --- reports: count and print one suite, in the main shell ---------------------------------------

# count NAME LOGFILE STATUS [NOTE]: add the last "N passed, N failed" line of LOGFILE to the totals
count () {
  line=$(grep -E '[0-9]+ passed, [0-9]+ failed' "$2" 2>/dev/null | tail -n 1)
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
  echo "  $1: $p passed, $f failed${4:-}"
  passed=$((passed + p))
  failed=$((failed + f))
}

# sanitizer_report NAME LOGFILE: print and count (1 failure) a sanitizer report in LOGFILE
sanitizer_report () {
  if grep -qE 'ERROR: (Address|Leak)Sanitizer|runtime error:' "$2" 2>/dev/null; then
    echo "  $1: sanitizer report:"
    grep -E -A5 'ERROR: (Address|Leak)Sanitizer|runtime error:' "$2" | head -n 30
    failed=$((failed + 1))
  fi
}

# lanes_sum NAME P0 F0 N: with N > 1 lanes, the suite's sum of the lane lines counted since P0, F0
lanes_sum () {
  if [ "$4" -gt 1 ]; then
    echo "  $1 (sum of $4 lanes): $((passed - $2)) passed, $((failed - $3)) failed"
  fi
}

report () {
  case "$1" in
    c)
      echo "== C unit tests"
      for t in $C_TESTS; do
        name=$(basename "$t")
        st=$(cat "$statedir/$name.status" 2>/dev/null || echo 99)
        grep '^FAIL' "$logdir/$name.log" 2>/dev/null | head -n 20
        count "$name" "$logdir/$name.log" "$st"
      done ;;
    csan)
      echo "== C unit tests under ASan + UBSan"
      if [ -z "$C_SAN_TESTS" ]; then
        echo "  the compiler has no ASan/UBSan runtime (Debian packages: libasan8 libubsan1): counted as 1 failure"
        failed=$((failed + 1))
      else
        for t in $C_SAN_TESTS; do
          name=$(basename "$t")
          st=$(cat "$statedir/$name.status" 2>/dev/null || echo 99)
          sanitizer_report "$name" "$logdir/$name.log"
          count "$name" "$logdir/$name.log" "$st"
        done
      fi ;;
    fuzz)
      echo "== fuzzing corpus replay (tests/fuzz/corpus, sanitizers when available)"
      if [ -z "$FUZZ_REPLAY" ]; then
        echo "  no replay program: counted as 1 failure"
        failed=$((failed + 1))
      else
        sanitizer_report "fuzz_replay" "$logdir/fuzz_replay.log"
        count "fuzz_replay" "$logdir/fuzz_replay.log" "$(status_of fuzz)"
      fi ;;
    octave)
      echo "== Octave tests (inst/ %!test blocks, tests/octave)"
      p0=$passed
      f0=$failed
      k=1
      while [ "$k" -le "$oct_lanes" ]; do
        log=$(oct_log "$k")
        # what a file printed besides its result line, under the file's ">>>>> processing" line
        awk '/^>>>>> processing/ { head = $0; next }
             /^(  [a-z_0-9]+ +[0-9]+ \/ +[0-9]+|octave tests)/ { next }
             { if (head != "") { print head; head = "" } print }' "$log" 2>/dev/null | head -n 60
        if [ "$oct_lanes" -eq 1 ]; then
          count "octave" "$log" "$(status_of oct1)"
        else
          count "octave lane $k of $oct_lanes" "$log" "$(status_of "oct$k")" " ($(secs_of "oct$k"))"
        fi
        k=$((k + 1))
      done
      lanes_sum "octave" "$p0" "$f0" "$oct_lanes" ;;
    asan)
      echo "== Octave tests with the MEX files under ASan + UBSan (asan/, libasan preloaded into octave-cli)"
      if [ -z "${ASAN_MEX:-}" ]; then
        echo "  the compiler has no ASan/UBSan runtime (Debian packages: libasan8 libubsan1): counted as 1 failure"
        failed=$((failed + 1))
      else
        p0=$passed
        f0=$failed
        k=1
        while [ "$k" -le "$asan_lanes" ]; do
          log=$(asan_log "$k")
          grep -vE '^  [A-Za-z_-]+: [0-9]+ passed, 0 failed$' "$log" 2>/dev/null | grep -vE '^    #([5-9]|1[0-9])' \
            | head -n 60
          if [ "$asan_lanes" -eq 1 ]; then
            count "octave-asan" "$log" "$(status_of asan1)"
          else
            count "octave-asan lane $k of $asan_lanes" "$log" "$(status_of "asan$k")" " ($(secs_of "asan$k"))"
          fi
          k=$((k + 1))
        done
        lanes_sum "octave-asan" "$p0" "$f0" "$asan_lanes"
      fi ;;
    matlab)
      echo "== MATLAB build path under Octave (varmech_build in a scratch folder)"
      grep -E '^(matlab build check|FAIL|pendulum)' "$logdir/matlab_build.log" 2>/dev/null
      count "matlab build" "$logdir/matlab_build.log" "$(status_of matlab)" ;;
    pkg)
      echo "== pkg install round trip"
      grep -E '^(pkg check|FAIL|  (PASS|FAIL))' "$logdir/pkg.log" 2>/dev/null
      count "pkg" "$logdir/pkg.log" "$(status_of pkg)" ;;
  esac
}

# --- the plan: suites in report order, their tasks, the tasks in start order -----------------------
suites="c csan fuzz octave asan matlab pkg"
tasks_of () {
  case "$1" in
    c) echo c ;;
    csan) [ -n "$C_SAN_TESTS" ] && echo csan ;;
    fuzz) [ -n "${FUZZ_REPLAY:-}" ] && echo fuzz ;;
    octave) k=1; while [ "$k" -le "$oct_lanes" ]; do echo "oct$k"; k=$((k + 1)); done ;;
    asan) if [ -n "${ASAN_MEX:-}" ]; then
            k=1; while [ "$k" -le "$asan_lanes" ]; do echo "asan$k"; k=$((k + 1)); done
          fi ;;
    matlab) echo matlab ;;
    pkg) echo pkg ;;
  esac
}
FUZZ_REPLAY=${FUZZ_REPLAY:-}
if [ "$jobs" -eq 1 ]; then
  # one at a time, in report order
  queue=$(for s in $suites; do tasks_of "$s"; done)
else
  # the short C suites first (their reports come first), then the lanes, the longest (an ASan lane
  # holds about the work of an Octave lane) interleaved, the round trips last
  queue=$(for s in c csan fuzz; do tasks_of "$s"; done)
  k=1
  while [ "$k" -le "$oct_lanes" ]; do
    [ "$k" -le "$asan_lanes" ] && [ -n "${ASAN_MEX:-}" ] && queue="$queue asan$k"
    queue="$queue oct$k"
    k=$((k + 1))
  done
  queue="$queue pkg matlab"
fi
queue=$(echo $queue)
ntasks=$(echo "$queue" | wc -w)
if [ "$jobs" -gt 1 ]; then
  echo "make check: $ntasks tasks, at most $jobs at once (VM_CHECK_JOBS; default nproc): Octave tests in $oct_lanes lanes, ASan Octave tests in $asan_lanes; logs in $logdir"
fi

# run the queue, JOBS tasks at a time; print each suite's report as soon as it and all the suites
# before it have ended
running=""
nrun=0
todo=$suites
while [ -n "$queue" ] || [ -n "$running" ] || [ -n "$todo" ]; do
  while [ -n "$queue" ] && [ "$nrun" -lt "$jobs" ]; do
    id=${queue%% *}
    if [ "$id" = "$queue" ]; then queue=""; else queue=${queue#* }; fi
    launch "$id"
    running="$running $id"
    nrun=$((nrun + 1))
  done
  still=""
  for id in $running; do
    if ended "$id"; then nrun=$((nrun - 1)); else still="$still $id"; fi
  done
  running=$still
  while [ -n "$todo" ]; do
    s=${todo%% *}
    for id in $(tasks_of "$s"); do
      ended "$id" || break 2
    done
    report "$s"
    if [ "$s" = "$todo" ]; then todo=""; else todo=${todo#* }; fi
  done
  if [ -n "$running" ]; then sleep 1; fi
done

secs=$(($(date +%s) - t0))
echo "make check: the suites took $((secs / 60)) min $((secs % 60)) s of wall time ($jobs at once)"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
