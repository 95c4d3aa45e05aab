#!/usr/bin/env bash
# Vigil's notifier next to Prometheus Alertmanager (Debian's prometheus-alertmanager), in alternating rounds
# (Alertmanager, Vigil, Alertmanager, Vigil, ...): N distinct critical alerts to a local webhook sink, deliveries/s,
# deliveries per CPU-second, p50/p99 at 1,000/s, the median of each figure over the rounds, and the ratios
# Vigil/Alertmanager of the medians. Each round runs Vigil twice: its notifier in the benchmark's JVM beside the
# broker (the headline: that whole JVM is costed), and as deployed, a process of its own costed from /proc.
# Installs nothing: without the package it prints SKIP and exits 0.
#
#   bench/notifier-vs-alertmanager.sh [--events N] [--rounds R] [--warmup W] [--paced-warmup S]
#
# --events: distinct alerts per burst (default 10000). --rounds: how many times each side runs (default 3; on a
# small shared VM one 10,000-alert burst of either side varies by a quarter from run to run, so a single pair
# proves little). --warmup: alerts each side handles before its measured burst, the same for both (default 20000:
# the notifier is a long-lived JVM service whose JIT is still compiling after the first few thousand events, and
# Alertmanager gets as many, which grows its heap and opens its connections). --paced-warmup: seconds of the paced
# shape (1,000/s) each side runs after that and before anything is measured (default 40: the paced shape runs
# code the burst does not, and the notifier's JIT was still compiling it 10 s in).
# ALERTMANAGER=/path/to/alertmanager overrides the binary. Results: bench/target/results/{alertmanager,notifier}-throughput.json
# (the last round) and the rounds on standard output.
set -euo pipefail

EVENTS=10000
ROUNDS=3
WARMUP=20000
PACED_WARMUP=40
while [ $# -gt 0 ]; do
  case "$1" in
    --events) EVENTS="$2"; shift 2 ;;
    --rounds) ROUNDS="$2"; shift 2 ;;
    --warmup) WARMUP="$2"; shift 2 ;;
    --paced-warmup) PACED_WARMUP="$2"; shift 2 ;;
    -h|--help) sed -n '2,21p' "$0"; exit 0 ;;
    *) echo "unknown option $1 (known: --events N --rounds R --warmup W --paced-warmup S)" >&2; exit 2 ;;
  esac
done

AM="${ALERTMANAGER:-/usr/bin/prometheus-alertmanager}"
if [ ! -x "$AM" ]; then
  echo "SKIP alertmanager not installed (apt-get install prometheus-alertmanager)"
  exit 0
fi

cd "$(dirname "$0")/.."
ROOT=$(pwd)
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

echo "== build (bench/target-am)"
mvn -B -q -Dvigil.target=target-am -pl bench -am package -DskipTests dependency:build-classpath \
    -Dmdep.outputFile=target-am/classpath.txt -Dmdep.includeScope=runtime
CP="$ROOT/bench/target-am/classes:$(cat "$ROOT/bench/target-am/classpath.txt")"

others=$(pgrep -f 'dev\.vigil\.bench\.|prometheus-alertmanager --config' || true)
if [ -n "$others" ]; then
  echo "warning: other benchmark processes are running (pids: $(echo $others)); the figures will be disturbed" >&2
fi

for round in $(seq 1 "$ROUNDS"); do
  echo "== round $round of $ROUNDS: alertmanager ($("$AM" --version 2>&1 | head -1))"
  uptime
  java -Xmx1g -cp "$CP" dev.vigil.bench.notifier.AlertmanagerBench --alertmanager "$AM" \
      --events "$EVENTS" --warmup "$WARMUP" --paced-warmup "$PACED_WARMUP" --paced-rate 1000 --paced-seconds 5 \
      | tee "$OUT/am-$round.txt"
  echo "== round $round of $ROUNDS: vigil notifier"
  uptime
  # the notifier's own JVM flags (notifier/.../NotifierJvm.java: the throughput collector), as it runs deployed
  java -Xmx2g -XX:+UseParallelGC -cp "$CP" dev.vigil.bench.notifier.NotifierThroughputBench \
      --events "$EVENTS" --warmup "$WARMUP" --paced-warmup "$PACED_WARMUP" --paced-rate 1000 --paced-seconds 5 \
      --reference-seconds "$([ "$round" = 1 ] && echo 10 || echo 0)" | tee "$OUT/vigil-$round.txt"
  echo "== round $round of $ROUNDS: vigil notifier as a process of its own"
  uptime
  # the notifier in a second JVM (its deployed flags), costed from /proc as Alertmanager's process is
  java -Xmx1g -cp "$CP" dev.vigil.bench.notifier.NotifierThroughputBench --notifier-process \
      --events "$EVENTS" --warmup "$WARMUP" --paced-warmup "$PACED_WARMUP" --paced-rate 1000 --paced-seconds 5 \
      --reference-seconds 0 | tee "$OUT/proc-$round.txt"
  for side in am vigil proc; do
    if ! grep -q '^RESULT ' "$OUT/$side-$round.txt"; then
      echo "round $round: the $side RESULT line is missing" >&2
      exit 1
    fi
  done
