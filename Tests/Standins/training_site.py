#!/usr/bin/env python3
"""A local stand-in for the training sites Oarlog uploads to (Python 3 standard library only).

Written from the public API documents (read November 2026), one service per run:

  intervals  Intervals.icu API v1: forum.intervals.icu "Intervals.icu API Integration Cookbook"
             (t/80090) and "API access to Intervals.icu" (t/609):
             POST /api/v1/athlete/{id}/activities, multipart/form-data with `file`, optional
             name, description, external_id (query or form); basic authentication with user
             API_KEY and the key as password; GET /api/v1/athlete/{id}/activities?oldest=&newest=.
  strava     Strava API v3 as documented 2026: developers.strava.com/docs/uploads ("Uploading to
             Strava") and the API v3 reference "Uploads": POST /api/v3/uploads (file, data_type,
             name, description, external_id) answers an Upload {id, id_str, external_id, error,
             status, activity_id}; GET /api/v3/uploads/{id} polled; GET /api/v3/athlete/activities;
             POST /oauth/token grant_type=refresh_token (answers access_token, expires_at,
             expires_in, refresh_token, here rotated on every refresh).
  concept2   Concept2 Logbook API v1: log.concept2.com/developers/documentation:
             POST /api/users/me/results (JSON, Accept application/vnd.c2logbook.v1+json,
             type, date, timezone, distance, time, weight_class, stroke_rate, heart_rate,
             comments, stroke_data [{t, d, p, spm, hr}]); GET /api/users/me/results?from=&to=;
             POST /oauth/access_token grant_type=refresh_token.

Where the documents do not say how a site answers a second copy of one activity, this stand-in
chooses (docs/UPLOADS.md): Intervals.icu 409 with the first activity's id (same external_id or
same file); Strava the documented processing error "<external_id> duplicate of activity N" (same
file or external_id); Concept2 409 "This result already exists" (same date, distance and time).

Usage:
  training_site.py --service intervals|strava|concept2 --store DIR --port-file FILE
                   [--api-key K] [--client-id ID --client-secret S --refresh-token R]
                   [--access-ttl-s N] [--upload-delay-s N]
Binds 127.0.0.1 port 0 and writes the port to FILE once listening. Every accepted activity is
kept as DIR/<id>.fit (Concept2: DIR/<id>.json) and a line of DIR/received.jsonl (id, external_id,
name, bytes, path, ...); a restart on the same DIR knows them again. Each request's line (method,
path with query, status) is appended to DIR/requests.log.

Test controls:
  POST /_standin/script {"answers": [503, 429, 401, "expire"]}: forced answers for the next upload
       requests, in order (429 with Retry-After: 1; "expire" expires the current access tokens
       and the request is then handled as usual, so it gets a 401).
  GET  /_standin/received: the accepted activities as a JSON list.
"""
import argparse
import base64
import hashlib
import json
import os
import re
import secrets
import signal
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

LOCK = threading.Lock()


class State:
    def __init__(self, args):
        self.args = args
        self.store = args.store
        os.makedirs(self.store, exist_ok=True)
        self.script = []
        self.tokens = {}  # access token -> expires_at (unix s)
        self.refresh_token = args.refresh_token
        self.received = []
        self.uploads = {}  # Strava upload id -> {activity_id, error, polls, external_id}
        self.next_id = 1000
        path = os.path.join(self.store, "received.jsonl")
        if os.path.exists(path):
            with open(path) as f:
                for line in f:
                    if line.strip():
                        entry = json.loads(line)
                        self.received.append(entry)
                        self.next_id = max(self.next_id, int(re.sub(r"\D", "", str(entry["id"])) or 0) + 1)

    def new_id(self):
        self.next_id += 1
        return self.next_id

    def keep(self, entry, content, extension):
        path = os.path.join(self.store, f"{entry['id']}.{extension}")
        with open(path + ".tmp", "wb") as f:
            f.write(content)
            f.flush()
            os.fsync(f.fileno())
        os.replace(path + ".tmp", path)
        entry["bytes"] = len(content)
        entry["path"] = path
        self.received.append(entry)
        with open(os.path.join(self.store, "received.jsonl"), "a") as f:
            f.write(json.dumps(entry) + "\n")
            f.flush()
            os.fsync(f.fileno())


