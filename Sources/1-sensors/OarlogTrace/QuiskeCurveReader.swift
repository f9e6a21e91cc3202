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

    /// Reads the whole export (it is small: a row per stroke), line by line.
    ///
    /// Bounds (`TraceLimits`, docs/TRACE_FORMAT.md): the file is at most 64 MiB, a row at most
    /// 1 MiB, a curve at most 10,000 samples and the whole file at most 4,194,304 (errors beyond).
    /// Every value must be physically plausible, else the file is refused naming the line (a
    /// skipped row would leave a hole in the chained trace and shift every later catch):
    /// timestamps within 1970–2100 and at most 7 days after the first row, a distance within
    /// 0…1,000 km, a rate within 0…200 spm, a speed within 0…30 m/s, curve samples finite and
    /// within ±2000 m/s².
    /// - Parameter sampleRate: resample the chained trace to this rate (each output sample is the
    ///   mean of the recorded curve over its interval when downsampling, as a sensor's own
    ///   averaging would give; linear interpolation when upsampling).
    public init(path: String, sampleRate: Hertz? = nil) throws {
        self.path = path
        self.sampleRate = sampleRate
        let read: (strokes: [Stroke], startUTC: Double)
        do {
            read = try Self.read(path: path)
        } catch let error as TraceError {
            throw QuiskeCurveError(path: path, line: error.line ?? 0, message: error.message)
        }
        self.strokes = read.strokes
        self.startUTC = read.startUTC
    }

    private static func read(path: String) throws -> (strokes: [Stroke], startUTC: Double) {
        var input = try ChunkedLineBuffer(path: path, maxLineBytes: TraceLimits.maxQuiskeLineBytes,
                                          maxFileBytes: TraceLimits.maxQuiskeFileBytes)
        var parser = try RowParser(path: path, input: &input)
        var rows: [RowParser.Row] = []
        while true {
            let lineNumber = input.lineNumber
            guard let bytes = try input.nextLine() else { break }
            if bytes.isEmpty { continue }
            rows.append(try parser.row(bytes, line: lineNumber, first: rows.first))
        }
        guard let first = rows.first else {
            throw parser.fail(parser.headerLine + 1, "expected at least one stroke row")
        }
        return (try parser.strokes(chaining: rows), first.time)
    }

    /// Reads the export's header, then its rows one by one, holding every value to its bounds.
    private struct RowParser {
        /// A row as written, before the strokes are chained.
        struct Row {
            var line: Int
            var time: Double, rate: Double, speed: Double, distance: Double
            var curve: [Float]
        }

        let path: String
        let header: [String]
        let headerLine: Int
        let cTime: Int, cDistance: Int, cRate: Int, cSpeed: Int, cCurve: Int
        private var totalSamples = 0

        /// Reads up to the header: the line whose first field is "timestamp(s)".
        init(path: String, input: inout ChunkedLineBuffer) throws {
            var header: [String] = []
            var headerLine = 0
            while true {
                let lineNumber = input.lineNumber
                guard let bytes = try input.nextLine() else {
                    throw QuiskeCurveError(path: path, line: 1, message: "expected a header line starting with 'timestamp(s)'")
                }
                if bytes.starts(with: "timestamp".utf8) {
                    header = QuiskeCurveReader.fields(of: bytes).map { String(decoding: $0, as: UTF8.self) }
                    headerLine = lineNumber
                    break
                }
            }
            func column(_ prefix: String) throws -> Int {
                guard let i = header.firstIndex(where: { $0.hasPrefix(prefix) }) else {
                    throw QuiskeCurveError(path: path, line: headerLine, message: "expected a column '\(prefix)…' in the header")
                }
                return i
            }
            (self.path, self.header, self.headerLine) = (path, header, headerLine)
            cTime = try column("timestamp"); cDistance = try column("distance"); cRate = try column("SPM")
            cSpeed = try column("speed"); cCurve = try column("boat accelerator curve")
        }

        func fail(_ line: Int, _ message: String) -> QuiskeCurveError {
            QuiskeCurveError(path: path, line: line, message: message)
        }

        /// One stroke row; `first` is the file's first row, if this is not it.
        mutating func row(_ bytes: UnsafeBufferPointer<UInt8>, line lineNumber: Int, first: Row?) throws -> Row {
            let f = QuiskeCurveReader.fields(of: bytes)
            // The columns may come in any order: a row must reach the last one read.
            guard f.count > max(cTime, cDistance, cRate, cSpeed, cCurve) else {
                throw fail(lineNumber, "expected \(header.count) fields, found \(f.count)")
            }
            let curve = try self.curve(f[cCurve], line: lineNumber)
            totalSamples += curve.count
            guard totalSamples <= TraceLimits.maxQuiskeTotalSamples else {
                throw fail(lineNumber, "more than \(TraceLimits.maxQuiskeTotalSamples) curve samples in the file, the most this reader holds: split it")
            }
            func number(_ c: Int, _ range: ClosedRange<Double>, _ what: String) throws -> Double {
                try self.number(f[c], column: c, line: lineNumber, range, what)
            }
            var times = TraceLimits.utcRange
            if let first { times = first.time...first.time + TraceLimits.maxSessionSeconds }
            let time = try number(cTime, times, first == nil ? "a UTC time in seconds (1970–2100)"
                                                             : "a time from the first row's to 7 days after it")
            return Row(line: lineNumber, time: time,
                       rate: try number(cRate, 0...TraceLimits.maxStrokeRate, "a stroke rate within 0…\(Int(TraceLimits.maxStrokeRate)) spm"),
                       speed: try number(cSpeed, 0...TraceLimits.maxSpeed, "a speed within 0…\(Int(TraceLimits.maxSpeed)) m/s"),
                       distance: try number(cDistance, 0...TraceLimits.maxDistance, "a distance within 0…\(Int(TraceLimits.maxDistance / 1000)) km"),
                       curve: curve)
        }

        /// A number within `range` (`what` says which, for the error).
        private func number(_ field: ArraySlice<UInt8>, column c: Int, line lineNumber: Int,
                            _ range: ClosedRange<Double>, _ what: String) throws -> Double {
            let text = String(decoding: field, as: UTF8.self)
            guard let v = Double(text) else {
                throw fail(lineNumber, "expected a number in column '\(header[c])', found '\(QuiskeCurveReader.quoted(field))'")
            }
            guard range.contains(v) else {
                throw fail(lineNumber, "expected \(what) in column '\(header[c])', found '\(text)': no boat or sensor gives that")
            }
            return v
        }

        /// The boat accelerator curve: comma-separated samples in g, returned in m/s².
        private func curve(_ field: ArraySlice<UInt8>, line lineNumber: Int) throws -> [Float] {
            let g = Double(standardGravity)
            var curve: [Float] = []
            for part in field.split(separator: ASCII.comma) {
                guard curve.count < TraceLimits.maxQuiskeCurveSamples else {
                    throw fail(lineNumber, "the boat accelerator curve has more than \(TraceLimits.maxQuiskeCurveSamples) samples; a stroke has a few hundred")
                }
                let text = String(decoding: part, as: UTF8.self).trimmingWhitespace()
                guard let v = Float(text) else {
                    throw fail(lineNumber, "expected numbers in the boat accelerator curve, found '\(QuiskeCurveReader.quoted(part))'")
                }
                guard v.isFinite, TraceLimits.plausibleAcceleration(Double(v) * g) else {
                    throw fail(lineNumber, "expected curve samples within ±\(Int(TraceLimits.maxAcceleration)) m/s² (in g: ±\(Int(TraceLimits.maxAcceleration / g))), found '\(text)' at sample \(curve.count + 1)")
                }
                curve.append(v * standardGravity)
            }
            guard curve.count >= 2 else {
                throw fail(lineNumber, "expected a boat accelerator curve of at least 2 samples")
            }
            return curve
        }

        /// The rows as strokes on one time line from the first row: each curve spans to the
        /// next row's time (the last at 100 Hz).
        func strokes(chaining rows: [Row]) throws -> [Stroke] {
            guard let first = rows.first else { return [] }
            var strokes: [Stroke] = []
            strokes.reserveCapacity(rows.count)
            for (i, r) in rows.enumerated() {
                let duration: Double
                if i + 1 < rows.count {
                    duration = rows[i + 1].time - r.time
                    guard duration > 0 else {
                        throw fail(rows[i + 1].line, "timestamps must increase")
                    }
                } else {
                    duration = Double(r.curve.count) * 0.01
                }
                strokes.append(Stroke(time: r.time - first.time, duration: duration, strokeRate: r.rate, speed: r.speed,
                                      distance: r.distance, acceleration: r.curve))
            }
            return strokes
        }
    }

    /// A field for an error message: at most 40 bytes.
    private static func quoted(_ bytes: ArraySlice<UInt8>) -> String {
        bytes.count > 40 ? String(decoding: bytes.prefix(40), as: UTF8.self) + "…" : String(decoding: bytes, as: UTF8.self)
    }

    /// Splits one CSV line, honouring double quotes (a quote toggles quoting and is dropped).
    private static func fields(of line: UnsafeBufferPointer<UInt8>) -> [ArraySlice<UInt8>] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(line.count)
        var ends: [Int] = []
        var quoted = false
        for b in line {
            if b == ASCII.quote { quoted.toggle() } else if b == ASCII.comma && !quoted { ends.append(bytes.count) } else { bytes.append(b) }
        }
        ends.append(bytes.count)
        var out: [ArraySlice<UInt8>] = []
        out.reserveCapacity(ends.count)
        var start = 0
        for end in ends {
            out.append(bytes[start..<end])
            start = end
        }
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
            // Milliseconds rounded to the nearest, as Foundation's ISO8601DateFormatter wrote them.
            return .metadata(key: "start_utc", value: UTCTime.iso8601(startUTC, millisecondRounding: .toNearestOrAwayFromZero))
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
