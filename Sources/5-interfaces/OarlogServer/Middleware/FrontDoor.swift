#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Hummingbird
import OarlogAPI
import OarlogCore
import Synchronization

/// The limits every connection meets before any route sees it (docs/API.md, "Limits"): how long
/// a request may take to arrive, how many connections are held, how large a request head is.
public struct FrontDoorLimits: Sendable {
    /// Seconds a connection may sit without a whole request arriving (from its opening, or from
    /// the end of the previous answer): then it is closed (408 if part of a request came).
    public var idleTimeout: Double = 30
    /// Connections held at once; one more is answered 503 and closed at once.
    public var maximumConnections = 256
    /// Connections held at once from one address (a phone opens about six), so one client
    /// cannot take them all.
    public var maximumConnectionsPerAddress = 64
    /// The request line (method, URL, version) and each header line, in bytes: past it 414 (the
    /// URL) or 431 (a header).
    public var maximumLineBytes = 8 * 1024
    /// A URL (path and query), in bytes: past it 414 (a path over 2 KiB is already 404).
    public var maximumURLBytes = 8 * 1024
    /// The whole request head, in bytes: past it 431.
    public var maximumHeadBytes = 16 * 1024
    /// Header fields in one request: past it 431.
    public var maximumHeaderCount = 100

    public init() {}
}

/// What every connection passes through: the connection count, the Host and Origin checks, the
/// limits. Shared by all connections of one server.
public final class FrontDoor: Sendable {
    /// Who is asking (the client's address), set on every request by the server itself; a value
    /// the client sent is replaced.
    public static let peerHeaderName = "X-Oarlog-Peer"
    static let peerHeader = HTTPFields.Element.Name(peerHeaderName)!

    public let limits: FrontDoorLimits
    public let hosts: HostAllowance
    /// Playbacks without the token or a share key, refused `401` at the head (nil: no check here).
    let playbackGate: PlaybackGate?
    private let counts = Mutex<(total: Int, byAddress: [String: Int])>((0, [:]))

    public convenience init(limits: FrontDoorLimits = .init(), hosts: HostAllowance) {
        self.init(limits: limits, hosts: hosts, playbackGate: nil)
    }

    init(limits: FrontDoorLimits, hosts: HostAllowance, playbackGate: PlaybackGate?) {
        self.limits = limits
        self.hosts = hosts
        self.playbackGate = playbackGate
    }

    /// Takes a connection from `address`, or says why not (it is then not counted).
    func open(_ address: String) -> String? {
        counts.withLock { c in
            if c.total >= limits.maximumConnections {
                return "the server holds \(limits.maximumConnections) connections already: try again shortly"
            }
            if c.byAddress[address, default: 0] >= limits.maximumConnectionsPerAddress {
                return "this address holds \(limits.maximumConnectionsPerAddress) connections already"
            }
            c.total += 1
            c.byAddress[address, default: 0] += 1
            return nil
        }
    }

    func close(_ address: String) {
        counts.withLock { c in
            c.total -= 1
            let left = c.byAddress[address, default: 1] - 1
            c.byAddress[address] = left > 0 ? left : nil
        }
    }

    /// Connections held now.
    public var connections: Int { counts.withLock { $0.total } }

    /// `{"error": {"message": "…"}}`, as every error of the API.
    static func errorJSON(_ message: String) -> String {
        "{\"error\":{\"message\":\(JSONString.quoted(PathText.fileNamesOnly(message)))}}"
    }
}

/// The names a request may give in its `Host` header, so a page of another site cannot reach
/// the server through a name that points at it (DNS rebinding): any address written as an IP
/// (such a page's origin is the address itself), `localhost`, the board's host name (and
/// `NAME.local`), the address it listens on, and names allowed with `--allow-host`.
public struct HostAllowance: Sendable {
    let names: Set<String>

    public init(listenHost: String, extra: [String] = [], hostName: String? = HostAllowance.boardHostName()) {
        var names: Set<String> = ["localhost"]
        for name in [listenHost] + extra + [hostName, hostName.map { $0 + ".local" }].compactMap({ $0 }) {
            names.insert(Self.hostPart(name))
        }
        self.names = names
    }

    /// The board's host name (`gethostname`), lower case.
    public static func boardHostName() -> String? {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return nil }
        let name = String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? nil : name.lowercased()
    }

    /// The host of `HOST[:PORT]` or `[V6]:PORT`, lower case, without a final dot.
    static func hostPart(_ authority: String) -> String {
        var host = Substring(authority.lowercased())
        if host.hasPrefix("[") {
            host = host.dropFirst().prefix(while: { $0 != "]" })
        } else if host.filter({ $0 == ":" }).count == 1, let colon = host.firstIndex(of: ":") {
            host = host[..<colon]
        }
        while host.hasSuffix(".") { host = host.dropLast() }
        return String(host)
    }

    static func isIPAddress(_ host: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
    }

    /// Whether a request with this `Host` may be answered (a request without one may: no
    /// browser sends one).
    public func allows(host: String?) -> Bool {
        guard let host else { return true }
        let name = Self.hostPart(host)
        return Self.isIPAddress(name) || names.contains(name)
    }

    /// Why a request is refused, or nil: a `Host` not allowed is 421; a WebSocket upgrade whose
    /// `Origin` is not this server (a page of another site opening it in the phone's browser)
    /// is 403 (the Origin's host must be the Host's). Non-browser clients send no Origin and pass.
    public func refusal(host: String?, origin: String?, isWebSocket: Bool) -> (status: Int, message: String)? {
        guard allows(host: host) else {
            return (421, "this server does not answer to the name '\(String((host ?? "").prefix(100)))' (start it with --allow-host NAME)")
        }
        guard isWebSocket, let origin else { return nil }
        let authority = origin.range(of: "://").map { String(origin[$0.upperBound...]) } ?? ""
        // The host names must match; the port may differ (clients that are no browser give none).
        guard let host, !authority.isEmpty, Self.hostPart(authority) == Self.hostPart(host) else {
            return (403, "a WebSocket is opened only by this server's own pages (Origin '\(String(origin.prefix(100)))')")
        }
        return nil
    }
}
