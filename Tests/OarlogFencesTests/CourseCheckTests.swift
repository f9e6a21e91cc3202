import OarlogCore
import OarlogFences
import XCTest

/// What a course must be to be kept: 100 m to 50 km, gates that do not cross one another; two
/// files with the same gates (within 10 m) are the same course; the geometry key follows any change.
final class CourseCheckTests: XCTestCase {
    let putney = GeoPoint(latitude: 51.4873, longitude: -0.2241)

    func file(_ course: StraightCourse) throws -> FenceFile { try FenceFile.parse(course.geoJSON()) }

    func testAStraight2kIsACourse() throws {
        let f = try file(StraightCourse(start: putney, heading: 70, length: 2000))
        XCTAssertNil(CourseCheck.problem(f))
        XCTAssertEqual(CourseCheck.gateLines(f).count, 5)
    }

    func testLengthLimits() throws {
        let short = try file(StraightCourse(start: putney, heading: 70, length: 80, markerInterval: 0))
        XCTAssertEqual(CourseCheck.problem(short), "the course is 80.0 m long: a course is at least 100 m")
        let long = try file(StraightCourse(start: putney, heading: 70, length: 60_000, markerInterval: 10_000))
        XCTAssertEqual(CourseCheck.problem(long), "the course is 60.0 km long: a course is at most 50 km")
        XCTAssertNil(CourseCheck.problem(try file(StraightCourse(start: putney, heading: 70, length: 100, markerInterval: 0))))
    }

    func testNoCourseAtAll() throws {
        let areaOnly = try FenceFile.parse("""
            {"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {"name": "pontoon", "radius_m": 20},
             "geometry": {"type": "Point", "coordinates": [-0.2241, 51.4873]}}]}
            """)
        XCTAssertEqual(CourseCheck.problem(areaOnly), "it defines no course (no gate has a \"role\": start, marker or finish)")
    }

    /// A marker laid along the course instead of across it reaches back over the start line.
    func testGatesThatCrossAreRefused() throws {
        let start = Geodesy.destination(from: putney, distance: 0, bearing: 0)
        func lonLat(_ p: GeoPoint) -> String { "[\(p.longitude), \(p.latitude)]" }
        let startLeft = Geodesy.destination(from: start, distance: 15, bearing: 270)
        let startRight = Geodesy.destination(from: start, distance: 15, bearing: 90)
        let finish = Geodesy.destination(from: start, distance: 1000, bearing: 0)
        let finishLeft = Geodesy.destination(from: finish, distance: 15, bearing: 270)
        let finishRight = Geodesy.destination(from: finish, distance: 15, bearing: 90)
        let markerA = Geodesy.destination(from: start, distance: 20, bearing: 180)
        let markerB = Geodesy.destination(from: start, distance: 500, bearing: 0)
        let text = """
            {"type": "FeatureCollection", "name": "crossed", "features": [
             {"type": "Feature", "properties": {"name": "Start", "role": "start"}, "geometry": {"type": "LineString", "coordinates": [\(lonLat(startLeft)), \(lonLat(startRight))]}},
             {"type": "Feature", "properties": {"name": "Halfway", "role": "marker"}, "geometry": {"type": "LineString", "coordinates": [\(lonLat(markerA)), \(lonLat(markerB))]}},
             {"type": "Feature", "properties": {"name": "Finish", "role": "finish"}, "geometry": {"type": "LineString", "coordinates": [\(lonLat(finishLeft)), \(lonLat(finishRight))]}}]}
            """
        let f = try FenceFile.parse(text)
        XCTAssertEqual(CourseCheck.problem(f), "the gates Start and Halfway cross each other")
    }

    func testSameGatesWithinTenMetresAreTheSameCourse() throws {
        let a = try file(StraightCourse(start: putney, heading: 70, length: 2000, name: "A"))
        let nudged = Geodesy.destination(from: putney, distance: 4, bearing: 160)
        let b = try file(StraightCourse(start: nudged, heading: 70, length: 2000, name: "B"))
        let moved = Geodesy.destination(from: putney, distance: 40, bearing: 160)
        let c = try file(StraightCourse(start: moved, heading: 70, length: 2000, name: "C"))
        let shorter = try file(StraightCourse(start: putney, heading: 70, length: 1500))
        XCTAssertTrue(CourseCheck.sameGeometry(a, b))
        XCTAssertFalse(CourseCheck.sameGeometry(a, c), "40 m away is another course")
        XCTAssertFalse(CourseCheck.sameGeometry(a, shorter), "fewer gates")
        XCTAssertEqual(CourseCheck.key(a), CourseCheck.key(try file(StraightCourse(start: putney, heading: 70, length: 2000, name: "renamed"))),
                       "the key is the geometry, not the name")
        XCTAssertNotEqual(CourseCheck.key(a), CourseCheck.key(b), "any change to the gates is a new key")
        XCTAssertEqual(CourseCheck.key(a).count, 16)
    }
}
