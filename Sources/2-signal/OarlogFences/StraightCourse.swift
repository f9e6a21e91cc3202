import OarlogCore

/// A straight course (a regatta lane): gates square to the course at the start, every
/// `markerInterval` metres and at the finish, written as a GeoJSON fence file.
public struct StraightCourse: Sendable, Equatable {
    public var start: GeoPoint
    /// Bearing of the course at the start, degrees clockwise from true north.
    public var heading: Degrees
    public var length: Metres
    /// Distance between marker gates (0: none).
    public var markerInterval: Metres
    /// Width of each gate line, centred on the course.
    public var gateWidth: Metres
    public var name: String

    public init(start: GeoPoint, heading: Degrees, length: Metres, markerInterval: Metres = 500,
                gateWidth: Metres = 30, name: String = "straight course") {
        self.start = start
        self.heading = heading
        self.length = length
        self.markerInterval = markerInterval
        self.gateWidth = gateWidth
        self.name = name
    }

    /// The gates in course order: name, role, distance, the two ends and the bearing of travel.
    /// The course follows the geodesic from the start (a straight line on the water).
    public func gates() -> [(name: String, role: CourseRole, distance: Metres, line: [GeoPoint], bearing: Degrees)] {
        var distances: [Metres] = [0]
        if markerInterval > 0 {
            var d = markerInterval
            while d < length - 1e-6 {
                distances.append(d)
                d += markerInterval
            }
        }
        distances.append(length)
        return distances.enumerated().map { k, d in
            let centre = d > 0 ? Geodesy.destination(from: start, distance: d, bearing: heading) : start
            let bearing = d > 0 ? Geodesy.inverse(from: start, to: centre).finalBearing : Geodesy.normalizedBearing(heading)
            let left = Geodesy.destination(from: centre, distance: gateWidth / 2, bearing: bearing - 90)
            let right = Geodesy.destination(from: centre, distance: gateWidth / 2, bearing: bearing + 90)
            let role: CourseRole = k == 0 ? .start : (k == distances.count - 1 ? .finish : .marker)
            let name = role == .start ? "Start" : (role == .finish ? "Finish" : "\(Self.number(d, places: 0)) m")
            return (name, role, d, [left, right], bearing)
        }
    }

    /// The GeoJSON text of the course.
    public func geoJSON() -> String {
        var out = "{\n  \"type\": \"FeatureCollection\",\n  \"name\": \"\(Self.escaped(name))\",\n  \"features\": [\n"
        let all = gates()
        for (k, gate) in all.enumerated() {
            let coordinates = gate.line.map { "[\(Self.number($0.longitude, places: 8)), \(Self.number($0.latitude, places: 8))]" }
            out += "    {\"type\": \"Feature\", \"properties\": {\"name\": \"\(Self.escaped(gate.name))\", "
                + "\"role\": \"\(gate.role.rawValue)\", \"distance_m\": \(Self.number(gate.distance, places: 1)), "
                + "\"direction_deg\": \(Self.number(gate.bearing, places: 2))}, "
                + "\"geometry\": {\"type\": \"LineString\", \"coordinates\": [\(coordinates.joined(separator: ", "))]}}"
            out += k == all.count - 1 ? "\n" : ",\n"
        }
        out += "  ]\n}\n"
        return out
    }

    /// A JSON number with `places` decimals (`DecimalText`), `null` when it is not a number.
    static func number(_ value: Double, places: Int) -> String {
        DecimalText.fixed(value, places: places, nonFinite: "null")
    }

    static func escaped(_ s: String) -> String {
        var out = ""
        for c in s.unicodeScalars {
            switch c {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where c.value < 0x20: out += "\\u00" + (c.value < 0x10 ? "0" : "") + String(c.value, radix: 16)
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }
}
