import OarlogCore
import OarlogSimulator
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A ground-truth CSV read back (what `GroundTruthWriter` wrote), for the tests that check the
/// written file; nothing outside the tests reads truth files.
struct GroundTruthFile: Sendable {
    var metadata: [String: String] = [:]
    var strokes: [GroundTruthStroke] = []
    /// The `interval` rows (a workout plan's steps as rowed).
    var intervals: [GroundTruthInterval] = []
    /// The `gate` rows (a measured course's gate crossings).
    var gateCrossings: [GroundTruthGateCrossing] = []
    /// From the `total` row; `nil` if the file has none (cut short).
    var totalStrokes: Int?
    var totalDistance: Metres?
    var duration: Seconds?

    init() {}

    /// Reads and parses the file at `path`.
    static func read(path: String) throws -> GroundTruthFile {
        guard let handle = fopen(path, "r") else {
            throw SimulationConfigurationError("cannot read the truth file '\(path)' (errno \(errno))")
        }
        defer { fclose(handle) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = fread(&buffer, 1, buffer.count, handle)
            if count <= 0 { break }
            bytes.append(contentsOf: buffer[0..<count])
        }
        return try parse(String(decoding: bytes, as: UTF8.self), name: path)
    }

    /// Parses truth CSV text; errors name the line.
    static func parse(_ text: String, name: String = "truth") throws -> GroundTruthFile {
        var result = GroundTruthFile()
        var lineNumber = 0
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            var line = Substring(rawLine)
            if line.hasSuffix("\r") { line = line.dropLast() }
            if line.isEmpty || line.hasPrefix("kind,") { continue }
            if line.hasPrefix("#") {
                let body = line.dropFirst()
                if let colon = body.firstIndex(of: ":") {
                    result.metadata[String(body[..<colon]).trimmingWhitespace()] = String(body[body.index(after: colon)...]).trimmingWhitespace()
                }
                continue
            }
            let fields = csvFields(line)
            func fail(_ what: String) -> SimulationConfigurationError {
                SimulationConfigurationError("\(name):\(lineNumber): \(what)")
            }
            switch fields[0] {
            case "stroke":
                guard fields.count >= 7, let index = Int(fields[1]), let catchTime = Double(fields[2]),
                      let drive = Double(fields[4]), let distance = Double(fields[6]) else {
                    throw fail("expected stroke,index,catch_t,rate_spm,drive_s,recovery_s,distance_m[,catch_accel_mps2,profile_rate_spm]")
                }
                result.strokes.append(GroundTruthStroke(
                    index: index, catchTime: catchTime, strokeRate: Double(fields[3]), driveDuration: drive,
                    recoveryDuration: Double(fields[5]), distance: distance,
                    catchAcceleration: fields.count > 7 ? Float(fields[7]) ?? .nan : .nan,
                    profileRate: fields.count > 8 ? Double(fields[8]) ?? .nan : .nan))
            case "interval":
                result.intervals.append(try parseInterval(fields, strokes: result.strokes, fail: fail))
            case "gate":
                guard fields.count == 7, let gate = Int(fields[1]), let distance = Double(fields[3]), let time = Double(fields[4]),
                      let direction = GroundTruthGateCrossing.Direction(rawValue: fields[5]), let passage = Int(fields[6]) else {
                    throw fail("expected gate,index,gate,course_distance_m,t_s,direction,passage")
                }
                result.gateCrossings.append(GroundTruthGateCrossing(gate: gate, name: fields[2], courseDistance: distance, time: time,
                                                                    direction: direction, passage: passage))
            case "total":
                guard fields.count >= 3, let strokes = Int(fields[1]), let distance = Double(fields[2]) else {
                    throw fail("expected total,strokes,distance_m[,duration_s]")
                }
                result.totalStrokes = strokes
                result.totalDistance = distance
                result.duration = fields.count > 3 ? Double(fields[3]) : nil
            default:
                throw fail("unknown row kind '\(fields[0])'")
            }
        }
        return result
    }

    /// A CSV line's fields: a field in double quotes may hold commas and doubled quotes.
    private static func csvFields(_ line: Substring) -> [String] {
        var fields: [String] = []
        var field = ""
        var quoted = false
        var previousWasQuote = false
        for character in line {
            if quoted {
                if character == "\"" { quoted = false; previousWasQuote = true } else { field.append(character) }
                continue
            }
            if character == "\"" {
                if previousWasQuote { field.append("\"") }
                quoted = true
            } else if character == "," {
                fields.append(field)
                field = ""
            } else {
                field.append(character)
            }
            previousWasQuote = false
        }
        fields.append(field)
        return fields
    }

    /// `interval,index,step_kind,start_s,end_s,distance_m,strokes,avg_rate_spm`; the first and last
    /// catch come from the stroke rows read before it (the file writes strokes first).
    private static func parseInterval(_ fields: [String], strokes: [GroundTruthStroke],
                                      fail: (String) -> SimulationConfigurationError) throws -> GroundTruthInterval {
        guard fields.count == 8, let index = Int(fields[1]), let kind = WorkoutStep.Kind(rawValue: fields[2]),
              let start = Double(fields[3]), let end = Double(fields[4]), let distance = Double(fields[5]),
              let count = Int(fields[6]), fields[7].isEmpty || Double(fields[7]) != nil else {
            throw fail("expected interval,index,step_kind,start_s,end_s,distance_m,strokes,avg_rate_spm")
        }
        let inside = strokes.filter { $0.catchTime >= start && $0.catchTime < end }
        return GroundTruthInterval(index: index, kind: kind, start: start, end: end, distance: distance, strokes: count,
                                   firstCatch: inside.first?.catchTime, lastCatch: inside.last?.catchTime)
    }
}
