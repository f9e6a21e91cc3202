import Foundation
import OarlogCore
import OarlogFleet
import OarlogMQTT
import Synchronization

/// Courses and challenges between the boats and the coach through the fleet's broker
/// (`serve --coach` and `serve --publish`; docs/FLEET.md "Courses and challenges"). One MQTT
/// client of its own beside the boat's or coach's: everything it sends is retained, so a boat
/// that joins late, or a coach or boat that starts again, gets it all back.
///
/// What it sends, as `me` (the boat's id, or the coach's login): the course library (the coach,
/// `PREFIX/all/courses`); each challenge set here (`PREFIX/ME/challenge/ID`) and its answers
/// (`…/answer`); this boat's attempts of each challenge for it or for any boat
/// (`PREFIX/ME/challenge/ID/attempt`). What it takes: the club's courses into the library (those
/// it lacks), every challenge, each boat's attempts (only of challenges for that boat or any
/// boat, only under the boat's own topic), and each challenger's answers (only from the one who
/// set it). Work runs on one queue: a message, then a look at the sessions (`refresh`) and a send
/// of what changed — also every `interval` seconds, so a session saved meanwhile is linked.
public final class ChallengeLink: @unchecked Sendable {
    public let connection: FleetConnection
    public let me: String
    public let store: SessionStore
    public let sharesCourses: Bool
    private(set) var client: MQTTClient!
    private let queue = DispatchQueue(label: "oarlog.challenges")
    private var timer: DispatchSourceTimer?
    private let state = Mutex(State())

    struct State {
        var sent: [String: [UInt8]] = [:]
        /// The data directory as the last look at the sessions found it (`DirectoryPrint`).
        var lastLook: DirectoryPrint?
        var pending: [String: [(topic: String, payload: [UInt8])]] = [:]
        var tickScheduled = false
        var counts = Counts()
    }

    /// What the link has done: messages taken, refused (with the last reason), courses added.
    public struct Counts: Sendable, Equatable {
        public var received = 0
        public var refused = 0
        public var coursesAdded = 0
        public var published = 0
        public var lastProblem: String?
    }

    /// - Parameters:
    ///   - me: this writer's topic level (a boat's id; the coach's login).
    ///   - sharesCourses: publish the course library as the club's (the coach).
    public init(_ connection: FleetConnection, me: String, store: SessionStore, sharesCourses: Bool) throws {
        guard FleetTopics.isBoatID(me) else { throw FleetSetupError("'\(me)' cannot name a writer of challenges (a-z, 0-9, - and _)") }
        self.connection = connection
        self.me = me
        self.store = store
        self.sharesCourses = sharesCourses
        client = MQTTClient(address: connection.broker, options: MQTTClient.Options(
            clientID: "oarlog-challenges-\(me)", cleanSession: true, tls: connection.tls,
            subscriptions: connection.topics.challengeFilters)) { [weak self] topic, payload in
            guard let self else { return }
            self.queue.async { self.receive(topic: topic, payload: payload) }
        }
    }

    /// The link of `serve --coach` (writing as the coach's login, sharing the courses) or of a
    /// boat's `serve --publish`, started; nil for neither.
    public static func start(coach: FleetCoach?, boat: FleetLink?, store: SessionStore, interval: Double = 5) throws -> ChallengeLink? {
        let link: ChallengeLink
        if let coach {
            link = try ChallengeLink(coach.connection, me: FleetTopics.boatID(coach.connection.broker.username ?? "coach"),
                                     store: store, sharesCourses: true)
        } else if let boat {
            link = try ChallengeLink(boat.connection, me: boat.boat, store: store, sharesCourses: false)
        } else {
            return nil
        }
        try link.start(interval: interval)
        return link
    }

    public func start(interval: Double = 5) throws {
        do { try client.start() } catch { throw FleetSetupError("\(error)") }
        let t = DispatchSource.makeTimerSource(queue: queue)
        t.schedule(deadline: .now() + 0.2, repeating: interval)
        t.setEventHandler { [weak self] in self?.tick() }
        t.resume()
        timer = t
    }

    public func stop() {
        timer?.cancel()
        timer = nil
        queue.sync {}
        _ = client.waitUntilDelivered(timeout: 5)
        client.stop()
    }

    public var brokerStatus: MQTTClient.Status { client.status }
    public var counts: Counts { state.withLock { $0.counts } }

    /// Looks at the sessions and sends what changed now, and waits for it (tests; a page's change).
    public func tickNow() { queue.sync { tick(forced: true) } }

    /// Waits until the messages that arrived so far are taken.
    public func settle() { queue.sync {} }

