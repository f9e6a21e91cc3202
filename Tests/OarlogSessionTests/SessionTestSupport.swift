import Foundation
import OarlogCore
import OarlogDSP
import OarlogPipeline
import OarlogSimulator
@testable import OarlogSession
import OarlogTestSupport
import XCTest

/// A fresh temporary directory, removed by the caller's tearDown.
func makeTemporaryDirectory(_ name: String = "oarlog-session") throws -> String {
    let path = NSTemporaryDirectory() + "\(name)-\(getpid())-\(UInt64.random(in: 0..<UInt64.max))"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// Keeps every stroke and the summary the pipeline produced (the ground truth for the file).
final class StrokeCollector: PipelineSink {
    var strokes: [StrokeMetrics] = []
    var summary: SessionSummary?
    func receive(_ event: PipelineEvent) throws {
        if case .analysis(.stroke(let m)) = event { strokes.append(m) }
    }
    func finish(summary: SessionSummary) throws { self.summary = summary }
}

/// Every field of a record as bits, so that comparisons are bit-exact (NaN and -0 included).
func bits(_ r: TraceRecord) -> [UInt64] {
    func d(_ v: Double?) -> [UInt64] { v.map { [1, $0.bitPattern] } ?? [0] }
    func i(_ v: Int?) -> [UInt64] { v.map { [1, UInt64(bitPattern: Int64($0))] } ?? [0] }
    func s(_ v: String) -> [UInt64] { [UInt64(v.utf8.count)] + v.utf8.map { UInt64($0) } }
    switch r {
    case .accel(let a):
        return [1, a.time.bitPattern, UInt64(a.x.bitPattern), UInt64(a.y.bitPattern), UInt64(a.z.bitPattern)]
    case .fix(let f):
        return [2] + d(f.time) + d(f.utc) + d(f.latitude) + d(f.longitude) + d(f.speed) + d(f.course)
            + d(f.horizontalAccuracy) + d(f.altitude) + [UInt64(f.mode.rawValue)] + i(f.satellitesUsed)
    case .note(let n): return [3] + d(n.time) + s(n.text)
    case .gap(let g): return [4] + s(g.sensor.rawValue) + d(g.start) + d(g.end) + s(g.reason)
    case .reference(let x):
        return [5] + d(x.time) + d(x.distance) + d(x.split) + d(x.strokeRate) + d(x.speed) + i(x.strokeCount) + d(x.distancePerStroke)
            + d(x.power)
    case .heartRate(let h): return [7] + d(h.time) + d(h.bpm) + s(h.sensor ?? "")
    case .oarlock(let o):
        return [8] + d(o.time) + s(o.seat ?? "") + d(o.power) + d(o.catchAngle) + d(o.finishAngle) + d(o.slip) + d(o.wash)
            + d(o.effectiveLength) + d(o.averageForce) + d(o.maxForce) + d(o.maxForceAngle) + d(o.work)
    case .metadata(let k, let v): return [6] + s(k) + s(v)
    }
}

/// Every record of the session file at `path` (from `time`, with `onDamage`).
func readAll(_ path: String, from time: Seconds? = nil, onDamage: DamagePolicy = .throwError) throws -> [TraceRecord] {
    try OarlogTestSupport.readAll(SessionReader(path: path).records(from: time, onDamage: onDamage))
}

func simulatorRecords(minutes: Double, seed: UInt64 = 7) throws -> [TraceRecord] {
    var config = SimulationConfiguration(minutes: minutes, rate: 26)
    config.seed = seed
    var sim = try BoatSimulator(configuration: config, truthRetention: .recent(4))
    var out: [TraceRecord] = []
    while let r = try sim.next() { out.append(r) }
    return out
}

func testMetadata(title: String = "Morning outing") -> SessionMetadata {
    SessionMetadata(title: title, startUTC: 1_777_705_200.25, monotonicOrigin: 12_345.678_9,
                    devices: ["accelerometer: simulator", "gps: simulator"], accelerometerRate: 100, gpsRate: 1,
                    softwareVersion: "oarlog test", settings: [.init("axis", "auto"), .init("split_averaging", "stroke")])
}

/// Records `records` through the pipeline (analyzer + writer); returns the strokes and summary it concluded.
@discardableResult
func recordSession(_ records: [TraceRecord], to path: String, options: SessionWriter.Options = SessionWriter.Options(durability: .never),
                   metadata: SessionMetadata = testMetadata()) throws -> StrokeCollector {
    let writer = try SessionWriter(path: path, metadata: metadata, options: options)
    let collector = StrokeCollector()
    var pipeline = Pipeline(sinks: [collector, writer])
    var source = ListSource(records)
    try pipeline.run(&source)
    return collector
}
