#!/usr/bin/env bash
# Prints the package's target graph from Package.swift, floor by floor (the folders under
# Sources/: the C shims, then core, sensors, signal processing, storage, application and
# interfaces), each target with the targets and products it depends on; and checks that no
# target depends on one on a higher floor.
#
#   scripts/module-graph.sh            the graph (Markdown: a table per floor)
#   scripts/module-graph.sh --check    exits 1 if docs/ARCHITECTURE.md's copy of the graph (between
#                                      <!-- module-graph --> and <!-- /module-graph -->) is not
#                                      what this prints now, or a target reaches up a floor
set -euo pipefail
cd "$(dirname "$0")/.."
DUMP="$(mktemp)"
trap 'rm -f "$DUMP"' EXIT
swift package dump-package >"$DUMP" 2>/dev/null
python3 - "$DUMP" "${1:-}" <<'PY'
import json, re, sys

package = json.load(open(sys.argv[1]))
check = sys.argv[2] == "--check"
FLOORS = ["c-shims", "0-core", "1-sensors", "2-signal", "3-storage", "4-application", "5-interfaces"]
NAMES = {"c-shims": "C shims (system libraries behind a header)", "0-core": "Core (value types, no I/O)",
         "1-sensors": "Sensors and inputs", "2-signal": "Signal processing (pure)",
         "3-storage": "Storage", "4-application": "Application (the one door)",
         "5-interfaces": "Interfaces (command line, web)"}

targets = [t for t in package["targets"] if t["type"] != "test" and not (t.get("path") or "").startswith("Tests")]
floor_of = {}
problems = []
for t in targets:
    path = t.get("path") or f"Sources/{t['name']}"
    parts = path.split("/")
    floor = parts[1] if len(parts) > 2 and parts[0] == "Sources" else None
    if floor not in FLOORS:
        problems.append(f"{t['name']}: {path} is not in a floor folder (Sources/<floor>/<target>)")
        continue
    floor_of[t["name"]] = floor

def deps(t):
    out = []
    for d in t["dependencies"]:
        if "byName" in d: out.append(d["byName"][0])
        elif "target" in d: out.append(d["target"][0])
        elif "product" in d: out.append(d["product"][0] + " (" + d["product"][1] + ")")
    return out

lines = []
for floor in FLOORS:
    members = [t for t in targets if floor_of.get(t["name"]) == floor]
    if not members: continue
    lines.append(f"**{floor}** — {NAMES[floor]}")
    lines.append("")
    lines.append("| target | depends on |")
    lines.append("|---|---|")
    for t in sorted(members, key=lambda t: t["name"].lower()):
        ds = deps(t)
        lines.append(f"| `{t['name']}` | {', '.join(ds) if ds else '—'} |")
        for d in ds:
            base = d.split(" (")[0]
            if base in floor_of and FLOORS.index(floor_of[base]) > FLOORS.index(floor):
                problems.append(f"{t['name']} ({floor}) depends on {base} ({floor_of[base]}): a lower floor reaches up")
    lines.append("")
graph = "\n".join(lines).rstrip() + "\n"

if not check:
    sys.stdout.write(graph)
    for p in problems: print("module-graph: " + p, file=sys.stderr)
    sys.exit(1 if problems else 0)

doc = open("docs/ARCHITECTURE.md", encoding="utf-8").read()
m = re.search(r"<!-- module-graph -->\n(.*?)<!-- /module-graph -->", doc, re.S)
if not m:
    problems.append("docs/ARCHITECTURE.md has no <!-- module-graph --> … <!-- /module-graph --> block")
elif m.group(1).strip() != graph.strip():
    problems.append("docs/ARCHITECTURE.md's module graph is not current: paste the output of scripts/module-graph.sh")
for p in problems: print("module-graph: " + p, file=sys.stderr)
if problems: sys.exit(1)
print(f"module-graph: {len(floor_of)} targets on {len(set(floor_of.values()))} floors; ARCHITECTURE.md is current")
PY
