#!/usr/bin/env bash
# Vigil's notifier next to Prometheus Alertmanager (Debian's prometheus-alertmanager), one after the other:
# N distinct critical alerts to a local webhook sink, deliveries/s, deliveries per CPU-second, p50/p99 at 1,000/s,
# and the ratios Vigil/Alertmanager. Installs nothing: without the package it prints SKIP and exits 0.
#
#   bench/notifier-vs-alertmanager.sh [--events N]       (default 10000)
#
# ALERTMANAGER=/path/to/alertmanager overrides the binary. Results: bench/target/results/{alertmanager,notifier}-throughput.json
set -euo pipefail

EVENTS=10000
while [ $# -gt 0 ]; do
  case "$1" in
    --events) EVENTS="$2"; shift 2 ;;
    -h|--help) sed -n '2,8p' "$0"; exit 0 ;;
    *) echo "unknown option $1 (known: --events N)" >&2; exit 2 ;;
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
mvn -B -o -q -Dvigil.target=target-am -pl bench -am package -DskipTests dependency:build-classpath \
    -Dmdep.outputFile=target-am/classpath.txt -Dmdep.includeScope=runtime
CP="$ROOT/bench/target-am/classes:$(cat "$ROOT/bench/target-am/classpath.txt")"

others=$(pgrep -f 'dev\.vigil\.bench\.|prometheus-alertmanager --config' || true)
if [ -n "$others" ]; then
  echo "warning: other benchmark processes are running (pids: $(echo $others)); the figures will be disturbed" >&2
fi

echo "== alertmanager ($("$AM" --version 2>&1 | head -1))"
uptime
java -Xmx1g -cp "$CP" dev.vigil.bench.notifier.AlertmanagerBench --alertmanager "$AM" \
    --events "$EVENTS" --paced-rate 1000 --paced-seconds 5 | tee "$OUT/am.txt"

echo "== vigil notifier"
uptime
java -Xmx2g -cp "$CP" dev.vigil.bench.notifier.NotifierThroughputBench \
    --events "$EVENTS" --paced-rate 1000 --paced-seconds 5 | tee "$OUT/vigil.txt"

AM_LINE=$(grep '^RESULT alertmanager-throughput' "$OUT/am.txt" | tail -1)
VIGIL_LINE=$(grep '^RESULT notifier-throughput' "$OUT/vigil.txt" | tail -1)
if [ -z "$AM_LINE" ] || [ -z "$VIGIL_LINE" ]; then
  echo "a RESULT line is missing" >&2
  exit 1
fi

# value of key=... in a RESULT line
val() { echo "$1" | tr ' ' '\n' | sed -n "s/^$2=//p" | head -1; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b + 0 == 0) print "n/a"; else printf "%.2f", a / b }'; }

echo
echo "== Vigil notifier vs Alertmanager, $EVENTS distinct alerts, paced 1000/s for 5 s"
echo "$VIGIL_LINE"
echo "$AM_LINE"
printf '%-28s %12s %14s %14s\n' "" "vigil" "alertmanager" "vigil/am"
row() { printf '%-28s %12s %14s %14s\n' "$1" "$2" "$3" "$(ratio "$2" "$3")"; }
row "deliveries/s" "$(val "$VIGIL_LINE" deliveries_per_s)" "$(val "$AM_LINE" deliveries_per_s)"
row "deliveries per CPU-second" "$(val "$VIGIL_LINE" deliveries_per_jvm_cpu_s)" "$(val "$AM_LINE" deliveries_per_cpu_s)"
row "p50 ms at 1000/s" "$(val "$VIGIL_LINE" p50_ms)" "$(val "$AM_LINE" p50_ms)"
row "p99 ms at 1000/s" "$(val "$VIGIL_LINE" p99_ms)" "$(val "$AM_LINE" p99_ms)"
echo "(throughput ratios above 1 favour Vigil, latency ratios below 1 favour Vigil. Vigil's CPU is its whole JVM:"
echo " notifier, Kafka broker, producer and sink, without PostgreSQL's processes; Alertmanager's is its own process"
echo " only, without the driver and sink (driver_jvm_cpu_seconds).)"
