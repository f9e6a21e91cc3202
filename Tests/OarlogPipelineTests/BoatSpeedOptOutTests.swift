import OarlogCore
import OarlogDSP
import OarlogPipeline
import OarlogSimulator
import XCTest

/// Counts every event the pipeline hands it, by kind; says whether it takes the boat speed.
final class KindCountingSink: PipelineSink {
    let wantsBoatSpeed: Bool
    var speeds = 0, strokes = 0, live = 0, fixes = 0
    init(wantsBoatSpeed: Bool) { self.wantsBoatSpeed = wantsBoatSpeed }
    func receive(_ event: PipelineEvent) {
        switch event {
        case .analysis(.speed): speeds += 1
        case .analysis(.stroke): strokes += 1
        case .analysis(.live): live += 1
        case .record(.fix): fixes += 1
        default: break
        }
    }
    var wantsRawRecords: Bool { true }
}

/// A sink that never reads the fused boat speed (the replay's reports) says so and is not handed
/// its ten events a second; every other event still reaches it, and a sink that keeps the
/// speed (the session writer, the exports) gets every one.
final class BoatSpeedOptOutTests: XCTestCase {
    func testASinkWithoutTheBoatSpeedGetsEverythingElse() throws {
        var configuration = SimulationConfiguration(minutes: 3, rate: 24)
        configuration.accelRate = 100
        var simulator = try BoatSimulator(configuration: configuration)
        let keeps = KindCountingSink(wantsBoatSpeed: true)
        let skips = KindCountingSink(wantsBoatSpeed: false)
        var pipeline = Pipeline(sinks: [keeps, skips])
        try pipeline.run(&simulator)
        // Ten a second wherever the accelerometer drives the speed: most of three minutes.
        XCTAssertGreaterThan(keeps.speeds, 10 * 120)
        XCTAssertEqual(skips.speeds, 0)
        XCTAssertGreaterThan(keeps.strokes, 60)
        XCTAssertEqual(skips.strokes, keeps.strokes)
        XCTAssertEqual(skips.live, keeps.live)
        XCTAssertEqual(skips.fixes, keeps.fixes)
        XCTAssertGreaterThan(keeps.fixes, 170)
    }
}
