#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Hummingbird
import HummingbirdWebSocket
import OarlogAPI
import OarlogApp
import OarlogArchive
import OarlogCore
import OarlogExport
import OarlogSession

/// The HTTP API (docs/API.md): sessions as `oarlog sessions --json` and `oarlog show ID --json
/// --strokes` give them, and the controls, which need the token.
struct SessionAPI: Sendable {
    let directory: SessionDirectory
    let station: LiveStation
    let access: ServerAccess
    let maximumBodyBytes: Int

    typealias Context = BasicWebSocketRequestContext

    /// The longest filter value taken (a search of a few words, a date, a place).
    static let maximumFilterCharacters = 200

    static func sessionQuery(_ parameters: Parameters) throws -> SessionQuery {
        func value(_ name: String) throws -> String? {
            guard let v = parameters[Substring(name)].map(String.init) else { return nil }
            guard v.count <= maximumFilterCharacters else {
                throw HTTPError(.badRequest, message: "\(name): longer than \(maximumFilterCharacters) characters")
            }
            return v.isEmpty ? nil : v
        }
        do {
            return try SessionQuery(search: value("search"), from: value("from"), to: value("to"), near: value("near"),
                                    minimumDistance: value("min_distance"), rate: value("rate"), boat: value("boat"), sort: value("sort"))
        } catch let error as SessionQueryError {
            throw HTTPError(.badRequest, message: "\(error)")
        }
    }

    func add(to router: Router<Context>) {
        // The race list: `oarlog sessions --json` with its filters and order as parameters
        // (search, from, to, near, min_distance, rate, boat, sort); a bad one is a 400 naming it.
        router.get("/api/sessions") { request, _ in
            let query = try Self.sessionQuery(request.uri.queryParameters)
            return json(try await reading { try SessionList(directory, query: query).json(fileNamesOnly: true) })
        }
        router.get("/api/sessions/:id") { _, context in
            let path = try sessionPath(context)
            return json(try await reading { try StoredSessionReport(try SessionReader(path: path), includeStrokes: true).json(fileNamesOnly: true) })
        }
        // The session page's map: the trail (the export's points, with time and distance), and
        // the fences and gate crossings recorded with the session.
        router.get("/api/sessions/:id/trail") { request, context in
            let path = try sessionPath(context)
            let trail: TrailRequest
            do { trail = try TrailRequest(points: request.uri.queryParameters["points"].map(String.init)) } catch {
                throw HTTPError(.badRequest, message: "\(error)")
            }
            return json(try await reading { try SessionTrail(try SessionReader(path: path)).json(points: trail.points) })
        }
        router.get("/api/sessions/:id/course") { _, context in
            let path = try sessionPath(context)
            return json(try await reading {
                let reader = try SessionReader(path: path)
                return SessionCourse(metadata: reader.metadata, events: try reader.events()).json()
            })
        }
        // The pieces (rests or the course's legs) and the stroke curves.
        router.get("/api/sessions/:id/pieces") { _, context in
            let path = try sessionPath(context)
            return json(try await reading {
                let reader = try SessionReader(path: path)
                return SessionPieces(strokes: try SessionFigures.load(reader, includeStrokes: true).strokes ?? [], events: try reader.events()).json()
            })
        }
        router.get("/api/sessions/:id/curve") { request, context in
            let path = try sessionPath(context)
            let query = request.uri.queryParameters
            let curve: CurveRequest
            do {
                curve = try CurveRequest(piece: query["piece"].map(String.init), stroke: query["stroke"].map(String.init),
                                         points: query["points"].map(String.init))
            } catch {
                throw HTTPError(.badRequest, message: "\(error)")
            }
            let answer: String? = try await reading {
                let reader = try SessionReader(path: path)
                let strokes = try SessionFigures.load(reader, includeStrokes: true).strokes ?? []
                switch curve.target {
                case .piece(let k):
                    let pieces = SessionPieces(strokes: strokes, events: try reader.events()).pieces
                    guard k < pieces.count else { return nil }
                    let piece = pieces[k]
                    let made = try piece.strokeRange.map { try StrokeCurve(reader, strokes: strokes, range: $0, points: curve.points) }
                    return (made ?? StrokeCurve(points: curve.points)).json { w in
                        w.field("piece", k)
                        w.field("label", piece.label)
                        w.field("piece_strokes", piece.strokes)
                    }
                case .stroke(let n):
                    guard n < strokes.count else { return nil }
                    return try StrokeCurve(reader, strokes: strokes, range: n...n, points: curve.points).json { w in
                        w.field("stroke", n)
                        w.field("catch_s", strokes[n].stroke.catchTime, places: 3)
                    }
                }
            }
            guard let answer else { throw HTTPError(.notFound, message: "no such piece or stroke in this session") }
            return json(answer)
        }
        // The track as GeoJSON (`oarlog export ID --format geojson`), and every export as a download.
        router.get("/api/sessions/:id/track") { _, context in
            try await download(context, format: .geojson, attachment: false)
        }
        router.get("/api/sessions/:id/export/:format") { _, context in
            guard let name = context.parameters.get("format"), let format = ExportFormat(rawValue: name) else {
                throw HTTPError(.notFound, message: "no such format: gpx, tcx, fit, csv or geojson")
            }
            return try await download(context, format: format, attachment: true)
        }
        // Per-stroke series for the plots, downsampled here (min, max and mean per bucket).
        router.get("/api/sessions/:id/series") { request, context in
            let path = try sessionPath(context)
            let series: SeriesRequest
            do {
                series = try SeriesRequest(fields: request.uri.queryParameters["fields"].map(String.init),
                                           points: request.uri.queryParameters["points"].map(String.init))
            } catch {
                throw HTTPError(.badRequest, message: "\(error)")
            }
            return json(try await reading {
                let figures = try SessionFigures.load(try SessionReader(path: path), includeStrokes: true)
                return SessionSeries(strokes: figures.strokes ?? [], duration: figures.duration).json(series)
            })
        }
        router.get("/api/status") { _, _ in
            json(LiveMessage.status(station.status))
        }
        router.post("/api/pair") { request, _ in
            let pairing = try await decode(request, PairingRequest.init(body:))
            // Each address waits for its own wrong codes only (FrontDoor sets who is asking).
            switch access.pair(code: pairing.code, client: request.headers[FrontDoor.peerHeader] ?? "unknown") {
            case .token(let token): return json("{\"token\":\(JSONString.quoted(token))}")
            case .wrongCode: throw HTTPError(.unauthorized, message: "wrong pairing code (it is the one oarlog serve printed last)")
            case .tooManyAttempts(let seconds):
                throw HTTPError(.tooManyRequests, headers: [.retryAfter: String(seconds)],
                                message: "too many wrong codes from this phone: try again in \(seconds) s")
            }
        }
        router.post("/api/record/start") { request, _ in
            try authorize(request)
            let start = try await decode(request, StartRequest.init(body:))
            do {
                let id = try station.startRecording(title: start.title)
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
            let noteRequest = try await decode(request, NoteRequest.init(body:))
            if station.recordingID == id {
                let note = try station.addNote(noteRequest.text)
                return json(LiveMessage.note(note), status: .created)
            }
            // One change at a time, the session read as it stands (SessionWrites.swift).
            let note = try await addStoredNote(noteRequest, path: try sessionPath(context))
            return json(LiveMessage.note(note), status: .created)
        }
        // A note changed after the session: its text, and its time when t_s is given.
        router.patch("/api/sessions/:id/notes/:index") { request, context in
            try authorize(request)
            let path = try sessionPath(context)
            if station.recordingID == (try sessionID(context)) { throw HTTPError(.conflict, message: "the session is being recorded") }
            guard let index = context.parameters.get("index").flatMap({ Int($0) }), index >= 0 else {
                throw HTTPError(.notFound, message: "no such note")
            }
            let noteRequest = try await decode(request, NoteRequest.init(body:))
            return json(LiveMessage.note(try await editStoredNote(noteRequest, index: index, path: path)))
        }
        router.patch("/api/sessions/:id") { request, context in
            try authorize(request)
            let path = try sessionPath(context)
            let title = try await decode(request, RetitleRequest.init(body:)).title
            if station.recordingID == (try sessionID(context)) { throw HTTPError(.conflict, message: "the session is being recorded") }
            return json(try await retitleStored(title, path: path))
        }
        router.delete("/api/sessions/:id") { request, context in
            try authorize(request)
            let path = try sessionPath(context)
            if station.recordingID == (try sessionID(context)) { throw HTTPError(.conflict, message: "the session is being recorded: stop it first") }
            try await deleteStored(path: path)
            return Response(status: .noContent)
        }
    }

    // MARK: Helpers

    /// Reads a session off the event loop, on the reads' own threads (`WorkPool.reads`): a long
    /// session takes a while and the live screen must not wait, and exports, on a pool of their
    /// own, cannot hold a read up. A session that cannot be read is 422 with the reason; a
    /// server with too many reads waiting, 503.
    func reading<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        do {
            return try await WorkPool.reads.run(work)
        } catch let busy as WorkPool.Busy {
            throw busy.httpError
        } catch {
            throw HTTPError(.unprocessableContent, message: "\(error)")
        }
    }

