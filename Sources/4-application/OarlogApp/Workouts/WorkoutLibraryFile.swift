#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
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
        guard FileManager.default.fileExists(atPath: path) else { return [] }
        guard let handle = FileHandle(forReadingAtPath: path) else { throw .unreadable("\(fileName) cannot be opened") }
        defer { try? handle.close() }
        let bytes: [UInt8]
        do { bytes = [UInt8](try handle.read(upToCount: Self.maximumBytes + 1) ?? Data()) } catch {
            throw .unreadable("\(fileName): \(error.localizedDescription)")
        }
        guard bytes.count <= Self.maximumBytes else { throw .unreadable("\(fileName) is over \(Self.maximumBytes >> 20) MiB") }
        if bytes.isEmpty { return [] }
        return try Self.workouts(in: bytes, fileName: fileName)
    }

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
        let directory = (path as NSString).deletingLastPathComponent
        do { try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) } catch {
            throw .unreadable("the data directory cannot be made: \(error.localizedDescription)")
        }
        let lock = open(path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard lock >= 0 else { throw .unreadable("\(fileName).lock cannot be opened: \(String(cString: strerror(errno)))") }
        defer { close(lock) }
        while flock(lock, LOCK_EX) != 0 {
            // A filesystem without flock(2): go on without it rather than refuse every change.
            if errno != EINTR { break }
        }
        defer { _ = flock(lock, LOCK_UN) }
        var workouts = try read()
        let result = try body(&workouts)
        try replace(with: Self.sorted(workouts))
        return result
    }

    /// Replaces the file with `workouts`: a temporary file written and synced, then renamed.
    func replace(with workouts: [SavedWorkout]) throws(WorkoutLibraryError) {
        var text = "{\"version\":\(Self.version),\"workouts\":[\n"
        text += workouts.map(\.fileEntry).joined(separator: ",\n")
        text += "\n]}\n"
        let temporary = path + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .unreadable("\(fileName) cannot be written: \(String(cString: strerror(errno)))") }
        var ok = true
        let bytes = Array(text.utf8)
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { ok = false; return }
                offset += n
            }
        }
        let error = ok ? (fsync(fd) == 0 ? 0 : errno) : errno
        close(fd)
        guard ok, error == 0, rename(temporary, path) == 0 else {
            let why = String(cString: strerror(error != 0 ? error : errno))
            unlink(temporary)
            throw .unreadable("\(fileName) cannot be written: \(why)")
        }
        let directory = open((path as NSString).deletingLastPathComponent, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directory >= 0 {
            _ = fsync(directory)
            close(directory)
        }
    }
}