def multipart(body, content_type):
    """The fields of a multipart/form-data body: name -> (filename or None, bytes)."""
    match = re.search(r'boundary="?([^";]+)"?', content_type or "")
    if not match:
        return None
    delimiter = b"--" + match.group(1).encode()
    fields = {}
    for part in body.split(delimiter)[1:]:
        if part.startswith(b"--"):
            break
        part = part[2:] if part.startswith(b"\r\n") else part
        head, _, value = part.partition(b"\r\n\r\n")
        if value.endswith(b"\r\n"):
            value = value[:-2]
        disposition = next((l for l in head.decode("utf-8", "replace").split("\r\n")
                            if l.lower().startswith("content-disposition")), "")
        name = re.search(r'\bname="([^"]*)"', disposition)
        filename = re.search(r'filename="([^"]*)"', disposition)
        if name:
            fields[name.group(1)] = (filename.group(1) if filename else None, value)
    return fields


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    state = None

    def log_message(self, format, *args):
        pass

    # Answers

    def answer(self, status, body=None, headers=()):
        data = b"" if body is None else json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)
        with LOCK, open(os.path.join(self.state.store, "requests.log"), "a") as f:
            f.write(f"{self.command} {self.path} {status} {self.headers.get('User-Agent', '-')}\n")

    def body(self):
        """The request's body, read once (before any answer, so a kept-alive connection stays in step)."""
        if getattr(self, "_body", None) is None:
            length = int(self.headers.get("Content-Length") or 0)
            self._body = self.rfile.read(length) if length > 0 else b""
        return self._body

    def query(self):
        return {k: v[0] for k, v in parse_qs(urlsplit(self.path).query).items()}

    # Authentication

    def api_key_ok(self):
        header = self.headers.get("Authorization", "")
        if not header.startswith("Basic "):
            return False
        try:
            user, _, password = base64.b64decode(header[6:]).decode().partition(":")
        except Exception:
            return False
        return user == "API_KEY" and password == self.state.args.api_key

    def bearer_ok(self):
        header = self.headers.get("Authorization", "")
        token = header[7:] if header.startswith("Bearer ") else None
        with LOCK:
            expires = self.state.tokens.get(token)
        return expires is not None and expires > time.time()

    def authorized(self):
        if self.state.args.service == "intervals":
            ok = self.api_key_ok()
        else:
            ok = self.bearer_ok()
        if not ok:
            self.answer(401, {"message": "Authorization Error", "errors": [{"field": "access_token", "code": "invalid"}]}
                        if self.state.args.service != "intervals" else {"status": 401, "error": "Unauthorized"})
        return ok

    def token(self):
        form = {k: v[0] for k, v in parse_qs(self.body().decode("utf-8", "replace")).items()}
        args = self.state.args
        with LOCK:
            good = (form.get("grant_type") == "refresh_token" and form.get("client_id") == args.client_id
                    and form.get("client_secret") == args.client_secret and form.get("refresh_token") == self.state.refresh_token)
            if not good:
                pass
            else:
                access = "a-" + secrets.token_hex(12)
                expires_at = int(time.time() + args.access_ttl_s)
                self.state.tokens[access] = expires_at
                self.state.refresh_token = "r-" + secrets.token_hex(12)
                refresh = self.state.refresh_token
        if not good:
            return self.answer(400, {"message": "Bad Request", "errors": [{"resource": "RefreshToken", "field": "refresh_token", "code": "invalid"}]})
        answer = {"token_type": "Bearer", "access_token": access, "expires_in": int(args.access_ttl_s), "refresh_token": refresh}
        if args.service == "strava":
            answer["expires_at"] = expires_at
        self.answer(200, answer)

    def forced(self):
        """Applies the next scripted answer; True when it answered."""
        with LOCK:
            step = self.state.script.pop(0) if self.state.script else None
            if step == "expire":
                for token in self.state.tokens:
                    self.state.tokens[token] = 0
        if step is None or step == "expire":
            return False
        self.body()
        if step == 429:
            self.answer(429, {"message": "Rate Limit Exceeded"}, [("Retry-After", "1")])
        else:
            self.answer(int(step), {"message": "Scripted answer", "status": int(step)})
        return True

    # Routes

    def do_GET(self):
        self._body = None
        path = urlsplit(self.path).path
        service = self.state.args.service
        if path == "/_standin/received":
            with LOCK:
                return self.answer(200, list(self.state.received))
        if not self.authorized():
            return
        if service == "intervals" and re.fullmatch(r"/api/v1/athlete/[^/]+/activities", path):
            with LOCK:
                listed = [{"id": e["id"], "external_id": e.get("external_id"), "name": e.get("name")} for e in self.state.received]
            return self.answer(200, listed)
        if service == "strava":
            upload = re.fullmatch(r"/api/v3/uploads/(\d+)", path)
            if upload:
                return self.strava_poll(upload.group(1))
            if path == "/api/v3/athlete/activities":
                with LOCK:
                    listed = [{"id": int(e["id"]), "external_id": e.get("external_id"), "name": e.get("name"), "sport_type": "Rowing"}
                              for e in self.state.received]
                return self.answer(200, listed)
        if service == "concept2" and path == "/api/users/me/results":
            return self.concept2_list()
        self.answer(404, {"message": "Not Found"})

    def do_POST(self):
        self._body = None
        self.body()
        path = urlsplit(self.path).path
        service = self.state.args.service
        if path == "/_standin/script":
            answers = json.loads(self.body() or b"{}").get("answers", [])
            with LOCK:
                self.state.script.extend(answers)
            return self.answer(200, {"queued": len(answers)})
        if (service, path) in {("strava", "/oauth/token"), ("concept2", "/oauth/access_token")}:
            return self.token()
        upload = {"intervals": re.fullmatch(r"/api/v1/athlete/[^/]+/activities", path) is not None,
                  "strava": path == "/api/v3/uploads", "concept2": path == "/api/users/me/results"}[service]
        if not upload:
            self.body()
            return self.answer(404, {"message": "Not Found"})
        if self.forced() or not self.authorized():
            return
        {"intervals": self.intervals_upload, "strava": self.strava_upload, "concept2": self.concept2_upload}[service]()

    def delay(self):
        if self.state.args.upload_delay_s > 0:
            time.sleep(self.state.args.upload_delay_s)

    def intervals_upload(self):
        fields = multipart(self.body(), self.headers.get("Content-Type"))
        if not fields or "file" not in fields or fields["file"][0] is None:
            return self.answer(422, {"status": 422, "error": "No file"})
        query = self.query()
        text = lambda key: query.get(key, fields.get(key, (None, b""))[1].decode("utf-8", "replace") or None)
        content = fields["file"][1]
        digest = hashlib.sha256(content).hexdigest()
        with LOCK:
            first = next((e for e in self.state.received if (text("external_id") and e.get("external_id") == text("external_id"))
                          or e.get("sha256") == digest), None)
            if first is None:
                entry = {"id": f"i{self.state.new_id()}", "external_id": text("external_id"), "name": text("name"),
                         "description": text("description"), "filename": fields["file"][0], "sha256": digest}
                self.state.keep(entry, content, "fit")
        if first is not None:
            return self.answer(409, {"status": 409, "error": f"Duplicate activity {first['id']}", "id": first["id"]})
        self.delay()
        self.answer(201, {"icu_athlete_id": "i1", "id": entry["id"], "activities": [{"id": entry["id"], "name": entry["name"]}]})

    def strava_upload(self):
        fields = multipart(self.body(), self.headers.get("Content-Type"))
        if not fields or "file" not in fields:
            return self.answer(400, {"message": "Bad Request", "errors": [{"resource": "Upload", "field": "file", "code": "not a file"}]})
        value = lambda key: fields.get(key, (None, b""))[1].decode("utf-8", "replace") or None
        if value("data_type") not in ("fit", "fit.gz", "tcx", "tcx.gz", "gpx", "gpx.gz"):
            return self.answer(400, {"message": "Bad Request", "errors": [{"resource": "Upload", "field": "data_type", "code": "invalid"}]})
        content = fields["file"][1]
        digest = hashlib.sha256(content).hexdigest()
        with LOCK:
            upload_id = self.state.new_id()
            first = next((e for e in self.state.received if e.get("sha256") == digest
                          or (value("external_id") and e.get("external_id") == value("external_id"))), None)
            record = {"external_id": value("external_id"), "polls": 0, "activity_id": None, "error": None}
            if first is not None:
                record["error"] = f"{value('external_id') or fields['file'][0]} duplicate of activity {first['id']}"
            else:
                entry = {"id": str(self.state.new_id()), "external_id": value("external_id"), "name": value("name"),
                         "description": value("description"), "activity_type": value("activity_type"), "sha256": digest}
                self.state.keep(entry, content, "fit")
                record["activity_id"] = int(entry["id"])
            self.state.uploads[str(upload_id)] = record
        if first is None:
            self.delay()
        self.answer(201, {"id": upload_id, "id_str": str(upload_id), "external_id": value("external_id"), "error": None,
                          "status": "Your activity is still being processed.", "activity_id": None})

    def strava_poll(self, upload_id):
        with LOCK:
            record = self.state.uploads.get(upload_id)
            if record is not None:
                record["polls"] += 1
                polls = record["polls"]
        if record is None:
            return self.answer(404, {"message": "Record Not Found", "errors": [{"resource": "Upload", "field": "id", "code": "not found"}]})
        answer = {"id": int(upload_id), "id_str": upload_id, "external_id": record["external_id"], "error": None,
                  "status": "Your activity is still being processed.", "activity_id": None}
        if record["error"]:
            answer.update(error=record["error"], status="There was an error processing your activity.")
        elif polls >= 2:
            answer.update(status="Your activity is ready.", activity_id=record["activity_id"])
        self.answer(200, answer)

    def concept2_upload(self):
        try:
            result = json.loads(self.body())
        except ValueError:
            return self.answer(400, {"status_code": 400, "message": "Malformed JSON"})
        errors = concept2_errors(result)
        if errors:
            return self.answer(422, {"status_code": 422, "message": "The given data failed to pass validation.", "errors": errors})
        with LOCK:
            first = next((e for e in self.state.received if (e.get("date"), e.get("distance"), e.get("time"))
                          == (result["date"], result["distance"], result["time"])), None)
            if first is None:
                entry = {"id": self.state.new_id(), "external_id": None, "name": result.get("comments"),
                         "date": result["date"], "distance": result["distance"], "time": result["time"],
                         "strokes": len(result.get("stroke_data") or [])}
                self.state.keep(entry, json.dumps(result, sort_keys=True).encode(), "json")
        if first is not None:
            return self.answer(409, {"status_code": 409, "message": "This result already exists", "data": {"id": first["id"]}})
        self.delay()
        data = dict(result, id=entry["id"], user_id=1, workout_type="unknown", stroke_data=bool(result.get("stroke_data")))
        self.answer(201, {"data": data})

    def concept2_list(self):
        query = self.query()
        low, high = query.get("from", "0000-00-00"), query.get("to", "9999-99-99")
        with LOCK:
            listed = [{"id": e["id"], "date": e["date"], "distance": e["distance"], "time": e["time"], "type": "water"}
                      for e in self.state.received if low <= e["date"][:10] <= high]
        self.answer(200, {"data": listed, "meta": {"pagination": {"total": len(listed), "count": len(listed), "per_page": 50,
                                                                   "current_page": 1, "total_pages": 1}}})


