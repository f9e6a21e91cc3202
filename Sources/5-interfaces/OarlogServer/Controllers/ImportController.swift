import Hummingbird
import OarlogApp

/// `POST /api/import?name=FILE` (the token needed): one file's bytes — a trace in any format the
/// readers know, or a zip of them — imported into the archive as `oarlog import` does it, and
/// the same JSON answer (`{"imported", "duplicates", "refused", "other_files"}`). The race
/// list's drop zone and file picker send each file this way. Over 64 MiB: 413.
struct ImportController: Sendable {
    let api: APIServices
    typealias Context = APIServices.Context

    /// Its routes, for `WebServer` to add.
    var endpoints: RouteCollection<Context> {
        RouteCollection(context: Context.self)
            .post("/api/import", use: importFile)
    }

    @Sendable func importFile(_ request: Request, context: Context) async throws -> Response {
        try api.authorize(request)
        let query = request.uri.queryParameters
        guard let name = query["name"].map(String.init), !name.isEmpty, name.utf8.count <= 1024 else {
            throw HTTPError(.badRequest, message: "name: the file's name is needed (?name=FILE.csv)")
        }
        let boat = query["boat"].map(String.init).flatMap { $0.isEmpty ? nil : $0 }
        let bytes = try await api.body(of: request, upTo: SessionStore.maximumImportBytes,
                                       tooLarge: "the file is over \(SessionStore.maximumImportBytes >> 20) MiB: import it with `oarlog import` on the boat")
        let sessions = api.sessions
        return json(try await api.writing { try sessions.importing(bytes: bytes, name: name, boat: boat).json() })
    }
}
