import Foundation
import OarlogCore

/// The plans a crew keeps by name (`oarlog workouts add`, `GET /api/workouts`), in `workouts.json`
/// beside the sessions in the data directory (`$OARLOG_DATA_DIR/sessions/workouts.json`). Each is
/// kept as it was given — the whiteboard text, or the JSON form — and read again on every use.
/// Every change holds the file's lock (another command or the server may change it at the same
/// time) and replaces the file atomically (a temporary file written, synced and renamed), so a
/// power cut leaves the old list or the new one, never half of one. At most 500 plans.
public struct WorkoutLibrary: Sendable {
    public static let fileName = "workouts.json"
    public static let maximumPlans = 500
    /// The largest body of `POST /api/workouts` (and the largest plan file read).
    public static let maximumRequestBytes = WorkoutPlanJSON.maximumBytes

    /// The library's file.
    public let path: String

    /// The library beside the sessions in `sessionsPath`.
    public init(sessionsPath: String) {
        path = (sessionsPath.hasSuffix("/") ? sessionsPath : sessionsPath + "/") + Self.fileName
    }

    /// The library beside `sessions`.
    public init(sessions: SessionStore) { self.init(sessionsPath: sessions.path) }

    /// The library of the default data directory (`SessionStore.default`).
    public static var `default`: WorkoutLibrary { WorkoutLibrary(sessions: .default) }

    // MARK: Reading

    /// Every saved plan, by name (case ignored).
    public func list() throws(WorkoutLibraryError) -> [SavedWorkout] {
        try WorkoutLibraryFile(path: path).read()
    }

    /// The plan saved as exactly `name`.
    public func workout(named name: String) throws(WorkoutLibraryError) -> SavedWorkout {
        guard let saved = try list().first(where: { $0.name == name }) else { throw .notFound("no saved workout named \(Self.quoted(name))") }
        return saved
    }

    /// What a plan argument (`--workout X`, `workouts show X`) means: a saved plan's name, else a
    /// `.json` plan file, else the whiteboard form. The error says what was tried.
    public func resolve(_ argument: String) throws(WorkoutLibraryError) -> WorkoutPlan {
        var library = "no saved workout has that name"
        do {
            let saved = try list()
            if let exact = saved.first(where: { $0.name == argument }) { return exact.plan }
            if let near = saved.first(where: { $0.name.lowercased() == argument.lowercased() }) {
                library += " (one is named \(Self.quoted(near.name)))"
            }
        } catch {
            library = "the saved workouts could not be read (\(error.description))"
        }
        if argument.lowercased().hasSuffix(".json") {
            guard FileManager.default.fileExists(atPath: argument) else {
                throw .notFound("\(Self.quoted(argument)): \(library), and there is no such file")
            }
            return try Self.planFile(argument)
        }
        do { return try WorkoutSpec.parse(argument) } catch {
            throw .badPlan("\(Self.quoted(argument)): \(library), it is no .json file, and as a plan: \(error.description)", pointer: error.pointer)
        }
    }

    /// A plan in the JSON form read from a file (at most `maximumRequestBytes`), named by the file
    /// when it names itself not.
    static func planFile(_ path: String) throws(WorkoutLibraryError) -> WorkoutPlan {
        let bytes = try fileBytes(path)
        let base = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        let name = nameProblem(base) == nil ? base : "workout"
        do { return try WorkoutPlanJSON.decode(bytes, name: name) } catch { throw .badPlan("\(path): \(error.description)") }
    }

