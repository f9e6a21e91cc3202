import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif
import OarlogCore
import OarlogFences
import OarlogTerminal

/// `oarlog fences`: make and check GeoJSON fence and course files.
struct FencesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fences",
        abstract: "Make and check GeoJSON geofence and course files (see docs/FENCES.md).",
        subcommands: [MakeCourse.self, Check.self]
    )

    /// `oarlog fences make-course`: a straight course (a regatta lane) as GeoJSON on standard output.
    struct MakeCourse: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "make-course",
            abstract: "Write a straight course: start, marker gates and finish, square to the course.",
            discussion: "Example: oarlog fences make-course --start 52.3555,4.8383 --heading 88 --length 2000 --markers 500 > bosbaan.geojson"
        )

        @Option(help: "The middle of the start line, as LAT,LON in degrees.")
        var start: String

        @Option(help: "Direction of the course at the start, degrees clockwise from true north.")
        var heading: Double

        @Option(help: "Course length, metres.")
        var length: Double = 2000

        @Option(help: "Distance between marker gates, metres (0: none).")
        var markers: Double = 500

        @Option(help: "Width of each gate line, metres, centred on the course.")
        var width: Double = 30

        @Option(help: "The course's name.")
        var name: String = "straight course"

        @Option(name: .shortAndLong, help: "Write to this file instead of standard output.")
        var output: String?

        func validate() throws {
            guard length > 0, length <= 100_000 else { throw ValidationError("--length must be in (0, 100000] metres") }
            guard markers >= 0 else { throw ValidationError("--markers must be ≥ 0") }
            guard width > 0, width <= 1000 else { throw ValidationError("--width must be in (0, 1000] metres") }
            guard heading.isFinite else { throw ValidationError("--heading must be a number of degrees") }
            _ = try parsedStart()
        }

        func parsedStart() throws -> GeoPoint {
            let parts = start.split(separator: ",").map { $0.trimmingCharacters(in: " ") }
            guard parts.count == 2, let lat = Double(parts[0]), let lon = Double(parts[1]),
                  (-90...90).contains(lat), (-180...180).contains(lon) else {
                throw ValidationError("--start '\(start)': expected LAT,LON in degrees, e.g. 52.3555,4.8383")
            }
            return GeoPoint(latitude: lat, longitude: lon)
        }

        func run() throws {
            let course = StraightCourse(start: try parsedStart(), heading: heading, length: length, markerInterval: markers,
                                        gateWidth: width, name: name)
            let text = course.geoJSON()
            if let output {
                try TextFile.write(text, to: output)
            } else {
                StandardStreams.write(text)
            }
        }
    }

    /// `oarlog fences check FILE`: parse a fence file and list what it defines.
    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check a GeoJSON fence file and list its fences and course; exits 1 with the problem if invalid."
        )

        @Argument(help: "The GeoJSON file.")
        var file: String

        func run() throws {
            let fences: FenceFile
            do {
                fences = try FenceFile.load(path: file)
            } catch {
                StandardStreams.error("error: \(error)\n")
                throw ExitCode(1)
            }
            for fence in fences.fences {
                let what: String
                switch fence.shape {
                case .circle(_, let r): what = "circle, radius \(RowingFormat.decimal(r, places: 1)) m"
                case .polygon(let outer, let holes):
                    what = "polygon, \(outer.count) vertices" + (holes.isEmpty ? "" : ", \(holes.count) hole(s)")
                case .gate(let line, let direction):
                    var d = "gate line, \(line.count) points"
                    if case .bearing(let b) = direction { d += ", crossed towards \(RowingFormat.decimal(b, places: 1))°" }
                    if let role = fence.courseRole { d += ", course \(role.rawValue)" }
                    what = d
                }
                var extras = ""
                if let dwell = fence.dwellTime { extras += ", dwell \(RowingFormat.duration(dwell))" }
                if let h = fence.hysteresis { extras += ", hysteresis \(RowingFormat.decimal(h, places: 1)) m" }
                StandardStreams.write("\(fence.id.index): \(fence.id.name) — \(what)\(extras)\n")
            }
            if let course = fences.course {
                let gates = zip(course.gates, course.distances).map { "\($0.name) \(RowingFormat.distance($1))" }
                StandardStreams.write("course \(course.name): " + gates.joined(separator: " → ") + "\n")
            }
        }
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: Character) -> String {
        var s = self
        while s.first == set { s.removeFirst() }
        while s.last == set { s.removeLast() }
        return String(s)
    }
}

/// Writes a whole text file (the course file made by `fences make-course -o`).
private enum TextFile {
    static func write(_ text: String, to path: String) throws {
        guard let handle = fopen(path, "wb") else {
            throw ValidationError("cannot write \(path): \(String(cString: strerror(errno)))")
        }
        defer { fclose(handle) }
        let bytes = Array(text.utf8)
        guard fwrite(bytes, 1, bytes.count, handle) == bytes.count else { throw ValidationError("write error on \(path)") }
    }
}
