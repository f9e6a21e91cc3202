import Foundation
import Hummingbird
import HummingbirdWebSocket
import OarlogAPI
import OarlogApp

/// What every controller works with: the stored sessions (the application layer's one door),
/// the live station, who may change things, and the request checks they share — the token, the
/// session id in the path, a body decoded by OarlogAPI, and the work pools that keep long reads
/// and changes off the event loop.
struct APIServices: Sendable {
    typealias Context = BasicWebSocketRequestContext

    let sessions: SessionStore
    let station: LiveStation
    let access: ServerAccess
    let maximumBodyBytes: Int

    /// Reads a session off the event loop, on the reads' own threads (`WorkPool.reads`): a long
    /// session takes a while and the live screen must not wait, and exports, on a pool of their
    /// own, cannot hold a read up. What the store cannot read is 422 with the reason; a server
    /// with too many reads waiting, 503.
    func reading<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await WorkPool.reads.run { try SessionStore.keepingOwnErrors(work) }
    }

    /// The changes to stored sessions — a note, a note's edit, a rename, a delete — made one at a
    /// time on a thread of their own (`WorkPool.writes`: at most 512 in all, beyond that 503),
    /// each ending with an fsync; the store holds the session's lock and reads it as it stands.
    func writing<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await WorkPool.writes.run(work)
    }

    /// A session's export on the exports' pool (two at once, four waiting, niced): a 3-hour
    /// session's FIT is seconds of replay, and 32 at once made every session page wait.
    func exporting(id: String, format: SessionStore.ExportFormat) async throws -> [UInt8] {
        let sessions = self.sessions
        return try await WorkPool.exports.run { try sessions.exportBytes(id: id, format: format) }
    }

    /// 401 unless the request carries the token (`Authorization: Bearer …`).
    func authorize(_ request: Request) throws {
        guard access.allows(authorization: request.headers[.authorization]) else {
            throw HTTPError(.unauthorized, message: "this needs the token oarlog serve printed (pair the phone with its code)")
        }
    }

    /// The id in the path, if it can be a session id at all (no path, no dots first, not too long).
    func sessionID(_ context: Context) throws -> String {
        guard let id = context.parameters.get("id"), APIRequest.isPlausibleSessionID(id) else {
            throw HTTPError(.notFound, message: "no such session")
        }
        return id
    }

    /// The id of a session that is kept (by the file's name: nothing is opened), else 404.
    func existingSessionID(_ context: Context) throws -> String {
        let id = try sessionID(context)
        try sessions.checkExists(id: id)
        return id
    }

    /// The body's bytes, at most `limit`: over it, 413 with `tooLarge` (what the call takes).
    func body(of request: Request, upTo limit: Int, tooLarge: String) async throws -> [UInt8] {
        var request = request
        do {
            return Array(try await request.collectBody(upTo: limit).readableBytesView)
        } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
            throw HTTPError(.contentTooLarge, message: tooLarge)
        }
    }

    /// The body decoded by `make` (OarlogAPI): 413 over the limit, 400 with a message when it is
    /// not what the call takes.
    func decode<T>(_ request: Request, _ make: ([UInt8]) throws(APIRequestError) -> T) async throws -> T {
        var request = request
        let buffer = try await request.collectBody(upTo: maximumBodyBytes)
        return try make(Array(buffer.readableBytesView))
    }
}

extension SessionStore {
    /// `work`'s errors, with any the store and the API do not name as `unreadable` (422).
    static func keepingOwnErrors<T>(_ work: () throws -> T) throws -> T {
        do { return try work() } catch {
            if APIError.status(of: error) != nil { throw error }
            throw SessionStoreError.unreadable("\(error)")
        }
    }
}

/// A JSON answer the server wrote itself, never cached.
func json(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
    Response(status: status, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
             body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
}

/// A small Codable answer (an id, a token, a link), never cached.
func json<T: Encodable>(_ value: T, status: HTTPResponse.Status = .ok) throws -> Response {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.withoutEscapingSlashes]
    return json(String(decoding: try encoder.encode(value), as: UTF8.self), status: status)
}
