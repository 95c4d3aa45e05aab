#!/usr/bin/env bash
# The scale benchmark on the embedded default a small team runs: `vigil cluster scale --standalone` (one JVM holding
# the broker, PostgreSQL, Streams, the notifier, ingest and a probe worker per region, plus the target and the topic
# readers) on a fresh data directory, its output kept in a log.
# Usage: bench/standalone-scale.sh [--data-dir DIR] [vigil cluster scale options, e.g. --steps 10000,20000
#        --fault-region asia-east]
# Defaults: --data-dir /var/tmp/vigil-standalone-scale, steps 10000,30000,100000 at 60 s from 3 regions.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
data=/var/tmp/vigil-standalone-scale
rest=()
while [ $# -gt 0 ]; do
  case "$1" in
    --data-dir) data="$2"; shift 2 ;;
    *) rest+=("$1"); shift ;;
  esac
done
case "$data" in
  /var/tmp/*|/tmp/*) rm -rf "$data" ;;
  *) echo "standalone-scale: not removing $data (only under /var/tmp or /tmp); remove it yourself for a fresh run" >&2 ;;
esac
mkdir -p "$data"
log="$data.$(date -u +%Y%m%dT%H%M%SZ).log"
echo "standalone-scale: log $log" >&2
export VIGIL_JAVA_OPTS="${VIGIL_JAVA_OPTS:--Xmx4g}"
"$here/vigil" cluster scale --standalone --data-dir "$data" --no-restore "${rest[@]}" 2>&1 | tee "$log"
exit "${PIPESTATUS[0]}"
