// Session file throughput (docs/SESSION_FORMAT.md, docs/BENCHMARKS.md). Run from Benchmarks/:
//   swift package --allow-writing-to-package-directory benchmark --target SessionRecorder
import Benchmark
import Foundation
import OarlogCore
import OarlogSession

/// Accelerometer samples per measured iteration (throughput with `.mega` is then samples/s).
let samplesPerIteration = 1_000_000

/// 1 M samples of 100 Hz accelerometer with a GPS fix every second, as a recorder sees them:
/// float32 values that are not integer counts (the slower, larger path).
final class SessionRecords: @unchecked Sendable {
    let records: [TraceRecord]
    let directory: String
    let readPath: String
    init() throws {
        var records: [TraceRecord] = []
        records.reserveCapacity(samplesPerIteration + samplesPerIteration / 100)
        var state: UInt64 = 1
        for i in 0..<samplesPerIteration {
            let t = Double(i) / 100
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let noise = Float(Int64(bitPattern: state >> 11) % 1000) * 1e-4
            let phase = Float(t.truncatingRemainder(dividingBy: 2.5) / 2.5)
            records.append(.accel(AccelSample(time: t, x: 2 * sinf(6.2831853 * phase) + noise, y: 0.3 - noise, z: 9.80665 + noise)))
            if i % 100 == 0 {
                records.append(.fix(GPSFix(time: t, utc: 1_777_705_200 + t, latitude: 51.4873 + t * 1e-5, longitude: -0.2241,
                                           speed: 4.2, course: 92.5, horizontalAccuracy: 2.5, mode: .threeD, satellitesUsed: 11)))
            }
        }
        self.records = records
        directory = NSTemporaryDirectory() + "oarlog-session-bench-\(getpid())"
        try? FileManager.default.removeItem(atPath: directory)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        readPath = directory + "/read.oarlog"
        try write(to: readPath)
        let reader = try SessionReader(path: readPath)
        print("SessionRecorder: \(reader.fileSize) bytes for \(samplesPerIteration) samples + \(samplesPerIteration / 100) fixes "
            + "= \(Double(reader.fileSize) / Double(samplesPerIteration)) bytes per accelerometer sample, fixes included")
    }

    func write(to path: String) throws {
        try? FileManager.default.removeItem(atPath: path)
        let writer = try SessionWriter(path: path, metadata: SessionMetadata(title: "bench", startUTC: 1_777_705_200),
                                       options: .init(durability: .never))
        for r in records { try writer.append(r) }
        try writer.close()
    }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.throughput, .wallClock, .mallocCountTotal, .peakMemoryResident],
        warmupIterations: 1,
        maxDuration: .seconds(5),
        maxIterations: 50
    )

    // Writing: chunking, delta-coded times, CRC, write(2) (no fsync: the page cache, as in a replay).
    Benchmark("SessionWriter.append", configuration: .init(scalingFactor: .mega)) { benchmark, data in
        do { try data.write(to: data.directory + "/write.oarlog") } catch { benchmark.error("\(error)") }
    } setup: {
        try SessionRecords()
    }

    // Reading column-wise: every chunk CRC-checked, blocks decoded into reused columns.
    Benchmark("SessionReader.accelerometerBlocks", configuration: .init(scalingFactor: .mega)) { benchmark, data in
        var n = 0
        var sum: Float = 0
        do {
            try SessionReader(path: data.readPath).forEachAccelerometerBlock { columns in
                n &+= columns.count
                sum += columns.x[0]
            }
        } catch { benchmark.error("\(error)") }
        blackHole(n)
        blackHole(sum)
    } setup: {
        try SessionRecords()
    }

    // Reading as a RecordSource (what a replay of a session does): one TraceRecord per sample.
    Benchmark("SessionReader.records", configuration: .init(scalingFactor: .mega)) { benchmark, data in
        var n = 0
        do {
            var source = try SessionReader(path: data.readPath).records()
            while let r = try source.next() { if case .accel = r { n &+= 1 } }
        } catch { benchmark.error("\(error)") }
        blackHole(n)
    } setup: {
        try SessionRecords()
    }
}
