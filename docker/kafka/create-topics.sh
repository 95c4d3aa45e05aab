#!/bin/sh
# One-shot topic creation for the compose stack (service `topics`). Mirrors
# schemas/src/main/java/dev/vigil/schemas/topic/Topics.java: Topics.all() names, partitions and cleanup
# policy; one replica (single broker) unless KAFKA_REPLICATION_FACTOR says otherwise (`vigil cluster` gives 3).
# ComposeFileTest checks that the `create` lines below equal Topics.all().
set -eu

BOOTSTRAP="${KAFKA_BOOTSTRAP:-kafka:9092}"
TOPICS_BIN="${KAFKA_HOME:-/opt/kafka}/bin/kafka-topics.sh"
REPLICATION_FACTOR="${KAFKA_REPLICATION_FACTOR:-1}"

# create NAME PARTITIONS compact|delete [RETENTION_MS]: without RETENTION_MS the broker's default retention applies.
create() {
  name="$1"; partitions="$2"; policy="$3"; retention="${4:-}"
  if [ -n "$retention" ]; then
    "$TOPICS_BIN" --bootstrap-server "$BOOTSTRAP" --create --if-not-exists \
      --topic "$name" --partitions "$partitions" --replication-factor "$REPLICATION_FACTOR" \
      --config "cleanup.policy=$policy" --config "retention.ms=$retention"
    echo "topic $name: $partitions partitions, cleanup.policy=$policy, retention.ms=$retention"
  else
    "$TOPICS_BIN" --bootstrap-server "$BOOTSTRAP" --create --if-not-exists \
      --topic "$name" --partitions "$partitions" --replication-factor "$REPLICATION_FACTOR" \
      --config "cleanup.policy=$policy"
    echo "topic $name: $partitions partitions, cleanup.policy=$policy"
  fi
}

create vigil.monitors 6 compact
create vigil.probe-results 6 delete
create vigil.heartbeats 3 delete
create vigil.metrics 6 delete
create vigil.monitor-status 6 compact
create vigil.alert-rules 1 compact
create vigil.alerts 6 delete
create vigil.silences 1 compact
create vigil.dead-letter 3 delete
# Who changed what (silences, acknowledgements, monitors applied): an append-only log, never compacted (a later
# record must not replace an earlier one), kept 90 days (7776000000 ms).
create vigil.audit 1 delete 7776000000
create vigil.acks 1 compact
create vigil.vendor-updates 1 delete 604800000
# regions: which regions live workers serve, keyed by region (Streams' region watch; vigil monitors apply reads it)
create vigil.regions 1 compact
# escalations: where each incident's escalation climb stands, keyed by fingerprint (notifier → console)
create vigil.escalations 1 compact
# incident notes: each page's deliveries per channel, unacknowledgements; keyed by fingerprint with as many
# partitions as vigil.alerts (Streams reads both into each incident's timeline), kept 7 days
create vigil.incident-notes 6 delete 604800000

echo "all Vigil topics present"
