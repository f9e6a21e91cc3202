import Foundation
import OarlogCore

/// A malformed row in a Quiske per-stroke export: names the file, the line and what was expected.
public typealias QuiskeCurveError = FileLineError

/// Reads a Quiske per-stroke export (one row per stroke with a "boat accelerator curve") and
/// chains the curves into a continuous accelerometer trace whose stroke boundaries are known.
///
/// Units: the curve is in g, not m/s². Integrating one stroke's curve (≈100 Hz, mean removed)
/// gives an intra-stroke speed swing of 0.12–0.15 if read as m/s² — far too small for a boat
/// at 3.2 m/s — but 1.2–1.5 m/s if read as g, which is what a single scull does; the peaks then
/// are about −4.4 m/s² (catch) and +3.3 m/s² (drive), also typical. So values are multiplied by
/// standard gravity.
///
/// Timeline: row `i`'s curve spans from its timestamp to the next row's (its samples spread
/// evenly over that span, ≈100 Hz; the last row at 100 Hz). `t = 0` is the first row's time.
/// Each curve starts and ends at the catch dip, so the row timestamp is the catch.
///
/// Records: `start_utc` metadata, then per row a `.reference` stroke at the row's start (the
/// known boundary) with its rate, speed, distance and count, followed by the row's `.accel`
/// samples: surge on x (bow), 0 on y, +g on z (a sensor lying flat, x to the bow).
public struct QuiskeCurveReader: RecordSource {
    /// One row of the export.
    public struct Stroke: Sendable, Equatable {
        /// Start of the stroke (its catch), seconds from the first row.
        public var time: Seconds
        public var duration: Seconds
        public var strokeRate: StrokesPerMinute
        public var speed: MetresPerSecond
        public var distance: Metres
        /// The boat's acceleration through the stroke, m/s², evenly spaced over `duration`.
        public var acceleration: [MetresPerSecondSquared]
    }

    public let path: String
    /// The rows, in file order.
    public let strokes: [Stroke]
    /// UTC of the first row, seconds since 1970.
    public let startUTC: Double
    /// Output sample rate; `nil` = the export's own (≈100 Hz, exactly as recorded).
    public let sampleRate: Hertz?
    private var stage = 0        // 0 metadata, 1 data, 2 done
    private var row = 0
    private var sample = 0
    private var pendingReference = true
    private var outputIndex = 0

