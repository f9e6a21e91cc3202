import OarlogCore

/// Something wrong in a fence file: which file, which feature (index and name) and what.
public struct FenceFileError: Error, Sendable, Equatable, CustomStringConvertible {
    public var file: String
    /// The feature concerned (`nil` for a problem with the file as a whole).
    public var feature: FenceID?
    public var message: String
    public init(file: String, feature: FenceID?, _ message: String) {
        self.file = file
        self.feature = feature
        self.message = message
    }
    public var description: String {
        if let feature { return "\(file): feature \(feature.index) '\(feature.name)': \(message)" }
        return "\(file): \(message)"
    }
}

/// The fences (and the course, if its gates have roles) that a GeoJSON file defines.
///
/// Accepted: a `FeatureCollection` (or one `Feature`) whose features are
/// - `Point` with `radius_m` > 0: a circular area;
/// - `Polygon` (outer ring and holes; rings closed, at least 4 positions, not self-intersecting):
///   an area;
/// - `LineString` (2 positions or more): a gate, with `direction_deg` (the bearing the boat must
///   travel, ±90°) or none/`"direction": "either"`, and `role` `start` / `marker` / `finish` and
///   optionally `distance_m` (from the start line) to make it part of the course.
/// Areas take `dwell_s` and `hysteresis_m`. Every feature takes `name`. Other properties (map tool
/// styling) are ignored. Positions are GeoJSON's [longitude, latitude(, altitude)].
///
/// Every value is held to `FenceLimits` (a radius of at most 100 km, a dwell of at most a day,
/// at most 100,000 positions in a file, …); a file beyond any of them is refused naming the
/// feature.
public struct FenceFile: Sendable, Equatable {
    public var fences: [Fence]
    public var course: Course?
    /// The GeoJSON the file was parsed from, when it is at most `keptSourceBytes` (a recording
    /// keeps it, so a session shows its course on a map wherever it is opened).
    public var sourceText: String?
    public static let keptSourceBytes = 1 << 20

    public init(fences: [Fence], course: Course?) {
        self.fences = fences
        self.course = course
    }

    /// Parses GeoJSON text; `file` names it in errors.
    public static func parse(_ text: String, file: String = "<fences>") throws -> FenceFile {
        try parse(utf8: Array(text.utf8), file: file)
    }

    /// Parses GeoJSON given as UTF-8 bytes; `file` names it in errors.
    public static func parse(utf8 bytes: [UInt8], file: String = "<fences>") throws -> FenceFile {
        let root: JSONValue
        do {
            root = try JSONValue.parse(utf8: bytes)
        } catch let error as JSONSyntaxError {
            throw FenceFileError(file: file, feature: nil, "not valid JSON: \(error)")
        }
        let features: [JSONValue]
        switch root["type"] {
        case .string("FeatureCollection"):
            guard case .array(let list)? = root["features"] else {
                throw FenceFileError(file: file, feature: nil, "a FeatureCollection needs a \"features\" array")
            }
            features = list
        case .string("Feature"):
            features = [root]
        case .string(let other):
            throw FenceFileError(file: file, feature: nil, "expected a FeatureCollection or a Feature, got type \"\(other)\"")
        default:
            throw FenceFileError(file: file, feature: nil, "expected a GeoJSON object with \"type\": \"FeatureCollection\"")
        }
        guard features.count <= FenceLimits.maxFeatures else {
            throw FenceFileError(file: file, feature: nil,
                                 "\(features.count) features; a fence file holds at most \(FenceLimits.maxFeatures)")
        }
        var fences: [Fence] = []
        var positions = 0
        for (index, feature) in features.enumerated() {
            fences.append(try FenceParsing(file: file, index: index, feature: feature).fence(positionsBefore: &positions))
        }
        var courseName = "course"
        if case .string(let n)? = root["name"] { courseName = n }
        var parsed = FenceFile(fences: fences, course: try makeCourse(fences, name: courseName, file: file))
        if bytes.count <= keptSourceBytes { parsed.sourceText = String(decoding: bytes, as: UTF8.self) }
        return parsed
    }

