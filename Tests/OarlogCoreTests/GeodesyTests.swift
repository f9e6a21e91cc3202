import XCTest
@testable import OarlogCore

/// Known values: Geoscience Australia's published Vincenty example (Flinders Peak → Buninyong,
/// GRS80 ≡ WGS-84 at this precision) and GeographicLib 2.1 (Karney, WGS-84) for the others.
final class GeodesyTests: XCTestCase {
    private func dms(_ d: Double, _ m: Double, _ s: Double) -> Double { d + m / 60 + s / 3600 }

    func testFlindersPeakToBuninyongPublishedValues() {
        let flinders = GeoPoint(latitude: -dms(37, 57, 3.72030), longitude: dms(144, 25, 29.52440))
        let buninyong = GeoPoint(latitude: -dms(37, 39, 10.15610), longitude: dms(143, 55, 35.38390))
        let r = Geodesy.inverse(from: flinders, to: buninyong)
        XCTAssertEqual(r.distance, 54_972.271, accuracy: 0.001)
        XCTAssertEqual(r.initialBearing, dms(306, 52, 5.37), accuracy: 0.01 / 3600)
        XCTAssertEqual(r.finalBearing, 307.1736306290222, accuracy: 0.01 / 3600)
        let back = Geodesy.destination(from: flinders, distance: 54_972.271, bearing: dms(306, 52, 5.37))
        XCTAssertEqual(back.latitude, buninyong.latitude, accuracy: 1e-7)
        XCTAssertEqual(back.longitude, buninyong.longitude, accuracy: 1e-7)
    }

    /// (from, to, distance m, initial bearing °) from GeographicLib's Geodesic.WGS84.Inverse.
    func testInverseAgainstGeographicLib() {
        let cases: [(GeoPoint, GeoPoint, Double, Double)] = [
            (GeoPoint(latitude: 52.2253125, longitude: 6.8455583), GeoPoint(latitude: 52.2249876, longitude: 6.8457538),
             38.54144931866639, 159.7194402695278),
            (GeoPoint(latitude: 89.9, longitude: 0), GeoPoint(latitude: 89.9, longitude: 90), 15_795.90990088993, 45.00004363325316),
            (GeoPoint(latitude: 60, longitude: 179.99), GeoPoint(latitude: 60.01, longitude: -179.99), 1_576.8170004355484, 45.035221961627165),
            (GeoPoint(latitude: 49.2389, longitude: 16.5136), GeoPoint(latitude: 49.2391, longitude: 16.5132), 36.6498322424476, 307.3660172518962),
            (GeoPoint(latitude: -33.8688, longitude: 151.2093), GeoPoint(latitude: 51.5074, longitude: -0.1278), 16_989_295.77054045, 319.2926330121788),
            (GeoPoint(latitude: 0, longitude: 0), GeoPoint(latitude: 0, longitude: 1), 111_319.49079327357, 90),
        ]
        for (a, b, s, azi) in cases {
            let r = Geodesy.inverse(from: a, to: b)
            XCTAssertEqual(r.distance, s, accuracy: max(1e-4, s * 1e-9), "\(a) → \(b)")
            XCTAssertEqual(r.initialBearing, azi, accuracy: 1e-6, "\(a) → \(b)")
        }
    }

    func testNearlyAntipodalFallsBackWithinHalfAPercent() {
        let r = Geodesy.distance(from: GeoPoint(latitude: 0, longitude: 0), to: GeoPoint(latitude: 0.5, longitude: 179.7))
        XCTAssertEqual(r, 19_944_127.420750458, accuracy: 19_944_127.42 * 0.005)
    }

    /// (start, bearing °, distance m, expected) from GeographicLib's Geodesic.WGS84.Direct.
    func testDestinationAgainstGeographicLib() {
        let cases: [(GeoPoint, Double, Double, GeoPoint)] = [
            (GeoPoint(latitude: 52, longitude: 6), 37.5, 1000, GeoPoint(latitude: 52.00712981588735, longitude: 6.008865401140904)),
            (GeoPoint(latitude: 89.95, longitude: 10), 200, 5000, GeoPoint(latitude: 89.90667009837405, longitude: 0.5580574788172434)),
            (GeoPoint(latitude: -12.3, longitude: 179.995), 80, 2000, GeoPoint(latitude: -12.296859989352072, longitude: -179.98689392621114)),
        ]
        for (start, bearing, distance, expected) in cases {
            let p = Geodesy.destination(from: start, distance: distance, bearing: bearing)
            // 1e-8° is about 1 mm of latitude.
            XCTAssertEqual(p.latitude, expected.latitude, accuracy: 1e-8)
            XCTAssertEqual(p.longitude, expected.longitude, accuracy: 1e-8 / cos(expected.latitude * .pi / 180))
        }
    }

    func testTangentPlaneDistancesAndRoundTripAtAntimeridianAndHighLatitude() {
        let origins = [GeoPoint(latitude: 52.2, longitude: 6.8), GeoPoint(latitude: -45, longitude: 179.999),
                       GeoPoint(latitude: 85, longitude: -179.995), GeoPoint(latitude: 0, longitude: -180)]
        for origin in origins {
            let plane = LocalTangentPlane(origin: origin)
            for bearing in stride(from: 0.0, to: 360.0, by: 45.0) {
                for distance in [10.0, 500.0, 3000.0] {
                    let p = Geodesy.destination(from: origin, distance: distance, bearing: bearing)
                    let (e, n) = plane.project(p)
                    // Plane distance vs geodesic: better than 0.01 % (in fact ~1e-7).
                    XCTAssertEqual((e * e + n * n).squareRoot(), distance, accuracy: distance * 1e-4)
                    // Direction: east/north agree with the bearing to 0.01°.
                    let planeBearing = Geodesy.normalizedBearing(atan2(e, n) * 180 / .pi)
                    let diff = abs(Geodesy.normalizedLongitudeDifference(planeBearing - bearing))
                    XCTAssertLessThan(diff, 0.01, "origin \(origin) bearing \(bearing) d \(distance)")
                    let back = plane.unproject(east: e, north: n)
                    XCTAssertLessThan(Geodesy.distance(from: back, to: p), 0.001)
                }
            }
        }
    }

    func testNormalisation() {
        XCTAssertEqual(Geodesy.normalizedLongitudeDifference(190), -170, accuracy: 1e-12)
        XCTAssertEqual(Geodesy.normalizedLongitudeDifference(-190), 170, accuracy: 1e-12)
        XCTAssertEqual(Geodesy.normalizedBearing(-90), 270, accuracy: 1e-12)
        XCTAssertEqual(Geodesy.distance(from: GeoPoint(latitude: 10, longitude: 20), to: GeoPoint(latitude: 10, longitude: 20)), 0)
    }
}
