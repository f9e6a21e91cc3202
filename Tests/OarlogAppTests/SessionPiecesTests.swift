import OarlogApp
import OarlogCore
import OarlogSession
import XCTest

/// Pieces: runs of rowing between stops of 10 s or more (a few strokes to turn are not a piece),
/// or the legs of a course as recorded.
final class SessionPiecesTests: XCTestCase {
    /// `count` strokes from `start` every `period` seconds, the boat doing `metres` a stroke from `distance`.
    func run(_ start: Double, _ count: Int, period: Double, metres: Double?, from distance: Double = 0, index: Int = 0) -> [StrokeMetrics] {
        (0..<count).map { k in
            StrokeMetrics(stroke: StrokeEvent(index: index + k, catchTime: start + Double(k) * period, driveDuration: 0.9, recoveryDuration: nil,
                                              peakAcceleration: 3, strokeRate: 60 / period),
                          split: metres.map { period / $0 * 500 }, distancePerStroke: metres, distance: metres.map { distance + Double(k) * $0 })
        }
    }

    func testRowingBetweenRests() {
        // 20 strokes at 30 spm (2 s), a 60 s stop, 3 strokes (a turn), 12 s stop, 10 strokes at 20 spm.
        let a = run(0, 20, period: 2, metres: 8)
        let turn = run(38 + 60, 3, period: 2, metres: 4, from: 160, index: 20)
        let b = run(102 + 12, 10, period: 3, metres: 10, from: 172, index: 23)
        let pieces = SessionPieces(strokes: a + turn + b, events: []).pieces
        XCTAssertEqual(pieces.map(\.label), ["Piece 1", "Piece 2"])
        XCTAssertEqual(pieces[0].strokes, 20)
        XCTAssertEqual(pieces[0].time, 40, accuracy: 1e-9, "20 strokes of 2 s")
        XCTAssertEqual(pieces[0].distance ?? 0, 160, accuracy: 1e-9)
        XCTAssertEqual(pieces[0].split ?? 0, 125, accuracy: 1e-9, "40 s for 160 m")
        XCTAssertEqual(pieces[0].rate ?? 0, 30, accuracy: 1e-9)
        XCTAssertEqual(pieces[0].strokeRange, 0...19)
        XCTAssertEqual(pieces[1].strokeRange, 23...32)
        XCTAssertEqual(pieces[1].rate ?? 0, 20, accuracy: 1e-9)
        XCTAssertEqual(pieces[1].distance ?? 0, 100, accuracy: 1e-9)
        // A gap just under the rest is still rowing: one piece.
        XCTAssertEqual(SessionPieces(strokes: run(0, 10, period: 2, metres: 8) + run(18 + 9.9, 10, period: 2, metres: 8, index: 10), events: []).pieces.count, 1)
        // No GPS: no distance or split, the rate is still there.
        let noGPS = SessionPieces(strokes: run(0, 8, period: 2.5, metres: nil), events: []).pieces
        XCTAssertNil(noGPS.first?.distance)
        XCTAssertNil(noGPS.first?.split)
        XCTAssertEqual(noGPS.first?.rate ?? 0, 24, accuracy: 1e-9)
        XCTAssertTrue(SessionPieces(strokes: [], events: []).pieces.isEmpty)
    }

    func testCourseLegsAsRecorded() {
        typealias F = SessionMetadata.Setting
        let strokes = run(100, 100, period: 3, metres: 10)
        let legs = [
            SessionEvent(time: 250, name: "course.segment", fields: [F("number", "1"), F("from", "Start"), F("to", "500 m"), F("start_s", "101"),
                                                                   F("end_s", "250"), F("distance_m", "500"), F("strokes", "50"), F("rate_spm", "20.1")]),
            SessionEvent(time: 260, name: "fence.cross", fields: [F("gate", "500 m")]),
            SessionEvent(time: 399, name: "course.segment", fields: [F("number", "2"), F("from", "500 m"), F("to", "Finish"), F("start_s", "250"),
                                                                   F("end_s", "399"), F("distance_m", "500"), F("strokes", "49")]),
            SessionEvent(time: 400, name: "course.segment", fields: [F("start_s", "nan"), F("end_s", "1")]),  // not a leg
        ]
        let pieces = SessionPieces(strokes: strokes, events: legs)
        XCTAssertEqual(pieces.kind, .course)
        XCTAssertEqual(pieces.pieces.map(\.label), ["Start → 500 m", "500 m → Finish"])
        XCTAssertEqual(pieces.pieces[0].time, 149, accuracy: 1e-9)
        XCTAssertEqual(pieces.pieces[0].split ?? 0, 149, accuracy: 1e-9)
        XCTAssertEqual(pieces.pieces[0].rate ?? 0, 20.1, accuracy: 1e-9, "the rate `oarlog course` gave")
        XCTAssertEqual(pieces.pieces[1].rate ?? 0, 49 / 149.0 * 60, accuracy: 1e-9)
        // Strokes whose catch is in the leg: 103, 106, … 247 are 49 catches (101 ≤ t < 250).
        XCTAssertEqual(pieces.pieces[0].strokeRange, 1...49)
    }
}
