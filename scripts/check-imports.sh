#!/usr/bin/env bash
# Checks that every target's declared dependencies in Package.swift are exactly the modules its
# Swift files import: each import of a module of this package (Oarlog*, the C modules) or of a
# package dependency's product (ArgumentParser, PropertyBased) must be declared, and each declared
# dependency must be imported by some file. Modules from the toolchain (Foundation, Glibc,
# XCTest, Synchronization, …) are not dependencies and are ignored; a target importing itself is
# an error; a dependency on an executable target (which cannot be imported: it only makes
# `swift test` build it) is allowed without an import.
#
#   scripts/check-imports.sh [PACKAGE_DIR]     (default: the project root)
#
# Exits 1 listing every difference. The `oarlog` executable is reported as a warning only unless
# CHECK_IMPORTS_STRICT=1 (as CI runs it).
set -euo pipefail
cd "${1:-$(dirname "$0")/..}"

swift package dump-package >"${TMPDIR:-/tmp}/check-imports.$$.json"
trap 'rm -f "${TMPDIR:-/tmp}/check-imports.$$.json"' EXIT

python3 - "${TMPDIR:-/tmp}/check-imports.$$.json" "${CHECK_IMPORTS_STRICT:-0}" <<'PY'
import json, os, re, sys

package = json.load(open(sys.argv[1]))
strict = sys.argv[2] == "1"
warn_only = set() if strict else {"oarlog"}

targets = {t["name"]: t for t in package["targets"]}
executables = {n for n, t in targets.items() if t["type"] == "executable"}
# Products of the package's dependencies: their names are the modules they bring.
products = set()
for t in package["targets"]:
    for d in t["dependencies"]:
        if "product" in d:
            products.add(d["product"][0])
known = set(targets) | products

# `import X`, `@testable import X`, `import struct X.Y`, `@_exported import X` … at a line start.
IMPORT = re.compile(r"^\s*(?:@[\w()]+\s+)*import\s+(?:(?:typealias|struct|class|enum|protocol|let|var|func)\s+)?(\w+)")

def source_dir(t):
    if t.get("path"):
        return t["path"]
    return os.path.join("Tests" if t["type"] == "test" else "Sources", t["name"])

def imports(t):
    found = {}
    root = source_dir(t)
    excluded = [os.path.join(root, e) for e in t.get("exclude", [])]
    for directory, _, files in os.walk(root):
        if any(directory == e or directory.startswith(e + os.sep) for e in excluded):
            continue
        for f in sorted(files):
            if not f.endswith(".swift"):
                continue
            path = os.path.join(directory, f)
            for line in open(path, encoding="utf-8"):
                m = IMPORT.match(line)
                if m:
                    found.setdefault(m.group(1), path)
    return found

errors = 0
for name, t in targets.items():
    if t["type"] in ("system", "binary", "plugin", "macro"):
        continue
    declared = set()
    for d in t["dependencies"]:
        if "byName" in d:
            declared.add(d["byName"][0])
        elif "target" in d:
            declared.add(d["target"][0])
        elif "product" in d:
            declared.add(d["product"][0])
    used = imports(t)
    problems = []
    if name in used:
        problems.append(f"imports itself ({used[name]})")
    for module in sorted((set(used) & known) - declared - {name}):
        problems.append(f"imports {module} ({used[module]}) without declaring it")
    for module in sorted(declared - set(used) - executables):
        problems.append(f"declares {module} but no file imports it")
    for p in problems:
        if name in warn_only:
            print(f"check-imports: warning: {name}: {p}", file=sys.stderr)
        else:
            print(f"check-imports: {name}: {p}", file=sys.stderr)
            errors += 1

if errors:
    print(f"check-imports: {errors} difference(s) between Package.swift and the imports", file=sys.stderr)
    sys.exit(1)
print(f"check-imports: {len(targets)} targets: declared dependencies match the imports")
PY
