#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A point on the WGS-84 ellipsoid (latitude positive north, longitude positive east).
public struct GeoPoint: Sendable, Equatable {
    public var latitude: Degrees
    public var longitude: Degrees
    @inlinable
    public init(latitude: Degrees, longitude: Degrees) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

extension GPSFix {
    /// The fix's position as a point on the ellipsoid.
    @inlinable
    public var point: GeoPoint { GeoPoint(latitude: latitude, longitude: longitude) }
}

/// The WGS-84 ellipsoid, which GPS positions refer to.
public enum WGS84 {
    /// Semi-major (equatorial) axis, metres.
    public static let semiMajorAxis: Metres = 6_378_137.0
    /// Flattening.
    public static let flattening: Double = 1.0 / 298.257_223_563
    /// Semi-minor (polar) axis, metres.
    public static let semiMinorAxis: Metres = semiMajorAxis * (1.0 - flattening)
    /// First eccentricity squared.
    public static let eccentricitySquared: Double = flattening * (2.0 - flattening)
    /// Mean radius (2a + b) / 3, metres: the sphere used only where the ellipsoid formulas fail.
    public static let meanRadius: Metres = (2.0 * semiMajorAxis + semiMinorAxis) / 3.0
}

/// Geodesic distance, bearing and destination on the WGS-84 ellipsoid.
///
/// Distances and bearings use Vincenty's inverse formula (1975), iterated to 1e-12 rad: accurate to
/// well under a millimetre for any two points that are not nearly antipodal (checked against
/// GeographicLib in the tests). For nearly antipodal points (more than ~19,900 km apart, where
/// Vincenty does not converge) it falls back to the haversine on the mean radius, which is within
/// 0.5 % there. Boat-scale distances are never near that case.
public enum Geodesy {
    @usableFromInline static let degreesToRadians = Double.pi / 180.0
    @usableFromInline static let radiansToDegrees = 180.0 / Double.pi

    /// The result of the inverse geodesic problem.
    public struct Inverse: Sendable, Equatable {
        /// Length of the geodesic, metres.
        public var distance: Metres
        /// Bearing at the start, degrees clockwise from true north in [0, 360).
        public var initialBearing: Degrees
        /// Bearing at the end (direction of travel on arrival), degrees in [0, 360).
        public var finalBearing: Degrees
    }

    /// Geodesic distance in metres between two points.
    @inlinable
    public static func distance(from a: GeoPoint, to b: GeoPoint) -> Metres {
        inverse(from: a, to: b).distance
    }

    /// Initial bearing (forward azimuth) from `a` towards `b`, degrees in [0, 360).
    @inlinable
    public static func initialBearing(from a: GeoPoint, to b: GeoPoint) -> Degrees {
        inverse(from: a, to: b).initialBearing
    }