    /// The course formed by the gates with a `role`: start, markers (by `distance_m` when every
    /// marker has one, else in file order), finish. Distances from `distance_m`, else measured
    /// between the gates' midpoints.
    static func makeCourse(_ fences: [Fence], name: String, file: String) throws -> Course? {
        let gates = fences.filter { $0.courseRole != nil }
        guard !gates.isEmpty else { return nil }
        let starts = gates.filter { $0.courseRole == .start }
        let finishes = gates.filter { $0.courseRole == .finish }
        guard starts.count == 1 else {
            throw FenceFileError(file: file, feature: starts.dropFirst().first?.id,
                                 starts.isEmpty ? "the course has no gate with \"role\": \"start\""
                                               : "the course has more than one start gate")
        }
        guard finishes.count == 1 else {
            throw FenceFileError(file: file, feature: finishes.dropFirst().first?.id,
                                 finishes.isEmpty ? "the course has no gate with \"role\": \"finish\""
                                                  : "the course has more than one finish gate")
        }
        var markers = gates.filter { $0.courseRole == .marker }
        if markers.allSatisfy({ $0.courseDistance != nil }) {
            markers.sort { $0.courseDistance! < $1.courseDistance! }
        }
        let ordered = [starts[0]] + markers + [finishes[0]]
        var distances: [Metres] = []
        if ordered.dropFirst().allSatisfy({ $0.courseDistance != nil }) {
            distances = ordered.map { $0.courseRole == .start ? ($0.courseDistance ?? 0) : $0.courseDistance! }
            let origin = distances[0]
            distances = distances.map { $0 - origin }
        } else {
            var total: Metres = 0
            distances = [0]
            for k in 1..<ordered.count {
                total += Geodesy.distance(from: midpoint(ordered[k - 1]), to: midpoint(ordered[k]))
                distances.append(total)
            }
        }
        for k in 1..<ordered.count where distances[k] <= distances[k - 1] {
            throw FenceFileError(file: file, feature: ordered[k].id,
                                 "course distance \(distances[k]) m is not beyond the previous gate's \(distances[k - 1]) m")
        }
        return Course(name: name, gates: ordered.map(\.id), distances: distances)
    }

    /// The middle of a gate line (its point halfway along, in its tangent plane).
    static func midpoint(_ fence: Fence) -> GeoPoint {
        guard case .gate(let line, _) = fence.shape else { return GeoPoint(latitude: 0, longitude: 0) }
        return midpoint(of: line)
    }

    /// The middle of a line from its first point to its last, in the first point's tangent plane.
    public static func midpoint(of line: [GeoPoint]) -> GeoPoint {
        let plane = LocalTangentPlane(origin: line[0])
        let end = plane.project(line[line.count - 1])
        return plane.unproject(east: end.east / 2, north: end.north / 2)
    }
}

/// Reads one GeoJSON feature into a fence, naming it in every error.
private struct FenceParsing {
    let file: String
    let index: Int
    let feature: JSONValue
    let id: FenceID

    init(file: String, index: Int, feature: JSONValue) {
        self.file = file
        self.index = index
        self.feature = feature
        var name = "feature \(index)"
        if case .string(let n)? = feature["properties"]?["name"], !n.isEmpty { name = n }
        id = FenceID(index: index, name: name)
    }

    func failure(_ message: String) -> FenceFileError { FenceFileError(file: file, feature: id, message) }

    func number(_ key: String) throws -> Double? {
        guard let value = feature["properties"]?[key], value != .null else { return nil }
        guard case .number(let x) = value else { throw failure("property \(key) must be a number, got \(value.typeName)") }
        return x
    }

    /// A number property within `range` (its unit and the reason for the bound in `what`).
    func number(_ key: String, within range: ClosedRange<Double>, _ what: String) throws -> Double? {
        guard let x = try number(key) else { return nil }
        guard range.contains(x) else { throw failure("\(key) must be \(what), got \(x)") }
        return x
    }

