#!/usr/bin/env python3
"""docs/SECURITY.md: publish fake boats to a broker over raw MQTT 3.1.1 (QoS 0): N boats, M fixes each, all at one point.
usage: scripts/security/fleet-flood.py PORT BOATS FIXES"""
import socket, struct, sys, json, time
port, boats, fixes = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
def rl(n):
    out = b''
    while True:
        b = n % 128; n //= 128
        out += bytes([b | (0x80 if n else 0)])
        if not n: return out
def s(x): x = x.encode(); return struct.pack('>H', len(x)) + x
sock = socket.create_connection(('127.0.0.1', port))
body = s('MQTT') + bytes([4, 2]) + struct.pack('>H', 60) + s('flood')
sock.sendall(bytes([0x10]) + rl(len(body)) + body)
sock.recv(4)
session = '2026-11-26T09:00:00.000Z'
buf = b''
for k in range(fixes):
    for b in range(boats):
        boat = 'fake-%d' % b
        ts = '2026-11-26T09:%02d:%02d.000Z' % ((k + 1) // 60, (k + 1) % 60)
        p = json.dumps({"context": "vessels.urn:mrn:oarlog:boat:" + boat, "updates": [{"source": {"label": "oarlog", "type": "oarlog", "src": boat},
             "timestamp": ts, "values": [{"path": "performance.rowing.elapsedTime", "value": k + 1},
             {"path": "navigation.position", "value": {"latitude": 51.5, "longitude": -0.22}}]}],
             "oarlog": {"session": session, "seq": k + 1, "kind": "position"}}, separators=(',', ':')).encode()
        v = s('oarlog/%s/position' % boat) + p
        buf += bytes([0x30]) + rl(len(v)) + v
        if len(buf) > 1 << 20: sock.sendall(buf); buf = b''
sock.sendall(buf + bytes([0xe0, 0]))
time.sleep(0.5); sock.close()
