#!/usr/bin/python3
"""Loads a running `oarlog serve` as a hostile phone would, and prints what the server did: its
resident memory (VmRSS, VmHWM), its threads, and how long a session read took meanwhile.
The figures in docs/SECURITY.md ("Streams and exports") come from this script.

Usage:
  stream-limits-probe.py playbacks BASE PID TOKEN SESSION N SPEED   N phones play SESSION back at SPEED
  stream-limits-probe.py exports BASE PID SESSION N FORMAT          N exports at once (curl)
  stream-limits-probe.py live-nonreader BASE PID SECONDS            one /api/live phone that never reads
Standard library only (a raw RFC 6455 client); BASE is http://127.0.0.1:PORT.
"""
import base64
import json
import os
import socket
import struct
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request


def proc(pid, key):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    return -1


def sample(pid):
    return {"rss_mb": round(proc(pid, "VmRSS") / 1024, 1), "peak_mb": round(proc(pid, "VmHWM") / 1024, 1), "threads": proc(pid, "Threads")}


def timed_get(url, timeout=30):
    start = time.monotonic()
    try:
        with urllib.request.urlopen(url, timeout=timeout) as r:
            r.read()
            status = r.status
    except urllib.error.HTTPError as e:
        status = e.code
    except Exception as e:  # a timeout
        status = repr(e)
    return round(time.monotonic() - start, 3), status


def ws_connect(base, path, headers=(), rcvbuf=None):
    host, port = base.split("//")[1].split(":")
    s = socket.socket()
    if rcvbuf:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    s.connect((host, int(port)))
    key = base64.b64encode(os.urandom(16)).decode()
    request = (f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
               f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n" + "".join(h + "\r\n" for h in headers) + "\r\n")
    s.sendall(request.encode())
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = s.recv(1)
        if not chunk:
            break
        head += chunk
    return s, head.split(b"\r\n")[0].decode()


def ws_send(s, text):
    data = text.encode()
    mask = os.urandom(4)
    header = bytes([0x81]) + (bytes([0x80 | len(data)]) if len(data) < 126 else bytes([0x80 | 126]) + struct.pack(">H", len(data)))
    s.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))


def reader(s, counts, stop):
    s.settimeout(1)
    while not stop.is_set():
        try:
            chunk = s.recv(65536)
        except socket.timeout:
            continue
        except OSError:
            break
        if not chunk:
            break
        counts[0] += len(chunk)


def playbacks(base, pid, token, session, n, speed):
    before = sample(pid)
    stop = threading.Event()
    socks, statuses, counts = [], [], []
    for _ in range(n):
        s, status = ws_connect(base, f"/api/sessions/{session}/playback", [f"Authorization: Bearer {token}"])
        statuses.append(status)
        if "101" in status:
            ws_send(s, json.dumps({"speed": speed, "pause": False}))
            c = [0]
            counts.append(c)
            threading.Thread(target=reader, args=(s, c, stop), daemon=True).start()
        socks.append(s)
    reads, samples = [], []
    for _ in range(10):
        time.sleep(1)
        samples.append(sample(pid))
        reads.append(timed_get(f"{base}/api/sessions/{session}")[0])
    stop.set()
    for s in socks:
        s.close()
    accepted = sum("101" in s for s in statuses)
    print(json.dumps({"playbacks": n, "speed": speed, "accepted": accepted, "before": before,
                      "during_max": {k: max(x[k] for x in samples) for k in before},
                      "read_s": {"median": sorted(reads)[len(reads) // 2], "max": max(reads)},
                      "bytes_received": sum(c[0] for c in counts)}))


def exports(base, pid, session, n, fmt):
    before = sample(pid)
    solo = timed_get(f"{base}/api/sessions/{session}/export/{fmt}", timeout=120)
    quiet = [timed_get(f"{base}/api/sessions/{session}")[0] for _ in range(5)]
    procs = [subprocess.Popen(["curl", "-s", "-o", "/dev/null", "-w", "%{http_code} %{time_total}",
                               f"{base}/api/sessions/{session}/export/{fmt}"], stdout=subprocess.PIPE, text=True) for _ in range(n)]
    reads, samples = [], []
    while any(p.poll() is None for p in procs):
        reads.append(timed_get(f"{base}/api/sessions/{session}")[0])
        samples.append(sample(pid))
        time.sleep(0.2)
    answers = [p.communicate()[0].split() for p in procs]
    codes = {}
    for code, _ in answers:
        codes[code] = codes.get(code, 0) + 1
    print(json.dumps({"exports": n, "format": fmt, "solo_export_s": solo[0], "before": before,
                      "during_max": {k: max(x[k] for x in samples) for k in before} if samples else None,
                      "read_quiet_s": sorted(quiet)[2], "reads_during": len(reads),
                      "read_during_s": {"median": sorted(reads)[len(reads) // 2], "max": max(reads)} if reads else None,
                      "answers": codes, "slowest_export_s": max(float(t) for _, t in answers)}))


def live_nonreader(base, pid, seconds):
    before = sample(pid)
    s, status = ws_connect(base, "/api/live", rcvbuf=4096)
    samples = []
    for _ in range(int(seconds)):
        time.sleep(1)
        samples.append(sample(pid))
    read = timed_get(f"{base}/api/status")
    s.close()
    print(json.dumps({"status": status, "before": before, "during": samples, "status_read_s": read[0]}))


if __name__ == "__main__":
    mode, args = sys.argv[1], sys.argv[2:]
    if mode == "playbacks":
        playbacks(args[0], int(args[1]), args[2], args[3], int(args[4]), float(args[5]))
    elif mode == "exports":
        exports(args[0], int(args[1]), args[2], int(args[3]), args[4])
    elif mode == "live-nonreader":
        live_nonreader(args[0], int(args[1]), float(args[2]))
