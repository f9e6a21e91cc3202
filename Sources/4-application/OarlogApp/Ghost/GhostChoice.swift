import OarlogCore

/// Which attempt of a course a crew races (`--ghost`, the live page's choice): the fastest kept
/// attempt, or a session's K-th attempt (1-based, in the order it rowed them).
public enum GhostChoice: Sendable, Equatable, CustomStringConvertible {
    case best
    /// A session (an id, a unique start of one, or `last`, as the command line names sessions;
    /// an exact id through the API) and which of its attempts.
    case session(String, attempt: Int)

    /// Reads `best`, `SESSION` or `SESSION:K`; errors say what is expected.
    public init(parsing text: String) throws(AppError) {
        let text = text.trimmingWhitespace()
        if text.lowercased() == "best" {
            self = .best
            return
        }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), !parts[0].isEmpty else {
            throw AppError("'\(text)': expected best, SESSION or SESSION:K (e.g. 2026-11-02-0715:2)")
        }
        var attempt = 1
        if parts.count == 2 {
            guard let k = Int(parts[1]), (1...1000).contains(k) else {
                throw AppError("'\(text)': K in SESSION:K is the attempt's number in that session, 1 or more")
            }
            attempt = k
        }
        self = .session(String(parts[0]), attempt: attempt)
    }

    public var description: String {
        switch self {
        case .best: return "best"
        case .session(let id, let k): return k == 1 ? id : "\(id):\(k)"
        }
    }
}