done

echo "== kill -9 variant: a notifier process killed after 30 % of a $EVENTS-event burst, a second one finishing it"
uptime
java -Xmx1g -cp "$CP" dev.vigil.bench.notifier.NotifierKillBench --events "$EVENTS" --kill-at 0.3 | tee "$OUT/kill.txt"
if ! grep -q '^RESULT ' "$OUT/kill.txt"; then
  echo "the kill -9 variant's RESULT line is missing" >&2
  exit 1
fi

# value of key=... in a RESULT line
val() { echo "$1" | tr ' ' '\n' | sed -n "s/^$2=//p" | head -1; }
# median of key over the rounds of one side
median() {
  for f in "$OUT"/"$1"-*.txt; do val "$(grep '^RESULT ' "$f" | tail -1)" "$2"; done | sort -g \
    | awk '{ v[NR] = $1 } END { if (NR == 0) print "n/a"; else if (NR % 2) print v[(NR + 1) / 2]; else printf "%.2f", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
rounds() { for f in "$OUT"/"$1"-*.txt; do val "$(grep '^RESULT ' "$f" | tail -1)" "$2"; done | tr '\n' ' '; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b + 0 == 0) print "n/a"; else printf "%.2f", a / b }'; }

echo
echo "== Vigil notifier vs Alertmanager, $EVENTS distinct alerts, $ROUNDS alternating rounds, $WARMUP warm-up alerts each, medians"
grep -h '^RESULT ' "$OUT"/vigil-*.txt "$OUT"/proc-*.txt "$OUT"/am-*.txt
printf '%-28s %12s %14s %10s   %s\n' "" "vigil" "alertmanager" "vigil/am" "rounds (vigil | alertmanager)"
# row SIDE LABEL VIGIL_KEY AM_KEY: one figure's medians, their ratio and every round's value
side_row() {
  local v a
  v=$(median "$1" "$3"); a=$(median am "$4")
  printf '%-28s %12s %14s %10s   %s| %s\n' "$2" "$v" "$a" "$(ratio "$v" "$a")" "$(rounds "$1" "$3")" "$(rounds am "$4")"
}
row() { side_row vigil "$@"; }
row "deliveries/s" deliveries_per_s deliveries_per_s
row "deliveries per CPU-second" deliveries_per_jvm_cpu_s deliveries_per_cpu_s
row "  with PostgreSQL's CPU" deliveries_per_cpu_s_with_pg deliveries_per_cpu_s
row "  and without driver, sink" deliveries_per_cpu_s_without_driver deliveries_per_cpu_s
row "p50 ms at 1000/s" p50_ms p50_ms
row "p99 ms at 1000/s" p99_ms p99_ms
echo "(throughput ratios above 1 favour Vigil, latency ratios below 1 favour Vigil. Vigil's CPU is its whole JVM:"
echo " notifier, Kafka broker, producer and sink; the second row adds PostgreSQL's processes (pg_cpu_seconds)."
echo " The third leaves out the driver's producer and the sink, as Alertmanager's side does; the broker stays in."
echo " Alertmanager's is its own process only, without the driver and sink (driver_jvm_cpu_seconds).)"
echo "-- the notifier as deployed, a process of its own, costed as Alertmanager's process is (the broker, producer and"
echo "   sink stay in the benchmark's JVM; the last row adds the broker's threads, not that JVM's JIT and collector)"
side_row proc "deliveries/s" deliveries_per_s deliveries_per_s
side_row proc "deliveries per CPU-second" deliveries_per_notifier_cpu_s deliveries_per_cpu_s
side_row proc "  with PostgreSQL's CPU" deliveries_per_notifier_pg_cpu_s deliveries_per_cpu_s
side_row proc "  and the broker's threads" deliveries_per_notifier_pg_broker_cpu_s deliveries_per_cpu_s
side_row proc "p50 ms at 1000/s" p50_ms p50_ms
side_row proc "p99 ms at 1000/s" p99_ms p99_ms
echo
echo "== kill -9 variant (lost and delivered_twice_recorded must be 0; resent_unrecorded are sends the killed process"
echo "   made but could not record, deduplicated by the receiver on X-Vigil-Event-Id)"
grep -h '^RESULT ' "$OUT/kill.txt"
