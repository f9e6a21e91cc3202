import Hummingbird
import OarlogAPI
import OarlogApp
import OarlogSession

/// `GET /api/compare?a=ID[:K]&b=ID[:K]&points=N` (docs/API.md): `oarlog compare A B --json` for
/// the compare page, each side with its trail for the map (thinned to N points, as `/trail`).
/// Ids are exact (never a prefix, `last` or a path); an id that cannot be a session's, or is not
/// one, or a piece it does not have is 404; a malformed query 400; a session that cannot be
/// compared (no GPS, damaged) 422 with the reason.
struct CompareAPI: Sendable {
    let api: SessionAPI

    func add(to router: Router<SessionAPI.Context>) {
        router.get("/api/compare") { request, _ in
            let query = request.uri.queryParameters
            let compare: CompareRequest
            do {
                compare = try CompareRequest(a: query["a"].map(String.init), b: query["b"].map(String.init), points: query["points"].map(String.init))
            } catch {
                throw HTTPError(.badRequest, message: "\(error)")
            }
            for side in [compare.a, compare.b] where !APIRequest.isPlausibleSessionID(side.session) {
                throw HTTPError(.notFound, message: "no such session")
            }
            let directory = api.directory
            let answer: Result<String, SessionComparison.Failure> = try await api.reading {
                let listings = try directory.list()
                do {
                    let comparison = try SessionComparison(compare.a, compare.b) { id in
                        guard let listing = listings.first(where: { $0.id == id }) else { throw AppError("no such session: \(id)") }
                        return listing.path
                    }
                    return .success(comparison.json(trailPoints: compare.points))
                } catch let failure as SessionComparison.Failure {
                    return .failure(failure)
                }
            }
            switch answer {
            case .success(let text): return json(text)
            case .failure(let failure):
                throw HTTPError(failure.kind == .notFound ? .notFound : .unprocessableContent, message: failure.description)
            }
        }
    }
}
