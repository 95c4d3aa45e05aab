#!/usr/bin/env bash
# kill -9 of the standalone stack, then a restart: how long Vigil decides nothing.
#
#   bench/standalone-crash-restart.sh [--rounds R] [--settle S] [--jar PATH]
#
# Runs `vigil demo` (monitors every 10 s from three regions) on a fresh data directory, waits until verdicts flow
# and then --settle seconds more (default 40), kills the JVM with SIGKILL, restarts it on the same directory and
# polls /v1/status every 200 ms. Reported per round:
#   first_verdict_s   restart → the first verdict decided after it (its decidedAt), the figure that matters
#   query_up_s        restart → /v1/status answering 200
#   steps             the launcher's own timings of each step of the restart (Kafka, PostgreSQL, Streams ...)
#   leftover_pg       whether the restart found the killed JVM's PostgreSQL still running and stopped it
# --jar runs another build (an A/B against an older vigil.jar on the same machine load).
# Uses the standalone's default ports (9092, 5433, 8080-8083 ...): nothing else may hold them. Needs python3 and
# curl. Logs stay in the printed directory.
set -euo pipefail

ROUNDS=1
SETTLE=40
JAR=
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) ROUNDS="$2"; shift 2 ;;
    --settle) SETTLE="$2"; shift 2 ;;
    --jar) JAR="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"; shift 2 ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    *) echo "unknown option $1 (known: --rounds R --settle S --jar PATH)" >&2; exit 2 ;;
  esac
done

cd "$(dirname "$0")/.."
if [ -z "$JAR" ]; then
  ./vigil --version >/dev/null   # builds standalone/target/vigil.jar when it is missing or stale
  JAR=standalone/target/vigil.jar
fi
WORK=$(mktemp -d /tmp/vigil-crash-XXXX)
DATA="$WORK/data"
URL=http://127.0.0.1:8081/v1/status
PID=

now_ms() { date +%s%3N; }
cleanup() {
  if [ -n "$PID" ] && kill -0 "$PID" 2>/dev/null; then
    kill "$PID" 2>/dev/null || true
    wait "$PID" 2>/dev/null || true
  fi
}
trap cleanup EXIT

start() {
  java ${VIGIL_JAVA_OPTS:-} -jar "$JAR" demo --data-dir "$DATA" >"$WORK/run-$1.log" 2>&1 &
  PID=$!
}

# newest decidedAt over all monitors, or 0; empty when the API does not answer
newest_verdict() {
  local token
  token=$(cat "$DATA/config/admin-token" 2>/dev/null) || return 0
  curl -s -m 2 -H "Authorization: Bearer $token" "$URL" 2>/dev/null | python3 -c '
import json, sys
try:
    d = json.load(sys.stdin)
except Exception:
    sys.exit(0)
rows = d.get("monitors", d) if isinstance(d, dict) else d
print(max([r.get("decidedAt") or 0 for r in rows if isinstance(r, dict)] or [0]))' 2>/dev/null || true
}

echo "== work dir $WORK"
start 0
deadline=$(( $(now_ms) + 300000 ))
until [ "$(newest_verdict)" != "" ] && [ "$(newest_verdict)" -gt 0 ]; do
  [ "$(now_ms)" -gt "$deadline" ] && { echo "no verdict within 300 s of the first start; see $WORK/run-0.log" >&2; exit 1; }
  sleep 1
done
echo "verdicts flow; settling ${SETTLE}s"
sleep "$SETTLE"

for round in $(seq 1 "$ROUNDS"); do
  before=$(newest_verdict)
  kill -9 "$PID"
  wait "$PID" 2>/dev/null || true
  orphan=$(head -1 "$DATA/postgres/postmaster.pid" 2>/dev/null || true)
  t0=$(now_ms)
  start "$round"
  query_up=
  first=
  deadline=$(( t0 + 180000 ))
  while [ -z "$first" ]; do
    v=$(newest_verdict)
    t=$(now_ms)
    if [ -n "$v" ] && [ -z "$query_up" ]; then query_up=$(( t - t0 )); fi
    if [ -n "$v" ] && [ "$v" -gt "$t0" ]; then first=$(( v - t0 )); fi
    [ "$t" -gt "$deadline" ] && { echo "round $round: no verdict within 180 s of the restart; see $WORK/run-$round.log" >&2; exit 1; }
    sleep 0.2
  done
  leftover=no
  if grep -q "left by an earlier process" "$WORK/run-$round.log"; then leftover="yes (pid $orphan)"; fi
  steps=$(grep -E '^\s+(kafka|postgres|streams|notifier|ingest|probe)[^(]*\([0-9.]+ ?m?s\)' "$WORK/run-$round.log" \
    | sed -E 's/^\s+([a-z]+( worker [a-z-]+)?).*\(([0-9.]+ ?m?s)\)$/\1=\3/' | tr -d ' ' | tr '\n' ' ' || true)
  printf 'RESULT crash-restart round=%s first_verdict_s=%.1f query_up_s=%.1f verdict_before_kill_ms_ago=%s leftover_pg=%s\n' \
    "$round" "$(awk -v v="$first" 'BEGIN { print v / 1000 }')" "$(awk -v v="${query_up:-0}" 'BEGIN { print v / 1000 }')" "$(( t0 - before ))" "$leftover"
  echo "  steps: $steps"
  grep -E "corrupted|Restoration|restored|DuplicateBrokerRegistration|fenced" "$WORK/run-$round.log" | head -5 | cut -c1-200 || true
  if [ "$round" -lt "$ROUNDS" ]; then sleep "$SETTLE"; fi
done
