import Foundation
import OarlogCore
import OarlogDSP
import OarlogFences
import OarlogPipeline
import OarlogTrace
import XCTest
import OarlogTestSupport

/// Collects every pipeline event.
final class EventCollector: PipelineSink {
    var fenceEvents: [FenceEvent] = []
    var strokes: [StrokeMetrics] = []
    func receive(_ event: PipelineEvent) {
        switch event {
        case .fence(let e): fenceEvents.append(e)
        case .analysis(.stroke(let m)): strokes.append(m)
        default: break
        }
    }
}

/// The real NK LiNK Logbook export (a 65-minute outing on a canal, fixes once a stroke) with
/// `samples/nk-course.geojson` laid over it: five gates 500 m apart, square to the canal, on
/// the stretch the crew rowed north-west from about 10:50 to 21:00, and a circle at the
/// north-west turning point.
final class NKLogbookCourseTests: XCTestCase {
    /// The reference, worked by hand-checkable means: every consecutive pair of fixes whose
    /// straight segment meets a gate line (flat-earth metres around the gate, no hysteresis),
    /// timed by linear interpolation; the direction from the sign of the crossing.
    func referenceCrossings(fixes: [GPSFix], fences: [Fence]) -> [(gate: String, time: Seconds, wrongWay: Bool)] {
        var out: [(String, Seconds, Bool)] = []
        for fence in fences {
            guard case .gate(let line, .bearing(let bearing)) = fence.shape else { continue }
            let lat0 = line[0].latitude, lon0 = line[0].longitude
            let mPerDegLat = 111_132.954 - 559.822 * cos(2 * lat0 * .pi / 180)
            let mPerDegLon = 111_412.84 * cos(lat0 * .pi / 180)
            func xy(_ lat: Double, _ lon: Double) -> (Double, Double) { ((lon - lon0) * mPerDegLon, (lat - lat0) * mPerDegLat) }
            let a = xy(line[0].latitude, line[0].longitude), b = xy(line[1].latitude, line[1].longitude)
            func side(_ p: (Double, Double)) -> Double { (b.0 - a.0) * (p.1 - a.1) - (b.1 - a.1) * (p.0 - a.0) }
            for (f0, f1) in zip(fixes, fixes.dropFirst()) {
                let p = xy(f0.latitude, f0.longitude), q = xy(f1.latitude, f1.longitude)
                let s0 = side(p), s1 = side(q)
                guard (s0 > 0) != (s1 > 0) else { continue }
                // Both gate ends on opposite sides of the boat's segment too.
                func boatSide(_ r: (Double, Double)) -> Double { (q.0 - p.0) * (r.1 - p.1) - (q.1 - p.1) * (r.0 - p.0) }
                guard (boatSide(a) > 0) != (boatSide(b) > 0) else { continue }
                let f = s0 / (s0 - s1)
                let travel = atan2(q.0 - p.0, q.1 - p.1) * 180 / .pi
                var off = abs(travel - bearing).truncatingRemainder(dividingBy: 360)
                if off > 180 { off = 360 - off }
                out.append((fence.id.name, f0.time + f * (f1.time - f0.time), off > 90))
            }
        }
        return out.sorted { $0.1 < $1.1 }
    }

    func testCourseOverTheNKTrack() throws {
        let tracePath = try samplePath("rowingdata/nk_logbook.csv")
        let file = try FenceFile.load(path: TestPaths.packageRoot.appendingPathComponent("samples/nk-course.geojson").path)
        var fixes: [GPSFix] = []
        var references: [ReferenceStroke] = []
        var reader = try NKLogbookReader(path: tracePath)
        while let r = try reader.next() {
            if case .fix(let f) = r { fixes.append(f) }
            if case .reference(let s) = r { references.append(s) }
        }

        let collector = EventCollector()
        var source = try NKLogbookReader(path: tracePath)
        var pipeline = Pipeline(sinks: [collector], fences: FenceMonitor(file))
        try pipeline.run(&source)
        let events = collector.fenceEvents
        let statistics = try XCTUnwrap(pipeline.fences).statistics

        // Every crossing the reference finds, in the same order, the same way, within 0.3 s (the
        // monitor also uses the Doppler speeds, the reference is straight-line).
        let expected = referenceCrossings(fixes: fixes, fences: file.fences)
        let got = events.crossings
        XCTAssertEqual(got.map(\.gate.name), expected.map(\.gate))
        XCTAssertEqual(got.map(\.wrongWay), expected.map(\.wrongWay))
        for (c, e) in zip(got, expected) { XCTAssertEqual(c.time, e.time, accuracy: 0.3, "\(e.gate)") }
        XCTAssertEqual(statistics.rejectedCrossings, 0)
        print("[fences] NK track: \(got.count) crossings (\(got.filter(\.wrongWay).count) wrong way): "
              + got.map { "\($0.gate.name)\($0.wrongWay ? "↩" : "")@\(fmt($0.time, 1))" }.joined(separator: ", "))

        // The piece: the gates were laid where the NK's own distance read 2000, 2500 … 4000 m on
        // the north-west stretch, so each crossing comes when that distance was reached.
        let piece = try XCTUnwrap(events.pieces.first)
        XCTAssertEqual(events.pieces.count, 1)
        func nkTime(atDistance d: Metres) -> Seconds? {
            guard let k = references.firstIndex(where: { ($0.distance ?? 0) >= d }), k > 0,
                  let d0 = references[k - 1].distance, let d1 = references[k].distance else { return nil }
            return references[k - 1].time + (d - d0) / (d1 - d0) * (references[k].time - references[k - 1].time)
        }
        let gateTimes = [piece.startTime] + piece.segments.map(\.endTime)
        for (k, t) in gateTimes.enumerated() {
            XCTAssertEqual(t, try XCTUnwrap(nkTime(atDistance: 2000 + 500 * Double(k))), accuracy: 1.0, "gate \(k)")
        }
        XCTAssertEqual(piece.segments.count, 4)
        XCTAssertEqual(piece.duration, 608.3, accuracy: 0.5)
        for leg in piece.segments {
            // The strokes and mean rate the NK itself logged in the leg.
            let inLeg = references.filter { $0.time >= leg.startTime && $0.time < leg.endTime }
            let nkRate = inLeg.compactMap(\.strokeRate).reduce(0, +) / Double(inLeg.count)
            XCTAssertEqual(leg.strokes, inLeg.count, accuracy: 1, "leg \(leg.number)")
            XCTAssertEqual(try XCTUnwrap(leg.strokeRate), nkRate, accuracy: 0.6, "leg \(leg.number)")
            print("[fences] NK leg \(leg.number): \(fmt(leg.duration, 1)) s, rate \(fmt(leg.strokeRate ?? 0, 1)) (NK \(fmt(nkRate, 1))), "
                  + "\(leg.strokes) strokes (NK \(inLeg.count))")
        }

        // The turning basin: three visits (the crew turned there three times), each with a dwell.
        let enters = events.compactMap { if case .enter(_, let t) = $0 { return t } else { return nil } }
        let exits = events.compactMap { if case .exit(_, let t, _) = $0 { return t } else { return nil } }
        XCTAssertEqual(enters.count, 3)
        XCTAssertEqual(exits.count, 3)
        // The reference for the circle: first and last fix within 60 m of the centre on each visit.
        guard case .circle(let centre, let radius) = file.fences[5].shape else { return XCTFail() }
        let inside = fixes.filter { Geodesy.distance(from: $0.point, to: centre) < radius }
        XCTAssertTrue(enters.allSatisfy { t in inside.contains { abs($0.time - t) < 5 } }, "each enter is next to a fix inside")
    }
}