    /// Vincenty's inverse solution: distance, initial and final bearing between two points.
    public static func inverse(from a: GeoPoint, to b: GeoPoint) -> Inverse {
        let f = WGS84.flattening
        let aAxis = WGS84.semiMajorAxis
        let bAxis = WGS84.semiMinorAxis
        let L = normalizedLongitudeDifference(b.longitude - a.longitude) * degreesToRadians
        let U1 = atan((1 - f) * tan(a.latitude * degreesToRadians))
        let U2 = atan((1 - f) * tan(b.latitude * degreesToRadians))
        let sinU1 = sin(U1), cosU1 = cos(U1), sinU2 = sin(U2), cosU2 = cos(U2)

        var lambda = L
        var sinSigma = 0.0, cosSigma = 0.0, sigma = 0.0, cosSqAlpha = 0.0, cos2SigmaM = 0.0
        var sinLambda = 0.0, cosLambda = 0.0
        var converged = false
        for _ in 0..<200 {
            sinLambda = sin(lambda)
            cosLambda = cos(lambda)
            let t1 = cosU2 * sinLambda
            let t2 = cosU1 * sinU2 - sinU1 * cosU2 * cosLambda
            sinSigma = (t1 * t1 + t2 * t2).squareRoot()
            if sinSigma == 0 {  // coincident points
                return Inverse(distance: 0, initialBearing: 0, finalBearing: 0)
            }
            cosSigma = sinU1 * sinU2 + cosU1 * cosU2 * cosLambda
            sigma = atan2(sinSigma, cosSigma)
            let sinAlpha = cosU1 * cosU2 * sinLambda / sinSigma
            cosSqAlpha = 1 - sinAlpha * sinAlpha
            cos2SigmaM = cosSqAlpha != 0 ? cosSigma - 2 * sinU1 * sinU2 / cosSqAlpha : 0  // equatorial line
            let C = f / 16 * cosSqAlpha * (4 + f * (4 - 3 * cosSqAlpha))
            let previous = lambda
            lambda = L + (1 - C) * f * sinAlpha
                * (sigma + C * sinSigma * (cos2SigmaM + C * cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)))
            if abs(lambda - previous) < 1e-12 {
                converged = true
                break
            }
            if abs(lambda) > Double.pi { break }  // nearly antipodal: diverging
        }
        guard converged else { return sphericalInverse(from: a, to: b) }

