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
    /// New session files a boat may start in an hour; past that its sessions are refused and counted.
    public let sessionsPerHour: Int
    /// Boats followed at once (each remembered for an hour after it was last heard).
    public let maximumBoats: Int
    private let log: @Sendable (String) -> Void
    private let state = Mutex(State())
    private var client: MQTTClient?

    struct Open {
        /// The boat's session id (also kept in the file's metadata as `fleet_session`).
        let session: String
        var writer: SessionWriter
        var lastHeard: Double
        var boatName: String
    }

    /// What the archive knows of a boat: its stream (`BoatStream`), when it was last heard, and
    /// when it started its session files this past hour.
    struct Boat {
        var stream = BoatStream()
        var lastHeard: Double
        var opened: [Double] = []
        /// Sessions closed or refused, the latest few, so that a late message does not open them again.
        var done: [String] = []
    }

    struct State {
        var open: [String: Open] = [:]
        var boats: [String: Boat] = [:]
        var written: [String] = []
        var refused: [FleetRefusal: Int] = [:]
    }

    public init(_ connection: FleetConnection, sessions: SessionStore, idleClose: Double = 900, sessionsPerHour: Int = 30,
                maximumBoats: Int = 64, clientID: String? = nil, log: @escaping @Sendable (String) -> Void) {
        self.connection = connection
        self.directory = sessions.directory
        self.idleClose = idleClose
        self.sessionsPerHour = sessionsPerHour
        self.maximumBoats = maximumBoats
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

    /// Messages not archived, by why (docs/FLEET.md "Limits and trust").
    public var refused: [FleetRefusal: Int] { state.withLock { $0.refused } }

    /// Stops listening and closes every open session as it stands.
    public func stop() {
        client?.stop()
        state.withLock { s in
            for (_, o) in s.open { try? o.writer.close() }
            s.open.removeAll()
        }
    }

    /// Closes sessions not heard of for `idleClose`, settles what waits in the boats' streams,
    /// and forgets boats unheard for an hour (call now and then).
    public func tick(now: Double = Date().timeIntervalSince1970) {
        state.withLock { s in
            for id in s.boats.compactMap({ $0.value.stream.hasWaiting ? $0.key : nil }) {
                guard let step = s.boats[id]?.stream.tick(now: now) else { continue }
                take(step, boat: id, now: now, state: &s)
            }
            for (boat, o) in s.open where now - o.lastHeard > idleClose {
                log("\(o.boatName): nothing heard for \(Int(idleClose)) s; session closed as it stands (\(o.writer.path))")
                close(boat, state: &s)
            }
            s.boats = s.boats.filter { now - $0.value.lastHeard <= max(3600, idleClose) || s.open[$0.key] != nil }
        }
    }

    public func receive(topic: String, payload: [UInt8], now: Double = Date().timeIntervalSince1970) {
        let message: FleetMessage
        switch connection.topics.read(topic: topic, payload: payload) {
        case nil: return
        case .success(let m): message = m
        case .failure(let refusal):
            state.withLock { count(refusal.reason, refusal.description, state: &$0) }
            return
        }
        let boat = message.boat
        state.withLock { s in
            if s.boats[boat] == nil {
                guard s.boats.count < maximumBoats else {
                    count(.tooManyBoats, "\(boat): more than \(maximumBoats) boats at once; not archived", state: &s)
                    return
                }
                s.boats[boat] = Boat(lastHeard: now)
            }
            guard let step = s.boats[boat]?.stream.accept(message, now: now) else { return }
            s.boats[boat]?.lastHeard = now
            take(step, boat: boat, now: now, state: &s)
        }
    }

    /// Counts a refusal, and says so in the log at the 1st, 10th, 100th, … of each reason.
    private func count(_ reason: FleetRefusal, _ line: String, by n: Int = 1, state s: inout State) {
        let before = s.refused[reason] ?? 0
        s.refused[reason] = before + n
        var mark = 1
        while mark <= before { mark *= 10 }
        if before + n >= mark { log("\(line) (\(reason.rawValue): \(before + n) so far)") }
    }

    /// Writes what a boat's stream delivered, opening and closing its session files.
    private func take(_ step: BoatStream.Step, boat: String, now: Double, state s: inout State) {
        for (reason, n) in step.refused.sorted(by: { $0.key < $1.key }) {
            count(reason, "\(boat): \(n) message(s) not of the boat's stream", by: n, state: &s)
        }
        for m in step.delivered {
            // A session already closed is not opened again by a late message.
            if s.open[boat]?.session != m.session, s.boats[boat]?.done.contains(m.session) == true { continue }
            guard var entry = s.open[boat].flatMap({ $0.session == m.session ? $0 : nil }) ?? open(m, now: now, state: &s) else { continue }
            entry.lastHeard = now
            if let name = m.boatName, FleetTopics.boatID(name) == boat { entry.boatName = name }
            if case .session(let e) = m.content, !e.started {
                do { try entry.writer.close(summary: e.summary?.sessionSummary) } catch { log("\(boat): closing \(entry.writer.path): \(error)") }
                s.open.removeValue(forKey: boat)
                remember(m.session, of: boat, state: &s)
                continue
            }
            do { try write(m, to: entry.writer) } catch { log("\(boat): cannot write \(entry.writer.path): \(error)") }
            s.open[boat] = entry
        }
    }

    /// A new session file for the boat's session of `m`, unless the boat has used its hour's allowance.
    private func open(_ m: FleetMessage, now: Double, state s: inout State) -> Open? {
        // The boat's previous session never said it ended: close it as it stands.
        if s.open[m.boat] != nil { close(m.boat, state: &s) }
        let opened = (s.boats[m.boat]?.opened ?? []).filter { now - $0 < 3600 }
        guard opened.count < sessionsPerHour else {
            count(.sessionLimit, "\(m.boat): more than \(sessionsPerHour) new sessions in an hour; session \(m.session.prefix(64)) not archived",
                  state: &s)
            return nil
        }
        s.boats[m.boat]?.opened = opened + [now]
        do {
            let entry = Open(session: m.session, writer: try makeWriter(for: m), lastHeard: now, boatName: m.boat)
            s.written.append(entry.writer.path)
            return entry
        } catch {
            log("\(m.boat): cannot create a session file: \(error)")
            return nil
        }
    }

    private func close(_ boat: String, state s: inout State) {
        guard let o = s.open.removeValue(forKey: boat) else { return }
        try? o.writer.close()
        remember(o.session, of: boat, state: &s)
    }

    private func remember(_ session: String, of boat: String, state s: inout State) {
        s.boats[boat]?.done.append(session)
        if let n = s.boats[boat]?.done.count, n > 8 { s.boats[boat]?.done.removeFirst(n - 8) }
    }

    private func makeWriter(for m: FleetMessage) throws -> SessionWriter {
        let startUTC = UTCTime.parseISO8601(m.session) ?? (m.utc - m.elapsed)
        // Only the topic's own name (a name for another topic id is not believed).
        let boatName = m.boatName.flatMap { FleetTopics.boatID($0) == m.boat ? $0 : nil }
        var title = ""
        if case .session(let e) = m.content { title = e.title }
        var metadata = SessionMetadata(title: title.isEmpty ? "\(boatName ?? m.boat) (from the fleet)" : title, startUTC: startUTC,
                                       devices: ["fleet: \(connection.broker) \(connection.topics.topic(boat: m.boat, .stroke).dropLast(7))"],
                                       softwareVersion: "oarlog archive",
                                       settings: [.init("archived_from", connection.broker.description)])
        metadata.boat = boatName ?? m.boat
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
        case .status, .session, .workout, .interval:
            break
        }
    }
}
