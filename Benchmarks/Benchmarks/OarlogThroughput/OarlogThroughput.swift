// Oarlog throughput benchmarks (docs/BENCHMARKS.md). Run from Benchmarks/:
//   swift package --allow-writing-to-package-directory benchmark --target OarlogThroughput
// or everything, with the scipy comparison: scripts/bench.sh
import Benchmark
import BenchSupport
import OarlogCore
import OarlogDSP
import OarlogPipeline
import OarlogTrace

/// Samples (or records) per measured iteration of the streaming benchmarks. Throughput with the
/// `.mega` scaling factor is then samples per second.
let samplesPerIteration = 1_000_000

/// Zero allocations per iteration: the hot loops' contract. Checked with
/// `benchmark thresholds check` against Thresholds/*.p90.json (mallocCountTotal 0).
/// The malloc interposer counts every thread, and the harness's own OS-statistics sampler
/// (cpuTotal, peakMemoryResident, instructions) allocates about 16 times per iteration, so the
/// zero-allocation benchmarks measure only what does not start the sampler; `Harness.empty` is
/// the control that shows the harness itself then adds nothing.
nonisolated(unsafe) let noMallocs: [BenchmarkMetric: BenchmarkThresholds] = [.mallocCountTotal: .init(absolute: [.p90: 0])]

/// State kept across iterations: the detector keeps running over the surge buffer, which it
/// walks in 1 M-sample slices (starting again at the top when it reaches the end; time keeps
/// counting on).
final class DetectorRun: @unchecked Sendable {
    let surge: [Float]
    var detector = StrokeDetector()
    var slice = 0
    var samplesDone = 0
    var strokes = 0
    init() throws {
        let all = try readFloat32File(BenchFiles.surgePath)
        let slices = all.count / samplesPerIteration
        guard slices > 0 else { throw BenchDataError("\(BenchFiles.surgePath): fewer than \(samplesPerIteration) samples") }
        surge = Array(all[0..<(slices * samplesPerIteration)])
    }

    /// Feeds the next 1 M-sample slice to the detector through `detect`.
    @inline(__always)
    func step(_ detect: (inout StrokeDetector, UnsafeBufferPointer<Float>, Seconds, Seconds) -> Int) {
        let start = slice * samplesPerIteration
        let found = surge.withUnsafeBufferPointer { all in
            detect(&detector, UnsafeBufferPointer(rebasing: all[start..<(start + samplesPerIteration)]),
                   Double(samplesDone) / BenchFiles.sampleRate, 1 / BenchFiles.sampleRate)
        }
        strokes &+= found
        samplesDone &+= samplesPerIteration
        slice = (slice + 1) % (surge.count / samplesPerIteration)
        blackHole(strokes)
    }
}

/// The whole analyzer (mounting, detection, rate; GPS speed, split, distance; the join) fed
/// in-memory trace records, kept across iterations.
final class AnalyzerRun: @unchecked Sendable {
    var session: InMemorySession
    var analyzer = RowingAnalyzer()
    var strokes = 0
    /// One run of samples for the block path.
    let buffer = UnsafeMutableBufferPointer<AccelSample>.allocate(capacity: 4096)
    init() throws {
        session = InMemorySession(surge: try readFloat32File(BenchFiles.surgePath))
    }
    deinit { buffer.deallocate() }
}

/// The surge buffer, for benchmarks that start a fresh session each iteration.
final class SurgeBuffer: @unchecked Sendable {
    let surge: [Float]
    init() throws { surge = try readFloat32File(BenchFiles.surgePath) }
}

/// The CSV trace and its row count (rows/s = rows ÷ wall time).
final class TraceFile: @unchecked Sendable {
    let path = BenchFiles.tracePath
    let rows: Int
    init() throws { rows = try countDataRows(path) }
}

/// For one CSV replay benchmark: CPU time and peak resident memory as well (memory stays
/// bounded whatever the length of the trace).
let withSystemMetrics: [BenchmarkMetric] = [.throughput, .wallClock, .cpuTotal, .mallocCountTotal, .peakMemoryResident]

let rowsPerSecond = BenchmarkMetric.custom("rows/s", polarity: .prefersLarger, useScalingFactor: false)