    /// Counts the positions of this feature (an array of positions, or of rings) against the
    /// per-feature and per-file limits, before any is read.
    func count(_ coordinates: JSONValue, rings: Bool, positionsBefore: inout Int) throws {
        guard case .array(let items) = coordinates else { return }
        var count = 0
        if rings {
            for ring in items { if case .array(let r) = ring { count += r.count } }
        } else {
            count = items.count
        }
        guard count <= FenceLimits.maxPositionsPerFeature else {
            throw failure("\(count) positions; a feature has at most \(FenceLimits.maxPositionsPerFeature)")
        }
        positionsBefore += count
        guard positionsBefore <= FenceLimits.maxPositionsPerFile else {
            throw failure("the file has more than \(FenceLimits.maxPositionsPerFile) positions by this feature, the most a fence file holds")
        }
    }

    func fence(positionsBefore: inout Int) throws -> Fence {
        guard case .string("Feature")? = feature["type"] else { throw failure("expected \"type\": \"Feature\"") }
        if let p = feature["properties"], p != .null, case .object = p {} else if let p = feature["properties"], p != .null {
            throw failure("properties must be an object, got \(p.typeName)")
        }
        guard let geometry = feature["geometry"], case .object = geometry else { throw failure("has no geometry") }
        guard case .string(let type)? = geometry["type"] else { throw failure("geometry has no type") }
        guard let coordinates = geometry["coordinates"] else { throw failure("geometry has no coordinates") }
        let dwell = try number("dwell_s", within: 0...FenceLimits.maxDwell,
                               "within 0…\(Int(FenceLimits.maxDwell)) s (≥ 0, at most a day)")
        let hysteresis = try number("hysteresis_m", within: 0...FenceLimits.maxHysteresis,
                                    "within 0…\(Int(FenceLimits.maxHysteresis)) m")
        switch type {
        case "Point":
            return Fence(id: id, shape: try circle(coordinates), dwellTime: dwell, hysteresis: hysteresis)
        case "Polygon":
            return Fence(id: id, shape: try polygon(coordinates, positionsBefore: &positionsBefore),
                         dwellTime: dwell, hysteresis: hysteresis)
        case "LineString":
            let line = try gateLine(coordinates, positionsBefore: &positionsBefore)
            let direction = try gateDirection()
            var role: CourseRole?
            if let r = feature["properties"]?["role"], r != .null {
                guard case .string(let text) = r, let parsed = CourseRole(rawValue: text.lowercased()) else {
                    throw failure("role must be \"start\", \"marker\" or \"finish\"")
                }
                role = parsed
            }
            let distance = try number("distance_m", within: 0...FenceLimits.maxCourseDistance,
                                      "within 0…\(Int(FenceLimits.maxCourseDistance)) m (≥ 0, at most 1000 km)")
            if dwell != nil { throw failure("dwell_s applies to areas, not to a gate line") }
            return Fence(id: id, shape: .gate(line: line, direction: direction), hysteresis: hysteresis,
                         courseRole: role, courseDistance: distance)
        case "MultiPolygon", "MultiPoint", "MultiLineString", "GeometryCollection":
            throw failure("geometry type \(type) is not supported: split it into one feature per part")
        default:
            throw failure("unknown geometry type \"\(type)\"")
        }
    }

    /// A Point with its `radius_m`: a circle.
    private func circle(_ coordinates: JSONValue) throws -> FenceShape {
        let centre = try position(coordinates, what: "the point")
        guard let radius = try number("radius_m") else {
            throw failure("a Point fence needs a radius_m property (the circle's radius in metres)")
        }
        guard radius > 0 else { throw failure("radius_m must be > 0, got \(radius)") }
        guard radius <= FenceLimits.maxRadius else {
            throw failure("radius_m must be at most \(Int(FenceLimits.maxRadius)) m (100 km), got \(radius)")
        }
        return .circle(centre: centre, radius: radius)
    }

