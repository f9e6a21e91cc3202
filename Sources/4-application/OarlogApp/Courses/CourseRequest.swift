import OarlogCore

/// What a `POST /api/courses` body asks for: a course named `name`, either from its GeoJSON
/// (`{"name", "geojson": "<the GeoJSON text>"}`, as `oarlog courses add` takes a file) or made on
/// a session's map (`{"name", "session": ID, "start": {"lat_deg", "lon_deg"}, "finish": {…}}`,
/// the phone's taps, as `SessionStore.makeCourse`). Every refusal is a `badCourse` that names
/// the key.
public struct CourseRequest: Sendable, Equatable {
    public enum Source: Sendable, Equatable {
        case geoJSON(String)
        case session(id: String, start: GeoPoint, finish: GeoPoint)
    }

    public var name: String
    public var source: Source

    /// The largest body taken: a course's GeoJSON of 1 MiB, escaped as a JSON string (its quotes
    /// and line ends doubled), with room for the name.
    public static let maximumBytes = 2 * CourseLibrary.maximumGeoJSONBytes + 4096

    public init(_ bytes: [UInt8]) throws(CourseLibraryError) {
        guard bytes.count <= Self.maximumBytes else { throw .badCourse("a body of over \(Self.maximumBytes / 1024) KiB") }
        let top: JSONValue
        do { top = try JSONValue.read(bytes) } catch { throw .badCourse(error.description) }
        guard case .object(let fields) = top else { throw .badCourse("the body is a JSON object: {\"name\", \"geojson\"} or {\"name\", \"session\", \"start\", \"finish\"}") }
        if let unknown = fields.keys.sorted().first(where: { !["name", "geojson", "session", "start", "finish"].contains($0) }) {
            throw .badCourse("\(unknown): not a key of a course (name, geojson; or name, session, start, finish)")
        }
        guard let nameValue = fields["name"] else { throw .badCourse("name: the course's name is needed") }
        guard case .string(let name) = nameValue else { throw .badCourse("name: a string, not \(nameValue.kindName)") }
        if let problem = CourseLibrary.nameProblem(name) { throw .badCourse("name: \(problem)") }
        self.name = name
        switch (fields["geojson"], fields["session"]) {
        case (let text?, nil):
            guard case .string(let geoJSON) = text else { throw .badCourse("geojson: the GeoJSON as a string, not \(text.kindName)") }
            if fields["start"] != nil || fields["finish"] != nil { throw .badCourse("start and finish go with session, not with geojson") }
            source = .geoJSON(geoJSON)
        case (nil, let session?):
            guard case .string(let id) = session, !id.isEmpty else { throw .badCourse("session: the session's id as a string") }
            source = .session(id: id, start: try Self.point(fields["start"], "start"), finish: try Self.point(fields["finish"], "finish"))
        case (nil, nil): throw .badCourse("the course is needed: geojson (its GeoJSON text), or session with start and finish")
        case (_?, _?): throw .badCourse("give geojson or session, not both")
        }
    }

    /// `{"lat_deg": 52.2, "lon_deg": 6.85}` as a point on the Earth.
    static func point(_ value: JSONValue?, _ key: String) throws(CourseLibraryError) -> GeoPoint {
        guard let value else { throw .badCourse("\(key): where the \(key) is, {\"lat_deg\", \"lon_deg\"}") }
        guard case .object(let fields) = value else { throw .badCourse("\(key): an object {\"lat_deg\", \"lon_deg\"}, not \(value.kindName)") }
        guard case .number(let lat)? = fields["lat_deg"], lat.isFinite, abs(lat) <= 90 else {
            throw .badCourse("\(key).lat_deg: a latitude from -90 to 90")
        }
        guard case .number(let lon)? = fields["lon_deg"], lon.isFinite, abs(lon) <= 180 else {
            throw .badCourse("\(key).lon_deg: a longitude from -180 to 180")
        }
        return GeoPoint(latitude: lat, longitude: lon)
    }
}

extension SessionStore {
    /// `POST /api/courses`: the course the body asks for, kept and searched for in every session.
    public func addCourse(request: CourseRequest) throws -> CourseAdded {
        switch request.source {
        case .geoJSON(let text): return try addCourse(name: request.name, geoJSON: text)
        case .session(let id, let start, let finish): return try makeCourse(fromSession: id, start: start, finish: finish, name: request.name)
        }
    }
}
