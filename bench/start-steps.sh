#!/usr/bin/env bash
# Where a service's start goes, step by step (docs/performance.md, thirty-seventh step). With the suite up
# (deploy/local/start), each named service is stopped and started again alone, --rounds times, 15 s apart (the
# previous start's JIT compilation and Kafka group rejoin settle first), with Quarkus' own per-step startup times
# printed into its log (-Dquarkus.debug.print-startup-times=true). The option goes in through JDK_JAVA_OPTIONS, which
# deploy/local/start does not count in the AOT cache's name, so the start uses the cache the suite's starts use: a
# JFR recording cannot show that start (JFR's module makes the JVM refuse the cache, and the JVM then loads and links
# every class itself). Each start is timed by bench/ready-time.py like the benchmark's readiness reading.
#
#   bench/start-steps.sh [--rounds 2] [--top 12] [service ...]     (default: all six)
#
# Prints per service the seconds until ready, Quarkus' "started in" and the CPU the rest of the machine used meanwhile
# (% of a core), each round; then one table of the --top steps by their mean over the rounds, ms, one column per
# service. The steps are the build steps' recorded bytecode as it runs at start (STATIC_INIT, then RUNTIME_INIT): the
# first runtime step also pays for the first reads of the runtime configuration (BannerProcessor.recordBanner where
# the banner is on, LoggingJsonProcessor.setUpFormatters where it is off), and startupEvent is every StartupEvent
# observer and @Startup bean, the Kafka channels' connection among them. Run nothing else on the machine meanwhile.
set -euo pipefail
BENCH_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$BENCH_DIR/../deploy/local/lib.sh"
. "$BENCH_DIR/lib.sh"

rounds=2 top=12 services=()
while (($# > 0)); do
  case "$1" in
    --rounds) rounds="$2"; shift 2 ;;
    --top) top="$2"; shift 2 ;;
    gateway|merchant|transaction|subscription|webhook|reporting) services+=("$1"); shift ;;
    *) die "unknown argument: $1 (bench/start-steps.sh [--rounds N] [--top N] [service ...])" ;;
  esac
done
((${#services[@]} > 0)) || services=(gateway merchant transaction subscription webhook reporting)
[[ "$rounds" =~ ^[1-9][0-9]*$ ]] || die "--rounds takes a whole number of at least 1, not '$rounds'"
[[ "$top" =~ ^[1-9][0-9]*$ ]] || die "--top takes a whole number of at least 1, not '$top'"
for s in "${services[@]}"; do
  pidfile_running "$STATE_DIR/pids/$s.pid" || die "$s-service is not running: start the suite first (deploy/local/start)"
done

out="$STATE_DIR/bench-start-steps"
rm -rf "$out" && mkdir -p "$out"
for ((round = 1; round <= rounds; round++)); do
  for s in "${services[@]}"; do
    sleep 15
    step "round $round of $rounds: $s-service started alone"
    log="$STATE_DIR/logs/$s.log"
    # deploy/local/start appends to the service's log: this start's lines are those after the current end.
    from=$(($(wc -l <"$log") + 1))
    timed=$(restart_alone "$s" "$out/start-$round-$s.log" JDK_JAVA_OPTIONS=-Dquarkus.debug.print-startup-times=true) ||
      die "$s-service did not start again; see $out/start-$round-$s.log"
    echo "$s $round $timed" >>"$out/ready.txt"
    tail -n +"$from" "$log" >"$out/log-$round-$s.txt"
    grep 'Build step .* completed in: ' "$out/log-$round-$s.txt" \
      | sed -E "s/.*Build step (.*) completed in: ([0-9]+)ms.*/$s $round \2 \1/" >>"$out/steps.txt" || true
  done
done

python3 - "$out" "$top" "${services[@]}" <<'EOF'
import collections, sys
out, top, services = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
print("\nseconds until ready (Quarkus 'started in'; rest of the machine, % of a core), each round:")
for line in open(f"{out}/ready.txt"):
    s, r, ready, started, others = line.split()
    print(f"  {s:<13} round {r}: {ready} s ({started}; {others})")
ms = collections.defaultdict(lambda: collections.defaultdict(list))
for line in open(f"{out}/steps.txt"):
    s, r, t, name = line.split(maxsplit=3)
    ms[name.strip()][s].append(int(t))
mean = {n: {s: sum(v) / len(v) for s, v in by.items()} for n, by in ms.items()}
total = {s: sum(mean[n].get(s, 0) for n in mean) for s in services}
order = sorted(mean, key=lambda n: -sum(mean[n].values()))[:top]
width = max(len(n) for n in order + ["all recorded steps"])
print(f"\nstartup steps, ms (mean of the rounds), the {top} largest over the services:")
print(f"  {'step':<{width}} " + " ".join(f"{s:>12}" for s in services))
for n in order:
    print(f"  {n:<{width}} " + " ".join(f"{round(mean[n].get(s, 0)):>12}" for s in services))
print(f"  {'all recorded steps':<{width}} " + " ".join(f"{round(total[s]):>12}" for s in services))
EOF
echo "(logs of each start: $out)"
