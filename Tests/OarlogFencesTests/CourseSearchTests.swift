import Foundation
import OarlogCore
import OarlogFences
import XCTest

/// Passages found in an outing's fixes: complete ones only, timed between fixes.
final class CourseSearchTests: XCTestCase {
    let putney = GeoPoint(latitude: 51.4873, longitude: -0.2241)
    let heading: Degrees = 70

    /// Fixes every `step` s along the course line from `from` to `to` metres (negative: before the
    /// start), `speed` m/s, from time `t0`; `offset` metres to the right of the line.
    func leg(from: Metres, to: Metres, speed: Double, t0: Seconds, step: Seconds = 1, offset: Metres = 0) -> [GPSFix] {
        let duration = abs(to - from) / speed
        return stride(from: 0.0, through: duration, by: step).map { t in
            let s = from + (to > from ? 1 : -1) * speed * t
            var p = Geodesy.destination(from: putney, distance: abs(s), bearing: s >= 0 ? heading : heading + 180)
            if offset != 0 { p = Geodesy.destination(from: p, distance: offset, bearing: heading + 90) }
            return GPSFix(time: t0 + t, latitude: p.latitude, longitude: p.longitude, horizontalAccuracy: 3, mode: .threeD)
        }
    }

    func testEveryForwardPassageIsFoundAndTimed() throws {
        let course = try FenceFile.parse(StraightCourse(start: putney, heading: heading, length: 2000).geoJSON())
        // Up at 4 m/s (start 0.5 s after a fix), back down (wrong way), up again at 5 m/s.
        var fixes = leg(from: -102, to: 2100, speed: 4, t0: 0)
        let down = fixes.last!.time + 1
        fixes += leg(from: 2100, to: -100, speed: 4, t0: down)
        let up = fixes.last!.time + 1
        fixes += leg(from: -100, to: 2100, speed: 5, t0: up)
        let strokes = stride(from: 0.0, to: fixes.last!.time, by: 3).map { CourseSearch.Stroke(catchTime: $0, rate: 20) }
        let found = CourseSearch.passages(of: course, fixes: fixes, strokes: strokes)
        XCTAssertEqual(found.count, 2, "two forward passages; the one rowed back is the wrong way")
        XCTAssertEqual(found[0].startTime, 102.0 / 4, accuracy: 0.01)
        XCTAssertEqual(found[0].duration, 2000.0 / 4, accuracy: 0.01)
        XCTAssertEqual(found[1].startTime, up + 100.0 / 5, accuracy: 0.01)
        XCTAssertEqual(found[1].duration, 2000.0 / 5, accuracy: 0.01)
        XCTAssertEqual(found[0].segments.map(\.to.name), ["500 m", "1000 m", "1500 m", "Finish"])
        for leg in found[1].segments { XCTAssertEqual(leg.duration, 100, accuracy: 0.01) }
        // A stroke every 3 s: 125 s legs hold 41 or 42 catches.
        XCTAssertEqual(found[0].segments.reduce(0) { $0 + $1.strokes }, Int((found[0].finishTime / 3).rounded(.up)) - Int((found[0].startTime / 3).rounded(.up)))
        XCTAssertEqual(found[0].segments[0].strokeRate ?? 0, 20, accuracy: 1e-9)
    }

    /// The boat rows 60 m right of the line: the 30 m gates are all missed — no passage; with the
    /// 1000 m marker moved out to 60 m right, every gate but that one is crossed — still none.
    func testAPassageThatMissesAGateIsNoAttempt() throws {
        let course = try FenceFile.parse(StraightCourse(start: putney, heading: heading, length: 2000).geoJSON())
        XCTAssertTrue(CourseSearch.passages(of: course, fixes: leg(from: -100, to: 2100, speed: 4, t0: 0, offset: 60), strokes: []).isEmpty)
        var text: String = StraightCourse(start: putney, heading: heading, length: 2000).geoJSON()
        let moved = try FenceFile.parse(text)
        let lines = CourseCheck.gateLines(moved)
        let marker = lines[2]
        for p in marker {
            let out = Geodesy.destination(from: p, distance: 60, bearing: heading + 90)
            text = text.replacingOccurrences(of: "\(DecimalText.fixed(p.longitude, places: 8, nonFinite: "")), \(DecimalText.fixed(p.latitude, places: 8, nonFinite: ""))",
                                             with: "\(DecimalText.fixed(out.longitude, places: 8, nonFinite: "")), \(DecimalText.fixed(out.latitude, places: 8, nonFinite: ""))")
        }
        let skipped = try FenceFile.parse(text)
        XCTAssertNotEqual(CourseCheck.gateLines(skipped)[2], marker, "the marker was moved")
        XCTAssertTrue(CourseSearch.passages(of: skipped, fixes: leg(from: -100, to: 2100, speed: 4, t0: 0), strokes: []).isEmpty)
        XCTAssertEqual(CourseSearch.passages(of: course, fixes: leg(from: -100, to: 2100, speed: 4, t0: 0), strokes: []).count, 1)
    }

    func testAStartWithoutAFinishIsNoAttempt() throws {
        let course = try FenceFile.parse(StraightCourse(start: putney, heading: heading, length: 2000).geoJSON())
        XCTAssertTrue(CourseSearch.passages(of: course, fixes: leg(from: -100, to: 1900, speed: 4, t0: 0), strokes: []).isEmpty)
    }

    func testTheBoxesHoldTheStartAndFinishLines() throws {
        let course = try FenceFile.parse(StraightCourse(start: putney, heading: heading, length: 2000).geoJSON())
        let boxes = CourseSearch.startAndFinishBoxes(of: course)
        XCTAssertEqual(boxes.count, 2)
        let finish = Geodesy.destination(from: putney, distance: 2000, bearing: heading)
        XCTAssertTrue(boxes[0].south < putney.latitude && boxes[0].north > putney.latitude && boxes[0].west < putney.longitude && boxes[0].east > putney.longitude)
        XCTAssertTrue(boxes[1].south < finish.latitude && boxes[1].north > finish.latitude && boxes[1].west < finish.longitude && boxes[1].east > finish.longitude)
        XCTAssertFalse(boxes[0].east > finish.longitude, "the start's box does not reach the finish")
    }
}
