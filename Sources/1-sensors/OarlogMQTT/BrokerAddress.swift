/// Where an MQTT broker is and how to log in to it: `mqtt://[USER[:PASSWORD]@]HOST[:PORT]`, or
/// `mqtts://…` for TLS (port 8883 by default, 1883 without TLS). A password can also come from a
/// file (`--mqtt-password-file`) so that it is not on the command line.
public struct BrokerAddress: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var usesTLS: Bool
    public var username: String?
    public var password: String?

    public init(host: String, port: Int, usesTLS: Bool = false, username: String? = nil, password: String? = nil) {
        self.host = host
        self.port = port
        self.usesTLS = usesTLS
        self.username = username
        self.password = password
    }

    /// Parses `mqtt://…` or `mqtts://…`; a bad address is a `BrokerAddressError` saying what is wrong.
    public init(parsing text: String) throws(BrokerAddressError) {
        var rest = Substring(text)
        if rest.hasPrefix("mqtt://") {
            usesTLS = false
            rest = rest.dropFirst(7)
        } else if rest.hasPrefix("mqtts://") {
            usesTLS = true
            rest = rest.dropFirst(8)
        } else {
            throw BrokerAddressError(text: text, problem: "it must start with mqtt:// or mqtts://")
        }
        if let slash = rest.firstIndex(of: "/") {
            guard rest[slash...].allSatisfy({ $0 == "/" }) else {
                throw BrokerAddressError(text: text, problem: "a broker address has no path (the topic prefix is --topic-prefix)")
            }
            rest = rest[..<slash]
        }
        username = nil
        password = nil
        if let at = rest.lastIndex(of: "@") {
            let login = rest[..<at]
            rest = rest[rest.index(after: at)...]
            if let colon = login.firstIndex(of: ":") {
                username = Self.percentDecoded(login[..<colon])
                password = Self.percentDecoded(login[login.index(after: colon)...])
            } else {
                username = Self.percentDecoded(login)
            }
            if username?.isEmpty ?? true { throw BrokerAddressError(text: text, problem: "the user name before @ is empty") }
        }
        var hostPart = rest
        var portText: Substring?
        if hostPart.hasPrefix("[") {  // [IPv6]:port
            guard let close = hostPart.firstIndex(of: "]") else {
                throw BrokerAddressError(text: text, problem: "an IPv6 address needs its closing ]")
            }
            let after = hostPart[hostPart.index(after: close)...]
            if after.hasPrefix(":") { portText = after.dropFirst() } else if !after.isEmpty {
                throw BrokerAddressError(text: text, problem: "unexpected text after the IPv6 address")
            }
            hostPart = hostPart[hostPart.index(after: hostPart.startIndex)..<close]
        } else if let colon = hostPart.lastIndex(of: ":") {
            portText = hostPart[hostPart.index(after: colon)...]
            hostPart = hostPart[..<colon]
        }
        guard !hostPart.isEmpty else { throw BrokerAddressError(text: text, problem: "the host is missing") }
        host = String(hostPart)
        if let portText {
            guard let p = Int(portText), (1...65535).contains(p) else {
                throw BrokerAddressError(text: text, problem: "the port must be a number from 1 to 65535")
            }
            port = p
        } else {
            port = usesTLS ? 8883 : 1883
        }
    }

    /// The address without the password, for messages and logs.
    public var description: String {
        let login = username.map { "\($0)@" } ?? ""
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "\(usesTLS ? "mqtts" : "mqtt")://\(login)\(shownHost):\(port)"
    }

    private static func percentDecoded(_ s: Substring) -> String {
        var bytes: [UInt8] = []
        var i = s.utf8.startIndex
        let utf8 = s.utf8
        while i < utf8.endIndex {
            let b = utf8[i]
            if b == UInt8(ascii: "%"), let h1 = utf8.index(i, offsetBy: 1, limitedBy: utf8.endIndex), h1 < utf8.endIndex,
               let h2 = utf8.index(h1, offsetBy: 1, limitedBy: utf8.endIndex), h2 < utf8.endIndex,
               let v = UInt8(String(decoding: [utf8[h1], utf8[h2]], as: UTF8.self), radix: 16) {
                bytes.append(v)
                i = utf8.index(after: h2)
            } else {
                bytes.append(b)
                i = utf8.index(after: i)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// A broker address that cannot be used, and why.
public struct BrokerAddressError: Error, Equatable, CustomStringConvertible {
    public var text: String
    public var problem: String
    public var description: String { "bad broker address '\(text)': \(problem) (e.g. mqtt://launch.local:1883)" }
}

/// TLS with a club's own certificate authority: the CA that signed the broker's certificate, and
/// optionally this client's own certificate and key.
public struct BrokerTLS: Sendable, Equatable {
    public var caFile: String
    public var certificateFile: String?
    public var keyFile: String?
    public init(caFile: String, certificateFile: String? = nil, keyFile: String? = nil) {
        self.caFile = caFile
        self.certificateFile = certificateFile
        self.keyFile = keyFile
    }
}
