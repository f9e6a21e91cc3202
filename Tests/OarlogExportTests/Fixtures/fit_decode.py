#!/usr/bin/env python3
"""Decodes a FIT file with Garmin's own FIT SDK (PyPI `garmin-fit-sdk`) and prints the decoded
messages as one JSON object: {"is_fit", "integrity", "errors", "messages": {name: [fields...]}}.
Used by OarlogExportTests as an independent reader of the FIT files Oarlog writes.
Exit status 3 when the SDK is not installed (the test says how to install it)."""
import json
import sys

try:
    from garmin_fit_sdk import Decoder, Stream
except ImportError:
    sys.stderr.write("garmin-fit-sdk is not installed: python3 -m pip install garmin-fit-sdk\n")
    sys.exit(3)


def plain(value):
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (int, float, str, bool)) or value is None:
        return value
    return str(value)


def main():
    # is_fit and check_integrity move the stream: each check gets its own decoder.
    is_fit = Decoder(Stream.from_file(sys.argv[1])).is_fit()
    integrity = Decoder(Stream.from_file(sys.argv[1])).check_integrity()
    messages, errors = Decoder(Stream.from_file(sys.argv[1])).read(apply_scale_and_offset=True, convert_datetimes_to_dates=False,
                                    convert_types_to_strings=True, enable_crc_check=True,
                                    expand_sub_fields=True, expand_components=True, merge_heart_rates=False)
    out = {
        "is_fit": is_fit,
        "integrity": integrity,
        "errors": [str(e) for e in errors],
        "messages": {name.replace("_mesgs", ""): plain(items) for name, items in messages.items()},
    }
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
