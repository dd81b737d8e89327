#!/bin/sh
# demo_timing.sh -- time every paper demo in two build trees, pair by pair.
#
# usage: bench/demo_timing.sh BASE NEW [REPEATS [DEMO ...]]
#
# BASE and NEW are build trees of varmech (each after ./bootstrap && ./configure && make: the MEX
# files in the top folder, inst/ and demos/ below it).  For every demos/demo_*.m of NEW (or the
# DEMOs named), each of REPEATS rounds (default 3) runs the demo once in each tree, each run a
# separate octave-cli process with that tree on the path:
#   octave-cli --no-gui --norc --no-history --quiet --eval \
#     "addpath (TREE, TREE/inst, TREE/demos); t0 = tic; r = DEMO ('quiet'); ..."
# (the same call as tests/octave/test_DEMO.m; pass = all ([r.pass])).  The order within a round alternates (BASE then
# NEW, NEW then BASE, ...), so a drift of the machine's speed falls on both.  Runs are made in a
# scratch folder, so nothing is written into the trees.
#
# Printed: one line per run (tree, demo, wall seconds of the demo call inside Octave, whole-process
# wall seconds with Octave's start-up, all ([r.pass]), CPU seconds of the demo call from cputime),
# then the table: for the wall time and for the CPU time of the demo call, the medians over the
# rounds in each tree, ratio = median NEW / median BASE and the range of the per-round ratios
# NEW/BASE (their spread is the noise of the machine); the pass flags base/new (1 = all ([r.pass])
# in every run; demo_sbp_convergence and demo_pars report 0 by design, see their tests); ">20%"
# where the wall-time ratio is above 1.2.  On a machine shared with other jobs the CPU time is
# the steadier measure (a process that waits for a core is not charged for it).  Needs POSIX sh,
# GNU date (%N) and awk.

set -u
if [ $# -lt 2 ]; then
  echo "usage: $0 BASE NEW [REPEATS [DEMO ...]]" >&2
  exit 2
fi
base=$(cd "$1" && pwd) || exit 2
new=$(cd "$2" && pwd) || exit 2
reps=${3:-3}
shift 2
[ $# -gt 0 ] && shift
if [ $# -gt 0 ]; then
  demos="$*"
else
  demos=$(cd "$new/demos" && ls demo_*.m | sed 's/\.m$//')
fi
octave=${OCTAVE:-octave-cli}
work=$(mktemp -d "${TMPDIR:-/tmp}/demo_timing.XXXXXX") || exit 1
log="$work/runs.txt"
: > "$log"

run_one () {
  # $1 = tag (base|new), $2 = tree, $3 = demo
  t0=$(date +%s.%N)
  out=$(cd "$work" && "$octave" --no-gui --norc --no-history --quiet --eval \
    "addpath ('$2', '$2/inst', '$2/demos'); c0 = cputime (); t0 = tic; r = $3 ('quiet'); el = toc (t0); c1 = cputime (); fprintf ('DEMOTIME %.4f %d %.4f\n', el, all ([r.pass]), c1 - c0);" 2>&1)
  st=$?
  t1=$(date +%s.%N)
  line=$(printf '%s\n' "$out" | grep '^DEMOTIME' | tail -n 1)
  if [ $st -ne 0 ] || [ -z "$line" ]; then
    printf '%s %s NaN %s 0 NaN (exit %d)\n' "$1" "$3" "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')" "$st" | tee -a "$log"
    printf '%s\n' "$out" | tail -n 5 >&2
    return
  fi
  set -- "$1" "$3" $line
  printf '%s %s %s %s %s %s\n' "$1" "$2" "$4" "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')" "$5" "$6" | tee -a "$log"
}

echo "# demo_timing: base $base, new $new, $reps rounds; runs: tree demo demo[s] process[s] pass cpu[s]"
for d in $demos; do
  i=1
  while [ $i -le "$reps" ]; do
    if [ $((i % 2)) -eq 1 ]; then
      run_one base "$base" "$d"
      run_one new "$new" "$d"
    else
      run_one new "$new" "$d"
      run_one base "$base" "$d"
    fi
    i=$((i + 1))
  done
done

echo
awk -v reps="$reps" '
  function median (a, n,    i, j, t, b) {
    for (i = 1; i <= n; i++) b[i] = a[i]
    for (i = 2; i <= n; i++) { t = b[i]; for (j = i - 1; j >= 1 && b[j] > t; j--) b[j+1] = b[j]; b[j+1] = t }
    if (n % 2) return b[(n + 1) / 2]
    return (b[n / 2] + b[n / 2 + 1]) / 2
  }
  {
    d = $2
    if (!(d in seen)) { seen[d] = 1; order[++nd] = d }
    k = ++cnt[$1, d]
    t[$1, d, k] = $3; c[$1, d, k] = $6
    if ($5 != 1) bad[$1, d] = 1
  }
  END {
    printf "%-29s %8s %8s %6s %11s | %8s %8s %6s %11s | %5s\n", "demo", "base [s]", "new [s]", "ratio", "(rounds)", "base cpu", "new cpu", "ratio", "(rounds)", "pass"
    for (i = 1; i <= nd; i++) {
      d = order[i]; n = cnt["base", d]; if (cnt["new", d] < n) n = cnt["new", d]
      lo = 1e30; hi = -1e30; clo = 1e30; chi = -1e30
      for (k = 1; k <= n; k++) {
        tb[k] = t["base", d, k]; tn[k] = t["new", d, k]; cb[k] = c["base", d, k]; cn[k] = c["new", d, k]
        if (tb[k] > 0) { q = tn[k] / tb[k]; if (q < lo) lo = q; if (q > hi) hi = q }
        if (cb[k] > 0) { q = cn[k] / cb[k]; if (q < clo) clo = q; if (q > chi) chi = q }
      }
      mb = median(tb, n); mn = median(tn, n); mcb = median(cb, n); mcn = median(cn, n)
      flag = ""; if (mb > 0 && mn / mb > 1.2) flag = " >20%"
      printf "%-29s %8.3f %8.3f %6.2f %5.2f-%-5.2f | %8.3f %8.3f %6.2f %5.2f-%-5.2f | %2d/%-2d%s\n", d, mb, mn, (mb > 0 ? mn / mb : 0), lo, hi, mcb, mcn, (mcb > 0 ? mcn / mcb : 0), clo, chi, !bad["base", d], !bad["new", d], flag
    }
  }' "$log"
rm -rf "$work"
