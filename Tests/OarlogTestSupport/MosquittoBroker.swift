#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A real Eclipse Mosquitto broker for a test: its own temporary directory (configuration,
/// password file, ACL, persistence database, log) and a free port on 127.0.0.1; optionally a TLS
/// listener on a second port, logins with an ACL, persistence, and a bridge to another broker.
///
/// mosquitto started as root drops to the user `mosquitto`, which could not read this process's
/// files; so when the tests run as root the configuration says `user root` (mosquitto then keeps
/// root), and as any other user mosquitto stays that user and owns what it writes.
public final class MosquittoBroker: @unchecked Sendable {
    /// A TLS listener: the CA that signed the broker's certificate, the certificate and its key.
    public struct TLS: Sendable {
        public var caFile: String
        public var certificateFile: String
        public var keyFile: String
        public init(caFile: String, certificateFile: String, keyFile: String) {
            self.caFile = caFile
            self.certificateFile = certificateFile
            self.keyFile = keyFile
        }

        /// The server certificate of a test CA.
        public init(_ authority: TestCertificateAuthority) {
            self.init(caFile: authority.caFile, certificateFile: authority.serverCertificateFile, keyFile: authority.serverKeyFile)
        }
    }

    /// A bridge from this broker to another one (a launch forwarding to the club).
    public struct Bridge: Sendable {
        public var name: String
        public var port: Int
        public var topics: [String]
        public var username: String?
        public var password: String?
        /// The remote's CA: the bridge then uses TLS (the remote's certificate must name 127.0.0.1).
        public var caFile: String?
        public var cleanSession: Bool
        public init(name: String = "club", port: Int, topics: [String] = ["oarlog/# out 1"], username: String? = nil,
                    password: String? = nil, caFile: String? = nil, cleanSession: Bool = false) {
            self.name = name
            self.port = port
            self.topics = topics
            self.username = username
            self.password = password
            self.caFile = caFile
            self.cleanSession = cleanSession
        }
    }

    /// The plain MQTT listener, 127.0.0.1.
    public let port: Int
    /// The TLS listener, 127.0.0.1, when the broker has one.
    public let tlsPort: Int?
    /// The broker's own directory (removed when it is deinitialised).
    public let directory: URL
    public let configFile: String
    public let executable: String

    private let lock = NSLock()
    private var process: ChildProcess?
    private var starts = 0

    /// Writes the broker's files; `start()` runs it.
    /// - Parameters:
    ///   - users: logins (a password file made with `mosquitto_passwd`); empty: anonymous clients allowed.
    ///   - acl: the text of an ACL file (`acl_file`), or nil for none.
    ///   - tls: a TLS listener on `tlsPort` beside the plain one.
    ///   - persistence: keep sessions and queued messages across `restart()` (written at SIGTERM).
    ///   - bridge: a bridge section to another broker.
    ///   - extraConfiguration: more lines for the configuration.
    public init(users: [(user: String, password: String)] = [], acl: String? = nil, tls: TLS? = nil, persistence: Bool = false,
                bridge: Bridge? = nil, extraConfiguration: String = "") throws {
        executable = try findExecutable("mosquitto", also: ["/usr/sbin/mosquitto", "/usr/local/sbin/mosquitto"])
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("oarlog-mosquitto-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        port = freeLoopbackPort()
        var tlsPort: Int?
        if tls != nil {
            var p = freeLoopbackPort()
            while p == port { p = freeLoopbackPort() }
            tlsPort = p
        }
        self.tlsPort = tlsPort
        let dir = directory.path
        configFile = "\(dir)/mosquitto.conf"

        var lines = ["# written by OarlogTestSupport.MosquittoBroker"]
        if geteuid() == 0 { lines.append("user \(currentUserName())") }
        lines += ["log_dest file \(dir)/mosquitto.log", "log_type error", "log_type warning", "log_type notice",
                  "log_type information", "connection_messages true", "log_timestamp true"]
        lines.append("persistence \(persistence)")
        if persistence { lines.append("persistence_location \(dir)/") }
        lines.append("max_queued_messages 100000")
        if users.isEmpty {
            lines.append("allow_anonymous true")
        } else {
            let passwd = "\(dir)/passwd"
            let tool = try findExecutable("mosquitto_passwd", also: ["/usr/bin/mosquitto_passwd"])
            for (k, login) in users.enumerated() {
                let run = try ChildProcess.run(tool, (k == 0 ? ["-c"] : []) + ["-b", passwd, login.user, login.password], in: dir)
                guard run.status == 0 else {
                    throw BrokerError(message: "mosquitto_passwd failed for \(login.user): \(run.err)\(run.out)")
                }
            }
            chmod(passwd, 0o600)
            lines += ["allow_anonymous false", "password_file \(passwd)"]
        }
        if let acl {
            let path = "\(dir)/acl"
            try acl.write(toFile: path, atomically: true, encoding: .utf8)
            chmod(path, 0o600)
            lines.append("acl_file \(path)")
        }
        lines.append("")
        lines.append("listener \(port) 127.0.0.1")
        if let tls, let tlsPort {
            lines += ["", "listener \(tlsPort) 127.0.0.1", "cafile \(tls.caFile)", "certfile \(tls.certificateFile)",
                      "keyfile \(tls.keyFile)", "tls_version tlsv1.2", "require_certificate false"]
        }
        if let bridge {
            lines += ["", "connection \(bridge.name)", "address 127.0.0.1:\(bridge.port)"]
            lines += bridge.topics.map { "topic \($0)" }
            lines += ["cleansession \(bridge.cleanSession)", "remote_clientid \(bridge.name)-\(port)", "start_type automatic",
                      "restart_timeout 1", "keepalive_interval 5", "try_private true", "notifications false"]
            if let user = bridge.username { lines.append("remote_username \(user)") }
            if let password = bridge.password { lines.append("remote_password \(password)") }
            if let ca = bridge.caFile { lines += ["bridge_cafile \(ca)", "bridge_tls_version tlsv1.2"] }
        }
        if !extraConfiguration.isEmpty { lines += ["", extraConfiguration] }
        try (lines.joined(separator: "\n") + "\n").write(toFile: configFile, atomically: true, encoding: .utf8)
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Starts mosquitto and waits until its listeners accept connections (10 s at most); throws
    /// with the end of its log if it exits or does not listen.
    public func start() throws {
        lock.lock()
        defer { lock.unlock() }
        guard process == nil else { return }
        starts += 1
        let output = "\(directory.path)/mosquitto.out"
        let p = try ChildProcess(executable, ["-c", configFile], output: output, errors: output)
        process = p
        let deadline = Date(timeIntervalSinceNow: 10)
        while Date() < deadline {
            if !p.isRunning {
                process = nil
                throw BrokerError(message: "mosquitto exited (status \(p.status)) on start:\n\(tail(lockedLogText()))")
            }
            if isListening(port: port) && (tlsPort.map { isListening(port: $0) } ?? true) { return }
            usleep(20_000)
        }
        p.stop(SIGKILL)
        process = nil
        throw BrokerError(message: "mosquitto did not listen on 127.0.0.1:\(port) within 10 s:\n\(tail(lockedLogText()))")
    }

    /// Stops mosquitto with SIGTERM and waits for it to exit (it writes its persistence database
    /// then); SIGKILL after 10 s.
    public func stop() {
        lock.lock()
        defer { lock.unlock() }
        guard let p = process else { return }
        process = nil
        p.stop(SIGTERM, grace: 10)
    }

    /// Stops and starts it again on the same port(s).
    public func restart() throws {
        stop()
        try start()
    }

    public var isRunning: Bool {
        lock.lock()
        defer { lock.unlock() }
        return process?.isRunning ?? false
    }

    /// mosquitto's log file and what it printed.
    public var logText: String {
        lock.lock()
        defer { lock.unlock() }
        return lockedLogText()
    }

    private func lockedLogText() -> String {
        let log = (try? String(contentsOfFile: "\(directory.path)/mosquitto.log", encoding: .utf8)) ?? ""
        let out = (try? String(contentsOfFile: "\(directory.path)/mosquitto.out", encoding: .utf8)) ?? ""
        return out.isEmpty ? log : log + "\n--- stdout/stderr ---\n" + out
    }

    private func tail(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).suffix(30).joined(separator: "\n")
    }
}

/// A broker that could not be set up or started, with mosquitto's own words.
public struct BrokerError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}