    /// A closed session's export (a session being recorded has no end yet: 409).
    func download(_ context: Context, format: ExportFormat, attachment: Bool) async throws -> Response {
        let id = try sessionID(context)
        let path = try sessionPath(context)
        if station.recordingID == id { throw HTTPError(.conflict, message: "the session is being recorded: stop it first") }
        let bytes: [UInt8]
        do { bytes = try await SessionDownload.bytes(sessionPath: path, format: format) } catch let busy as WorkPool.Busy {
            throw busy.httpError
        } catch {
            throw HTTPError(.unprocessableContent, message: "\(error)")
        }
        return SessionDownload.response(bytes, id: id, format: format, attachment: attachment)
    }

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

    /// The file of the session with exactly this id in the data directory (never a path).
    func sessionPath(_ context: Context) throws -> String {
        let id = try sessionID(context)
        // By the file's name: nothing is opened (listing opened every session file).
        guard let path = directory.sessionFile(id: id) else { throw HTTPError(.notFound, message: "no such session") }
        return path
    }

    /// The body decoded by `make` (OarlogAPI): 413 over the limit, 400 with a message when it is
    /// not what the call takes.
    func decode<T>(_ request: Request, _ make: ([UInt8]) throws(APIRequestError) -> T) async throws -> T {
        var request = request
        let buffer = try await request.collectBody(upTo: maximumBodyBytes)
        do { return try make(Array(buffer.readableBytesView)) } catch {
            throw HTTPError(error.status == 413 ? .contentTooLarge : .badRequest, message: error.description)
        }
    }
}

func json(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
    Response(status: status, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
             body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
}
