import XCTest
import Foundation
import OarlogCore
import OarlogTrace
@testable import OarlogDSP
import OarlogTestSupport

/// The analyzer on real GPS-only exports, against the devices' own figures. The data lives in
/// `samples/rowingdata/` in the project (see its PROVENANCE.md).
final class AnalyzerRealDataTests: XCTestCase {
    private func dataPath(_ name: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        try samplePath("rowingdata/\(name)", file: file, line: line)
    }

    private struct Run {
        var strokes: [StrokeMetrics] = []
        var references: [ReferenceStroke] = []
        var metadata: [String: String] = [:]
        var summary = SessionSummary()
    }

    /// NK devices measure distance on a sphere of the mean radius (their exports match it; see
    /// `DistanceConfiguration.earth`): compared with them like with like.
    private static var asNKDevices: AnalyzerConfiguration {
        var c = AnalyzerConfiguration()
        c.distance.earth = .sphere(radius: 6_371_008.8)
        return c
    }

    private func run<S: RecordSource>(_ source: inout S, configuration: AnalyzerConfiguration = asNKDevices) throws -> Run {
        var result = Run()
        var analyzer = RowingAnalyzer(configuration: configuration)
        var strokes: [StrokeMetrics] = []
        let emit: (AnalyzerEvent) -> Void = { if case .stroke(let m) = $0 { strokes.append(m) } }
        while let record = try source.next() {
            switch record {
            case .reference(let r): result.references.append(r)
            case .metadata(let k, let v): result.metadata[k] = v
            default: break
            }
            analyzer.process(record, emit: emit)
        }
        analyzer.finish(emit: emit)
        result.strokes = strokes
        result.summary = analyzer.summary
        return result
    }

    /// Our stroke k runs from reference k to reference k + 1; the device's row k + 1 describes
    /// the stroke that ended there (NK's `gpsDistStroke` at row i is its distance from row i − 1).
    private func splitDifferences(_ r: Run) -> [Double] {
        var diffs: [Double] = []
        for k in 0..<(r.strokes.count - 1) {
            guard let ours = r.strokes[k].split, let device = r.references[k + 1].split else { continue }
            diffs.append(abs(ours - device))
        }
        return diffs.sorted()
    }

    func testNKLogbookDistanceAndPerStrokeSplit() throws {
        var reader = try NKLogbookReader(path: dataPath("nk_logbook.csv"))
        let r = try run(&reader)
        XCTAssertEqual(r.strokes.count, 1237)
        XCTAssertEqual(r.references.count, 1237)
        let device = try XCTUnwrap(r.references.last?.distance)
        XCTAssertEqual(device, 12_155.47, accuracy: 0.005)
        let ours = try XCTUnwrap(r.summary.distance)
        let error = ours / device - 1
        let diffs = splitDifferences(r)
        let median = diffs[diffs.count / 2]
        print("NK logbook: distance \(ours) m vs device \(device) m (\(error * 100) %); per-stroke split median |Δ| \(median) s over \(diffs.count) strokes, 90th percentile \(diffs[diffs.count * 9 / 10]) s; rejected \(r.summary.rejectedFixes)")
        XCTAssertLessThanOrEqual(abs(error), 0.002)
        XCTAssertGreaterThan(diffs.count, 1150)
        XCTAssertLessThanOrEqual(median, 1.5)
        // Session figures are sane against the device's: 1237 strokes, about 1:05 h.
        XCTAssertEqual(r.summary.strokes, 1237)
        XCTAssertEqual(r.summary.elapsed ?? 0, 3896.9, accuracy: 1)
        XCTAssertEqual(r.summary.averageStrokeRate ?? 0, 19.5, accuracy: 1.5)
    }

    func testSpeedCoachDistanceWithFourDecimalPositions() throws {
        var reader = try SpeedCoachReader(path: dataPath("SpeedCoach2Linkv1.27.csv"))
        let r = try run(&reader)
        XCTAssertEqual(r.strokes.count, 1408)
        XCTAssertEqual(Double(r.metadata["device_total_distance_m"] ?? "") ?? 0, 14_360.2, accuracy: 0.05)
        let ours = try XCTUnwrap(r.summary.distance)
        let error = ours / 14_360.2 - 1
        let diffs = splitDifferences(r)
        let median = diffs[diffs.count / 2]
        print("SpeedCoach: distance \(ours) m vs device 14360.2 m (\(error * 100) %); per-stroke split median |Δ| \(median) s over \(diffs.count) strokes; average split \(r.summary.averageSplit ?? .nan) s (device 157.2 over elapsed)")
        XCTAssertLessThanOrEqual(abs(error), 0.002)
        XCTAssertLessThanOrEqual(median, 1.5)
        XCTAssertEqual(r.summary.averageStrokeRate ?? 0, 19, accuracy: 1)
    }
}