    /// Reads the whole export (it is small: a row per stroke).
    /// - Parameter sampleRate: resample the chained trace to this rate (each output sample is the
    ///   mean of the recorded curve over its interval when downsampling, as a sensor's own
    ///   averaging would give; linear interpolation when upsampling).
    public init(path: String, sampleRate: Hertz? = nil) throws {
        self.path = path
        self.sampleRate = sampleRate
        let text: String
        do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
            throw QuiskeCurveError(path: path, line: 0, message: "cannot read file: \(error.localizedDescription)")
        }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.hasSuffix("\r") ? $0.dropLast() : $0 }
        // Header: the line whose first field is "timestamp(s)".
        guard let headerIndex = lines.firstIndex(where: { $0.hasPrefix("timestamp") }) else {
            throw QuiskeCurveError(path: path, line: 1, message: "expected a header line starting with 'timestamp(s)'")
        }
        let header = Self.fields(of: lines[headerIndex])
        func column(_ prefix: String) throws -> Int {
            guard let i = header.firstIndex(where: { $0.hasPrefix(prefix) }) else {
                throw QuiskeCurveError(path: path, line: headerIndex + 1, message: "expected a column '\(prefix)…' in the header")
            }
            return i
        }
        let cTime = try column("timestamp"), cDistance = try column("distance"), cRate = try column("SPM")
        let cSpeed = try column("speed"), cCurve = try column("boat accelerator curve")
        var raw: [(line: Int, time: Double, rate: Double, speed: Double, distance: Double, curve: [Float])] = []
        for (i, line) in lines.enumerated().dropFirst(headerIndex + 1) where !line.isEmpty {
            let f = Self.fields(of: line)
            let lineNumber = i + 1
            guard f.count > cCurve else {
                throw QuiskeCurveError(path: path, line: lineNumber, message: "expected \(header.count) fields, found \(f.count)")
            }
            func number(_ c: Int) throws -> Double {
                guard let v = Double(f[c]) else {
                    throw QuiskeCurveError(path: path, line: lineNumber, message: "expected a number in column '\(header[c])', found '\(f[c])'")
                }
                return v
            }
            var curve: [Float] = []
            for part in f[cCurve].split(separator: ",") {
                guard let v = Float(part.trimmingCharacters(in: .whitespaces)) else {
                    throw QuiskeCurveError(path: path, line: lineNumber, message: "expected numbers in the boat accelerator curve, found '\(part)'")
                }
                curve.append(v * standardGravity)
            }
            guard curve.count >= 2 else {
                throw QuiskeCurveError(path: path, line: lineNumber, message: "expected a boat accelerator curve of at least 2 samples")
            }
            raw.append((lineNumber, try number(cTime), try number(cRate), try number(cSpeed), try number(cDistance), curve))
        }
        guard let first = raw.first else {
            throw QuiskeCurveError(path: path, line: headerIndex + 2, message: "expected at least one stroke row")
        }
        var strokes: [Stroke] = []
        for (i, r) in raw.enumerated() {
            let duration: Double
            if i + 1 < raw.count {
                duration = raw[i + 1].time - r.time
                guard duration > 0 else {
                    throw QuiskeCurveError(path: path, line: raw[i + 1].line, message: "timestamps must increase")
                }
            } else {
                duration = Double(r.curve.count) * 0.01
            }
            strokes.append(Stroke(time: r.time - first.time, duration: duration, strokeRate: r.rate, speed: r.speed,
                                  distance: r.distance, acceleration: r.curve))
        }
        self.strokes = strokes
        self.startUTC = first.time
    }

    /// Splits one CSV line, honouring double quotes.
    private static func fields(of line: Substring) -> [String] {
        var out: [String] = []
        var current = ""
        var quoted = false
        for ch in line {
            if ch == "\"" { quoted.toggle() } else if ch == "," && !quoted { out.append(current); current = "" } else { current.append(ch) }
        }
        out.append(current)
        return out
    }

    /// The chained acceleration at time `t` (linear interpolation between recorded samples).
    public func acceleration(at t: Seconds) -> MetresPerSecondSquared {
        guard let last = strokes.last else { return 0 }
        var lo = 0, hi = strokes.count - 1
        while lo < hi { let mid = (lo + hi + 1) / 2; if strokes[mid].time <= t { lo = mid } else { hi = mid - 1 } }
        let s = strokes[lo]
        let n = s.acceleration.count
        let x = max(0, (t - s.time) / s.duration * Double(n))
        let k = Int(x)
        let frac = Float(x - Double(k))
        let a = s.acceleration[min(k, n - 1)]
        let b: Float = k + 1 < n ? s.acceleration[k + 1]
            : (lo + 1 < strokes.count ? strokes[lo + 1].acceleration[0] : last.acceleration[n - 1])
        return a + frac * (b - a)
    }

    /// End of the chained trace.
    public var duration: Seconds { strokes.last.map { $0.time + $0.duration } ?? 0 }

    public mutating func next() throws -> TraceRecord? {
        switch stage {
        case 0:
            stage = 1
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            return .metadata(key: "start_utc", value: formatter.string(from: Date(timeIntervalSince1970: startUTC)))
        case 1:
            return sampleRate == nil ? nextNative() : nextResampled()
        default:
            return nil
        }
    }

    private func accel(_ t: Seconds, _ a: MetresPerSecondSquared) -> TraceRecord {
        .accel(AccelSample(time: t, x: a, y: 0, z: standardGravity))
    }

    private func reference(_ s: Stroke, _ index: Int) -> TraceRecord {
        .reference(ReferenceStroke(time: s.time, distance: s.distance, strokeRate: s.strokeRate, speed: s.speed, strokeCount: index + 1))
    }

    private mutating func nextNative() -> TraceRecord? {
        guard row < strokes.count else { stage = 2; return nil }
        let s = strokes[row]
        if pendingReference { pendingReference = false; return reference(s, row) }
        let t = s.time + Double(sample) * s.duration / Double(s.acceleration.count)
        let record = accel(t, s.acceleration[sample])
        sample += 1
        if sample == s.acceleration.count { sample = 0; row += 1; pendingReference = true }
        return record
    }

    private mutating func nextResampled() -> TraceRecord? {
        guard let rate = sampleRate, rate > 0 else { stage = 2; return nil }
        let t = Double(outputIndex) / rate
        // A reference stroke comes before the first sample at or after its time.
        if row < strokes.count && strokes[row].time <= t {
            row += 1
            return reference(strokes[row - 1], row - 1)
        }
        guard t < duration else { stage = 2; return nil }
        outputIndex += 1
        let points = max(1, Int((100 / rate).rounded(.up)))
        var sum: Float = 0
        for p in 0..<points {
            let offset = (Double(p) + 0.5) / Double(points) - 0.5
            sum += acceleration(at: max(0, min(duration, t + offset / rate)))
        }
        return accel(t, sum / Float(points))
    }
}
