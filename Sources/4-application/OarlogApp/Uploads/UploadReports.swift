import OarlogCore
import OarlogUpload

/// The uploads and accounts as `oarlog uploads`, `oarlog accounts list` and the web API show
/// them: a table for a terminal or JSON. No secret is ever in them (the accounts hold none).
public enum UploadReports {
    /// `oarlog uploads --json`, `GET /api/uploads`: one object per entry, newest first, with
    /// `account_stopped` (the site's 401) while its account waits to be added again.
    public static func uploadsJSON(_ entries: [UploadEntry], accounts: [KeptAccount]) -> String {
        var w = JSONWriter()
        w.beginArray()
        for e in entries.reversed() {
            let account = accounts.first { $0.service == e.service }
            w.beginObject()
            w.field("session", e.session)
            w.field("service", e.service.rawValue)
            w.field("state", e.state.rawValue)
            w.field("remote_id", e.remoteID)
            w.field("last_error", e.lastError)
            w.field("attempts", e.attempts)
            w.field("next_try_utc", e.state == .queued || e.state == .sent ? e.nextTryUTC.map(SessionText.iso) : nil)
            w.field("queued_utc", SessionText.iso(e.queuedUTC))
            w.field("updated_utc", SessionText.iso(e.updatedUTC))
            w.field("account", account != nil)
            w.field("account_stopped", account?.stopped)
            w.endObject()
        }
        w.endArray()
        return w.take() + "\n"
    }

    /// `oarlog uploads`: a table, and what holds the queue back (an account stopped, none added).
    public static func uploadsTable(_ entries: [UploadEntry], accounts: [KeptAccount]) -> String {
        guard !entries.isEmpty else { return "no uploads\n" }
        var rows = [["Session", "Service", "State", "Tries", "Remote id", "Last error"]]
        for e in entries.reversed() {
            var state = e.state.rawValue
            if e.state == .queued, let next = e.nextTryUTC { state += " (next " + String(SessionText.iso(next).dropFirst(11)) + ")" }
            rows.append([e.session, e.service.title, state, "\(e.attempts)", e.remoteID ?? "-", e.lastError ?? ""])
        }
        var out = TextTable.columns(rows, rightAligned: [3])
        let waiting = Set(entries.filter { $0.state == .queued || $0.state == .sending || $0.state == .sent }.map(\.service))
        for service in TrainingService.allCases {
            if let stopped = accounts.first(where: { $0.service == service })?.stopped {
                out += "\(service.title) account stopped (\(stopped)): nothing more is sent to it until it is added again (`oarlog accounts add \(service.rawValue) …`)\n"
            } else if waiting.contains(service) && !accounts.contains(where: { $0.service == service }) {
                out += "no \(service.title) account: its uploads wait until one is added\n"
            }
        }
        return out
    }

    /// `oarlog accounts list --json`, `GET /api/accounts`: service, url, athlete or client id,
    /// auto, stopped — never a secret.
    public static func accountsJSON(_ accounts: [KeptAccount]) -> String {
        var w = JSONWriter()
        w.beginArray()
        for a in accounts {
            w.beginObject()
            w.field("service", a.service.rawValue)
            w.field("title", a.service.title)
            w.field("url", a.account.url)
            w.field("athlete", a.account.athleteID)
            w.field("client_id", a.account.clientID)
            w.field("auto", a.account.auto)
            w.field("stopped", a.stopped)
            w.field("added_utc", SessionText.iso(a.addedUTC))
            w.endObject()
        }
        w.endArray()
        return w.take() + "\n"
    }

    /// `oarlog accounts list`.
    public static func accountsTable(_ accounts: [KeptAccount]) -> String {
        guard !accounts.isEmpty else { return "no accounts (add one with `oarlog accounts add intervals|strava|concept2 …`)\n" }
        var rows = [["Service", "URL", "Athlete/client", "Auto", "State"]]
        for a in accounts {
            rows.append([a.service.rawValue, a.account.url, a.account.athleteID ?? a.account.clientID ?? "-", a.account.auto ? "yes" : "no",
                         a.stopped.map { "stopped: " + $0 } ?? "ready"])
        }
        return TextTable.columns(rows, rightAligned: [])
    }
}
