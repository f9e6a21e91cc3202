#!/usr/bin/env python3
"""docs/SECURITY.md, section 3: idle connections against `oarlog serve` (loopback only).

usage: scripts/security/idle-flood.py PORT PID CONNECTIONS ADDRESSES

Opens CONNECTIONS idle TCP connections to 127.0.0.1:PORT, spread over ADDRESSES source addresses
(127.0.0.2, 127.0.0.3, ...), holds them, and prints the server's open files, threads and RSS
(from /proc/PID), then how a normal `GET /api/status` fares from an address that holds none
(127.0.0.250) and from one that floods, and how long until a new client is served again.
"""
import http.client
import os
import socket
import sys
import time


def server_figures(pid):
    fds = len(os.listdir(f"/proc/{pid}/fd"))
    status = dict(line.split(":", 1) for line in open(f"/proc/{pid}/status"))
    return f"fds {fds}, threads {status['Threads'].strip()}, RSS {status['VmRSS'].strip()}"


def get_status(port, source):
    start = time.monotonic()
    try:
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=5, source_address=(source, 0))
        c.request("GET", "/api/status")
        r = c.getresponse()
        r.read()
        c.close()
        return r.status, time.monotonic() - start
    except OSError as e:
        return f"failed ({e})", time.monotonic() - start


def main():
    port, pid, count, addresses = (int(a) for a in sys.argv[1:5])
    print("before:", server_figures(pid))
    held = []
    for k in range(count):
        s = socket.socket()
        s.bind((f"127.0.0.{2 + k % addresses}", 0))
        s.setblocking(False)
        try:
            s.connect(("127.0.0.1", port))
        except BlockingIOError:
            pass
        held.append(s)
    time.sleep(1.0)
    print(f"{count} idle connections from {addresses} addresses:", server_figures(pid))
    for source in ("127.0.0.250", "127.0.0.2"):
        status, seconds = get_status(port, source)
        print(f"GET /api/status from {source}: {status} in {seconds * 1000:.0f} ms")
    start = time.monotonic()
    while time.monotonic() - start < 60:
        status, _ = get_status(port, "127.0.0.251")
        if status == 200:
            print(f"a new client served again after {time.monotonic() - start:.1f} s:", server_figures(pid))
            break
        time.sleep(0.5)
    for s in held:
        s.close()


if __name__ == "__main__":
    main()