        let uSq = cosSqAlpha * (aAxis * aAxis - bAxis * bAxis) / (bAxis * bAxis)
        let A = 1 + uSq / 16384 * (4096 + uSq * (-768 + uSq * (320 - 175 * uSq)))
        let B = uSq / 1024 * (256 + uSq * (-128 + uSq * (74 - 47 * uSq)))
        let deltaSigma = B * sinSigma * (cos2SigmaM + B / 4 * (cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)
            - B / 6 * cos2SigmaM * (-3 + 4 * sinSigma * sinSigma) * (-3 + 4 * cos2SigmaM * cos2SigmaM)))
        let s = bAxis * A * (sigma - deltaSigma)
        let alpha1 = atan2(cosU2 * sinLambda, cosU1 * sinU2 - sinU1 * cosU2 * cosLambda)
        let alpha2 = atan2(cosU1 * sinLambda, -sinU1 * cosU2 + cosU1 * sinU2 * cosLambda)
        return Inverse(distance: s,
                       initialBearing: normalizedBearing(alpha1 * radiansToDegrees),
                       finalBearing: normalizedBearing(alpha2 * radiansToDegrees))
    }

    /// The point reached by travelling `distance` metres along the geodesic that starts at `start`
    /// with initial bearing `bearing` (Vincenty's direct solution; sub-millimetre at boat scale).
    public static func destination(from start: GeoPoint, distance: Metres, bearing: Degrees) -> GeoPoint {
        let f = WGS84.flattening
        let aAxis = WGS84.semiMajorAxis
        let bAxis = WGS84.semiMinorAxis
        let alpha1 = bearing * degreesToRadians
        let sinAlpha1 = sin(alpha1), cosAlpha1 = cos(alpha1)
        let tanU1 = (1 - f) * tan(start.latitude * degreesToRadians)
        let cosU1 = 1 / (1 + tanU1 * tanU1).squareRoot()
        let sinU1 = tanU1 * cosU1
        let sigma1 = atan2(tanU1, cosAlpha1)
        let sinAlpha = cosU1 * sinAlpha1
        let cosSqAlpha = 1 - sinAlpha * sinAlpha
        let uSq = cosSqAlpha * (aAxis * aAxis - bAxis * bAxis) / (bAxis * bAxis)
        let A = 1 + uSq / 16384 * (4096 + uSq * (-768 + uSq * (320 - 175 * uSq)))
        let B = uSq / 1024 * (256 + uSq * (-128 + uSq * (74 - 47 * uSq)))

        var sigma = distance / (bAxis * A)
        var sinSigma = 0.0, cosSigma = 0.0, cos2SigmaM = 0.0
        for _ in 0..<100 {
            cos2SigmaM = cos(2 * sigma1 + sigma)
            sinSigma = sin(sigma)
            cosSigma = cos(sigma)
            let deltaSigma = B * sinSigma * (cos2SigmaM + B / 4 * (cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)
                - B / 6 * cos2SigmaM * (-3 + 4 * sinSigma * sinSigma) * (-3 + 4 * cos2SigmaM * cos2SigmaM)))
            let previous = sigma
            sigma = distance / (bAxis * A) + deltaSigma
            if abs(sigma - previous) < 1e-12 { break }
        }
        cos2SigmaM = cos(2 * sigma1 + sigma)
        sinSigma = sin(sigma)
        cosSigma = cos(sigma)
        let t = sinU1 * sinSigma - cosU1 * cosSigma * cosAlpha1
        let lat2 = atan2(sinU1 * cosSigma + cosU1 * sinSigma * cosAlpha1,
                         (1 - f) * (sinAlpha * sinAlpha + t * t).squareRoot())
        let lambda = atan2(sinSigma * sinAlpha1, cosU1 * cosSigma - sinU1 * sinSigma * cosAlpha1)
        let C = f / 16 * cosSqAlpha * (4 + f * (4 - 3 * cosSqAlpha))
        let L = lambda - (1 - C) * f * sinAlpha
            * (sigma + C * sinSigma * (cos2SigmaM + C * cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)))
        return GeoPoint(latitude: lat2 * radiansToDegrees,
                        longitude: normalizedLongitudeDifference(start.longitude + L * radiansToDegrees))
    }

    /// Haversine distance on the mean-radius sphere: the fallback for nearly antipodal points.
    static func sphericalInverse(from a: GeoPoint, to b: GeoPoint) -> Inverse {
        let phi1 = a.latitude * degreesToRadians, phi2 = b.latitude * degreesToRadians
        let dPhi = phi2 - phi1
        let dLambda = normalizedLongitudeDifference(b.longitude - a.longitude) * degreesToRadians
        let h = sin(dPhi / 2) * sin(dPhi / 2) + cos(phi1) * cos(phi2) * sin(dLambda / 2) * sin(dLambda / 2)
        let distance = 2 * WGS84.meanRadius * asin(min(1, h.squareRoot()))
        let y = sin(dLambda) * cos(phi2)
        let x = cos(phi1) * sin(phi2) - sin(phi1) * cos(phi2) * cos(dLambda)
        let y2 = sin(-dLambda) * cos(phi1)
        let x2 = cos(phi2) * sin(phi1) - sin(phi2) * cos(phi1) * cos(-dLambda)
        return Inverse(distance: distance,
                       initialBearing: normalizedBearing(atan2(y, x) * radiansToDegrees),
                       finalBearing: normalizedBearing(atan2(y2, x2) * radiansToDegrees + 180))
    }

    /// A longitude (or longitude difference) brought into [-180, 180).
    @inlinable
    public static func normalizedLongitudeDifference(_ degrees: Degrees) -> Degrees {
        var d = fmod(degrees + 180.0, 360.0)
        if d < 0 { d += 360.0 }
        return d - 180.0
    }

    /// A bearing brought into [0, 360).
    @inlinable
    public static func normalizedBearing(_ degrees: Degrees) -> Degrees {
        var d = fmod(degrees, 360.0)
        if d < 0 { d += 360.0 }
        return d >= 360.0 ? 0 : d
    }
}

/// A local east-north-up tangent plane at a reference point, for small-area geometry (a course,
/// a lake, smoothing a track) in plain metres.
///
/// Exact ECEF → ENU rotation (the up component is dropped), so it has no trouble at the antimeridian
/// or at high latitude (only the poles themselves have no defined east). Horizontal distances in the
/// plane differ from the geodesic by about (d / 2R)²: under 1e-6 relative within 10 km. `unproject`
/// puts the point back on the ellipsoid surface, so project → unproject round-trips to well under a
/// millimetre within 10 km of the origin.
public struct LocalTangentPlane: Sendable, Equatable {
    public let origin: GeoPoint
    @usableFromInline let sinLat: Double, cosLat: Double, sinLon: Double, cosLon: Double
    @usableFromInline let originX: Double, originY: Double, originZ: Double

