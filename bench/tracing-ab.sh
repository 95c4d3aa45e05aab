#!/usr/bin/env bash
# The cost of tracing: the verdict and the notifier harnesses with span export off and on (every span, sample ratio
# 1.0, to a collector in the driver that answers at once and keeps nothing), same build, in alternating runs.
#
#   bench/tracing-ab.sh [--pairs P] [--monitors N] [--rounds R] [--events E] [--warmup W] [--only verdicts|notifier]
#
# Each run is a fresh JVM with its own in-process broker (and PostgreSQL for the notifier). Prints every RESULT line
# and, per harness, the median over runs of each side and the ratio on/off of those medians:
#   verdicts  verdict_results_per_s, verdict_results_per_cpu_s, latency_p99_ms
#   notifier  deliveries_per_s, deliveries_per_jvm_cpu_s, p50_ms, p99_ms
# Defaults: 3 pairs, 10,000 monitors x 3 regions x 10 windows x 4 rounds, 10,000 alerts after 20,000 warm-up ones.
# The export-off path against the code before tracing is bench/streams-ab.sh --base REV. Needs Maven (online on a
# fresh machine) and python3.
set -euo pipefail

PAIRS=3
MONITORS=10000
ROUNDS=4
EVENTS=10000
WARMUP=20000
HARNESSES="verdicts notifier"
while [ $# -gt 0 ]; do
  case "$1" in
    --pairs) PAIRS="$2"; shift 2 ;;
    --monitors) MONITORS="$2"; shift 2 ;;
    --rounds) ROUNDS="$2"; shift 2 ;;
    --events) EVENTS="$2"; shift 2 ;;
    --warmup) WARMUP="$2"; shift 2 ;;
    --only) HARNESSES="$2"; shift 2 ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    *) echo "unknown option $1 (known: --pairs P --monitors N --rounds R --events E --warmup W --only H)" >&2; exit 2 ;;
  esac
done

ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d /tmp/vigil-tracing-ab-XXXX)
echo "logs: $WORK"
(cd "$ROOT" && mvn -B -q -Dvigil.target=target-trace -pl bench -am package -DskipTests dependency:build-classpath \
    -Dmdep.outputFile="$WORK/deps" -Dmdep.includeScope=runtime >"$WORK/build.log" 2>&1) || {
  echo "build failed; see $WORK/build.log" >&2; exit 1; }
CP="$ROOT/bench/target-trace/classes:$(cat "$WORK/deps")"

run() { # $1 = off|on, $2 = harness, $3 = run number
  local log="$WORK/$2-$1-$3.log"
  uptime >"$log"
  case "$2" in
    verdicts) java -Xmx4g -Dvigil.bench.otel="$1" -cp "$CP" dev.vigil.bench.streams.VerdictPipelineBench \
        --monitors "$MONITORS" --regions 3 --windows 10 --rounds "$ROUNDS" >>"$log" 2>&1 ;;
    notifier) java -Xmx2g -Dvigil.bench.otel="$1" -cp "$CP" dev.vigil.bench.notifier.NotifierThroughputBench \
        --events "$EVENTS" --warmup "$WARMUP" --paced-rate 1000 --paced-seconds 5 --reference-seconds 0 >>"$log" 2>&1 ;;
  esac
  local line
  line=$(grep '^RESULT' "$log" | tail -1)
  if [ -z "$line" ]; then echo "$2 with export $1 printed no RESULT; see $log" >&2; exit 1; fi
  echo "$1 $2 $line" | tee -a "$WORK/results.txt"
}

for harness in $HARNESSES; do
  for i in $(seq 1 "$PAIRS"); do
    if [ $((i % 2)) -eq 1 ]; then run off "$harness" "$i"; run on "$harness" "$i";
    else run on "$harness" "$i"; run off "$harness" "$i"; fi
  done
done

python3 - "$WORK/results.txt" <<'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    side, harness, _, name, *fields = line.split()
    kv = dict(f.split("=", 1) for f in fields if "=" in f)
    rows.setdefault((harness, side), []).append(kv)
def med(harness, side, key):
    return statistics.median(float(r[key]) for r in rows[(harness, side)])
for harness, keys in (("verdicts", ("verdict_results_per_s", "verdict_results_per_cpu_s", "latency_p99_ms")),
                      ("notifier", ("deliveries_per_s", "deliveries_per_jvm_cpu_s", "p50_ms", "p99_ms"))):
    if (harness, "off") not in rows:
        continue
    for key in keys:
        off, on = med(harness, "off", key), med(harness, "on", key)
        print(f"{harness:9} {key:26} off {off:12.3f}  on {on:12.3f}  on/off {on / off:6.3f}")
PY
