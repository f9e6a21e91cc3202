import Hummingbird
import OarlogAPI
import OarlogApp

/// The one place where what went wrong becomes an HTTP status (ErrorJSON writes the answer):
/// the store's errors, the requests' and the application layer's, Hummingbird's `HTTPError`
/// as raised, a busy pool 503. Anything else is 500 without its details.
enum APIError {
    /// The status and the message of an error the API knows, nil for one it does not.
    static func status(of error: any Error) -> HTTPError? {
        switch error {
        case let e as HTTPError: return e
        case let busy as WorkPool.Busy: return HTTPError(.serviceUnavailable, headers: [.retryAfter: "5"], message: busy.description)
        case let e as SessionStoreError: return HTTPError(status(of: e), message: e.description)
        case let e as APIRequestError: return HTTPError(e.status == 413 ? .contentTooLarge : .badRequest, message: e.description)
        case let e as SessionQueryError: return HTTPError(.badRequest, message: e.description)
        case let e as SessionComparison.Failure:
            return HTTPError(e.kind == .notFound ? .notFound : .unprocessableContent, message: e.description)
        case let e as LiveStation.RecordingError: return HTTPError(.conflict, message: e.description)
        case let e as WorkoutLibraryError: return HTTPError(status(of: e), message: e.description)
        case let e as ChallengeError: return HTTPError(status(of: e), message: e.description)
        case let e as LiveStation.WorkoutError: return HTTPError(e == .recording ? .conflict : .notFound, message: e.description)
        default: return nil
        }
    }

    static func status(of error: SessionStoreError) -> HTTPResponse.Status {
        switch error {
        case .notFound: return .notFound
        case .beingRecorded: return .conflict
        case .badRequest: return .badRequest
        case .unreadable: return .unprocessableContent
        }
    }
}