    static func fileBytes(_ path: String) throws(WorkoutLibraryError) -> [UInt8] {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw .notFound("\(path): cannot be opened") }
        defer { try? handle.close() }
        let data: Data?
        do { data = try handle.read(upToCount: maximumRequestBytes + 1) } catch { throw .unreadable("\(path): \(error.localizedDescription)") }
        let bytes = [UInt8](data ?? Data())
        guard bytes.count <= maximumRequestBytes else { throw .badPlan("\(path): a plan file of over \(maximumRequestBytes / 1024) KiB") }
        return bytes
    }

    // MARK: Changing

    /// How a plan is given to be saved: the whiteboard text, the JSON form's bytes, or a plan
    /// argument of the command line (`SPEC`: the text, or a `.json` file's path).
    public enum Source: Sendable {
        case spec(String)
        case json([UInt8])
        case argument(String)
    }

    /// Saves `source` as `name`; a plan of that name is replaced only when `replacing`.
    /// Returns the plan as saved and whether it replaced one.
    @discardableResult
    public func add(name: String, _ source: Source, replacing: Bool = false) throws(WorkoutLibraryError) -> (saved: SavedWorkout, replaced: Bool) {
        if let problem = Self.nameProblem(name) { throw .badPlan("name: \(problem)") }
        return try store(try Self.saved(name: name, source), replacing: replacing)
    }

    /// Keeps `saved`, replacing a plan of its name only when `replacing`.
    func store(_ saved: SavedWorkout, replacing: Bool) throws(WorkoutLibraryError) -> (saved: SavedWorkout, replaced: Bool) {
        let name = saved.name
        return try WorkoutLibraryFile(path: path).change { workouts throws(WorkoutLibraryError) in
            if let index = workouts.firstIndex(where: { $0.name == name }) {
                guard replacing else {
                    throw .duplicate("a workout named \(Self.quoted(name)) is saved already: remove it first, or replace it")
                }
                workouts[index] = saved
                return (saved, true)
            }
            guard workouts.count < Self.maximumPlans else {
                throw .full("\(Self.maximumPlans) workouts are saved, the most kept: remove one first")
            }
            workouts.append(saved)
            return (saved, false)
        }
    }

    /// Removes the plan saved as exactly `name`.
    public func remove(name: String) throws(WorkoutLibraryError) {
        try WorkoutLibraryFile(path: path).change { workouts throws(WorkoutLibraryError) in
            guard let index = workouts.firstIndex(where: { $0.name == name }) else {
                throw .notFound("no saved workout named \(Self.quoted(name))")
            }
            workouts.remove(at: index)
        }
    }

    /// The plan `source` gives, as it will be kept under `name`.
    static func saved(name: String, _ source: Source) throws(WorkoutLibraryError) -> SavedWorkout {
        switch source {
        case .spec(let text):
            do {
                let plan = WorkoutPlan(name: name, steps: try WorkoutSpec.parse(text).steps)
                return SavedWorkout(name: name, plan: plan, savedSpec: text, savedJSON: nil)
            } catch {
                throw .badPlan("spec: \(error.description)", pointer: error.pointer)
            }
        case .json(let bytes):
            guard bytes.count <= maximumRequestBytes else { throw .badPlan("a plan of over \(maximumRequestBytes / 1024) KiB") }
            let value: JSONValue
            do { value = try JSONValue.read(bytes) } catch { throw .badPlan(error.description) }
            return try saved(name: name, json: value, path: "")
        case .argument(let text):
            if text.lowercased().hasSuffix(".json") {
                guard FileManager.default.fileExists(atPath: text) else { throw .notFound("\(text): no such file") }
                let bytes = try fileBytes(text)
                do { return try saved(name: name, .json(bytes)) } catch let error {
                    if case .badPlan(let why, _) = error { throw .badPlan("\(text): \(why)") }
                    throw error
                }
            }
            return try saved(name: name, .spec(text))
        }
    }

    /// A plan in the JSON form (`path`: where it sits in a request's body), kept as given.
    static func saved(name: String, json value: JSONValue, path: String) throws(WorkoutLibraryError) -> SavedWorkout {
        do {
            let plan = try WorkoutPlanJSON.plan(from: value, path: path, name: name)
            return SavedWorkout(name: name, plan: WorkoutPlan(name: name, steps: plan.steps), savedSpec: nil, savedJSON: value)
        } catch {
            throw .badPlan(error.description)
        }
    }

    // MARK: Names

    /// Why `name` cannot name a saved plan (nil when it can): 1–80 characters, none of them a
    /// control character, a line break or a bidirectional override, no space at either end.
    public static func nameProblem(_ name: String) -> String? {
        if name.isEmpty { return "a name needs at least one character" }
        if name.count > WorkoutLimits.maximumNameLength {
            return "a name of \(name.count) characters: at most \(WorkoutLimits.maximumNameLength)"
        }
        if StoredText.cleaned(name) != name { return "a name of printable characters only, without spaces at its ends" }
        return nil
    }

    /// `"name"` for a message, control characters shown escaped.
    static func quoted(_ text: String) -> String {
        "‘" + StoredText.escapedForTerminal(String(text.prefix(100))) + "’"
    }
}

/// What went wrong with a saved plan, in words for the person; the server maps each kind to one
/// status (404, 409, 409, 400, 500) and the command line prints it.
public enum WorkoutLibraryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No saved plan of that name (or no such plan file).
    case notFound(String)
    /// A plan of that name is saved already (and replacing it was not asked for).
    case duplicate(String)
    /// The library holds `WorkoutLibrary.maximumPlans` already.
    case full(String)
    /// The plan or its name is wrong; `pointer` is the whiteboard text with a caret under the
    /// column at fault, for a terminal.
    case badPlan(String, pointer: String? = nil)
    /// `workouts.json` cannot be read or written.
    case unreadable(String)

    public var description: String {
        switch self {
        case .notFound(let why), .duplicate(let why), .full(let why), .badPlan(let why, _), .unreadable(let why): return why
        }
    }

    /// The whiteboard text with a caret under the column at fault, when that is what was wrong.
    public var pointer: String? {
        if case .badPlan(_, let pointer) = self { return pointer }
        return nil
    }
}