    /// A Polygon: its outer ring and holes.
    private func polygon(_ coordinates: JSONValue, positionsBefore: inout Int) throws -> FenceShape {
        guard case .array(let ringValues) = coordinates, !ringValues.isEmpty else {
            throw failure("Polygon coordinates must be an array of rings")
        }
        try count(coordinates, rings: true, positionsBefore: &positionsBefore)
        var rings: [[GeoPoint]] = []
        for (k, ringValue) in ringValues.enumerated() {
            rings.append(try ring(ringValue, what: k == 0 ? "the outer ring" : "hole \(k)"))
        }
        return .polygon(outer: rings[0], holes: Array(rings.dropFirst()))
    }

    /// A LineString gate: at least 2 distinct positions, at most `FenceLimits.maxGateLength` long.
    private func gateLine(_ coordinates: JSONValue, positionsBefore: inout Int) throws -> [GeoPoint] {
        guard case .array(let values) = coordinates else { throw failure("LineString coordinates must be an array of positions") }
        try count(coordinates, rings: false, positionsBefore: &positionsBefore)
        let line = try values.enumerated().map { try position($1, what: "position \($0)") }
        guard line.count >= 2 else { throw failure("a gate LineString needs at least 2 positions, got \(line.count)") }
        let plane = LocalTangentPlane(origin: line[0])
        var total = 0.0
        for k in 1..<line.count {
            let a = plane.project(line[k - 1]), b = plane.project(line[k])
            let length = ((a.east - b.east) * (a.east - b.east) + (a.north - b.north) * (a.north - b.north)).squareRoot()
            guard length > 0.01 else { throw failure("positions \(k - 1) and \(k) of the gate are the same point") }
            total += length
        }
        guard total <= FenceLimits.maxGateLength else {
            throw failure("the gate line is \(Int(total)) m long; a gate is at most \(Int(FenceLimits.maxGateLength)) m")
        }
        return line
    }

    /// A gate's required direction: the bearing `direction_deg`, or either way.
    private func gateDirection() throws -> GateDirection {
        if let bearing = try number("direction_deg") {
            guard abs(bearing) <= FenceLimits.maxAbsoluteDirection else {
                throw failure("direction_deg must be a bearing within ±360°, got \(bearing)")
            }
            return .bearing(Geodesy.normalizedBearing(bearing))
        } else if let d = feature["properties"]?["direction"], d != .null, d != .string("either") {
            throw failure("direction must be \"either\" (or give direction_deg, the bearing of travel)")
        }
        return .either
    }

    func position(_ value: JSONValue, what: String) throws -> GeoPoint {
        guard case .array(let xs) = value, xs.count >= 2, case .number(let lon) = xs[0], case .number(let lat) = xs[1] else {
            throw failure("\(what) is not a [longitude, latitude] position")
        }
        guard (-180...180).contains(lon), (-90...90).contains(lat) else {
            throw failure("\(what) [\(lon), \(lat)] is out of range (GeoJSON positions are [longitude, latitude])")
        }
        return GeoPoint(latitude: lat, longitude: lon)
    }

    func ring(_ value: JSONValue, what: String) throws -> [GeoPoint] {
        guard case .array(let values) = value else { throw failure("\(what) is not an array of positions") }
        var points = try values.enumerated().map { try position($1, what: "\(what) position \($0)") }
        guard points.count >= 4 else { throw failure("\(what) has \(points.count) positions; a closed ring needs at least 4") }
        guard points.first == points.last else {
            throw failure("\(what) is not closed: its last position must repeat the first")
        }
        points.removeLast()
        let plane = LocalTangentPlane(origin: points[0])
        let flat = points.map { p -> PlanePoint in
            let (e, n) = plane.project(p)
            return PlanePoint(east: e, north: n)
        }
        if let far = flat.firstIndex(where: { $0.length > FenceLimits.maxAreaExtent }) {
            throw failure("\(what) position \(far) is \(Int(flat[far].length / 1000)) km from its first position; an area is at most \(Int(FenceLimits.maxAreaExtent / 1000)) km across that way")
        }
        if let (a, b) = PlaneGeometry.firstSelfIntersection(flat) {
            throw failure("\(what) intersects itself (edges \(a) and \(b) cross)")
        }
        if abs(PlaneGeometry.doubleSignedArea(flat)) < 1e-6 { throw failure("\(what) has no area") }
        return points
    }
}
