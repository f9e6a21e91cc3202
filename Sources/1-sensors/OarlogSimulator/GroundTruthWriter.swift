import OarlogCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a session's ground truth as CSV (format in docs/SIMULATOR.md):
///
/// ```
/// # oarlog-truth: 1
/// # start_utc: 2026-05-02T07:00:00.000Z
/// kind,index,catch_t,rate_spm,drive_s,recovery_s,distance_m,catch_accel_mps2,profile_rate_spm
/// stroke,1,0.500000,,0.9276,1.5786,0.000,-5.130,24.0
/// total,240,2423.123,600.000
/// ```
///
/// With a workout plan, its intervals come before the `total` row under their own header:
///
/// ```
/// kind,index,step_kind,start_s,end_s,distance_m,strokes,avg_rate_spm
/// interval,1,work,0.500000,60.500000,204.032,25,24.004
/// interval,2,rest,60.500000,90.500000,60.485,0,
/// ```
///
/// On a measured course, every gate crossing comes next, also under its own header (a name
/// with a comma or a quote is quoted as CSV quotes it):
///
/// ```
/// kind,index,gate,course_distance_m,t_s,direction,passage
/// gate,1,Start,0.000,33.281734,forward,1
/// gate,5,Finish,2000.000,481.032111,back,2
/// ```
///
/// Streaming use: after each record from the simulator call `writeNew(from:)`, and `finish`
/// once the simulator has returned `nil`; the truth can then be kept with `.recent(n)`
/// retention so nothing grows with the session.
public struct GroundTruthWriter {
    public let path: String
    private var file: UnsafeMutablePointer<FILE>?
    /// Index of the last stroke written.
    public private(set) var lastWrittenIndex = 0

    /// The truth file beside a trace: `sim.csv` → `sim.truth.csv` (`name` → `name.truth.csv`).
    public static func truthPath(forTracePath tracePath: String) -> String {
        if tracePath.hasSuffix(".csv") { return String(tracePath.dropLast(4)) + ".truth.csv" }
        return tracePath + ".truth.csv"
    }

    /// Creates (or replaces) the file and writes the header with `metadata` lines.
    public init(path: String, metadata: [(key: String, value: String)]) throws {
        self.path = path
        guard let handle = fopen(path, "w") else {
            throw SimulationConfigurationError("cannot write the truth file '\(path)' (errno \(errno))")
        }
        file = handle
        var header = "# oarlog-truth: 1\n"
        for entry in metadata { header += "# \(entry.key): \(entry.value)\n" }
        header += "kind,index,catch_t,rate_spm,drive_s,recovery_s,distance_m,catch_accel_mps2,profile_rate_spm\n"
        try put(header)
    }

    /// Writes one stroke row. Strokes must come in index order.
    public mutating func write(_ stroke: GroundTruthStroke) throws {
        /// A cell: `places` decimals, empty for no value or not a number.
        func cell(_ value: Double?, _ places: Int) -> String {
            value.map { DecimalText.fixed($0, places: places, nonFinite: "") } ?? ""
        }
        let fields = [cell(stroke.catchTime, 6), cell(stroke.strokeRate, 3), cell(stroke.driveDuration, 4),
                      cell(stroke.recoveryDuration, 4), cell(stroke.distance, 3), cell(Double(stroke.catchAcceleration), 3),
                      cell(stroke.profileRate, 1)]
        let row = "stroke,\(stroke.index)," + fields.joined(separator: ",") + "\n"
        try put(row)
        lastWrittenIndex = stroke.index
    }

    /// Writes the strokes of `truth` not yet written. Throws if some were already dropped from
    /// a `.recent(n)` window (call more often or keep a larger window) — never skips silently.
    public mutating func writeNew(from truth: GroundTruth) throws {
        guard truth.strokeCount > lastWrittenIndex else { return }
        guard let first = truth.strokes.first, first.index <= lastWrittenIndex + 1 else {
            throw SimulationConfigurationError(
                "truth strokes \(lastWrittenIndex + 1)… left the retained window before being written")
        }
        for stroke in truth.strokes where stroke.index > lastWrittenIndex {
            try write(stroke)
        }
    }

    /// Writes the remaining strokes and the `total` row, and closes the file. `truth` must be
    /// complete (the simulator has returned `nil`).
    public mutating func finish(truth: GroundTruth) throws {
        guard truth.isComplete else {
            throw SimulationConfigurationError("the truth is not complete: run the simulator to its end first")
        }
        try writeNew(from: truth)
        if !truth.intervals.isEmpty {
            try put("kind,index,step_kind,start_s,end_s,distance_m,strokes,avg_rate_spm\n")
            for interval in truth.intervals { try write(interval) }
        }
        if !truth.gateCrossings.isEmpty {
            try put("kind,index,gate,course_distance_m,t_s,direction,passage\n")
            for crossing in truth.gateCrossings { try write(crossing) }
        }
        let distance = DecimalText.fixed(truth.distance, places: 3, nonFinite: "")
        let elapsed = DecimalText.fixed(truth.elapsed, places: 3, nonFinite: "")
        try put("total,\(truth.strokeCount),\(distance),\(elapsed)\n")
        try close()
    }

    /// Writes one interval row (`finish` writes them all).
    private func write(_ interval: GroundTruthInterval) throws {
        let fields = ["interval", String(interval.index), interval.kind.rawValue,
                      DecimalText.fixed(interval.start, places: 6, nonFinite: ""),
                      DecimalText.fixed(interval.end, places: 6, nonFinite: ""),
                      DecimalText.fixed(interval.distance, places: 3, nonFinite: ""), String(interval.strokes),
                      interval.averageRate.map { DecimalText.fixed($0, places: 3, nonFinite: "") } ?? ""]
        try put(fields.joined(separator: ",") + "\n")
    }

    /// Writes one gate crossing row (`finish` writes them all).
    private func write(_ crossing: GroundTruthGateCrossing) throws {
        let fields = ["gate", String(crossing.gate), Self.csvField(crossing.name),
                      DecimalText.fixed(crossing.courseDistance, places: 3, nonFinite: ""),
                      DecimalText.fixed(crossing.time, places: 6, nonFinite: ""), crossing.direction.rawValue,
                      String(crossing.passage)]
        try put(fields.joined(separator: ",") + "\n")
    }

    /// A text field as CSV writes it: in double quotes (doubled inside) if it holds a comma, a
    /// quote or a line break; as it is otherwise.
    static func csvField(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) else { return text }
        var quoted = "\""
        for character in text {
            if character == "\"" { quoted.append("\"") }
            quoted.append(character)
        }
        return quoted + "\""
    }

    /// Closes the file (also done by `finish`).
    public mutating func close() throws {
        guard let handle = file else { return }
        file = nil
        if fclose(handle) != 0 { throw SimulationConfigurationError("closing the truth file '\(path)' failed (errno \(errno))") }
    }

    private func put(_ text: String) throws {
        guard let file else { throw SimulationConfigurationError("the truth file '\(path)' is closed") }
        if fputs(text, file) < 0 { throw SimulationConfigurationError("writing the truth file '\(path)' failed (errno \(errno))") }
    }
}
