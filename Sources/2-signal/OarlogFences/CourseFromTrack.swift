import OarlogCore

/// A course made from an outing that rowed it (the phone's "make a course" on a session's map):
/// the person taps where the start and the finish are; the gates stand square to the boat's own
/// track there, with markers every `markerInterval` metres of the track between, so a course on
/// a bending river follows the river. Written as the GeoJSON `oarlog courses add` takes.
public enum CourseFromTrack {
    public struct Point: Sendable, Equatable {
        public var position: GeoPoint
        /// Distance rowed from the start of the outing, metres (never falling).
        public var distance: Metres
        public init(position: GeoPoint, distance: Metres) {
            self.position = position
            self.distance = distance
        }
    }

    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        public var description: String
    }

    /// The course's GeoJSON: start at the track point nearest `start`, finish at the track point
    /// nearest `finish` after it. Throws when the track is too short or a tap is far from it.
    public static func geoJSON(track: [Point], start: GeoPoint, finish: GeoPoint, name: String,
                               markerInterval: Metres = 500, gateWidth: Metres = 40,
                               farthestTap: Metres = 100) throws(Failure) -> String {
        guard track.count >= 2 else { throw Failure(description: "the session has no GPS track to make a course from") }
        let (i, startMiss) = nearest(start, in: track, from: 0)
        guard startMiss <= farthestTap else { throw Failure(description: "the start is \(Int(startMiss)) m from the session's track") }
        guard i + 1 < track.count else { throw Failure(description: "the start is at the end of the session's track") }
        let (j, finishMiss) = nearest(finish, in: track, from: i + 1)
        guard finishMiss <= farthestTap else {
            throw Failure(description: "the finish is \(Int(finishMiss)) m from the session's track after the start")
        }
        let from = track[i].distance, to = track[j].distance
        var distances: [Metres] = [from]
        if markerInterval > 0 {
            var d = from + markerInterval
            while d < to - markerInterval / 5 { distances.append(d); d += markerInterval }
        }
        distances.append(to)
        var features: [String] = []
        for (k, d) in distances.enumerated() {
            let role = k == 0 ? "start" : (k == distances.count - 1 ? "finish" : "marker")
            let label = role == "start" ? "Start" : (role == "finish" ? "Finish" : "\(Int((d - from).rounded())) m")
            let centre = position(at: d, in: track)
            let bearing = Geodesy.inverse(from: position(at: max(track[0].distance, d - 15), in: track),
                                          to: position(at: min(track[track.count - 1].distance, d + 15), in: track)).initialBearing
            let left = Geodesy.destination(from: centre, distance: gateWidth / 2, bearing: bearing - 90)
            let right = Geodesy.destination(from: centre, distance: gateWidth / 2, bearing: bearing + 90)
            let coordinates = [left, right].map { "[\(number($0.longitude, 8)), \(number($0.latitude, 8))]" }.joined(separator: ", ")
            features.append("    {\"type\": \"Feature\", \"properties\": {\"name\": \"\(label)\", \"role\": \"\(role)\", "
                + "\"distance_m\": \(number(d - from, 1)), \"direction_deg\": \(number(Geodesy.normalizedBearing(bearing), 2))}, "
                + "\"geometry\": {\"type\": \"LineString\", \"coordinates\": [\(coordinates)]}}")
        }
        return "{\n  \"type\": \"FeatureCollection\",\n  \"name\": \"\(StraightCourse.escaped(name))\",\n  \"features\": [\n"
            + features.joined(separator: ",\n") + "\n  ]\n}\n"
    }

    /// The track point nearest `point` at or after index `from`, and how far it is.
    static func nearest(_ point: GeoPoint, in track: [Point], from: Int) -> (Int, Metres) {
        var best = from, bestDistance = Metres.infinity
        for k in from..<track.count {
            let d = Geodesy.distance(from: point, to: track[k].position)
            if d < bestDistance { best = k; bestDistance = d }
        }
        return (best, bestDistance)
    }

    /// Where the track was when `distance` metres had been rowed (between its points, on the
    /// straight line joining them).
    static func position(at distance: Metres, in track: [Point]) -> GeoPoint {
        var lo = 0, hi = track.count - 1
        guard distance > track[lo].distance else { return track[lo].position }
        guard distance < track[hi].distance else { return track[hi].position }
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if track[mid].distance <= distance { lo = mid } else { hi = mid }
        }
        let a = track[lo], b = track[hi]
        let span = b.distance - a.distance
        guard span > 0 else { return a.position }
        let leg = Geodesy.inverse(from: a.position, to: b.position)
        return Geodesy.destination(from: a.position, distance: leg.distance * (distance - a.distance) / span, bearing: leg.initialBearing)
    }

    static func number(_ value: Double, _ places: Int) -> String { StraightCourse.number(value, places: places) }
}