def concept2_errors(result):
    """The logbook's validation of a result, as far as its document gives the fields."""
    errors = {}
    if not isinstance(result, dict):
        return {"result": ["must be an object"]}
    if result.get("type") not in ("rower", "skierg", "bike", "dynamic", "slides", "paddle", "water", "snow", "rollerski", "multierg"):
        errors["type"] = ["The selected type is invalid."]
    if not re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", str(result.get("date", ""))):
        errors["date"] = ["The date does not match the format Y-m-d H:i:s."]
    for key in ("distance", "time"):
        if not isinstance(result.get(key), int) or isinstance(result.get(key), bool) or result[key] <= 0:
            errors[key] = [f"The {key} must be a positive integer."]
    if result.get("weight_class") not in ("H", "L"):
        errors["weight_class"] = ["The selected weight class is invalid."]
    for stroke in result.get("stroke_data") or []:
        if not isinstance(stroke, dict) or not all(isinstance(stroke.get(k), int) for k in ("t", "d", "spm")):
            errors["stroke_data"] = ["Each stroke needs integer t, d and spm."]
            break
    return errors


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--service", required=True, choices=["intervals", "strava", "concept2"])
    parser.add_argument("--store", required=True)
    parser.add_argument("--port-file", required=True)
    parser.add_argument("--api-key")
    parser.add_argument("--client-id")
    parser.add_argument("--client-secret")
    parser.add_argument("--refresh-token")
    parser.add_argument("--access-ttl-s", type=float, default=3600)
    parser.add_argument("--upload-delay-s", type=float, default=0)
    args = parser.parse_args()
    # A parent may have started us with SIGTERM blocked (its mask is inherited): end at once on it.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM, signal.SIGINT])
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    Handler.state = State(args)
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    with open(args.port_file + ".tmp", "w") as f:
        f.write(str(server.server_address[1]))
    os.replace(args.port_file + ".tmp", args.port_file)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
