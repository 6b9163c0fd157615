#!/usr/bin/env python3
"""How long a service takes from its JVM's start until its readiness check answers 200 (bench/payment-path.sh,
readiness_round), and what the rest of the machine spent meanwhile.

One process polls, with the standard library: until the thirty-sixth step of docs/performance.md the script polled
from bash, every 0.05 s a `head`, a `sed` and a `curl`, and on a slow instance those process starts took about 47 ms
of CPU a round, half a core beside the JVM being timed on a two-core machine (the "rest of the machine" column read
71-86% of a core there). Here a round costs a few /proc reads and one HTTP request on a kept connection.

Usage: ready-time.py PIDFILE HEALTH_URL [TIMEOUT_S]
  PIDFILE: the file whose first line will name the starting JVM's pid (deploy/local/start writes it)
Prints "SECONDS OTHERS" (OTHERS: the CPU everything but the JVM used from the moment the JVM was seen until it was
ready, in % of a core), or "none -" if it was not ready within TIMEOUT_S (default 30).
"""
import http.client
import os
import sys
import time
import urllib.parse

HZ = os.sysconf("SC_CLK_TCK")


def stat_fields(pid):
    """The fields of /proc/PID/stat after the command name: [0] is field 3 (state)."""
    with open(f"/proc/{pid}/stat") as f:
        return f.read().rsplit(")", 1)[1].split()


def pid_from(pidfile):
    """The live (not zombie) process the pid file names, or None while there is none."""
    try:
        with open(pidfile) as f:
            pid = int(f.readline().strip())
        return pid if stat_fields(pid)[0] != "Z" else None
    except (OSError, ValueError, IndexError):
        return None


def own_ticks(pid):
    a = stat_fields(pid)
    return int(a[11]) + int(a[12]) + int(a[13]) + int(a[14])  # utime, stime, cutime, cstime


def machine_busy_ticks():
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:]]
    return v[0] + v[1] + v[2] + v[5] + v[6] + v[7]  # user, nice, system, irq, softirq, steal


def uptime():
    with open("/proc/uptime") as f:
        return float(f.read().split()[0])


def ready(url, conn):
    """True if the readiness check answers 200; the connection is reused while the server keeps it."""
    try:
        if conn[0] is None:
            conn[0] = http.client.HTTPConnection(url.hostname, url.port, timeout=2)
        conn[0].request("GET", url.path)
        response = conn[0].getresponse()
        response.read()
        return response.status == 200
    except (OSError, http.client.HTTPException):
        if conn[0] is not None:
            conn[0].close()
        conn[0] = None
        return False


def main():
    pidfile, url = sys.argv[1], urllib.parse.urlsplit(sys.argv[2])
    deadline = time.monotonic() + (float(sys.argv[3]) if len(sys.argv) > 3 else 30)
    pid = seen = busy0 = own0 = None
    conn = [None]
    while time.monotonic() < deadline:
        if pid is None:
            pid = pid_from(pidfile)
            if pid is not None:  # the JVM is there: from now on the machine's other work competes with it
                seen, busy0, own0 = uptime(), machine_busy_ticks(), own_ticks(pid)
        if pid is not None and ready(url, conn):
            up, busy1, own = uptime(), machine_busy_ticks(), own_ticks(pid)
            began = int(stat_fields(pid)[19]) / HZ  # field 22: starttime, ticks after boot
            others = 100 * max(0, busy1 - busy0 - (own - own0)) / HZ / max(0.05, up - seen)
            print(f"{up - began:.2f} {others:.0f}")
            return
        time.sleep(0.05)
    print("none -")


if __name__ == "__main__":
    main()
