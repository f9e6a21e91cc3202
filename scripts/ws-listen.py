#!/usr/bin/env python3
"""Holds N WebSocket clients on oarlog serve's /api/live for S seconds, reading every message
(the benchmark's phones). Standard library only: RFC 6455 handshake and frames by hand.

Usage: ws-listen.py PORT CLIENTS SECONDS   -> prints messages received per client
"""
import base64
import os
import selectors
import socket
import sys
import time


def connect(port):
    s = socket.create_connection(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall((f"GET /api/live HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
               f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        head += s.recv(1)
    if b" 101 " not in head.split(b"\r\n")[0]:
        raise SystemExit(f"no upgrade: {head!r}")
    s.setblocking(False)
    return s


class Client:
    def __init__(self, port):
        self.sock = connect(port)
        self.buf = b""
        self.messages = 0

    def feed(self):
        try:
            data = self.sock.recv(1 << 16)
        except BlockingIOError:
            return
        self.buf += data
        while len(self.buf) >= 2:
            n = self.buf[1] & 0x7F
            off = 2
            if n == 126:
                if len(self.buf) < 4:
                    return
                n, off = int.from_bytes(self.buf[2:4], "big"), 4
            elif n == 127:
                if len(self.buf) < 10:
                    return
                n, off = int.from_bytes(self.buf[2:10], "big"), 10
            if len(self.buf) < off + n:
                return
            self.buf = self.buf[off + n:]
            self.messages += 1


def main():
    port, count, seconds = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
    clients = [Client(port) for _ in range(count)]
    sel = selectors.DefaultSelector()
    for c in clients:
        sel.register(c.sock, selectors.EVENT_READ, c)
    end = time.time() + seconds
    while time.time() < end:
        for key, _ in sel.select(timeout=0.5):
            key.data.feed()
    print(" ".join(str(c.messages) for c in clients))


main()
