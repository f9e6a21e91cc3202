import Foundation
import OarlogCore

/// A malformed line in a Talos log: names the file, the line and what was expected.
public typealias TalosLogError = FileLineError

/// Reads a Talos Rowing (Android app) data log: lines `wallclock_ms EVENT timestamp payload@@`.
///
/// Records produced:
/// - `ACCEL x,y,z` (m/s², phone axes) → `.accel`;
/// - `GPS lat,lon,altitude,speed,bearing,accuracy` → `.fix` (the third field is the fix's UTC
///   time in ms → `utc`);
/// - `ROWING_COUNT n` (the app's own running stroke count) → `.reference` with `strokeCount`;
/// - `ROWING_START`, `ROWING_STOP` → `.note`.
/// Everything else (ORIENT, the app's internal STROKE_* events, parameters) is skipped.
///
/// Timeline: the log has three clocks. Sensor-stamped events (ACCEL, ROWING_*) carry the
/// sensor clock (ns since boot) in the third field, the most precise; GPS rows carry the fix's
/// UTC; every row carries the wall-clock ms at which it was logged. The sensor clock is mapped
/// to wall-clock time by the offset `min(wallclock − sensor)` over all ACCEL rows (logging can
/// only delay a row, so the smallest difference is the true offset, to about 1 ms; the log
/// shows no drift). GPS fixes, which have no sensor stamp, are placed at their wall-clock
/// (received) time mapped back with that offset. `t = 0` is the earliest record;
/// `start_utc` is its wall-clock time. Records come out sorted by time.
public struct TalosLogReader: RecordSource {
    public let path: String
    private var records: [TraceRecord] = []
    private var position = 0

    public init(path: String) throws {
        self.path = path
        let text: String
        do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
            throw TalosLogError(path: path, line: 0, message: "cannot read file: \(error.localizedDescription)")
        }
        struct Row { var line: Int; var wall: Double; var kind: Substring; var stamp: Substring; var payload: Substring }
        var rows: [Row] = []
        var lineNumber = 0
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            var line = rawLine
            if line.last == "\r" { line = line.dropLast() }
            if line.allSatisfy({ $0 == " " }) { continue }
            guard line.hasSuffix("@@") else {
                throw TalosLogError(path: path, line: lineNumber, message: "expected the line to end with '@@'")
            }
            line = line.dropLast(2)
            let fields = line.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false)
            guard fields.count == 4, let wall = Double(fields[0]) else {
                throw TalosLogError(path: path, line: lineNumber, message: "expected 'wallclock_ms EVENT timestamp payload'")
            }
            rows.append(Row(line: lineNumber, wall: wall / 1000, kind: fields[1], stamp: fields[2], payload: fields[3]))
        }
        // Sensor clock → wall clock offset, from the ACCEL rows.
        var offset = Double.infinity
        for row in rows where row.kind == "ACCEL" {
            guard let ns = Double(row.stamp) else {
                throw TalosLogError(path: path, line: row.line, message: "expected a sensor timestamp in ns, found '\(row.stamp)'")
            }
            offset = min(offset, row.wall - ns / 1e9)
        }
        if !offset.isFinite { offset = 0 }

        func numbers(_ row: Row, count: Int) throws -> [Double] {
            let parts = row.payload.split(separator: ",", omittingEmptySubsequences: false)
            let values = parts.compactMap { Double($0) }
            guard parts.count >= count, values.count == parts.count else {
                throw TalosLogError(path: path, line: row.line,
                                      message: "expected \(count) comma-separated numbers in the \(row.kind) payload, found '\(row.payload)'")
            }
            return values
        }
        func sensorTime(_ row: Row) throws -> Double {
            guard let ns = Double(row.stamp), ns > 0 else {
                throw TalosLogError(path: path, line: row.line, message: "expected a sensor timestamp in ns, found '\(row.stamp)'")
            }
            return ns / 1e9 + offset   // wall-clock seconds
        }

        var timed: [(time: Double, record: TraceRecord)] = []
        for row in rows {
            switch row.kind {
            case "ACCEL":
                let v = try numbers(row, count: 3)
                let t = try sensorTime(row)
                timed.append((t, .accel(AccelSample(time: t, x: Float(v[0]), y: Float(v[1]), z: Float(v[2])))))
            case "GPS":
                let v = try numbers(row, count: 6)
                guard let utcMs = Double(row.stamp) else {
                    throw TalosLogError(path: path, line: row.line, message: "expected the GPS time in ms, found '\(row.stamp)'")
                }
                let t = row.wall
                timed.append((t, .fix(GPSFix(time: t, utc: utcMs / 1000, latitude: v[0], longitude: v[1], speed: v[3],
                                              course: v[4], horizontalAccuracy: v[5], altitude: v[2]))))
            case "ROWING_COUNT":
                guard let n = Int(row.payload) else {
                    throw TalosLogError(path: path, line: row.line, message: "expected a stroke count, found '\(row.payload)'")
                }
                let t = try sensorTime(row)
                timed.append((t, .reference(ReferenceStroke(time: t, strokeCount: n))))
            case "ROWING_START", "ROWING_STOP":
                let t = try sensorTime(row)
                timed.append((t, .note(Note(time: t, text: "Talos \(row.kind.lowercased().replacingOccurrences(of: "_", with: " "))"))))
            default:
                continue
            }
        }
        // Stable sort by time.
        let order = timed.indices.sorted { (timed[$0].time, $0) < (timed[$1].time, $1) }
        guard let origin = order.first.map({ timed[$0].time }) else { return }
        let start = Date(timeIntervalSince1970: origin)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        records.append(.metadata(key: "start_utc", value: formatter.string(from: start)))
        records.append(.metadata(key: "device", value: "Talos Rowing (Android phone)"))
        for i in order {
            records.append(Self.shifted(timed[i].record, by: -origin))
        }
    }

    private static func shifted(_ record: TraceRecord, by delta: Double) -> TraceRecord {
        switch record {
        case .accel(var s): s.time += delta; return .accel(s)
        case .fix(var f): f.time += delta; return .fix(f)
        case .reference(var r): r.time += delta; return .reference(r)
        case .note(var n): n.time += delta; return .note(n)
        case .gap(var g): g.start += delta; g.end += delta; return .gap(g)
        case .metadata: return record
        }
    }

    public mutating func next() throws -> TraceRecord? {
        guard position < records.count else { return nil }
        defer { position += 1 }
        return records[position]
    }
}
