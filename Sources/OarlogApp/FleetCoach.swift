import Foundation
import OarlogCore
import OarlogDSP
import OarlogFences
import OarlogFleet
import OarlogMQTT
import OarlogReport
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
    private let state: Mutex<State>
    private var client: MQTTClient?

    struct State {
        var board = FleetBoard()
        var paths: CrossedPaths
        var race: RaceStandings?
        var lastTick = -Double.infinity
    }

    /// - Parameters:
    ///   - meetingDistance: boats closer than this at the same time have crossed paths.
    ///   - clientID: the coach's id at the broker (its queued messages are kept under it).
    public init(_ connection: FleetConnection, course: FenceFile? = nil, meetingDistance: Metres = 10, clientID: String? = nil) throws {
        if let course, course.course == nil { throw FleetSetupError("--course: the file has no course (docs/FENCES.md)") }
        self.connection = connection
        self.course = course
        state = Mutex(State(paths: CrossedPaths(distanceLimit: meetingDistance), race: course.flatMap { RaceStandings(file: $0) }))
        client = connection.everyBoatSubscriber(role: "coach", clientID: clientID) { [weak self] topic, payload in
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
            var delivered = s.board.receive(topic: topic, payload: payload, topics: connection.topics, now: now)
            // Gaps waiting too long are looked for once a second, not at every message.
            if now - s.lastTick >= 1 {
                s.lastTick = now
                delivered += s.board.tick(now: now)
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
            let boats = s.board.boats.values.sorted { $0.name.lowercased() < $1.name.lowercased() || ($0.name.lowercased() == $1.name.lowercased() && $0.id < $1.id) }
            w.beginArray(key: "boats")
            for b in boats {
                w.beginObject()
                w.field("id", b.id)
                w.field("name", b.name)
                w.field("session", b.session)
                w.field("title", b.title)
                w.field("state", b.state)
                w.field("lat", b.latitude, places: 7)
                w.field("lon", b.longitude, places: 7)
                w.field("speed_mps", b.speed, places: 2)
                w.field("course_deg", b.course, places: 1)
                w.field("rate_spm", b.strokeRate, places: 2)
                w.field("split_s_per_500m", b.split, places: 2)
                w.field("distance_m", b.distance, places: 2)
                w.field("strokes", b.strokeCount)
                w.field("strokes_caught", b.caughtStrokes)
                w.field("last_stroke", b.lastStrokeIndex)
                w.field("strokes_in_order", b.strokesInOrder)
                w.field("elapsed_s", b.elapsed, places: 3)
                w.field("last_utc", UTCTime.iso8601(b.lastUTC))
                w.field("heard_s_ago", max(0, now - b.lastHeard), places: 1)
                w.field("messages", b.messages)
                w.field("duplicates", b.duplicates)
                w.field("missed", b.missed)
                if let m = b.summary {
                    w.beginObject(key: "summary")
                    w.field("strokes", m.strokes)
                    w.field("distance_m", m.distance, places: 2)
                    w.field("elapsed_s", m.elapsed, places: 3)
                    w.field("avg_rate_spm", m.averageStrokeRate, places: 2)
                    w.field("avg_split_s_per_500m", m.averageSplit, places: 2)
                    w.endObject()
                } else {
                    w.field("summary", json: nil)
                }
                w.beginArray(key: "track")
                let step = max(1, b.track.count / trackPoints)
                var k = b.track.count % step
                while k < b.track.count {
                    w.beginArray()
                    w.element(b.track[k].latitude, places: 7)
                    w.element(b.track[k].longitude, places: 7)
                    w.endArray()
                    k += step
                }
                w.endArray()
                w.beginArray(key: "notes")
                for n in b.notes.suffix(20) {
                    w.beginObject()
                    w.field("utc", UTCTime.iso8601(n.utc))
                    w.field("text", n.text)
                    w.endObject()
                }
                w.endArray()
                w.beginArray(key: "fence_events")
                for e in b.fenceEvents.suffix(20) {
                    w.beginObject()
                    w.field("utc", UTCTime.iso8601(e.utc))
                    w.field("event", e.event.name)
                    w.field("fence", e.event.fence)
                    w.field("text", e.event.text)
                    w.endObject()
                }
                w.endArray()
                w.endObject()
            }
            w.endArray()
            let names = Dictionary(uniqueKeysWithValues: boats.map { ($0.id, $0.name) })
            w.beginArray(key: "meetings")
            for m in s.paths.all.prefix(200) {
                w.beginObject()
                w.beginArray(key: "boats")
                for id in m.boats { w.element(names[id] ?? id) }
                w.endArray()
                w.beginArray(key: "ids")
                for id in m.boats { w.element(id) }
                w.endArray()
                w.field("start_utc", UTCTime.iso8601(m.start))
                w.field("end_utc", UTCTime.iso8601(m.end))
                w.field("duration_s", m.end - m.start, places: 1)
                w.field("closest_m", m.closest, places: 1)
                w.field("closest_utc", UTCTime.iso8601(m.closestUTC))
                w.field("lat", m.latitude, places: 7)
                w.field("lon", m.longitude, places: 7)
                w.field("ongoing", m.ongoing)
                w.endObject()
            }
            w.endArray()
            if let race = s.race {
                w.beginObject(key: "race")
                w.field("course", race.course.name)
                w.field("length_m", race.course.length, places: 1)
                w.field("fences_geojson", json: course?.sourceText.flatMap { $0.utf8.count < 1_000_000 ? $0 : nil })
                w.beginArray(key: "gates")
                for g in race.gates {
                    w.beginObject()
                    w.field("name", g.name)
                    w.field("distance_m", g.distance, places: 1)
                    w.beginArray(key: "times")
                    for t in g.times {
                        w.beginObject()
                        w.field("id", t.boat)
                        w.field("boat", names[t.boat] ?? t.boat)
                        w.field("time_s", t.time, places: 2)
                        w.field("behind_s", t.behindSeconds, places: 2)
                        w.field("behind_m", t.behindMetres, places: 1)
                        w.endObject()
                    }
                    w.endArray()
                    w.endObject()
                }
                w.endArray()
                w.beginArray(key: "results")
                for r in race.results(boats: boats.map(\.id)) {
                    w.beginObject()
                    w.field("place", r.place)
                    w.field("id", r.boat)
                    w.field("boat", names[r.boat] ?? r.boat)
                    w.field("time_s", r.time, places: 2)
                    w.field("margin_s", r.margin, places: 2)
                    w.field("split_s_per_500m", r.split, places: 2)
                    w.field("along_m", r.alongCourse, places: 1)
                    w.field("last_gate", r.lastGate)
                    w.endObject()
                }
                w.endArray()
                w.endObject()
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
            w.field("id", b.id)
            w.field("name", b.name)
            w.field("session", b.session)
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
