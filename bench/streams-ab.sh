#!/usr/bin/env bash
# A/B of the Streams topology: the verdict and the metric-alert harnesses on two revisions, in alternating runs.
#
#   bench/streams-ab.sh --base REV [--pairs P] [--monitors N] [--rounds R] [--metrics M] [--only verdicts|metric-alerts]
#
# Builds the bench classpath of REV (in a temporary git worktree) and of the working tree, then runs P pairs of
# each harness, alternating which side goes first, so both sides see the same share of whatever else the machine
# does. Each run is a fresh JVM with its own in-process broker. Prints every RESULT line and, per harness, the
# median over runs of each side and the ratio current/base of those medians:
#   verdicts       verdict_results_per_s and round_ratio_median (verdict rate over the raw pipe of the same round)
#   metric alerts  metrics_per_s and ratio (over the raw pipe of the same run)
# Defaults: 3 pairs, 10,000 monitors x 3 regions x 10 windows x 4 rounds, 500,000 metrics. Logs stay in the printed
# directory. Needs git, Maven (online on a fresh machine) and python3.
set -euo pipefail

BASE=
PAIRS=3
MONITORS=10000
ROUNDS=4
METRICS=500000
HARNESSES="verdicts metric-alerts"
while [ $# -gt 0 ]; do
  case "$1" in
    --base) BASE="$2"; shift 2 ;;
    --pairs) PAIRS="$2"; shift 2 ;;
    --monitors) MONITORS="$2"; shift 2 ;;
    --rounds) ROUNDS="$2"; shift 2 ;;
    --metrics) METRICS="$2"; shift 2 ;;
    --only) HARNESSES="$2"; shift 2 ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    *) echo "unknown option $1 (known: --base REV --pairs P --monitors N --rounds R --metrics M --only H)" >&2; exit 2 ;;
  esac
done
if [ -z "$BASE" ]; then
  echo "--base REV is required (the revision to compare the working tree with)" >&2
  exit 2
fi

ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d /tmp/vigil-streams-ab-XXXX)
echo "logs: $WORK"
cleanup() { git -C "$ROOT" worktree remove --force "$WORK/base" >/dev/null 2>&1 || true; }
trap cleanup EXIT

classpath() { # $1 = source tree, $2 = output file
  (cd "$1" && mvn -B -q -Dvigil.target=target-ab -pl bench -am package -DskipTests dependency:build-classpath \
      -Dmdep.outputFile="$2.deps" -Dmdep.includeScope=runtime >"$2.build.log" 2>&1) || {
    echo "build of $1 failed; see $2.build.log" >&2; exit 1; }
  echo "$1/bench/target-ab/classes:$(cat "$2.deps")" >"$2"
}

git -C "$ROOT" worktree add --detach "$WORK/base" "$BASE" >/dev/null
echo "building base ($(git -C "$WORK/base" rev-parse --short HEAD)) and current ($(git -C "$ROOT" rev-parse --short HEAD)$(git -C "$ROOT" diff --quiet HEAD || echo '+changes'))"
classpath "$WORK/base" "$WORK/base.cp"
classpath "$ROOT" "$WORK/current.cp"

run() { # $1 = side, $2 = harness, $3 = run number
  local cp log
  cp=$(cat "$WORK/$1.cp")
  log="$WORK/$2-$1-$3.log"
  case "$2" in
    verdicts) java -Xmx4g -cp "$cp" dev.vigil.bench.streams.VerdictPipelineBench --monitors "$MONITORS" --regions 3 \
        --windows 10 --rounds "$ROUNDS" >"$log" 2>&1 ;;
    metric-alerts) java -Xmx4g -cp "$cp" dev.vigil.bench.alerting.MetricAlertPipelineBench --metrics "$METRICS" \
        --apps 50 --minutes 60 --samples 200 >"$log" 2>&1 ;;
  esac
  local line
  line=$(grep '^RESULT' "$log" | tail -1)
  if [ -z "$line" ]; then echo "$2 on $1 printed no RESULT; see $log" >&2; exit 1; fi
  echo "$1 $2 $line" | tee -a "$WORK/results.txt"
}

for harness in $HARNESSES; do
  for i in $(seq 1 "$PAIRS"); do
    if [ $((i % 2)) -eq 1 ]; then run base "$harness" "$i"; run current "$harness" "$i";
    else run current "$harness" "$i"; run base "$harness" "$i"; fi
  done
done

python3 - "$WORK/results.txt" <<'EOF'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    side, harness, _, name, *fields = line.split()
    kv = dict(f.split("=", 1) for f in fields)
    rows.setdefault((harness, side), []).append(kv)
def med(harness, side, key):
    return statistics.median(float(r[key]) for r in rows[(harness, side)])
for harness, keys in (("verdicts", ("verdict_results_per_s", "round_ratio_median", "latency_p99_ms")),
                      ("metric-alerts", ("metrics_per_s", "ratio", "decision_latency_p99_ms"))):
    if (harness, "base") not in rows:
        continue
    for key in keys:
        b, c = med(harness, "base", key), med(harness, "current", key)
        print(f"{harness:14} {key:24} base {b:12.3f}  current {c:12.3f}  current/base {c / b:6.3f}")
EOF
