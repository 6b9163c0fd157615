#!/usr/bin/env bash
# Webhook latency benchmark: "event committed to Kafka -> webhook received", p50/p90/p99, under sustained load
# with one dead receiver. It starts the whole suite from the services' current jars (system-tests' Suite, ports
# 18080-18085, *_it databases, test Kafka on 127.0.0.1:19092), produces transaction events at a fixed rate and
# measures in the same JVM as the receivers. Not part of `mvn verify`.
#
#   bench/webhook-latency.sh [--rate 200] [--seconds 30] [--warmup 5] [--receivers 10] [--fanout spread|all]
#
#   --fanout spread  each receiver has its own account and webhook; events go round-robin, one delivery each
#   --fanout all     one account with every webhook; each event goes to every receiver
#
# Needs: the services built (./mvnw install, or at least `-pl webhook-service`), and the test infrastructure up
# (flock /tmp/cryptopay-maven.lock deploy/local/up --test). Runs Maven under the shared build lock, offline.
# Result: stdout and system-tests/target/bench/webhook-latency.txt
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

rate=200 seconds=30 warmup=5 receivers=10 fanout=spread
while (($#)); do
  case "$1" in
    --rate) rate="$2"; shift 2 ;;
    --seconds) seconds="$2"; shift 2 ;;
    --warmup) warmup="$2"; shift 2 ;;
    --receivers) receivers="$2"; shift 2 ;;
    --fanout) fanout="$2"; shift 2 ;;
    -h | --help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "webhook-latency: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done

if ! (exec 3<>/dev/tcp/127.0.0.1/19092) 2>/dev/null; then
  echo "webhook-latency: no test Kafka on 127.0.0.1:19092; run: flock /tmp/cryptopay-maven.lock deploy/local/up --test" >&2
  exit 1
fi
for svc in gateway merchant transaction subscription webhook reporting; do
  [[ -f "$svc-service/target/quarkus-app/quarkus-run.jar" ]] || {
    echo "webhook-latency: $svc-service is not built; run ./mvnw -B -o install -DskipTests first" >&2
    exit 1
  }
done

export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
rm -f system-tests/target/bench/webhook-latency.txt
flock /tmp/cryptopay-maven.lock ./mvnw -B -q -o verify -pl system-tests \
  -Dit.test=WebhookLatencyBenchmark -Dsurefire.failIfNoSpecifiedTests=false \
  -Dbench.rate="$rate" -Dbench.seconds="$seconds" -Dbench.warmup="$warmup" \
  -Dbench.receivers="$receivers" -Dbench.fanout="$fanout" >/dev/null || status=$?
if [[ -f system-tests/target/bench/webhook-latency.txt ]]; then
  cat system-tests/target/bench/webhook-latency.txt
else
  echo "webhook-latency: no result; see system-tests/target/failsafe-reports and system-tests/target/suite-logs" >&2
fi
exit "${status:-0}"