    /// Links attempts (`ChallengeBook.refresh`) and publishes every retained message of this
    /// writer whose payload changed since it was last sent. The timer's look (not `forced`) is
    /// skipped while nothing in the data directory changed, and while a file changed in the last
    /// `quietSeconds` (a recording going on: its session is looked at once it is still), so a
    /// boat does not read its growing session file every few seconds.
    func tick(forced: Bool = false, now: Double = Date().timeIntervalSince1970) {
        let book = store.challenges
        let look = DirectoryPrint(path: store.path)
        if !forced {
            let skip = state.withLock { s in s.lastLook == look || look.newestChange > now - Self.quietSeconds }
            if skip { return }
        }
        do {
            try book.refresh(store, now: now)
            // Challenges set here (the command line, the web page) are this writer's from now on.
            try book.change { (all: inout [Challenge]) in
                for k in all.indices where all[k].from == nil { all[k].from = me }
            }
            var wanted: [String: [UInt8]] = [:]
            for c in try book.list() { ChallengePayloads.add(c, me: me, topics: connection.topics, to: &wanted) }
            if sharesCourses, let courses = try? store.courses.list(), !courses.isEmpty {
                wanted[connection.topics.clubCourses] = ChallengePayloads.courses(courses, from: me)
            }
            let due = state.withLock { s in wanted.filter { s.sent[$0.key] != $0.value } }
            for (topic, payload) in due.sorted(by: { $0.key < $1.key }) {
                client.publish(OutgoingMessage(topic: topic, payload: payload, retain: true))
            }
            state.withLock { s in
                for (topic, payload) in due { s.sent[topic] = payload }
                s.counts.published += due.count
                // What this look saw (its own changes to the book included).
                s.lastLook = DirectoryPrint(path: store.path)
            }
        } catch {
            note("\(error)")
        }
    }

    /// Applies one message off the broker (on the queue).
    func receive(topic: String, payload: [UInt8]) {
        state.withLock { $0.counts.received += 1 }
        guard !payload.isEmpty else { return }
        if topic == connection.topics.clubCourses { return takeCourses(payload) }
        guard let (writer, id, kind) = connection.topics.parseChallenge(topic) else { return }
        do {
            let known = try store.challenges.list().contains { $0.id == id }
            if !known && kind != "" {
                // An attempt or answer can come before its challenge: it waits for it (bounded).
                state.withLock { s in
                    if s.pending[id] == nil && s.pending.count >= 256 { return }
                    if (s.pending[id]?.count ?? 0) < 16 { s.pending[id, default: []].append((topic, payload)) }
                }
                return
            }
            try ChallengePayloads.apply(kind: kind, writer: writer, id: id, payload: payload, to: store.challenges)
            if kind == "", let waiting = state.withLock({ $0.pending.removeValue(forKey: id) }) {
                for m in waiting { receive(topic: m.topic, payload: m.payload) }
            }
            scheduleTick()
        } catch {
            note("\(topic): \(error)")
        }
    }

    /// The club's courses: each one the library lacks (by name) is added and searched for.
    private func takeCourses(_ payload: [UInt8]) {
        do {
            let courses = try ChallengePayloads.readCourses(payload)
            guard courses.from != me else { return }
            let have = Set(try store.courses.list().map { $0.name.lowercased() })
            for c in courses.list where !have.contains(c.name.lowercased()) {
                do {
                    _ = try store.addCourse(name: c.name, geoJSON: c.geoJSON)
                    state.withLock { $0.counts.coursesAdded += 1 }
                } catch {
                    note("club course \(c.name): \(error)")
                }
            }
            scheduleTick()
        } catch {
            note("\(connection.topics.clubCourses): \(error)")
        }
    }

    private func scheduleTick() {
        let go = state.withLock { s -> Bool in
            if s.tickScheduled { return false }
            s.tickScheduled = true
            return true
        }
        guard go else { return }
        queue.asyncAfter(deadline: .now() + 0.2) { [weak self] in
            guard let self else { return }
            self.state.withLock { $0.tickScheduled = false }
            self.tick(forced: true)
        }
    }

    /// A file changed this recently means a recording is going on: the timer waits.
    static let quietSeconds = 30.0

    private func note(_ problem: String) {
        state.withLock { s in
            s.counts.refused += 1
            s.counts.lastProblem = String(problem.prefix(300))
        }
    }
}

/// The data directory's files as the link last looked at them: each session file's, the
/// challenges' and the courses' name, size and modification time, and the newest change of a
/// session file (the book and the library changed by a command or a page are looked at at once).
struct DirectoryPrint: Equatable {
    var files: [String: [Double]] = [:]
    var newestChange = -Double.infinity

    init(path: String) {
        let fm = FileManager.default
        for name in (try? fm.contentsOfDirectory(atPath: path)) ?? []
        where name.hasSuffix(".oarlog") || name == ChallengeBook.fileName || name == CourseLibrary.fileName {
            guard let a = try? fm.attributesOfItem(atPath: path + "/" + name) else { continue }
            let modified = (a[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
            files[name] = [Double((a[.size] as? Int) ?? 0), modified]
            if name.hasSuffix(".oarlog") { newestChange = max(newestChange, modified) }
        }
    }

    static func == (a: DirectoryPrint, b: DirectoryPrint) -> Bool { a.files == b.files }
}
