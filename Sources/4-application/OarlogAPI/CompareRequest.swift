/// One side of a comparison as a person names it: a session (`ID`, or for the command line also
/// an id prefix, `last` or a path) and optionally one of its pieces, `ID:K` with K from 1 (the
/// K-th piece of the session page's table: for a session that rowed a plan, its K-th interval),
/// or the K-th interval of the plan it rowed (`interval`: `--interval K`, `interval=K`).
public struct CompareReference: Equatable, Sendable, CustomStringConvertible {
    public let session: String
    /// The piece, from 1; nil for the whole session.
    public let piece: Int?
    /// True when the piece must be an interval of the plan the session rowed: a session that
    /// rowed none has no interval K (rather than its K-th run between rests).
    public let interval: Bool

    public init(session: String, piece: Int? = nil, interval: Bool = false) {
        self.session = session
        self.piece = piece
        self.interval = interval && piece != nil
    }

    /// This side, or when it names no piece of its own, its `k`-th interval (`interval=K` and
    /// `--interval K`: the same interval on both sides unless a side says otherwise).
    public func defaultingToInterval(_ k: Int?) -> CompareReference {
        guard piece == nil, let k else { return self }
        return CompareReference(session: session, piece: k, interval: true)
    }

    /// `K` for the K-th interval (from 1) on both sides, as `interval=K` gives it; nil when
    /// absent. Anything but a whole number from 1 is malformed.
    public static func interval(_ text: String?) throws(APIRequestError) -> Int? {
        guard let text else { return nil }
        guard !text.isEmpty, text.utf8.count <= 9, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let k = Int(text), k >= 1 else {
            throw .malformed("interval '\(text.prefix(80))': the K-th interval of each side's plan (K a whole number from 1)")
        }
        return k
    }

    /// `ID` or `ID:K`. An empty id, or a `:` followed by anything but a whole number from 1, is
    /// malformed.
    public init(_ text: String) throws(APIRequestError) {
        var session = Substring(text)
        var piece: Int?
        if let colon = text.lastIndex(of: ":") {
            let number = text[text.index(after: colon)...]
            guard !number.isEmpty, number.utf8.count <= 9, number.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                  let k = Int(number), k >= 1 else {
                throw .malformed("'\(text.prefix(80))': a session id, or ID:K for its K-th piece (K a whole number from 1)")
            }
            piece = k
            session = text[..<colon]
        }
        guard !session.isEmpty else { throw .malformed("'\(text.prefix(80))': the session id is missing (ID or ID:K)") }
        self.init(session: String(session), piece: piece)
    }

    /// A side as the web API takes it: `ID` or `ID:K`, where the id is exactly a listed session's
    /// (never a path), so it holds no colon: `ID:1:2` names no piece of anything.
    public init(apiReference text: String) throws(APIRequestError) {
        try self.init(text)
        guard !session.contains(":") else {
            throw .malformed("'\(text.prefix(80))': one colon at most (ID or ID:K for the session's K-th piece)")
        }
    }

    public var description: String { piece.map { "\(session):\($0)" } ?? session }
}

/// `GET /api/compare?a=ID[:K]&b=ID[:K]&interval=K&points=N`: two sessions (or pieces) side by
/// side, each with its trail for the map, at most N points (2 to 100,000; default 2,000). With
/// `interval=K`, a side that names no piece of its own is the K-th interval of the plan it rowed.
public struct CompareRequest: Equatable, Sendable {
    public static let defaultPoints = 2_000
    public static let pointLimits = 2...100_000
    public let a: CompareReference
    public let b: CompareReference
    public let points: Int

    public init(a: String?, b: String?, points: String?, interval: String? = nil) throws(APIRequestError) {
        guard let a, let b else { throw .malformed("give a=ID and b=ID (or ID:K for a session's K-th piece)") }
        let k = try CompareReference.interval(interval)
        self.a = try CompareReference(apiReference: a).defaultingToInterval(k)
        self.b = try CompareReference(apiReference: b).defaultingToInterval(k)
        self.points = try APIRequest.points(points, within: Self.pointLimits, default: Self.defaultPoints)
    }
}
