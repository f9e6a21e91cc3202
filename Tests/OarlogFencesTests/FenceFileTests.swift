import OarlogCore
import OarlogFences
import XCTest

final class FenceFileTests: XCTestCase {
    func feature(_ geometry: String, _ properties: String) -> String {
        "{\"type\": \"Feature\", \"properties\": {\(properties)}, \"geometry\": \(geometry)}"
    }
    func collection(_ features: String...) -> String {
        "{\"type\": \"FeatureCollection\", \"features\": [\(features.joined(separator: ","))]}"
    }

    func testParsesEveryKind() throws {
        let text = collection(
            feature("{\"type\": \"Point\", \"coordinates\": [-0.2241, 51.4873]}", "\"name\": \"club\", \"radius_m\": 40, \"dwell_s\": 60"),
            feature("{\"type\": \"Polygon\", \"coordinates\": [[[0,51],[0.01,51],[0.01,51.01],[0,51.01],[0,51]],"
                    + "[[0.004,51.004],[0.006,51.004],[0.006,51.006],[0.004,51.004]]]}", "\"name\": \"lake\", \"hysteresis_m\": 4"),
            feature("{\"type\": \"LineString\", \"coordinates\": [[0.1,51],[0.1,51.001]]}",
                    "\"name\": \"Start\", \"role\": \"start\", \"direction_deg\": 90, \"stroke\": \"#ff0000\""),
            feature("{\"type\": \"LineString\", \"coordinates\": [[0.11,51],[0.11,51.001]]}", "\"name\": \"Finish\", \"role\": \"finish\""))
        let file = try FenceFile.parse(text)
        XCTAssertEqual(file.fences.map(\.id.name), ["club", "lake", "Start", "Finish"])
        XCTAssertEqual(file.fences[0].shape, .circle(centre: GeoPoint(latitude: 51.4873, longitude: -0.2241), radius: 40))
        XCTAssertEqual(file.fences[0].dwellTime, 60)
        XCTAssertEqual(file.fences[1].hysteresis, 4)
        guard case .polygon(let outer, let holes) = file.fences[1].shape else { return XCTFail() }
        XCTAssertEqual(outer.count, 4)
        XCTAssertEqual(holes.count, 1)
        XCTAssertEqual(file.fences[2].shape, .gate(line: [GeoPoint(latitude: 51, longitude: 0.1), GeoPoint(latitude: 51.001, longitude: 0.1)],
                                                   direction: .bearing(90)))
        let course = try XCTUnwrap(file.course)
        XCTAssertEqual(course.gates.map(\.name), ["Start", "Finish"])
        // 0.01° of longitude at 51° N between the gate midpoints: about 700 m (geodesic).
        let expected = Geodesy.distance(from: GeoPoint(latitude: 51.0005, longitude: 0.1), to: GeoPoint(latitude: 51.0005, longitude: 0.11))
        XCTAssertEqual(course.distances[1], expected, accuracy: 0.01)
    }

    func testErrorsNameTheFeatureAndTheProblem() {
        func message(_ text: String) -> String {
            do {
                _ = try FenceFile.parse(text, file: "course.geojson")
                return "no error"
            } catch {
                return String(describing: error)
            }
        }
        let cases: [(String, String)] = [
            (collection(feature("{\"type\": \"Point\", \"coordinates\": [0, 51]}", "\"name\": \"buoy\"")),
             "feature 0 'buoy': a Point fence needs a radius_m property"),
            (collection(feature("{\"type\": \"Point\", \"coordinates\": [0, 51]}", "\"name\": \"buoy\", \"radius_m\": \"40\"")),
             "feature 0 'buoy': property radius_m must be a number, got a string"),
            (collection(feature("{\"type\": \"LineString\", \"coordinates\": [[0,51],[0,51.001]]}", "\"name\": \"a\""),
                        feature("{\"type\": \"Polygon\", \"coordinates\": [[[0,51],[0.01,51],[0.01,51.01],[0,51.01]]]}", "\"name\": \"lake\"")),
             "feature 1 'lake': the outer ring is not closed"),
            (collection(feature("{\"type\": \"Polygon\", \"coordinates\": [[[0,51],[0.01,51.01],[0.01,51],[0,51.01],[0,51]]]}", "\"name\": \"bowtie\"")),
             "feature 0 'bowtie': the outer ring intersects itself"),
            (collection(feature("{\"type\": \"MultiPolygon\", \"coordinates\": []}", "")),
             "feature 0 'feature 0': geometry type MultiPolygon is not supported"),
            (collection(feature("{\"type\": \"Point\", \"coordinates\": [51, 91]}", "\"radius_m\": 5")),
             "is out of range (GeoJSON positions are [longitude, latitude])"),
            (collection(feature("{\"type\": \"LineString\", \"coordinates\": [[0,51]]}", "\"name\": \"gate\"")),
             "feature 0 'gate': a gate LineString needs at least 2 positions"),
            (collection(feature("{\"type\": \"LineString\", \"coordinates\": [[0,51],[0,51.001]]}", "\"name\": \"S\", \"role\": \"begin\"")),
             "feature 0 'S': role must be \"start\", \"marker\" or \"finish\""),
            (collection(feature("{\"type\": \"LineString\", \"coordinates\": [[0,51],[0,51.001]]}", "\"name\": \"S\", \"role\": \"start\"")),
             "the course has no gate with \"role\": \"finish\""),
            ("{\"type\": \"FeatureCollection\", \"features\": [", "not valid JSON: line 1, column"),
            ("{\"type\": \"Topology\"}", "expected a FeatureCollection or a Feature"),
        ]
        for (text, expected) in cases {
            let got = message(text)
            XCTAssertTrue(got.contains(expected), "expected “\(expected)” in “\(got)”")
            XCTAssertTrue(got.hasPrefix("course.geojson"), got)
        }
    }

    /// `fences make-course`: gates every 500 m, square to the course, at geodesic distances.
    func testStraightCourseRoundTrip() throws {
        let start = GeoPoint(latitude: 52.3555, longitude: 4.8383)
        let maker = StraightCourse(start: start, heading: 88, length: 2000, markerInterval: 500, gateWidth: 30, name: "Bosbaan")
        let file = try FenceFile.parse(maker.geoJSON())
        let course = try XCTUnwrap(file.course)
        XCTAssertEqual(course.name, "Bosbaan")
        XCTAssertEqual(course.gates.map(\.name), ["Start", "500 m", "1000 m", "1500 m", "Finish"])
        XCTAssertEqual(course.distances, [0, 500, 1000, 1500, 2000])
        for (k, fence) in file.fences.enumerated() {
            guard case .gate(let line, .bearing(let bearing)) = fence.shape else { return XCTFail("gate \(k)") }
            XCTAssertEqual(Geodesy.distance(from: line[0], to: line[1]), 30, accuracy: 0.01)
            let mid = Geodesy.destination(from: line[0], distance: 15, bearing: Geodesy.initialBearing(from: line[0], to: line[1]))
            XCTAssertEqual(Geodesy.distance(from: start, to: mid), Double(k) * 500, accuracy: 0.05)
            XCTAssertEqual(bearing, 88, accuracy: 0.1)
        }
    }
}