/// A throwaway certificate authority made with `openssl` in `directory`: `ca.crt` (and its key)
/// and a server certificate `server.crt`/`server.key` for 127.0.0.1 and localhost (subjectAltName
/// DNS:localhost, IP:127.0.0.1), EC P-256, valid for a day either side of now.
public struct TestCertificateAuthority: Sendable {
    public let directory: String
    public var caFile: String { "\(directory)/ca.crt" }
    public var caKeyFile: String { "\(directory)/ca.key" }
    public var serverCertificateFile: String { "\(directory)/server.crt" }
    public var serverKeyFile: String { "\(directory)/server.key" }

    public init(directory: URL, name: String = "Oarlog test CA") throws {
        self.directory = directory.path
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let openssl = try findExecutable("openssl", also: ["/usr/bin/openssl"])
        let dir = directory.path
        let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-sha256", "-config", "/dev/null"]
        try Self.run(openssl, ["req", "-x509", "-new"] + ec + [
            "-keyout", "ca.key", "-out", "ca.crt", "-days", "2", "-subj", "/CN=\(name)",
            "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
        ], in: dir)
        try Self.run(openssl, ["req", "-new"] + ec + ["-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=localhost"], in: dir)
        try """
            basicConstraints=critical,CA:FALSE
            keyUsage=critical,digitalSignature,keyEncipherment
            extendedKeyUsage=serverAuth
            subjectAltName=DNS:localhost,IP:127.0.0.1

            """.write(toFile: "\(dir)/server.ext", atomically: true, encoding: .utf8)
        try Self.run(openssl, ["x509", "-req", "-in", "server.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-set_serial",
                               "\(UInt32.random(in: 1...UInt32.max))", "-sha256", "-days", "2", "-extfile", "server.ext",
                               "-out", "server.crt"], in: dir)
        for file in ["ca.crt", "server.crt"] { chmod("\(dir)/\(file)", 0o644) }
        for file in ["ca.key", "server.key"] { chmod("\(dir)/\(file)", 0o600) }
    }

    private static func run(_ tool: String, _ arguments: [String], in dir: String) throws {
        let run = try ChildProcess.run(tool, arguments, in: dir)
        guard run.status == 0 else {
            throw BrokerError(message: "openssl \(arguments.prefix(2).joined(separator: " ")) failed (\(run.status)): \(run.err)")
        }
    }
}

/// `name` on PATH, or the first of `also` that exists.
public func findExecutable(_ name: String, also: [String] = []) throws -> String {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for dir in path.split(separator: ":") where FileManager.default.isExecutableFile(atPath: "\(dir)/\(name)") {
        return "\(dir)/\(name)"
    }
    for candidate in also where FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    throw BrokerError(message: "\(name) not found on PATH or at \(also.joined(separator: ", ")) (apt-get install mosquitto mosquitto-clients openssl)")
}

private func currentUserName() -> String {
    if let pw = getpwuid(geteuid()), let name = pw.pointee.pw_name { return String(cString: name) }
    return "root"
}
