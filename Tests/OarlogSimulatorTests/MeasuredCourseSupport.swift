import Foundation
import OarlogCore
import OarlogDSP
import OarlogFences
import OarlogPipeline
import OarlogSimulator
import OarlogTestSupport
import XCTest

/// A course file's gates as the simulator's path: what `oarlog simulate --course FILE` hands it
/// (each course gate's line, name and course distance, in course order).
func gatePath(_ file: FenceFile) throws -> GatePath {
    let course = try XCTUnwrap(file.course, "the file defines no course")
    let gates = try course.gates.enumerated().map { k, id -> GatePath.Gate in
        let fence = try XCTUnwrap(file.fences.first { $0.id == id })
        guard case .gate(let line, _) = fence.shape else { throw SimulationConfigurationError("\(id) is not a gate line") }
        return GatePath.Gate(name: id.name, line: line, courseDistance: course.distances[k])
    }
    return GatePath(name: course.name, gates: gates)
}

/// The NK logbook course in `samples/` (2000 m: start, markers every 500 m, finish; each gate
/// with its direction).
func nkCourse() throws -> FenceFile {
    try FenceFile.load(path: try samplePath("nk-course.geojson"))
}

/// An hour at 24 spm up and down `path` (three complete passages up the course, two and a bit
/// back), at `gpsRate`, with the accelerometer at 25 Hz, no GPS outages, and the receiver's
/// position errors × `positionNoise` (the simulator's defaults: wander σ 1.5 m, jitter 0.3 m).
func outing(on path: GatePath, gpsRate: Hertz, positionNoise: Double = 0, minutes: Double = 60,
            seed: UInt64 = 1) -> SimulationConfiguration {
    var configuration = SimulationConfiguration(minutes: minutes, rate: 24)
    configuration.course = .gates(path)
    configuration.accelRate = 25
    configuration.gpsRate = gpsRate
    configuration.gpsDropoutsPerHour = 0
    configuration.gpsWander *= positionNoise
    configuration.gpsJitter *= positionNoise
    configuration.seed = seed
    return configuration
}

/// Keeps every fence event a pipeline gives.
final class FenceEventCollector: PipelineSink {
    var events: [FenceEvent] = []
    var wantsRawRecords: Bool { false }
    func receive(_ event: PipelineEvent) throws {
        if case .fence(let fence) = event { events.append(fence) }
    }
    func finish(summary: SessionSummary) throws {}

    var pieces: [CoursePiece] { events.compactMap { if case .piece(let p) = $0 { p } else { nil } } }
    var problems: [CourseProblem] { events.compactMap { if case .courseProblem(let p) = $0 { p } else { nil } } }
    var crossings: [GateCrossing] { events.compactMap { if case .cross(let c) = $0 { c } else { nil } } }
}

/// Runs the simulated outing through the real pipeline (analyzer, fence monitor with `fences`):
/// its fence events and the simulator's truth.
func replay(_ configuration: SimulationConfiguration, fences: FenceFile) throws -> (events: FenceEventCollector, truth: GroundTruth) {
    var simulator = try BoatSimulator(configuration: configuration)
    let collector = FenceEventCollector()
    var pipeline = Pipeline(sinks: [collector], fences: FenceMonitor(fences))
    _ = try pipeline.run(&simulator)
    return (collector, simulator.groundTruth)
}

/// The fixes' position at `time`, linear between the two fixes around it.
func position(at time: Seconds, in fixes: [GPSFix]) -> GeoPoint? {
    guard let k = fixes.firstIndex(where: { $0.time >= time }), k > 0 else { return nil }
    let a = fixes[k - 1], b = fixes[k]
    let f = (time - a.time) / (b.time - a.time)
    return GeoPoint(latitude: a.latitude + f * (b.latitude - a.latitude), longitude: a.longitude + f * (b.longitude - a.longitude))
}

/// Distance of `point` to the left (−: right) of the line through `a` heading `bearing` (degrees),
/// and along it from `a`: the geodesic from `a` resolved along and across the line (exact
/// enough within a few kilometres).
func offsets(of point: GeoPoint, from a: GeoPoint, bearing: Degrees) -> (along: Metres, left: Metres) {
    let polar = Geodesy.inverse(from: a, to: point)
    let angle = (polar.initialBearing - bearing) * Double.pi / 180
    return (polar.distance * cos(angle), -polar.distance * sin(angle))
}
