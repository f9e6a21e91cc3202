#!/usr/bin/env python3
"""Compare Oarlog's FIT decoder with Garmin's official FIT SDK for Python, field by field.

Usage: scripts/fit-compare.py FILE.fit [--oarlog PATH] [--messages record,lap,session,file_id]

Decodes FILE with the Garmin FIT SDK (`pip install garmin-fit-sdk`; scale and offset applied,
no component expansion, no sub-fields, enums as numbers, times as FIT seconds) and with
`oarlog fit FILE` (one JSON line a message), and compares the messages of each kind named
(default: record, lap, session, file_id): the same number of messages, in order, each with the
same fields and values (numbers within the field's resolution, 1/scale). A field Oarlog's
profile does not name is printed by number, raw: it is named and scaled here with the SDK's
profile before the comparison. Developer fields are compared by their names and scales from the
file's own `field_description` messages.

Exit status: 0 when they agree, 1 on any disagreement (each one printed, at most 20), 2 when a
decoder fails or the SDK is missing.
"""
import argparse
import json
import subprocess
import sys


def sdk_messages(path):
    """The SDK's messages by kind ('record', 'lap', …), or exits 2 on a decoding error."""
    from garmin_fit_sdk import Decoder, Stream
    decoder = Decoder(Stream.from_file(path))
    messages, errors = decoder.read(apply_scale_and_offset=True, convert_datetimes_to_dates=False,
                                    convert_types_to_strings=False, enable_crc_check=True,
                                    expand_sub_fields=False, expand_components=False, merge_heart_rates=False)
    if errors:
        print(f"{path}: the Garmin SDK could not decode it: {errors}", file=sys.stderr)
        sys.exit(2)
    described = {d["key"]: d for d in messages.get("field_description_mesgs", [])}
    out = {}
    for key, values in messages.items():
        kind = key[:-len("_mesgs")] if isinstance(key, str) and key.endswith("_mesgs") else str(key)
        out[kind] = [dict([(str(k), v) for k, v in m.items() if k != "developer_fields"]
                          + developer_fields(m.get("developer_fields", {}), described)) for m in values]
    return out


def developer_fields(values, described):
    """A message's developer fields as (name, value), scaled by their descriptions; the invalid
    value of their base type (a field with nothing to say) left out, as for the profile's fields."""
    invalid = {0x02: 0xFF, 0x84: 0xFFFF, 0x86: 0xFFFFFFFF, 0x85: 0x7FFFFFFF, 0x00: 0xFF}
    out = []
    for key, value in values.items():
        d = described.get(key)
        if d is None or value == invalid.get(d.get("fit_base_type_id"), None):
            continue
        scale = d.get("scale") or 1
        out.append((d["field_name"], value / scale if scale != 1 and isinstance(value, (int, float)) else value))
    return out


def profile_message(kind):
    """The SDK profile's entry for a message kind (by name), or None."""
    from garmin_fit_sdk import Profile
    for entry in Profile["messages"].values():
        if entry["name"] == kind:
            return entry
    return None


def oarlog_messages(path, binary):
    """`oarlog fit FILE`'s messages by kind, fields named and scaled with the SDK's profile."""
    run = subprocess.run([binary, "fit", path], capture_output=True, text=True)
    if run.returncode != 0:
        print(f"{path}: oarlog fit failed ({run.returncode}): {run.stderr.strip()}", file=sys.stderr)
        sys.exit(2)
    out = {}
    for line in run.stdout.splitlines():
        message = json.loads(line)
        kind = str(message["message"])
        profile = profile_message(kind) if not kind.isdigit() else None
        fields = {}
        for key, value in message["fields"].items():
            if key.isdigit() and profile and int(key) in profile["fields"]:
                field = profile["fields"][int(key)]
                scale, offset = field["scale"], field["offset"]
                if len(scale) == 1 and isinstance(value, (int, float)) and (scale[0] != 1 or offset[0] != 0):
                    value = value / scale[0] - offset[0]
                key = field["name"]
            fields[key] = value
        out.setdefault(kind, []).append(fields)
    return out


def resolution(kind, name):
    """A field's resolution (1/scale) from the SDK's profile; 0 for an exact field."""
    profile = profile_message(kind)
    if not profile:
        return 0
    for field in profile["fields"].values():
        if field["name"] == name:
            scale = field["scale"][0] if field["scale"] else 1
            return 0 if scale == 1 else 1.0 / scale
    return 0


def agree(a, b, tolerance):
    if isinstance(a, list) or isinstance(b, list):
        a = a if isinstance(a, list) else [a]
        b = b if isinstance(b, list) else [b]
        return len(a) == len(b) and all(agree(x, y, tolerance) for x, y in zip(a, b))
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool):
        return abs(a - b) <= tolerance + 1e-9 * max(1.0, abs(a))
    return a == b


def compare(kind, garmin, oarlog, problems):
    if len(garmin) != len(oarlog):
        problems.append(f"{kind}: the SDK reads {len(garmin)} messages, oarlog {len(oarlog)}")
        return
    for n, (g, o) in enumerate(zip(garmin, oarlog)):
        for name in sorted(set(g) | set(o)):
            if name not in o:
                problems.append(f"{kind} {n}: {name} = {g[name]!r} in the SDK, absent in oarlog")
            elif name not in g:
                problems.append(f"{kind} {n}: {name} = {o[name]!r} in oarlog, absent in the SDK")
            elif not agree(g[name], o[name], resolution(kind, name)):
                problems.append(f"{kind} {n}: {name}: SDK {g[name]!r}, oarlog {o[name]!r}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("file")
    parser.add_argument("--oarlog", default=".build/debug/oarlog", help="the oarlog binary (default: .build/debug/oarlog)")
    parser.add_argument("--messages", default="record,lap,session,file_id", help="message kinds to compare")
    args = parser.parse_args()
    try:
        import garmin_fit_sdk  # noqa: F401
    except ImportError:
        print("the Garmin FIT SDK is missing: pip install garmin-fit-sdk", file=sys.stderr)
        return 2
    garmin = sdk_messages(args.file)
    oarlog = oarlog_messages(args.file, args.oarlog)
    problems = []
    summary = []
    for kind in args.messages.split(","):
        g, o = garmin.get(kind, []), oarlog.get(kind, [])
        compare(kind, g, o, problems)
        summary.append(f"{kind} {len(g)}")
    if problems:
        for p in problems[:20]:
            print(p)
        if len(problems) > 20:
            print(f"… and {len(problems) - 20} more")
        print(f"{args.file}: {len(problems)} disagreements")
        return 1
    print(f"{args.file}: the Garmin SDK and oarlog agree on every field ({', '.join(summary)} messages)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
