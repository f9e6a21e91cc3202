import Foundation
import OarlogCore
import OarlogDSP
import OarlogFences
import OarlogFleet
import OarlogMQTT
import Synchronization

/// The coach's launch (`oarlog serve --coach --subscribe …`): every boat's messages from the
/// broker into one `FleetBoard`, with crossed paths and, given a course, the race standings;
/// read by the web app as JSON (`/api/fleet`, docs/API.md).
///
/// The coach keeps a session at the broker (a fixed client id, not clean), so what the boats
/// sent while the launch was out of reach is queued for it and arrives when it is back.
public final class FleetCoach: @unchecked Sendable {
    public let connection: FleetConnection
    public let course: FenceFile?
    let state: Mutex<State>
    private(set) var client: MQTTClient?

    struct State {
        var board = FleetBoard()
        var paths: CrossedPaths
        var race: RaceStandings?
        var lastTick = -Double.infinity
        /// The plans sent and the boats' answers (FleetCoach+Plans).
        var plans = FleetCoachPlans()
    }

    /// - Parameters:
    ///   - meetingDistance: boats closer than this at the same time have crossed paths.
    ///   - clientID: the coach's id at the broker (its queued messages are kept under it).
    public init(_ connection: FleetConnection, course: FenceFile? = nil, meetingDistance: Metres = 10, clientID: String? = nil) throws {
        if let course, course.course == nil { throw FleetSetupError("--course: the file has no course (docs/FENCES.md)") }
        self.connection = connection
        self.course = course
        state = Mutex(State(paths: CrossedPaths(distanceLimit: meetingDistance), race: course.flatMap { RaceStandings(file: $0) }))
        client = connection.everyBoatSubscriber(role: "coach", clientID: clientID, also: [connection.topics.everyPlanAnswer]) { [weak self] topic, payload in
            self?.receive(topic: topic, payload: payload)
        }
    }

    public func start() throws {
        do { try client?.start() } catch { throw FleetSetupError("\(error)") }
    }

    public func stop() { client?.stop() }

    public var brokerStatus: MQTTClient.Status? { client?.status }

    /// Applies one payload (what the MQTT client's thread calls; tests may call it too).
    public func receive(topic: String, payload: [UInt8], now: Double = Date().timeIntervalSince1970) {
        state.withLock { s in
            // The plans (the coach's own, retained, back from the broker) and the boats' answers.
            if s.plans.receive(topic: topic, payload: payload, topics: connection.topics) { return }
            var delivered = s.board.receive(topic: topic, payload: payload, topics: connection.topics, now: now)
            // Gaps waiting too long, other streams and silent boats are looked at once a second,
            // not at every message.
            if now - s.lastTick >= 1 {
                s.lastTick = now
                delivered += s.board.tick(now: now)
                for gone in s.board.expire(now: now) {
                    s.paths.forget(boat: gone)
                    s.race?.forget(boat: gone)
                }
            }
            for m in delivered {
                guard case .position(let p) = m.content else { continue }
                s.paths.add(boat: m.boat, utc: m.utc, latitude: p.latitude, longitude: p.longitude)
                s.race?.add(boat: m.boat, utc: m.utc, latitude: p.latitude, longitude: p.longitude, speed: p.speed,
                            course: p.course, distance: p.distance)
            }
        }
    }

    /// Every boat now, the meetings, the race: `/api/fleet`.
    public func json(now: Double = Date().timeIntervalSince1970, trackPoints: Int = 300) -> String {
        let broker = client?.status
        return state.withLock { s in
            // Boats silent too long go even when nothing else arrives to tick the board.
            for gone in s.board.expire(now: now) {
                s.paths.forget(boat: gone)
                s.race?.forget(boat: gone)
            }
            var w = JSONWriter()
            w.beginObject()
            w.beginObject(key: "broker")
            w.field("address", connection.broker.description)
            w.field("connected", broker?.connected ?? false)
            w.field("subscribed", broker?.subscribed ?? false)
            w.field("problem", broker?.problem)
            w.field("messages", broker?.received ?? 0)
            w.field("unreadable", s.board.unreadable)
            w.field("last_problem", s.board.lastProblem)
            w.endObject()
            // What was not applied, by why (docs/FLEET.md "Limits and trust"), and the limits.
            w.beginObject(key: "refused")
            for reason in FleetRefusal.allCases where reason != .sessionLimit { w.field(reason.rawValue, s.board.refused[reason] ?? 0) }
            w.endObject()
            w.beginObject(key: "limits")
            w.field("max_boats", s.board.maximumBoats)
            w.field("expiry_s", s.board.expiry, places: 0)
            w.field("handover_silence_s", s.board.limits.handoverSilence, places: 0)
            w.endObject()
            let boats = s.board.boats.values.sorted { $0.name.lowercased() < $1.name.lowercased() || ($0.name.lowercased() == $1.name.lowercased() && $0.id < $1.id) }
            w.beginArray(key: "boats")
            for b in boats { Self.write(b, to: &w, now: now, trackPoints: trackPoints, plans: s.plans) }
            w.endArray()
            Self.writePlans(s.plans, names: s.board.boats.mapValues(\.name), to: &w)
            let names = Dictionary(uniqueKeysWithValues: boats.map { ($0.id, $0.name) })
            Self.writeMeetings(s.paths.all.prefix(200), names: names, to: &w)
            if let race = s.race {
                writeRace(race, boats: boats.map(\.id), names: names, to: &w)
            } else {
                w.field("race", json: nil)
            }
            w.endObject()
            return w.take()
        }
    }

    /// One boat's strokes this session, as `oarlog replay --json`'s `stroke_list`; nil for an unknown boat.
    public func strokesJSON(boat id: String) -> String? {
        state.withLock { s in
            guard let b = s.board.boats[id] else { return nil }
            var w = JSONWriter()
            w.beginObject()
            Self.identity(b, to: &w)
            w.field("strokes", b.strokeCount)
            w.field("strokes_in_order", b.strokesInOrder)
            w.field("duplicates", b.duplicates)
            w.field("missed", b.missed)
            w.beginArray(key: "stroke_list")
            for s in b.strokes {
                w.beginObject()
                w.strokeFields(s.metrics)
                w.endObject()
            }
            w.endArray()
            w.endObject()
            return w.take()
        }
    }
}
