#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Hummingbird
import HummingbirdWebSocket
import OarlogApp
import OarlogCore
import OarlogSession

/// The HTTP API (docs/API.md): sessions as `oarlog sessions --json` and `oarlog show ID --json
/// --strokes` give them, and the controls, which need the token.
struct SessionAPI: Sendable {
    let directory: SessionDirectory
    let station: LiveStation
    let access: ServerAccess
    let maximumBodyBytes: Int

    typealias Context = BasicWebSocketRequestContext

    func add(to router: Router<Context>) {
        router.get("/api/sessions") { _, _ in
            json(try SessionList(directory).json())
        }
        router.get("/api/sessions/:id") { _, context in
            let path = try sessionPath(context)
            do {
                return json(try StoredSessionReport(try SessionReader(path: path), includeStrokes: true).json())
            } catch {
                throw HTTPError(.unprocessableContent, message: "\(error)")
            }
        }
        router.get("/api/status") { _, _ in
            json(LiveMessage.status(station.status))
        }
        router.post("/api/pair") { request, _ in
            let body = try await object(request)
            guard let code = body["code"] as? String else { throw HTTPError(.badRequest, message: "expected {\"code\": \"123456\"}") }
            switch access.pair(code: code) {
            case .token(let token): return json("{\"token\":\(JSONString.quoted(token))}")
            case .wrongCode: throw HTTPError(.unauthorized, message: "wrong pairing code")
            case .tooManyAttempts: throw HTTPError(.tooManyRequests, message: "too many wrong codes: wait a minute")
            }
        }
        router.post("/api/record/start") { request, _ in
            try authorize(request)
            let body = try await object(request, allowEmpty: true)
            let title = (body["title"] as? String).map { String($0.prefix(200)) }
            do {
                let id = try station.startRecording(title: title)
                return json("{\"id\":\(JSONString.quoted(id))}", status: .created)
            } catch let e as LiveStation.RecordingError {
                throw HTTPError(.conflict, message: e.description)
            }
        }
        router.post("/api/record/stop") { request, _ in
            try authorize(request)
            do {
                let id = try station.stopRecording()
                return json("{\"id\":\(JSONString.quoted(id))}")
            } catch let e as LiveStation.RecordingError {
                throw HTTPError(.conflict, message: e.description)
            }
        }
        router.post("/api/sessions/:id/notes") { request, context in
            try authorize(request)
            let id = try sessionID(context)
            let body = try await object(request)
            guard let raw = body["text"] as? String, case let text = raw.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else {
                throw HTTPError(.badRequest, message: "expected {\"text\": \"…\"} with some text")
            }
            if station.recordingID == id {
                let note = try station.addNote(String(text.prefix(2000)))
                return json(LiveMessage.note(note), status: .created)
            }
            let path = try sessionPath(context)
            let reader: SessionReader
            do { reader = try SessionReader(path: path) } catch { throw HTTPError(.unprocessableContent, message: "\(error)") }
            let end = reader.summary?.statistics.lastTime ?? 0
            let at = (body["t_s"] as? Double) ?? end
            guard at.isFinite, at >= 0, at <= max(end, 0) + 1 else {
                throw HTTPError(.badRequest, message: "t_s must be a time within the session (0 to \(Int(end)) s)")
            }
            let note = Note(time: at, text: String(text.prefix(2000)))
            do { try SessionAppend.append(notes: [note], to: path) } catch {
                throw HTTPError(.unprocessableContent, message: "\(error)")
            }
            return json(LiveMessage.note(note), status: .created)
        }
        router.patch("/api/sessions/:id") { request, context in
            try authorize(request)
            let path = try sessionPath(context)
            let body = try await object(request)
            guard let title = body["title"] as? String, title.count <= 200 else {
                throw HTTPError(.badRequest, message: "expected {\"title\": \"…\"} (at most 200 characters)")
            }
            if station.recordingID == (try sessionID(context)) { throw HTTPError(.conflict, message: "the session is being recorded") }
            do { try SessionRetitle.retitle(path, to: title) } catch { throw HTTPError(.unprocessableContent, message: "\(error)") }
            return json(try StoredSessionReport(try SessionReader(path: path), includeStrokes: false).json())
        }
        router.delete("/api/sessions/:id") { request, context in
            try authorize(request)
            let path = try sessionPath(context)
            if station.recordingID == (try sessionID(context)) { throw HTTPError(.conflict, message: "the session is being recorded: stop it first") }
            guard unlink(path) == 0 else { throw HTTPError(.internalServerError, message: "deleting failed: \(String(cString: strerror(errno)))") }
            return Response(status: .noContent)
        }
    }

    // MARK: Helpers

    func authorize(_ request: Request) throws {
        guard access.allows(authorization: request.headers[.authorization]) else {
            throw HTTPError(.unauthorized, message: "this needs the token oarlog serve printed (pair the phone with its code)")
        }
    }

    /// The id in the path, if it can be a session id at all (no path, no dots first, not too long).
    func sessionID(_ context: Context) throws -> String {
        guard let id = context.parameters.get("id"), SessionAPI.isPlausibleID(id) else {
            throw HTTPError(.notFound, message: "no such session")
        }
        return id
    }

    static func isPlausibleID(_ id: String) -> Bool {
        guard (1...160).contains(id.utf8.count), !id.hasPrefix(".") else { return false }
        return id.utf8.allSatisfy { c in
            (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x2D || c == 0x5F || c == 0x2E
        }
    }

    /// The file of the session with exactly this id in the data directory (never a path).
    func sessionPath(_ context: Context) throws -> String {
        let id = try sessionID(context)
        guard let listing = try? directory.list().first(where: { $0.id == id }) else {
            throw HTTPError(.notFound, message: "no such session")
        }
        return listing.path
    }

    /// The body as a JSON object: 413 over the limit, 400 with a message when it is not one.
    func object(_ request: Request, allowEmpty: Bool = false) async throws -> [String: Any] {
        var request = request
        let buffer = try await request.collectBody(upTo: maximumBodyBytes)
        if buffer.readableBytes == 0 && allowEmpty { return [:] }
        let data = Data(buffer.readableBytesView)
        let value: Any
        do { value = try JSONSerialization.jsonObject(with: data) } catch {
            throw HTTPError(.badRequest, message: "malformed JSON: expected an object such as {\"text\": \"…\"}")
        }
        guard let object = value as? [String: Any] else { throw HTTPError(.badRequest, message: "expected a JSON object") }
        return object
    }
}

func json(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
    Response(status: status, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
             body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
}
