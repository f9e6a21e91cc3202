#!/bin/bash
# docs/SECURITY.md: 200 simultaneous notes against oarlog serve: 4 client addresses x 50 (the server holds at most
# 64 connections per address). Prints statuses, notes stored, recover, RSS and threads.
set -u
cd "$(dirname "$0")/../.." && ROOT=$(pwd)
BIN=${OARLOG_BIN:-$ROOT/.build/debug/oarlog}
D=$(mktemp -d)
export OARLOG_DATA_DIR=$D

$BIN replay samples/sim-workout.csv --save --title "Head race" >/dev/null
head -n 500 samples/sim-workout.csv > $D/short.csv
PORT=$((20000 + RANDOM % 20000))
$BIN serve --listen 127.0.0.1:$PORT --replay $D/short.csv --speed 50 > $D/serve.log 2>&1 &
PID=$!
for i in $(seq 50); do grep -q "control token" $D/serve.log && break; sleep 0.2; done
TOKEN=$(sed -n 's/.*control token: //p' $D/serve.log)
ID=$(ls $D/sessions | sed -n 's/\.oarlog$//p' | head -1)
N=${N:-200}
CFG=$D/calls.curl
: > $CFG
for i in $(seq 0 $((N-1))); do
  printf 'url = "http://127.0.0.1:%s/api/sessions/%s/notes?call=%d"\nrequest = "POST"\ninterface = "127.0.0.%d"\nheader = "Authorization: Bearer %s"\nheader = "Content-Type: application/json"\ndata-binary = "{\\"text\\":\\"note %d\\"}"\noutput = "/dev/null"\nwrite-out = "%%{http_code} %%{time_total}\\\\n"\n' $PORT $ID $i $((2 + i % 4)) $TOKEN $i >> $CFG
  [ $i -lt $((N-1)) ] && echo next >> $CFG
done
RSS0=$(awk '/VmRSS/{print $2}' /proc/$PID/status)
( while kill -0 $PID 2>/dev/null; do awk '/VmRSS|Threads/{printf "%s %s ", $1, $2} END{print ""}' /proc/$PID/status; sleep 0.05; done ) > $D/rss.log &
SAMPLER=$!
START=$(date +%s.%N)
curl -s -Z --parallel-immediate --parallel-max 300 -K $CFG > $D/out.txt
END=$(date +%s.%N)
kill $SAMPLER
echo "statuses: $(cut -d' ' -f1 $D/out.txt | sort | uniq -c | tr '\n' ' ')"
echo "wall: $(echo "$END - $START" | bc) s; slowest answer: $(cut -d' ' -f2 $D/out.txt | sort -n | tail -1) s; median: $(cut -d' ' -f2 $D/out.txt | sort -n | sed -n "$((N/2))p") s"
echo "server alive: $(kill -0 $PID && echo yes || echo no)"
echo "RSS before: $RSS0 kB; peak: $(grep -o 'VmRSS: [0-9]*' $D/rss.log | awk '{print $2}' | sort -n | tail -1) kB; peak threads: $(grep -o 'Threads: [0-9]*' $D/rss.log | awk '{print $2}' | sort -n | tail -1)"
echo "stored notes: $($BIN show $ID --json | python3 -c 'import json,sys; d=json.load(sys.stdin); print(len(d["note_list"]), "(summary", d["notes"], ")")')"
$BIN recover $ID > $D/recover.txt; echo "recover exit $?: $(head -1 $D/recover.txt)"
ls -la $D/sessions | tail -n +2
kill -INT $PID; wait $PID 2>/dev/null
rm -rf $D
