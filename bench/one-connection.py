#!/usr/bin/env python3
"""What the gateway adds to ONE request, measured request by request (bench/payment-path.sh, section 3c).

The same request goes to the gateway and straight to the service, in turn, one at a time, each path on its own
keep-alive connection: pair i sends the gateway's request and the direct one back to back (which goes first
alternates), for the same merchant. Both paths therefore see the same moment of the database: a creation's latency is
mostly its COMMIT, whose p50 drifts by a millisecond from one few-second window to the next, so p50s taken in
separate windows (wrk rounds) differ by that drift whatever the gateway does. Interleaved, the drift falls on both.

Written with the standard library's sockets rather than wrk, which sends to one host only. The client's own time per
request is the same on both paths, so it cancels in the difference.

Usage: one-connection.py METHOD PATH GATEWAY_URL GATEWAY_HEADERS DIRECT_URL DIRECT_HEADERS PAIRS [BODY]
  *_HEADERS: a file of one request's headers a line ("Name: value", several separated by a tab); with one line per
  merchant (the same merchants in the same order in both files), each pair picks one merchant at random and uses its
  line in both. Prints one JSON object.
"""
import json
import random
import socket
import statistics
import sys
import time
import urllib.parse


def read_headers(path):
    """One request's headers a line: "Name: value", several separated by a tab."""
    requests = []
    for line in open(path):
        if line.strip():
            fields = (part.split(":", 1) for part in line.rstrip("\n").split("\t"))
            requests.append({name.strip(): value.strip() for name, value in fields})
    return requests


class Path:
    """One keep-alive connection; a request goes out in one write, as wrk and most clients send it (http.client
    writes the headers and the body separately, and the server then waits for the second packet)."""

    def __init__(self, url):
        parsed = urllib.parse.urlsplit(url)
        self.address = (parsed.hostname, parsed.port)
        self.sock = None
        self.buffered = b""

    def _connect(self):
        self.sock = socket.create_connection(self.address, timeout=10)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buffered = b""

    def _receive(self):
        chunk = self.sock.recv(65536)
        if not chunk:
            raise ConnectionError("closed by the server")
        self.buffered += chunk

    def _read_until(self, marker):
        while marker not in self.buffered:
            self._receive()
        head, self.buffered = self.buffered.split(marker, 1)
        return head

    def _read_exactly(self, n):
        while len(self.buffered) < n:
            self._receive()
        data, self.buffered = self.buffered[:n], self.buffered[n:]
        return data

    def send(self, method, path, headers, body):
        lines = [f"{method} {path} HTTP/1.1", f"Host: {self.address[0]}:{self.address[1]}"]
        lines += [f"{name}: {value}" for name, value in headers.items()]
        if body is not None:
            lines.append(f"Content-Length: {len(body)}")
        request = ("\r\n".join(lines) + "\r\n\r\n").encode() + (body or b"")
        # a keep-alive connection the server closed is opened again once (a POST may then be made twice: a benchmark's
        # creation, nothing depends on it)
        for attempt in (1, 2):
            if self.sock is None:
                self._connect()
            try:
                started = time.perf_counter_ns()
                self.sock.sendall(request)
                head = self._read_until(b"\r\n\r\n").decode("latin-1").split("\r\n")
                status = int(head[0].split()[1])
                fields = {line.split(":", 1)[0].strip().lower(): line.split(":", 1)[1].strip() for line in head[1:]}
                if "content-length" not in fields:
                    raise ConnectionError("an answer without Content-Length (this client reads no other framing)")
                self._read_exactly(int(fields["content-length"]))
                took = (time.perf_counter_ns() - started) / 1e6
                if fields.get("connection", "").lower() == "close":
                    self.sock.close()
                    self.sock = None
                return took, status
            except (OSError, ValueError, IndexError):
                if self.sock is not None:
                    self.sock.close()
                    self.sock = None
                if attempt == 2:
                    raise


def main():
    method, path, gateway_url, gateway_file, direct_url, direct_file, pairs = sys.argv[1:8]
    body = sys.argv[8].encode() if len(sys.argv) > 8 else None
    gateway_headers, direct_headers = read_headers(gateway_file), read_headers(direct_file)
    if len(gateway_headers) != len(direct_headers):
        sys.exit("the two header files must name the same merchants, one line each")
    gateway, direct = Path(gateway_url), Path(direct_url)
    extra = {"Content-Type": "application/json"} if body else {}
    times = {"gateway": [], "direct": []}
    differences, errors = [], 0
    for i in range(int(pairs)):
        m = random.randrange(len(gateway_headers))
        legs = [("gateway", gateway, dict(gateway_headers[m], **extra)),
                ("direct", direct, dict(direct_headers[m], **extra))]
        if i % 2:
            legs.reverse()
        took = {}
        for name, target, headers in legs:
            ms, status = target.send(method, path, headers, body)
            if status >= 300:
                errors += 1
            took[name] = ms
            times[name].append(ms)
        differences.append(took["gateway"] - took["direct"])
    p50g, p50d = statistics.median(times["gateway"]), statistics.median(times["direct"])
    print(json.dumps({
        "pairs": int(pairs), "errors": errors,
        "p50_gateway": round(p50g, 3), "p50_direct": round(p50d, 3), "adds_p50": round(p50g - p50d, 3),
        "median_pair_difference": round(statistics.median(differences), 3),
    }))


if __name__ == "__main__":
    main()
