import Foundation
import OarlogCore
import OarlogDSP
import OarlogFleet
import OarlogMQTT
import OarlogSession
import Synchronization

/// The club's archive (`oarlog archive --subscribe …`): every boat's stream rebuilt as session
/// files in a data directory, so that an outing is kept even when the boat's own card dies, and
/// every command reads it (`sessions`, `show`, `export`, `bests`, the web app).
///
/// Per boat and session, in sequence order with duplicates dropped (`MessageOrder`): positions
/// become fixes, strokes become the session's strokes (and reference strokes, so that a replay of
/// the file has them too), notes become notes, fence events become the file's events; the
/// session's end closes the file with the boat's own summary. A session not heard of for
/// `idleClose` seconds, or replaced by the boat's next one, is closed as it stands (crash-safe
/// like any session file). The archive keeps a session at the broker, so what arrives while it is
/// down is queued for it.
public final class FleetArchive: @unchecked Sendable {
    public let connection: FleetConnection
    public let directory: SessionDirectory
    public let idleClose: Double
    private let log: @Sendable (String) -> Void
    private let state = Mutex(State())
    private var client: MQTTClient?

    struct Open {
        /// The boat's session id (also kept in the file's metadata as `fleet_session`).
        let session: String
        var writer: SessionWriter
        var order = MessageOrder()
        var lastHeard: Double
        var boatName: String
    }

    struct State {
        var open: [String: Open] = [:]
        /// Sessions already closed, by boat, so that a late duplicate does not open them again.
        var closed: [String: Set<String>] = [:]
        var written: [String] = []
        var unreadable = 0
    }

    public init(_ connection: FleetConnection, directory: SessionDirectory, idleClose: Double = 900, clientID: String? = nil,
                log: @escaping @Sendable (String) -> Void) {
        self.connection = connection
        self.directory = directory
        self.idleClose = idleClose
        self.log = log
        client = connection.everyBoatSubscriber(role: "archive", clientID: clientID) { [weak self] topic, payload in
            self?.receive(topic: topic, payload: payload)
        }
    }

    public func start() throws {
        try directory.createIfNeeded()
        do { try client?.start() } catch { throw FleetSetupError("\(error)") }
    }

    public var brokerStatus: MQTTClient.Status? { client?.status }

    /// Paths of the session files written so far (closed or open).
    public var written: [String] { state.withLock { $0.written } }

    /// Stops listening and closes every open session as it stands.
    public func stop() {
        client?.stop()
        state.withLock { s in
            for (_, o) in s.open { try? o.writer.close() }
            s.open.removeAll()
        }
    }

    /// Closes sessions not heard of for `idleClose` (call now and then).
    public func tick(now: Double = Date().timeIntervalSince1970) {
        state.withLock { s in
            for (boat, o) in s.open where now - o.lastHeard > idleClose {
                log("\(o.boatName): nothing heard for \(Int(idleClose)) s; session closed as it stands (\(o.writer.path))")
                try? o.writer.close()
                s.open.removeValue(forKey: boat)
                s.closed[boat, default: []].insert(o.session)
            }
        }
    }

    public func receive(topic: String, payload: [UInt8], now: Double = Date().timeIntervalSince1970) {
        guard let (boat, kind) = connection.topics.parse(topic) else { return }
        let message: FleetMessage
        do {
            message = try SignalKDelta.message(boat: boat, kind: kind, payload: payload)
        } catch {
            state.withLock { $0.unreadable += 1 }
            log("\(topic): unreadable message: \(error)")
            return
        }
        state.withLock { s in
            if s.closed[boat]?.contains(message.session) == true { return }
            var entry: Open
            if let o = s.open[boat], o.session == message.session {
                entry = o
            } else {
                if let o = s.open[boat] {
                    // The boat's previous session never said it ended: close it as it stands.
                    guard message.session > o.session else { return }
                    try? o.writer.close()
                    s.closed[boat, default: []].insert(o.session)
                }
                do {
                    entry = Open(session: message.session, writer: try makeWriter(for: message), lastHeard: now, boatName: message.boatName ?? boat)
                } catch {
                    log("\(boat): cannot create a session file: \(error)")
                    return
                }
                s.written.append(entry.writer.path)
            }
            entry.lastHeard = now
            if let name = message.boatName { entry.boatName = name }
            var ended: FleetSummary?
            var sessionEnded = false
            for m in entry.order.accept(message, now: now) {
                do {
                    if case .session(let e) = m.content, !e.started {
                        sessionEnded = true
                        ended = e.summary
                    } else {
                        try write(m, to: entry.writer)
                    }
                } catch {
                    log("\(boat): cannot write \(entry.writer.path): \(error)")
                }
            }
            if sessionEnded {
                do { try entry.writer.close(summary: ended?.sessionSummary) } catch { log("\(boat): closing \(entry.writer.path): \(error)") }
                s.open.removeValue(forKey: boat)
                s.closed[boat, default: []].insert(message.session)
            } else {
                s.open[boat] = entry
            }
        }
    }

    private func makeWriter(for m: FleetMessage) throws -> SessionWriter {
        let startUTC = UTCTime.parseISO8601(m.session) ?? (m.utc - m.elapsed)
        var title = ""
        if case .session(let e) = m.content { title = e.title }
        var metadata = SessionMetadata(title: title.isEmpty ? "\(m.boatName ?? m.boat) (from the fleet)" : title, startUTC: startUTC,
                                       devices: ["fleet: \(connection.broker) \(connection.topics.topic(boat: m.boat, .stroke).dropLast(7))"],
                                       softwareVersion: "oarlog archive",
                                       settings: [.init("archived_from", connection.broker.description)])
        metadata.boat = m.boatName ?? m.boat
        metadata.extra.append(.init("fleet_session", m.session))
        return try SessionWriter.create(in: directory, metadata: metadata)
    }

    private func write(_ m: FleetMessage, to writer: SessionWriter) throws {
        switch m.content {
        case .position(let p):
            try writer.append(.fix(GPSFix(time: m.elapsed, utc: m.utc, latitude: p.latitude, longitude: p.longitude, speed: p.speed,
                                          course: p.course, mode: .threeD)))
        case .stroke(let s):
            try writer.append(.reference(ReferenceStroke(time: s.catchTime, distance: s.distance, split: s.split, strokeRate: s.strokeRate,
                                                         strokeCount: s.index, distancePerStroke: s.distancePerStroke)))
            try writer.append(s.metrics)
        case .caught(let c):
            if c.withdrawn {
                try writer.appendWithdrawn(c.metrics.stroke)
            } else {
                try writer.appendCaught(c.metrics)
            }
        case .note(let text):
            try writer.append(.note(Note(time: m.elapsed, text: text)))
        case .fence(let f):
            try writer.append(SessionEvent(time: m.elapsed, name: f.name, fields: f.fields.map { .init($0.key, $0.value) }))
        case .status, .session:
            break
        }
    }
}
