import OarlogCore
import OarlogFences
import OarlogFleet

/// `/api/fleet` written part by part (docs/API.md).
extension FleetCoach {
    /// Which boat and which of its sessions: the first fields of a boat in every answer.
    static func identity(_ b: FleetBoard.Boat, to w: inout JSONWriter) {
        w.field("id", b.id)
        w.field("name", b.name)
        w.field("session", b.session)
    }

    static func write(_ b: FleetBoard.Boat, to w: inout JSONWriter, now: Double, trackPoints: Int, plans: FleetCoachPlans = .init()) {
        w.beginObject()
        identity(b, to: &w)
        w.field("title", b.title)
        w.field("state", b.state)
        w.field("lat", b.latitude, places: 7)
        w.field("lon", b.longitude, places: 7)
        w.field("speed_mps", b.speed, places: 2)
        w.field("course_deg", b.course, places: 1)
        w.field("rate_spm", b.strokeRate, places: 2)
        w.field("split_s_per_500m", b.split, places: 2)
        w.field("distance_m", b.distance, places: 2)
        w.beginArray(key: "heart_rates")
        for rate in b.heartRates {
            w.beginObject()
            w.field("sensor", rate.sensor)
            w.field("bpm", rate.bpm, places: 0)
            w.endObject()
        }
        w.endArray()
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
        // Another stream claiming this boat, held and not shown (a restart shows here for
        // up to 15 s; anything else is someone else on the boat's topic).
        w.field("pending_session", b.pending?.session)
        w.field("pending_messages", b.pending?.messages ?? 0)
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
        writeWorkout(of: b, plans: plans, to: &w)
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
        // The latest few, cut short: the page polls every boat each second.
        for n in b.notes.suffix(10) {
            w.beginObject()
            w.field("utc", UTCTime.iso8601(n.utc))
            w.field("text", FleetText.clip(n.text, bytes: 500))
            w.endObject()
        }
        w.endArray()
        w.beginArray(key: "fence_events")
        for e in b.fenceEvents.suffix(10) {
            w.beginObject()
            w.field("utc", UTCTime.iso8601(e.utc))
            w.field("event", e.event.name)
            w.field("fence", e.event.fence)
            w.field("text", FleetText.clip(e.event.text, bytes: 300))
            w.endObject()
        }
        w.endArray()
        w.endObject()
    }

    static func writeMeetings(_ meetings: some Sequence<CrossedPaths.Meeting>, names: [String: String], to w: inout JSONWriter) {
        w.beginArray(key: "meetings")
        for m in meetings {
            w.beginObject()
            w.array("boats", m.boats.lazy.map { id in names[id] ?? id })
            w.array("ids", m.boats)
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
    }

    func writeRace(_ race: RaceStandings, boats: [String], names: [String: String], to w: inout JSONWriter) {
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
        for r in race.results(boats: boats) {
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
    }
}
