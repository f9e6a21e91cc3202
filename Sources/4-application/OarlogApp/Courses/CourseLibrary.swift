import Foundation
import OarlogCore
import OarlogFences

/// The club's measured courses, kept by name (`oarlog courses add`, `GET /api/courses`) in
/// `courses.json` beside the sessions (`$OARLOG_DATA_DIR/sessions/courses.json`), each as the
/// GeoJSON it was added as. A course is checked when added: it has a start and a finish, its
/// gates do not cross one another, it is 100 m to 50 km long, and no course of another name has
/// the same gates (`CourseCheck.sameGeometry`). Changes hold the file's lock and replace it
/// atomically (`DataFile`). At most 200 courses, each at most 1 MiB of GeoJSON.
public struct CourseLibrary: Sendable {
    public static let fileName = "courses.json"
    public static let maximumCourses = 200
    public static let maximumGeoJSONBytes = FenceFile.keptSourceBytes
    static let version = 1

    /// The library's file.
    public let path: String

    /// The library beside the sessions in `sessionsPath`.
    public init(sessionsPath: String) {
        path = (sessionsPath.hasSuffix("/") ? sessionsPath : sessionsPath + "/") + Self.fileName
    }

    var file: DataFile { DataFile(path: path, maximumBytes: Self.maximumCourses * (Self.maximumGeoJSONBytes / 4 + 1024)) }

    /// Every course, by name (case ignored).
    public func list() throws(CourseLibraryError) -> [SavedCourse] {
        let bytes: [UInt8]?
        do { bytes = try file.read() } catch { throw .unreadable(error.description) }
        guard let bytes, !bytes.isEmpty else { return [] }
        return try Self.courses(in: bytes)
    }

    /// The course named `name` (case ignored).
    public func course(named name: String) throws(CourseLibraryError) -> SavedCourse {
        let all = try list()
        if let exact = all.first(where: { $0.name == name }) ?? all.first(where: { $0.name.lowercased() == name.lowercased() }) {
            return exact
        }
        throw .notFound("no course named \(Self.quoted(name))" + (all.isEmpty ? " (none is kept: `oarlog courses add FILE --name NAME`)" : ""))
    }

    /// Keeps `geoJSON` as the course `name`; refused (with the reason) when it is not a course to
    /// keep, the name is taken (unless `replacing`), or another course has the same gates.
    public func add(name: String, geoJSON: String, replacing: Bool = false, now: Double = Date().timeIntervalSince1970)
        throws(CourseLibraryError) -> SavedCourse {
        guard geoJSON.utf8.count <= Self.maximumGeoJSONBytes else { throw .badCourse("the GeoJSON is over 1 MiB") }
        let course = try SavedCourse(name: name, geoJSON: geoJSON, addedUTC: now)
        return try change { (courses: inout [SavedCourse]) throws(CourseLibraryError) -> SavedCourse in
            let taken = courses.firstIndex { $0.name.lowercased() == name.lowercased() }
            if taken != nil && !replacing { throw .duplicate("a course named \(Self.quoted(courses[taken!].name)) is kept already") }
            if let same = courses.first(where: { $0.name.lowercased() != name.lowercased() && CourseCheck.sameGeometry($0.file, course.file) }) {
                throw .duplicate("the course \(Self.quoted(same.name)) has the same gates")
            }
            if let taken { courses.remove(at: taken) }
            guard courses.count < Self.maximumCourses else { throw .full("the library holds \(Self.maximumCourses) courses already") }
            courses.append(course)
            return course
        }
    }

    /// Removes the course named `name` (case ignored); the course as it was.
    @discardableResult
    public func remove(name: String) throws(CourseLibraryError) -> SavedCourse {
        try change { (courses: inout [SavedCourse]) throws(CourseLibraryError) -> SavedCourse in
            guard let k = courses.firstIndex(where: { $0.name == name }) ?? courses.firstIndex(where: { $0.name.lowercased() == name.lowercased() })
            else { throw .notFound("no course named \(Self.quoted(name))") }
            return courses.remove(at: k)
        }
    }

    /// Reads the courses, lets `body` change them, and writes them back, under the lock.
    func change<T>(_ body: (inout [SavedCourse]) throws(CourseLibraryError) -> T) throws(CourseLibraryError) -> T {
        do {
            return try file.locked { () throws(CourseLibraryError) -> T in
                var courses = try list()
                let result = try body(&courses)
                do { try file.replace(with: Self.text(of: courses)) } catch { throw .unreadable("\(error)") }
                return result
            }
        } catch let error as CourseLibraryError {
            throw error
        } catch {
            throw .unreadable("\(error)")
        }
    }

    /// `{"version": 1, "courses": [{"name", "added", "geojson"}, …]}`.
    static func text(of courses: [SavedCourse]) -> String {
        var w = JSONWriter()
        w.beginObject()
        w.field("version", version)
        w.beginArray(key: "courses")
        for c in courses.sorted(by: { $0.name.lowercased() < $1.name.lowercased() }) {
            w.beginObject()
            w.field("name", c.name)
            w.field("added_utc", c.addedUTC, places: 3)
            w.field("geojson", c.geoJSON)
            w.endObject()
        }
        w.endArray()
        w.endObject()
        return w.take() + "\n"
    }

    static func courses(in bytes: [UInt8]) throws(CourseLibraryError) -> [SavedCourse] {
        let top: JSONValue
        do { top = try JSONValue.read(bytes) } catch { throw .unreadable("\(fileName): \(error.description)") }
        guard case .object(let fields) = top, case .array(let entries)? = fields["courses"] else {
            throw .unreadable("\(fileName): not a list of courses ({\"version\": 1, \"courses\": [...]})")
        }
        if case .number(let v)? = fields["version"], v > Double(version) {
            throw .unreadable("\(fileName) is of a newer version than this oarlog reads (\(version))")
        }
        var out: [SavedCourse] = []
        for (i, entry) in entries.enumerated() {
            guard case .object(let e) = entry, case .string(let name)? = e["name"], case .string(let text)? = e["geojson"] else {
                throw .unreadable("\(fileName): courses[\(i)] needs a name and its geojson")
            }
            var added: Double?
            if case .number(let t)? = e["added_utc"] { added = t }
            do { out.append(try SavedCourse(name: name, geoJSON: text, addedUTC: added)) } catch {
                throw .unreadable("\(fileName): courses[\(i)]: \(error.description)")
            }
        }
        return out.sorted { $0.name.lowercased() < $1.name.lowercased() }
    }

    /// Why `name` cannot name a course (empty, too long, control characters); nil when it can.
    public static func nameProblem(_ name: String) -> String? {
        if name.trimmingWhitespace().isEmpty { return "a course needs a name" }
        if name.count > 80 { return "at most 80 characters" }
        if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) { return "no control characters" }
        return nil
    }

    static func quoted(_ text: String) -> String { "\"\(StoredText.escapedForTerminal(text))\"" }
}

/// What went wrong with the course library, in words; the server maps each kind to a status.
public enum CourseLibraryError: Error, Sendable, Equatable, CustomStringConvertible {
    case notFound(String)
    case duplicate(String)
    case full(String)
    case badCourse(String)
    case unreadable(String)

    public var description: String {
        switch self {
        case .notFound(let why), .duplicate(let why), .full(let why), .badCourse(let why), .unreadable(let why): return why
        }
    }
}
