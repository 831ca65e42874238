#!/usr/bin/env bash
# /opt/kafka/bin/<tool>.sh of the official image, for the tools this project and its operators use: the
# name it is called by picks the class (kafka-run-class.sh takes the class as its first argument).
set -euo pipefail
case "$(basename "$0")" in
  kafka-broker-api-versions.sh) class=kafka.admin.BrokerApiVersionsCommand ;;
  kafka-topics.sh) class=org.apache.kafka.tools.TopicCommand ;;
  kafka-consumer-groups.sh) class=org.apache.kafka.tools.consumer.group.ConsumerGroupCommand ;;
  kafka-storage.sh) class=kafka.tools.StorageTool ;;
  kafka-metadata-quorum.sh) class=org.apache.kafka.tools.MetadataQuorumCommand ;;
  kafka-server-start.sh) class=kafka.Kafka ;;
  kafka-run-class.sh) class="$1"; shift ;;
  *) echo "unknown tool: $0" >&2; exit 2 ;;
esac
log4j=/opt/kafka/config/tools-log4j.properties
if [ ! -w /opt/kafka/config ] || [ ! -f "$log4j" ]; then log4j=/dev/null; fi
# shellcheck disable=SC2086 # the *_OPTS variables are lists of JVM flags, as in the official scripts
exec java ${KAFKA_HEAP_OPTS:--Xmx256m} ${KAFKA_JVM_PERFORMANCE_OPTS:--XX:+UseSerialGC -XX:TieredStopAtLevel=1} ${KAFKA_OPTS:-} \
  -Djava.awt.headless=true "-Dlog4j.configuration=file:$log4j" -cp '/opt/kafka/libs/*' "$class" "$@"
