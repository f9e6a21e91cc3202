import Foundation
import OarlogCore

/// `workouts.json` itself: `{"version": 1, "workouts": [{"name", "spec"} or {"name", "plan"}, …]}`,
/// read whole (bounded) and replaced whole — written to a temporary file beside it, synced,
/// renamed over it, the directory synced. A change holds `workouts.json.lock` (flock(2),
/// exclusive) from its read to its rename, so two changes at once (the server and a command) both
/// land; a read needs no lock (a rename is atomic).
struct WorkoutLibraryFile {
    let path: String
    static let version = 1
    /// The largest file read: every plan at its largest, and room for the names.
    static let maximumBytes = WorkoutLibrary.maximumPlans * (WorkoutLibrary.maximumRequestBytes + 512)

    var fileName: String { (path as NSString).lastPathComponent }

    /// The saved plans, by name (case ignored); none when there is no file yet.
    func read() throws(WorkoutLibraryError) -> [SavedWorkout] {
        let bytes: [UInt8]?
        do { bytes = try file.read() } catch { throw .unreadable(error.description) }
        guard let bytes, !bytes.isEmpty else { return [] }
        return try Self.workouts(in: bytes, fileName: fileName)
    }

    var file: DataFile { DataFile(path: path, maximumBytes: Self.maximumBytes) }

    /// The plans in the file's bytes; a damaged file or entry is named, never dropped in silence.
    static func workouts(in bytes: [UInt8], fileName: String) throws(WorkoutLibraryError) -> [SavedWorkout] {
        let top: JSONValue
        do { top = try JSONValue.read(bytes) } catch { throw .unreadable("\(fileName): \(error.description)") }
        guard case .object(let fields) = top, case .array(let entries)? = fields["workouts"] else {
            throw .unreadable("\(fileName): not a list of workouts ({\"version\": 1, \"workouts\": [...]})")
        }
        if case .number(let version)? = fields["version"], version > Double(Self.version) {
            throw .unreadable("\(fileName) is of version \(WorkoutPlanJSON.number(version)), newer than this oarlog reads (\(Self.version))")
        }
        var workouts: [SavedWorkout] = []
        for (i, entry) in entries.enumerated() {
            do { workouts.append(try Self.workout(entry)) } catch {
                throw .unreadable("\(fileName): workouts[\(i)]: \(error.description)")
            }
        }
        return sorted(workouts)
    }

    static func workout(_ entry: JSONValue) throws(WorkoutLibraryError) -> SavedWorkout {
        guard case .object(let fields) = entry, case .string(let name)? = fields["name"] else { throw .badPlan("an entry needs a name") }
        if let problem = WorkoutLibrary.nameProblem(name) { throw .badPlan("name: \(problem)") }
        switch (fields["spec"], fields["plan"]) {
        case (.string(let spec)?, nil): return try WorkoutLibrary.saved(name: name, .spec(spec))
        case (nil, let plan?): return try WorkoutLibrary.saved(name: name, json: plan, path: "plan")
        default: throw .badPlan("an entry has a spec (text) or a plan (the JSON form)")
        }
    }

    static func sorted(_ workouts: [SavedWorkout]) -> [SavedWorkout] {
        workouts.sorted { ($0.name.lowercased(), $0.name) < ($1.name.lowercased(), $1.name) }
    }

    /// Reads the plans, lets `body` change them, and writes them back — all under the lock.
    /// Nothing is written when `body` throws.
    func change<T>(_ body: (inout [SavedWorkout]) throws(WorkoutLibraryError) -> T) throws(WorkoutLibraryError) -> T {
        do {
            return try file.locked { () throws(WorkoutLibraryError) -> T in
                var workouts = try read()
                let result = try body(&workouts)
                try replace(with: Self.sorted(workouts))
                return result
            }
        } catch let error as WorkoutLibraryError {
            throw error
        } catch {
            throw .unreadable("\(error)")
        }
    }

    /// Replaces the file with `workouts` (atomically, see `DataFile`).
    func replace(with workouts: [SavedWorkout]) throws(WorkoutLibraryError) {
        var text = "{\"version\":\(Self.version),\"workouts\":[\n"
        text += workouts.map(\.fileEntry).joined(separator: ",\n")
        text += "\n]}\n"
        do { try file.replace(with: text) } catch { throw .unreadable(error.description) }
    }
}
