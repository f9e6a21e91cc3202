import OarlogCore
import OarlogApp
import OarlogFences
import XCTest

final class FenceReportTests: XCTestCase {
    func testEventLinesAndCourseTable() {
        let start = FenceID(index: 0, name: "Start"), mid = FenceID(index: 1, name: "500 m"), finish = FenceID(index: 2, name: "Finish")
        let legs = [
            CourseSegment(number: 1, from: start, to: mid, startTime: 60, endTime: 180, distance: 500, strokes: 48, strokeRate: 24),
            CourseSegment(number: 2, from: mid, to: finish, startTime: 180, endTime: 296, distance: 500, strokes: 50, strokeRate: 26),
        ]
        let piece = CoursePiece(course: "test", startTime: 60, finishTime: 296, distance: 1000, segments: legs)
        XCTAssertEqual(piece.split!, 118, accuracy: 1e-9)
        XCTAssertEqual(piece.strokeRate!, (24 * 48 + 26 * 50) / 98.0, accuracy: 1e-9)
        let table = CourseTable.table(piece)
        XCTAssertTrue(table.contains("2:00.0"), table)   // leg 1: 120 s
        XCTAssertTrue(table.contains("1:56.0"), table)   // leg 2: 116 s
        XCTAssertTrue(table.contains("3:56.0"), table)   // total
        let crossing = GateCrossing(gate: finish, time: 296, position: GeoPoint(latitude: 51, longitude: 0), speed: 5,
                                    heading: 90, wrongWay: true, fixInterval: 1)
        XCTAssertEqual(FenceEventPrinter.line(.cross(crossing)),
                       "   4:56.0  cross    Finish WRONG WAY  5.00 m/s, heading 90°, split 1:40.0")
        XCTAssertEqual(FenceEventPrinter.line(.exit(fence: mid, time: 75, timeInside: 15)), "   1:15.0  exit     500 m after 0:15.0")
    }
}
