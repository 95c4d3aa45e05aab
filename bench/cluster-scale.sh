#!/usr/bin/env bash
# The scale benchmark (docs/cluster.md#sizing): `vigil cluster scale` on a fresh data directory, its output kept in a log.
# Usage: bench/cluster-scale.sh [--data-dir DIR] [--base-port PORT] [vigil cluster scale options, e.g. --steps 1000,2000]
# Defaults: --data-dir /var/tmp/vigil-scale --base-port 25000, steps 10000,30000,100000 at 60 s from 3 regions.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
data=/var/tmp/vigil-scale
port=25000
rest=()
while [ $# -gt 0 ]; do
  case "$1" in
    --data-dir) data="$2"; shift 2 ;;
    --base-port) port="$2"; shift 2 ;;
    *) rest+=("$1"); shift ;;
  esac
done
# a cluster left running from an earlier run stops first; then its data goes (the steps count monitors from 1)
"$here/vigil" cluster down --data-dir "$data" --base-port "$port" --repo "$here" >/dev/null 2>&1 || true
case "$data" in
  /var/tmp/*|/tmp/*) rm -rf "$data" ;;
  *) echo "cluster-scale: not removing $data (only under /var/tmp or /tmp); remove it yourself for a fresh run" >&2 ;;
esac
mkdir -p "$data"
log="$data.$(date -u +%Y%m%dT%H%M%SZ).log"
echo "cluster-scale: log $log" >&2
export VIGIL_JAVA_OPTS="${VIGIL_JAVA_OPTS:--Xmx2g}"
"$here/vigil" cluster scale --data-dir "$data" --base-port "$port" --repo "$here" "${rest[@]}" 2>&1 | tee "$log"
exit "${PIPESTATUS[0]}"
