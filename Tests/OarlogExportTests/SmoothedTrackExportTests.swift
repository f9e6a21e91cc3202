import Foundation
import XCTest
import OarlogCore
import OarlogDSP
import OarlogExport
import OarlogPipeline
import OarlogTestSupport

/// Issue 29: in replay and export (the distance smoothed) the track drawn is the smoothed one;
/// forward only, the fixes themselves. A boat rows due east at 4 m/s for 5 minutes; the receiver
/// scatters each fix by 2 m per axis. The GeoJSON's points against the true line.
final class SmoothedTrackExportTests: XCTestCase {
    private let start = GeoPoint(latitude: 52.2253, longitude: 6.8456)

    private func fixes() -> [TraceRecord] {
        var rng = SplitMix64(state: 29)
        return (0...300).map { i -> TraceRecord in
            let t = Double(i)
            let truth = Geodesy.destination(from: start, distance: 4 * t, bearing: 90)
            let p = LocalTangentPlane(origin: truth).unproject(east: 2 * rng.standardNormal(), north: 2 * rng.standardNormal())
            return .fix(GPSFix(time: t, utc: 1_780_000_000 + t, latitude: p.latitude, longitude: p.longitude,
                               horizontalAccuracy: 4, mode: .threeD))
        }
    }

    /// RMS distance of points from the true line (north of the start's latitude, metres), and how many.
    private func crossTrackRMS(_ latitudes: [Degrees]) -> Metres {
        let metresPerDegree = 111_250.0
        let sum = latitudes.reduce(0) { $0 + pow(($1 - start.latitude) * metresPerDegree, 2) }
        return (sum / Double(max(1, latitudes.count))).squareRoot()
    }

    private func exportedLatitudes(smoothing: Bool) throws -> [Degrees] {
        var analyzer = AnalyzerConfiguration()
        if smoothing { analyzer.distance.smoothing = DistanceConfiguration.replaySmoothing }
        var source = ListSource(fixes())
        let run = try ExportRun.make(&source, in: try temporaryDirectory(self), analyzer: analyzer)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: run.geojson))) as? [String: Any])
        let feature = try XCTUnwrap((json["features"] as? [[String: Any]])?.first)
        let coordinates = try XCTUnwrap((feature["geometry"] as? [String: Any])?["coordinates"] as? [[Double]])
        return coordinates.map { $0[1] }
    }

    func testTheExportedTrackIsTheSmoothedOneInReplayAndTheFixesForwardOnly() throws {
        let raw = fixes().compactMap { r -> Degrees? in if case .fix(let f) = r { return f.latitude } else { return nil } }
        let forward = try exportedLatitudes(smoothing: false)
        let smoothed = try exportedLatitudes(smoothing: true)
        XCTAssertEqual(forward.count, raw.count)
        XCTAssertEqual(smoothed.count, raw.count)
        // Forward only: the fixes as they came (to the GeoJSON's 7 decimals).
        for (a, b) in zip(forward, raw) { XCTAssertEqual(a, b, accuracy: 1e-7) }
        // Smoothed: much nearer the line than the fixes (2 m per axis).
        let rawRMS = crossTrackRMS(raw), smoothedRMS = crossTrackRMS(smoothed)
        print("cross-track rms: fixes \(rawRMS) m, smoothed track \(smoothedRMS) m")
        XCTAssertGreaterThan(rawRMS, 1.5)
        XCTAssertLessThan(smoothedRMS, 0.5 * rawRMS)
    }
}