    public init(origin: GeoPoint) {
        self.origin = origin
        let phi = origin.latitude * Geodesy.degreesToRadians
        let lambda = origin.longitude * Geodesy.degreesToRadians
        sinLat = sin(phi); cosLat = cos(phi); sinLon = sin(lambda); cosLon = cos(lambda)
        (originX, originY, originZ) = LocalTangentPlane.ecef(latitude: origin.latitude, longitude: origin.longitude, height: 0)
    }

    /// East and north offsets (metres) of `point` from the origin.
    public func project(_ point: GeoPoint) -> (east: Metres, north: Metres) {
        let (x, y, z) = LocalTangentPlane.ecef(latitude: point.latitude, longitude: point.longitude, height: 0)
        let dx = x - originX, dy = y - originY, dz = z - originZ
        let east = -sinLon * dx + cosLon * dy
        let north = -sinLat * cosLon * dx - sinLat * sinLon * dy + cosLat * dz
        return (east, north)
    }

    /// The point on the ellipsoid whose projection is (`east`, `north`).
    public func unproject(east: Metres, north: Metres) -> GeoPoint {
        // Start on the plane with the up offset of a sphere of the local radius, then correct the
        // result a couple of times by re-projecting (converges to sub-millimetre in 2–3 rounds).
        var e = east, n = north
        var result = origin
        for _ in 0..<4 {
            let r = WGS84.semiMajorAxis
            let up = -(e * e + n * n) / (2 * r)
            let dx = -sinLon * e - sinLat * cosLon * n + cosLat * cosLon * up
            let dy = cosLon * e - sinLat * sinLon * n + cosLat * sinLon * up
            let dz = cosLat * n + sinLat * up
            result = LocalTangentPlane.geodetic(x: originX + dx, y: originY + dy, z: originZ + dz)
            let back = project(result)
            let errE = east - back.east, errN = north - back.north
            if abs(errE) < 1e-6 && abs(errN) < 1e-6 { break }
            e += errE
            n += errN
        }
        return result
    }

    /// Geodetic → Earth-centred Earth-fixed coordinates, metres.
    static func ecef(latitude: Degrees, longitude: Degrees, height: Metres) -> (Double, Double, Double) {
        let phi = latitude * Geodesy.degreesToRadians, lambda = longitude * Geodesy.degreesToRadians
        let s = sin(phi), c = cos(phi)
        let n = WGS84.semiMajorAxis / (1 - WGS84.eccentricitySquared * s * s).squareRoot()
        return ((n + height) * c * cos(lambda), (n + height) * c * sin(lambda),
                (n * (1 - WGS84.eccentricitySquared) + height) * s)
    }

    /// Earth-centred Earth-fixed → geodetic (iterated; exact to sub-millimetre near the surface).
    static func geodetic(x: Double, y: Double, z: Double) -> GeoPoint {
        let e2 = WGS84.eccentricitySquared
        let p = (x * x + y * y).squareRoot()
        let lambda = atan2(y, x)
        var phi = atan2(z, p * (1 - e2))
        for _ in 0..<6 {
            let s = sin(phi)
            let n = WGS84.semiMajorAxis / (1 - e2 * s * s).squareRoot()
            let h = abs(cos(phi)) > 1e-9 ? p / cos(phi) - n : abs(z) / abs(s) - n * (1 - e2)
            phi = atan2(z, p * (1 - e2 * n / (n + h)))
        }
        return GeoPoint(latitude: phi * Geodesy.radiansToDegrees, longitude: lambda * Geodesy.radiansToDegrees)
    }
}
