import Foundation
import Hummingbird
import OarlogAPI
import OarlogApp

/// `/api/uploads` and `/api/accounts` (docs/API.md, docs/UPLOADS.md): `GET /api/uploads`
/// lists every upload as `oarlog uploads --json`; `GET /api/accounts` the accounts as `oarlog
/// accounts list --json` (never a secret). With the token, `POST /api/sessions/{id}/uploads`
/// (`{"service":"strava","force":false}`) queues the session for the service and starts a
/// delivery in the background: 202 with the upload, 200 when the site has it already (not
/// sent again without `force`), 404 for no such session, 400 for no such account or a bad body.
struct UploadsController: Sendable {
    let api: APIServices
    typealias Context = APIServices.Context

    var endpoints: RouteCollection<Context> {
        RouteCollection(context: Context.self)
            .get("/api/uploads", use: list)
            .get("/api/accounts", use: accounts)
            .post("/api/sessions/:id/uploads", use: upload)
    }

    @Sendable func list(_ request: Request, context: Context) async throws -> Response {
        let sessions = api.sessions
        return json(try await api.reading {
            UploadReports.uploadsJSON(try sessions.uploadQueue.list(), accounts: try sessions.uploadAccounts.list())
        })
    }

    @Sendable func accounts(_ request: Request, context: Context) async throws -> Response {
        let sessions = api.sessions
        return json(try await api.reading { UploadReports.accountsJSON(try sessions.uploadAccounts.list()) })
    }

    @Sendable func upload(_ request: Request, context: Context) async throws -> Response {
        try api.authorize(request)
        let id = try api.sessionID(context)
        var request = request
        let buffer = try await request.collectBody(upTo: api.maximumBodyBytes)
        let body = try UploadRequest(body: Array(buffer.readableBytesView))
        guard let service = UploadService(rawValue: body.service) else {
            throw HTTPError(.badRequest, message: "service: \(body.service) is not one Oarlog knows")
        }
        let sessions = api.sessions
        let force = body.force
        let answer = try await api.writing { try sessions.requestUpload(id: id, to: service, force: force) }
        UploadPump.poke()
        let accounts = (try? sessions.uploadAccounts.list()) ?? []
        switch answer {
        case .queued(let e): return json(Self.one(e, accounts), status: .accepted)
        case .alreadyThere(let e), .beingSent(let e): return json(Self.one(e, accounts))
        }
    }

    /// One upload as the list gives it.
    static func one(_ e: UploadEntry, _ accounts: [KeptAccount]) -> String {
        let list = UploadReports.uploadsJSON([e], accounts: accounts).trimmingCharacters(in: .whitespacesAndNewlines)
        return String(list.dropFirst().dropLast()) + "\n"
    }
}
