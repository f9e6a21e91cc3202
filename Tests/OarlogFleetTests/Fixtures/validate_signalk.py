#!/usr/bin/python3
"""Checks Signal K delta messages against the Signal K specification's own JSON schema.

    validate_signalk.py PAYLOADS

PAYLOADS holds one JSON payload per line (blank lines are skipped). Each one is validated against
signalk/schemas/delta.json (draft 4) beside this script; its "./definitions.json" references are
resolved to the local copy, never over the network. Each update's "timestamp" (and any
"timestamp" inside a value) must also be RFC 3339 in UTC, as Signal K requires
(2024-05-01T07:30:00Z or 2024-05-01T07:30:00.250Z): an update without one is reported, since
Oarlog stamps every update.

Prints one JSON object, {"checked": N, "invalid": [{"line": K, "error": "..."}]}, and exits 0
even when some are invalid (the Swift test asserts); 2 when it cannot run at all.
"""

import datetime
import json
import os
import re
import sys

import jsonschema

HERE = os.path.dirname(os.path.abspath(__file__))
SCHEMAS = os.path.join(HERE, "signalk", "schemas")
RFC3339_UTC = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$")


def load(name):
    with open(os.path.join(SCHEMAS, name), encoding="utf-8") as f:
        return json.load(f)


def schema_id(schema):
    return schema.get("id", "").rstrip("#")


def make_validator():
    delta = load("delta.json")
    definitions = load("definitions.json")
    try:
        from referencing import Registry, Resource
        from referencing.jsonschema import DRAFT4
    except ImportError:  # jsonschema < 4.18: the RefResolver with a store
        store = {schema_id(delta): delta, schema_id(definitions): definitions}
        resolver = jsonschema.RefResolver(base_uri=schema_id(delta), referrer=delta, store=store)
        return jsonschema.Draft4Validator(delta, resolver=resolver)

    def retrieve(uri):  # anything not registered below: refuse rather than fetch it
        raise LookupError("not available offline: " + uri)

    registry = Registry(retrieve=retrieve).with_resources(
        (schema_id(s), Resource.from_contents(s, default_specification=DRAFT4)) for s in (delta, definitions)
    )
    return jsonschema.Draft4Validator(delta, registry=registry)


def timestamp_problem(text):
    if not isinstance(text, str) or not RFC3339_UTC.match(text):
        return "timestamp %r is not RFC 3339 UTC (YYYY-MM-DDTHH:MM:SS[.fff]Z)" % (text,)
    try:
        datetime.datetime.strptime(text[:19], "%Y-%m-%dT%H:%M:%S")
    except ValueError as e:
        return "timestamp %r is not a real time: %s" % (text, e)
    return None


def nested_timestamps(value, where):
    """Every "timestamp" key inside a value, with where it is."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "timestamp":
                yield where + ".timestamp", item
            yield from nested_timestamps(item, where + "." + key)
    elif isinstance(value, list):
        for k, item in enumerate(value):
            yield from nested_timestamps(item, "%s[%d]" % (where, k))


def timestamp_errors(delta):
    updates = delta.get("updates") if isinstance(delta, dict) else None
    if not isinstance(updates, list):
        return []
    errors = []
    for k, update in enumerate(updates):
        if not isinstance(update, dict):
            continue
        if "timestamp" not in update:
            errors.append("updates[%d] has no timestamp" % k)
        else:
            problem = timestamp_problem(update["timestamp"])
            if problem:
                errors.append("updates[%d]: %s" % (k, problem))
        for j, value in enumerate(update.get("values") or []):
            if isinstance(value, dict):
                for where, stamp in nested_timestamps(value.get("value"), "updates[%d].values[%d].value" % (k, j)):
                    problem = timestamp_problem(stamp)
                    if problem:
                        errors.append("%s: %s" % (where, problem))
    return errors


def describe(error):
    path = "/".join(str(p) for p in error.absolute_path)
    text = error.message if len(error.message) <= 300 else error.message[:300] + "…"
    return "%s: %s" % (path or "(top)", text)


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    validator = make_validator()
    checked = 0
    invalid = []
    with open(argv[1], encoding="utf-8") as f:
        for number, line in enumerate(f, start=1):
            if not line.strip():
                continue
            checked += 1
            try:
                delta = json.loads(line)
            except ValueError as e:
                invalid.append({"line": number, "error": "not JSON: %s" % e})
                continue
            errors = [describe(e) for e in sorted(validator.iter_errors(delta), key=lambda e: list(e.absolute_path))]
            errors += timestamp_errors(delta)
            if errors:
                invalid.append({"line": number, "error": "; ".join(errors)})
    print(json.dumps({"checked": checked, "invalid": invalid}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
