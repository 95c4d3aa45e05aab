#!/bin/sh
# One-shot topic creation for the compose stack (service `topics`). Mirrors
# schemas/src/main/java/dev/vigil/schemas/topic/Topics.java: Topics.all() names, partitions and cleanup
# policy; one replica (single broker). ComposeFileTest checks that the `create` lines below equal Topics.all().
set -eu

BOOTSTRAP="${KAFKA_BOOTSTRAP:-kafka:9092}"
TOPICS_BIN="${KAFKA_HOME:-/opt/kafka}/bin/kafka-topics.sh"

create() {
  name="$1"; partitions="$2"; policy="$3"
  "$TOPICS_BIN" --bootstrap-server "$BOOTSTRAP" --create --if-not-exists \
    --topic "$name" --partitions "$partitions" --replication-factor 1 \
    --config "cleanup.policy=$policy"
  echo "topic $name: $partitions partitions, cleanup.policy=$policy"
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

echo "all Vigil topics present"
