import Foundation
import OarlogCore
@testable import OarlogFences
import XCTest

/// `FenceLimits`: fences no rowing venue has are refused naming the feature; files of too many
/// vertices are refused fast; the ring check is O(n log n) and agrees with the pairwise check.
final class FenceLimitsTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("oarlog-fence-limits-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(at: directory) }

    private func write(_ name: String, _ text: String) -> String {
        let path = directory.appendingPathComponent(name).path
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        return path
    }

    private func feature(_ geometry: String, _ properties: String) -> String {
        "{\"type\": \"Feature\", \"properties\": {\(properties)}, \"geometry\": \(geometry)}"
    }

    private func collection(_ features: [String]) -> String {
        "{\"type\": \"FeatureCollection\", \"features\": [\(features.joined(separator: ","))]}"
    }

    private func message(_ text: String) -> String {
        do {
            _ = try FenceFile.parse(text, file: "f.geojson")
            return "no error"
        } catch {
            return String(describing: error)
        }
    }

    private static func now() -> Double { Date().timeIntervalSinceReferenceDate }

    /// Positions of a star (alternating radii 1000 m and 1300 m, `n` points) around 52.35° N,
    /// 4.83° E as GeoJSON `[lon, lat]` text, closed.
    private func star(_ n: Int, swap: Bool = false) -> String {
        var points: [String] = []
        points.reserveCapacity(n + 1)
        let latitude = 52.35, longitude = 4.83
        let metresPerDegree = 111_320.0, cosine = cos(latitude * Double.pi / 180)
        for k in 0..<n {
            let angle = 2 * Double.pi * Double(k) / Double(n)
            let r = k % 2 == 0 ? 1000.0 : 1300.0
            let lat = latitude + r * sin(angle) / metresPerDegree
            let lon = longitude + r * cos(angle) / (metresPerDegree * cosine)
            points.append("[\(lon),\(lat)]")
        }
        if swap { points.swapAt(1, n / 2) }   // an edge across the whole star
        points.append(points[0])
        return "[" + points.joined(separator: ",") + "]"
    }

    // MARK: Physical bounds

    /// A Point with `"dwell_s": 1e308`, gates with `"distance_m": 1e19` and every other
    /// impossible property: refused, naming the feature and the bound.
    func testImpossiblePropertiesAreRefusedNamingTheFeature() {
        let point = "{\"type\": \"Point\", \"coordinates\": [4.83, 52.35]}"
        let gate = "{\"type\": \"LineString\", \"coordinates\": [[4.83, 52.35], [4.8304, 52.35]]}"
        let cases: [(String, String)] = [
            (collection([feature(point, "\"name\": \"club\", \"radius_m\": 40, \"dwell_s\": 1e308")]),
             "f.geojson: feature 0 'club': dwell_s must be within 0…86400 s (≥ 0, at most a day), got 1e+308"),
            (collection([feature(point, "\"name\": \"club\", \"radius_m\": 40, \"dwell_s\": -1")]),
             "feature 0 'club': dwell_s must be within 0…86400 s"),
            (collection([feature(gate, "\"name\": \"Start\", \"role\": \"start\""),
                         feature(gate.replacingOccurrences(of: "52.35]", with: "52.36]"),
                                 "\"name\": \"Finish\", \"role\": \"finish\", \"distance_m\": 1e19")]),
             "f.geojson: feature 1 'Finish': distance_m must be within 0…1000000 m (≥ 0, at most 1000 km), got 1e+19"),
            (collection([feature(point, "\"name\": \"lake\", \"radius_m\": 1e6")]),
             "feature 0 'lake': radius_m must be at most 100000 m (100 km), got 1000000.0"),
            (collection([feature(point, "\"name\": \"lake\", \"radius_m\": 40, \"hysteresis_m\": 1e9")]),
             "feature 0 'lake': hysteresis_m must be within 0…1000 m"),
            (collection([feature(gate, "\"name\": \"g\", \"direction_deg\": 1e300")]),
             "feature 0 'g': direction_deg must be a bearing within ±360°"),
            (collection([feature("{\"type\": \"LineString\", \"coordinates\": [[4.83, 52.35], [5.13, 52.35]]}", "\"name\": \"wide\"")]),
             "feature 0 'wide': the gate line is 20"),
            (collection([feature("{\"type\": \"Polygon\", \"coordinates\": [[[4, 52], [7, 52], [7, 53], [4, 52]]]}", "\"name\": \"sea\"")]),
             "feature 0 'sea': the outer ring position 1 is 205 km from its first position; an area is at most 100 km"),
            (collection([feature(point, "\"name\": \"n\", \"radius_m\": " + String(repeating: "9", count: 101))]),
             "not valid JSON: line 1, column"),
        ]
        for (text, expected) in cases {
            let got = message(text)
            XCTAssertTrue(got.contains(expected), "expected “\(expected)” in “\(got)”")
            XCTAssertTrue(got.hasPrefix("f.geojson: "), got)
        }
        // The bounds themselves are fine.
        XCTAssertEqual(message(collection([feature(point, "\"radius_m\": 100000, \"dwell_s\": 86400, \"hysteresis_m\": 1000")])), "no error")
    }

    // MARK: Resources

    /// Positions are counted before they are read: 50,000 per feature, 100,000 per file.
    func testPositionLimits() {
        let big = message(collection([feature("{\"type\": \"Polygon\", \"coordinates\": [\(star(60_000))]}", "\"name\": \"fine\"")]))
        XCTAssertTrue(big.contains("feature 0 'fine': 60001 positions; a feature has at most 50000"), big)
        let three = (0..<3).map { k in feature("{\"type\": \"Polygon\", \"coordinates\": [\(star(40_000))]}", "\"name\": \"p\(k)\"") }
        let many = message(collection(three))
        XCTAssertTrue(many.contains("feature 2 'p2': the file has more than 100000 positions"), many)
    }

    /// A polygon of 10⁶ vertices is refused within 2 s, whatever its encoding: written out in
    /// full it is over 16 MiB (refused before it is read); written as tightly as JSON allows it
    /// holds more JSON values than a fence file may (refused while parsing).
    func testMillionVertexPolygonIsRefusedWithinTwoSeconds() throws {
        let full = write("million.geojson", collection([feature("{\"type\": \"Polygon\", \"coordinates\": [\(star(1_000_000))]}", "")]))
        var start = Self.now()
        XCTAssertThrowsError(try FenceFile.load(path: full)) { XCTAssertTrue("\($0)".contains("larger than 16 MiB"), "\($0)") }
        let fullSeconds = Self.now() - start
        let tight = write("tight.geojson", collection([feature(
            "{\"type\":\"Polygon\",\"coordinates\":[[" + String(repeating: "[0,0],", count: 1_000_000) + "[0,0]]]}", "")]))
        start = Self.now()
        XCTAssertThrowsError(try FenceFile.load(path: tight)) { XCTAssertTrue("\($0)".contains("more than 500000 JSON values"), "\($0)") }
        let tightSeconds = Self.now() - start
        print("fence-limits: 10^6-vertex polygon refused in \(fullSeconds) s (\(try fileSize(full)) bytes), \(tightSeconds) s (\(try fileSize(tight)) bytes, debug build)")
        XCTAssertLessThan(fullSeconds, 2)
        XCTAssertLessThan(tightSeconds, 2)
    }

    private func fileSize(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? -1
    }

    /// The largest polygon a feature may have (50,000 positions) loads and is checked, and the
    /// same with one vertex moved across the star is refused, in a few seconds even in a debug
    /// build (the pairwise check took 33 s for 10⁵).
    func testLargestPolygonIsCheckedQuickly() throws {
        let good = write("good.geojson", collection([feature("{\"type\": \"Polygon\", \"coordinates\": [\(star(49_999))]}", "\"name\": \"star\"")]))
        var start = Self.now()
        let file = try FenceFile.load(path: good)
        let goodSeconds = Self.now() - start
        guard case .polygon(let outer, _) = file.fences[0].shape else { return XCTFail() }
        XCTAssertEqual(outer.count, 49_999)
        let bad = write("bad.geojson", collection([feature("{\"type\": \"Polygon\", \"coordinates\": [\(star(49_999, swap: true))]}", "\"name\": \"star\"")]))
        start = Self.now()
        XCTAssertThrowsError(try FenceFile.load(path: bad)) {
            XCTAssertTrue("\($0)".contains("feature 0 'star': the outer ring intersects itself"), "\($0)")
        }
        let badSeconds = Self.now() - start
        print("fence-limits: 49,999-vertex star loaded and checked in \(goodSeconds) s, its crossed twin refused in \(badSeconds) s (debug build)")
        XCTAssertLessThan(goodSeconds, 20)
        XCTAssertLessThan(badSeconds, 20)
    }

    // MARK: The sweep

    /// 10⁵-vertex rings straight through the sweep: a simple star and a crossed one.
    func testSweepOnHundredThousandVertices() {
        let n = 100_000
        let ring = (0..<n).map { k -> PlanePoint in
            let angle = 2 * Double.pi * Double(k) / Double(n)
            let r = k % 2 == 0 ? 1000.0 : 1300.0
            return PlanePoint(east: r * cos(angle), north: r * sin(angle))
        }
        var start = Self.now()
        XCTAssertNil(PlaneGeometry.firstSelfIntersection(ring))
        let simpleSeconds = Self.now() - start
        var crossed = ring
        crossed.swapAt(1, n / 2)
        start = Self.now()
        let pair = PlaneGeometry.firstSelfIntersection(crossed)
        let crossedSeconds = Self.now() - start
        XCTAssertNotNil(pair)
        if let (a, b) = pair {
            XCTAssertTrue(PlaneGeometry.segmentsTouch(crossed[a], crossed[(a + 1) % n], crossed[b], crossed[(b + 1) % n]))
        }
        print("fence-limits: sweep over 10^5 vertices: simple \(simpleSeconds) s, crossed \(crossedSeconds) s (debug build)")
        XCTAssertLessThan(simpleSeconds, 20)
    }

    /// On small integer coordinates (exact arithmetic, every degenerate case: shared vertices,
    /// collinear overlaps, spikes, vertices on edges) the sweep and the pairwise check agree on
    /// every ring, and the pair the sweep names is two non-adjacent edges that touch.
    func testSweepAgreesWithPairwiseCheck() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ range: ClosedRange<Int>) -> Int {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return range.lowerBound + Int(state % UInt64(range.count))
        }
        var simple = 0
        for trial in 0..<30_000 {
            let n = next(4...10)
            let span = [2, 4, 8, 30][trial % 4]
            let ring = (0..<n).map { _ in PlanePoint(east: Double(next(-span...span)), north: Double(next(-span...span))) }
            let sweep = PlaneGeometry.firstSelfIntersection(ring)
            let pairwise = PlaneGeometry.pairwiseSelfIntersection(ring)
            XCTAssertEqual(sweep == nil, pairwise == nil, "ring \(ring.map { [$0.east, $0.north] })")
            if pairwise == nil { simple += 1 }
            if let (a, b) = sweep {
                let d = abs(a - b)
                XCTAssertTrue(d > 1 && d < n - 1, "adjacent pair \(a), \(b)")
                XCTAssertTrue(PlaneGeometry.segmentsTouch(ring[a], ring[(a + 1) % n], ring[b], ring[(b + 1) % n]))
            }
        }
        XCTAssertGreaterThan(simple, 3000, "enough simple rings to mean something")
    }
}
