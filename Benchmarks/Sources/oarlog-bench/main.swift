// The Swift side of scripts/bench.sh: makes the CSV trace once, and times the stroke detector
// and the CSV replay the way the scipy peer times itself (best of N whole passes over the same
// file), printing one JSON line each, so the two can be compared in the same run.
//
//   oarlog-bench detect [SURGE.f32] [--repeats N]
//   oarlog-bench make-trace [SURGE.f32] [TRACE.csv] [--rows N]
//   oarlog-bench replay [TRACE.csv] [--repeats N]
//   oarlog-bench analyzer [SURGE.f32] [--samples N] [--repeats N]
//   oarlog-bench digest [SURGE.f32] [--samples N]
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

/// CPU time of the calling thread, seconds.
func threadCPUSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
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
        var times: [Double] = [], cpuTimes: [Double] = []
        var strokes = 0
        for _ in 0..<repeats {
            var detector = StrokeDetector()
            let started = clock.now, startedCPU = threadCPUSeconds()
            strokes = surge.withUnsafeBufferPointer {
                detectStrokes(&detector, surge: $0, startTime: 0, sampleInterval: 1 / BenchFiles.sampleRate)
            }
            times.append(seconds(clock.now - started))
            cpuTimes.append(threadCPUSeconds() - startedCPU)
        }
        let best = times.min()!, bestCPU = cpuTimes.min()!
        // The thread's CPU time as well as the wall clock: on a shared host the CPU time of a
        // pass is hardly touched by the other processes, the wall clock is.
        print(#"{"side": "oarlog", "samples": \#(surge.count), "strokes": \#(strokes), "repeats": \#(repeats), "best_s": \#(best), "median_s": \#(median(times)), "samples_per_s": \#(Double(surge.count) / best), "best_cpu_s": \#(bestCPU), "samples_per_cpu_s": \#(Double(surge.count) / bestCPU)}"#)

    case "digest":
        // Every event of the block path and of the per-sample path, hashed bit for bit, so two
        // builds (or the two paths) can be compared exactly: the same digest, the same events.
        let limit = option("--samples", default: Int.max)
        let path = arguments.first ?? BenchFiles.surgePath
        let surge = Array(try readFloat32File(path).prefix(limit))
        let interval = 1 / BenchFiles.sampleRate
        var block = EventDigest(), perSample = EventDigest()
        var detector = StrokeDetector()
        surge.withUnsafeBufferPointer { detector.process(block: $0, startTime: 0, sampleInterval: interval) { block.add($0) } }
        detector.finish { block.add($0) }
        var live = StrokeDetector()
        for (i, value) in surge.enumerated() {
            live.process(time: Double(i) * interval, surge: value) { perSample.add($0) }
        }
        live.finish { perSample.add($0) }
        print(#"{"samples": \#(surge.count), "block": {"events": \#(block.events), "digest": "\#(block.hex)"}, "per_sample": {"events": \#(perSample.events), "digest": "\#(perSample.hex)"}}"#)

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
        // The analyzer's block path (what the replay takes): runs of samples up to each fix.
        let batch = UnsafeMutableBufferPointer<AccelSample>.allocate(capacity: 4096)
        defer { batch.deallocate() }
        var blockStrokes = 0
        let analyzerBlock = best {
            var session = InMemorySession(surge: surge, sampleLimit: accelRows)
            var analyzer = RowingAnalyzer()
            blockStrokes = analyzeInRuns(&analyzer, session: &session, buffer: batch, samples: accelRows)
        }
        print(#"{"side": "oarlog", "rows": \#(rows), "records": \#(records), "strokes": \#(strokes), "repeats": \#(repeats), "best_s": \#(whole.best), "median_s": \#(whole.median), "rows_per_s": \#(Double(rows) / whole.best), "reader_rows_per_s": \#(Double(rows) / readOnly.best), "analyzer_records_per_s": \#(Double(rows) / analyzerOnly.best), "analyzer_block_samples_per_s": \#(Double(accelRows) / analyzerBlock.best), "analyzer_block_strokes": \#(blockStrokes)}"#)

    case "analyzer":
        // The analyzer alone on records made in memory beforehand (not timed): a tilted 3-axis
        // sensor at 100 Hz whose surge is the benchmark signal, and a 1 Hz fix; record by record
        // (`process(_:)`), and on the block path a replay takes (runs of samples up to each fix).
        let repeats = option("--repeats", default: 3)
        let count = option("--samples", default: 3_600_000)
        let skipPerRecord = arguments.contains("--block-only")
        // For a breakdown: no fixes; strokes from references only (no mounting, no detector); a
        // configured axis (no bow-sign tracking).
        let noFixes = arguments.contains("--no-fixes")
        let useCPUTime = arguments.contains("--cpu-time")
        var configuration = AnalyzerConfiguration()
        if arguments.contains("--no-detection") { configuration.strokeSource = .reference }
        if arguments.contains("--fixed-axis") { configuration.mounting.axis = .fixed(SIMD3(0.85, 0.5, -0.14)) }
        arguments.removeAll { $0.hasPrefix("--") }
        let surge = try readFloat32File(arguments.first ?? BenchFiles.surgePath)
        var session = InMemorySession(surge: surge, fixRate: noFixes ? 1e-9 : 1, sampleLimit: count)
        var records: [TraceRecord] = []
        records.reserveCapacity(count + count / 100 + 1)
        while let r = session.next() { records.append(r) }
        // The runs: each run's samples contiguous, then the fix that ended it.
        var samples: [AccelSample] = []
        samples.reserveCapacity(count)
        var runEnds: [(end: Int, fix: TraceRecord?)] = []
        for r in records {
            if case .accel(let a) = r { samples.append(a) } else { runEnds.append((samples.count, r)) }
        }
        runEnds.append((samples.count, nil))
        // `--cpu-time`: the thread's CPU time rather than the wall clock (steadier on a shared machine).
        func timed(_ body: () -> Int) -> (best: Double, median: Double, strokes: Int) {
            var times: [Double] = []
            var strokes = 0
            for _ in 0..<repeats {
                if useCPUTime {
                    let started = threadCPUSeconds()
                    strokes = body()
                    times.append(threadCPUSeconds() - started)
                } else {
                    let started = clock.now
                    strokes = body()
                    times.append(seconds(clock.now - started))
                }
            }
            return (times.min()!, median(times), strokes)
        }
        let perRecord = skipPerRecord ? (best: Double.infinity, median: Double.infinity, strokes: 0) : timed {
            var analyzer = RowingAnalyzer(configuration: configuration)
            var strokes = 0
            for r in records { analyzer.process(r) { if case .stroke = $0 { strokes &+= 1 } } }
            analyzer.finish { if case .stroke = $0 { strokes &+= 1 } }
            return strokes
        }
        let block = timed {
            var analyzer = RowingAnalyzer(configuration: configuration)
            var strokes = 0
            var start = 0
            samples.withUnsafeBufferPointer { all in
                for (end, fix) in runEnds {
                    var i = start
                    while i < end {  // runs of at most 4096, as the pipeline reads them
                        let n = min(4096, end - i)
                        analyzer.process(accel: UnsafeBufferPointer(rebasing: all[i..<(i + n)])) { if case .stroke = $0 { strokes &+= 1 } }
                        i += n
                    }
                    start = end
                    if let fix { analyzer.process(fix) { if case .stroke = $0 { strokes &+= 1 } } }
                }
            }
            analyzer.finish { if case .stroke = $0 { strokes &+= 1 } }
            return strokes
        }
        print(#"{"side": "oarlog", "samples": \#(count), "repeats": \#(repeats), "per_record_samples_per_s": \#(Double(count) / perRecord.best), "block_samples_per_s": \#(Double(count) / block.best), "block_median_samples_per_s": \#(Double(count) / block.median), "strokes_per_record": \#(perRecord.strokes), "strokes_block": \#(block.strokes)}"#)

    default:
        fail("unknown command \(command)")
    }
} catch {
    fail("\(error)")
}
