import Foundation
import OarlogCore

/// `POST /api/sessions/{id}/uploads`: `{"service": "strava", "force": false}` — which training
/// site to send the session to (`intervals`, `strava`, `concept2`) and whether to send it again
/// though the site has it (docs/UPLOADS.md).
public struct UploadRequest: Equatable, Sendable {
    /// The services a session can be sent to (their names in `oarlog upload --to`).
    public static let services = ["intervals", "strava", "concept2"]

    public let service: String
    public let force: Bool

    public init(body: [UInt8]) throws(APIRequestError) {
        let example = "{\"service\": \"intervals|strava|concept2\", \"force\": false}"
        let object = try APIRequest.object(body, allowEmpty: false, example: example)
        guard let name = object["service"] as? String else { throw .malformed("expected \(example)") }
        guard Self.services.contains(name) else {
            throw .malformed("service: '\(StoredText.cleaned(String(name.prefix(40))))' is not intervals, strava or concept2")
        }
        service = name
        switch object["force"] {
        case nil, is NSNull: force = false
        case let flag as Bool: force = flag
        default: throw .malformed("force must be true or false")
        }
    }
}
