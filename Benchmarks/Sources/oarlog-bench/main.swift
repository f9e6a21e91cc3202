// The Swift side of scripts/bench.sh: makes the CSV trace once, and times the stroke detector
// and the CSV replay the way the scipy peer times itself (best of N whole passes over the same
// file), printing one JSON line each, so the two can be compared in the same run.
//
//   oarlog-bench detect [SURGE.f32] [--repeats N]
//   oarlog-bench make-trace [SURGE.f32] [TRACE.csv] [--rows N]
//   oarlog-bench replay [TRACE.csv] [--repeats N]
import BenchSupport
import OarlogCore
import OarlogDSP
import OarlogPipeline
import OarlogTrace

#if canImport(Glibc)
import Glibc
#endif

func fail(_ message: String) -> Never {
    var line = "oarlog-bench: \(message)\n"
    line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    exit(1)
}

var arguments = Array(CommandLine.arguments.dropFirst())
@MainActor func option(_ name: String, default value: Int) -> Int {
    guard let i = arguments.firstIndex(of: name) else { return value }
    guard i + 1 < arguments.count, let n = Int(arguments[i + 1]), n > 0 else { fail("\(name) needs a positive number") }
    arguments.removeSubrange(i...(i + 1))
    return n
}

let clock = ContinuousClock()
func seconds(_ d: Duration) -> Double {
    Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
}
/// Keeps a value alive so the optimiser cannot drop the work that made it.
@inline(never) func blackHole<T>(_ value: T) {}

func median(_ xs: [Double]) -> Double {
    let s = xs.sorted()
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}

guard let command = arguments.first else {
    fail("usage: oarlog-bench detect|make-trace|replay [paths] [--repeats N] [--rows N]")
}
arguments.removeFirst()

do {
    switch command {
    case "detect":
        let repeats = option("--repeats", default: 3)
        let path = arguments.first ?? BenchFiles.surgePath
        let surge = try readFloat32File(path)
        var times: [Double] = []
        var strokes = 0
        for _ in 0..<repeats {
            var detector = StrokeDetector()
            let started = clock.now
            strokes = surge.withUnsafeBufferPointer {
                detectStrokes(&detector, surge: $0, startTime: 0, sampleInterval: 1 / BenchFiles.sampleRate)
            }
            times.append(seconds(clock.now - started))
        }
        let best = times.min()!
        print(#"{"side": "oarlog", "samples": \#(surge.count), "strokes": \#(strokes), "repeats": \#(repeats), "best_s": \#(best), "median_s": \#(median(times)), "samples_per_s": \#(Double(surge.count) / best)}"#)

    case "make-trace":
        let rows = option("--rows", default: 10_000_000)
        let surgePath = arguments.count > 0 ? arguments[0] : BenchFiles.surgePath
        let tracePath = arguments.count > 1 ? arguments[1] : BenchFiles.tracePath
        var session = InMemorySession(surge: try readFloat32File(surgePath), sampleLimit: rows)
        let partial = tracePath + ".partial"
        var writer = try TraceWriter(path: partial, metadata: [
            (key: "oarlog-trace", value: "1"),
            (key: "start_utc", value: "2026-05-02T07:00:00.000Z"),
            (key: "title", value: "Oarlog benchmark trace (synthetic surge, scripts/bench-peer.py)"),
            (key: "accel_hz", value: "100"),
            (key: "gps_hz", value: "1"),
        ])
        while let record = session.next() { try writer.write(record) }
        try writer.close()
        guard access(partial, F_OK) == 0 else { fail("TraceWriter wrote no file at \(partial)") }
        guard rename(partial, tracePath) == 0 else { fail("cannot rename \(partial) to \(tracePath)") }
        let written = try countDataRows(tracePath)
        print(#"{"trace": "\#(tracePath)", "accel_rows": \#(rows), "rows": \#(written)}"#)

    case "replay":
        // The whole replay (CSV → reader → analyzer → pipeline), and where its time goes: the
        // reader alone, and the analyzer alone on in-memory records of the same length.
        let repeats = option("--repeats", default: 3)
        let path = arguments.first ?? BenchFiles.tracePath
        let rows = try countDataRows(path)
        func best(_ body: () throws -> Void) rethrows -> (best: Double, median: Double) {
            var times: [Double] = []
            for _ in 0..<repeats {
                let started = clock.now
                try body()
                times.append(seconds(clock.now - started))
            }
            return (times.min()!, median(times))
        }
        var strokes = 0
        let whole = try best {
            var source = try csvTraceSource(path: path)
            var pipeline = Pipeline()
            strokes = try pipeline.run(&source).strokes
        }
        var records = 0
        let readOnly = try best {
            var reader = try csvTraceSource(path: path)
            records = 0
            while try reader.next() != nil { records &+= 1 }
        }
        // The same number of accelerometer samples and fixes, built in memory from the surge file.
        let accelRows = rows - rows / 101
        let surge = try readFloat32File(BenchFiles.surgePath)
        let analyzerOnly = best {
            var session = InMemorySession(surge: surge, sampleLimit: accelRows)
            var analyzer = RowingAnalyzer()
            while let record = session.next() { analyzer.process(record) { blackHole($0) } }
        }
        print(#"{"side": "oarlog", "rows": \#(rows), "records": \#(records), "strokes": \#(strokes), "repeats": \#(repeats), "best_s": \#(whole.best), "median_s": \#(whole.median), "rows_per_s": \#(Double(rows) / whole.best), "reader_rows_per_s": \#(Double(rows) / readOnly.best), "analyzer_records_per_s": \#(Double(rows) / analyzerOnly.best)}"#)

    default:
        fail("unknown command \(command)")
    }
} catch {
    fail("\(error)")
}
