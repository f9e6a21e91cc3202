import OarlogCore
import OarlogFences
import OarlogSession

/// A stored session's fences and course for the session page's map
/// (`/api/sessions/{id}/course`): the GeoJSON the session was recorded with (kept in its
/// metadata; checked again here, so a damaged or hand-made file shows no fences rather than
/// anything else) and each gate crossing recorded with it — gate, time, position, wrong way.
public struct SessionCourse {
    public struct Crossing: Sendable, Equatable {
        public var gate: String
        public var time: Seconds
        public var latitude: Degrees
        public var longitude: Degrees
        public var wrongWay: Bool
        public var speed: MetresPerSecond?
    }

    /// The fences' GeoJSON as recorded, nil when the session had none (or it no longer parses).
    public let geoJSON: String?
    public let courseName: String?
    public let crossings: [Crossing]

    public init(metadata: SessionMetadata, events: [SessionEvent]) {
        var text: String?
        var name: String?
        if let recorded = metadata.fencesGeoJSON, let file = try? FenceFile.parse(recorded) {
            text = recorded
            name = file.course?.name
        }
        geoJSON = text
        courseName = name
        crossings = events.compactMap { e in
            guard e.name == "fence.cross" else { return nil }
            guard let gate = e.field("gate"), let lat = e.field("lat_deg").flatMap(Double.init), let lon = e.field("lon_deg").flatMap(Double.init),
                  lat.isFinite, lon.isFinite, e.time.isFinite else { return nil }
            return Crossing(gate: gate, time: e.time, latitude: lat, longitude: lon, wrongWay: e.field("wrong_way") == "true",
                            speed: e.field("speed_mps").flatMap(Double.init))
        }
    }

    /// The answer as JSON: `course` (its name), `fences` (the GeoJSON object, or null) and
    /// `crossings`.
    public func json() -> String {
        var w = JSONWriter()
        w.beginObject()
        w.field("course", courseName)
        w.beginArray(key: "crossings")
        for c in crossings {
            w.beginObject()
            w.field("gate", c.gate)
            w.field("t_s", c.time, places: 2)
            w.field("lat_deg", c.latitude, places: 7)
            w.field("lon_deg", c.longitude, places: 7)
            w.field("wrong_way", c.wrongWay)
            w.field("speed_mps", c.speed, places: 2)
            w.endObject()
        }
        w.endArray()
        // The recorded GeoJSON goes in as it is (it parsed as JSON above).
        w.field("fences", json: geoJSON)
        w.endObject()
        return w.take()
    }
}