/// A whole 10 M-row file per iteration (seconds each): one warm-up pass, then up to 10 passes.
/// `systemMetrics` adds CPU time and peak resident memory (and the sampler's mallocs).
func csvConfiguration(systemMetrics: Bool) -> Benchmark.Configuration {
    .init(metrics: (systemMetrics ? withSystemMetrics : [.throughput, .wallClock, .mallocCountTotal]) + [rowsPerSecond],
          warmupIterations: 1, maxDuration: .seconds(20), maxIterations: 10)
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.throughput, .wallClock, .mallocCountTotal],
        warmupIterations: 2,
        maxDuration: .seconds(3),
        maxIterations: 1_000
    )

    // The control: nothing measured but the harness; its mallocs must be 0 too.
    Benchmark("Harness.empty", configuration: .init(scalingFactor: .mega, thresholds: noMallocs)) { benchmark in
        blackHole(benchmark)
    }

    // (1) The stroke detector alone over float32 surge, block path: samples/s, no allocation.
    Benchmark("StrokeDetector.block",
              configuration: .init(scalingFactor: .mega, thresholds: noMallocs)) { benchmark, run in
        run.step(detectStrokes)
    } setup: {
        try DetectorRun()
    }

    // (1b) The same sample by sample (the live path).
    Benchmark("StrokeDetector.perSample",
              configuration: .init(scalingFactor: .mega, thresholds: noMallocs)) { benchmark, run in
        run.step(detectStrokesPerSample)
    } setup: {
        try DetectorRun()
    }

    // (2) The whole analyzer on in-memory records: 1 M accelerometer samples and 10 k GPS fixes
    // per iteration; throughput is accelerometer samples/s. No allocation.
    Benchmark("RowingAnalyzer.records",
              configuration: .init(scalingFactor: .mega, thresholds: noMallocs)) { benchmark, run in
        let end = run.session.samplesGiven + samplesPerIteration
        var strokes = 0
        while run.session.samplesGiven < end, let record = run.session.next() {
            run.analyzer.process(record) { event in
                if case .stroke = event { strokes &+= 1 }
            }
        }
        run.strokes &+= strokes
        blackHole(run.strokes)
    } setup: {
        try AnalyzerRun()
    }

    // (2a) The same records through the analyzer's block path, as a replay gives them: runs of
    // accelerometer samples up to each fix (`process(accel:)`), the fixes one by one. No allocation.
    Benchmark("RowingAnalyzer.block",
              configuration: .init(scalingFactor: .mega, thresholds: noMallocs)) { benchmark, run in
        run.strokes &+= analyzeInRuns(&run.analyzer, session: &run.session, buffer: run.buffer, samples: samplesPerIteration)
        blackHole(run.strokes)
    } setup: {
        try AnalyzerRun()
    }

    // (2b) The same through `Pipeline` (source → analyzer → sinks), a fresh 1 M-sample session
    // each iteration: what `oarlog replay` does, minus the CSV. Allocations: a fixed number per
    // run (the analyzer's buffers, the pipeline's sink list and closures), none per record.
    Benchmark("Pipeline.inMemory",
              configuration: .init(scalingFactor: .mega)) { benchmark, buffer in
        var session = InMemorySession(surge: buffer.surge, sampleLimit: samplesPerIteration)
        var pipeline = Pipeline()
        do {
            blackHole(try pipeline.run(&session))
        } catch {
            benchmark.error("pipeline failed: \(error)")
        }
    } setup: {
        try SurgeBuffer()
    }

    // (3) CSV replay end to end: the native trace file read, parsed and analysed through the
    // pipeline. rows/s is the figure; the file stays in the page cache after the first pass.
    // Mallocs per whole file (a fixed number: buffers, metadata strings; none per row).
    Benchmark("CSVReplay.pipeline",
              configuration: csvConfiguration(systemMetrics: false)) { benchmark, trace in
        let clock = ContinuousClock()
        let started = clock.now
        do {
            var source = try csvTraceSource(path: trace.path)
            var pipeline = Pipeline()
            blackHole(try pipeline.run(&source))
        } catch {
            benchmark.error("replay of \(trace.path) failed: \(error)")
        }
        let elapsed = clock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        benchmark.measurement(rowsPerSecond, Int(Double(trace.rows) / seconds))
    } setup: {
        try TraceFile()
    }

    // (3b) The same through `TraceOpener` (format sniffing, an `any RecordSource`), as the
    // command line opens a trace of unknown format; with CPU time and peak resident memory
    // (bounded whatever the length of the trace).
    Benchmark("CSVReplay.traceOpener",
              configuration: csvConfiguration(systemMetrics: true)) { benchmark, trace in
        let clock = ContinuousClock()
        let started = clock.now
        do {
            var source = try TraceOpener.open(path: trace.path)
            var pipeline = Pipeline()
            blackHole(try pipeline.run(&source))
        } catch {
            benchmark.error("replay of \(trace.path) failed: \(error)")
        }
        let elapsed = clock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        benchmark.measurement(rowsPerSecond, Int(Double(trace.rows) / seconds))
    } setup: {
        try TraceFile()
    }
}
