import OarlogCore

/// The course on the water: where the boat is after travelling `s` metres, and its heading.
/// Positions are worked in a local plane (east, north metres from the start) and mapped to
/// latitude/longitude with the azimuthal equidistant projection on a sphere of the IUGG mean
/// radius — exact in distance along any line from the start (so haversine distance between
/// fixes on a straight course reproduces the distance travelled) and within a few parts per
/// million elsewhere over tens of kilometres.
struct CoursePlane: Sendable {
    static let earthRadius: Metres = 6_371_008.8

    let startLatitude: Double   // radians
    let startLongitude: Double  // radians
    let heading: Double         // radians
    let swing: Double           // radians
    let wavenumber: Double      // radians per metre

    init(configuration: SimulationConfiguration) {
        startLatitude = configuration.startLatitude * degreesToRadians
        startLongitude = configuration.startLongitude * degreesToRadians
        heading = configuration.heading * degreesToRadians
        switch configuration.course {
        case .straight:
            swing = 0
            wavenumber = 0
        case .curving(let amplitude, let wavelength):
            swing = amplitude * degreesToRadians
            wavenumber = wavelength > 0 ? 2 * Double.pi / wavelength : 0
        }
    }

    /// Heading (radians clockwise from north) after `s` metres along the course.
    @inline(__always)
    func bearing(atDistance s: Metres) -> Double {
        swing == 0 ? heading : heading + swing * _sin(wavenumber * s)
    }

    /// Latitude and longitude (degrees) of a point `east`, `north` metres from the start.
    func coordinates(east: Metres, north: Metres) -> (latitude: Degrees, longitude: Degrees) {
        let range = (east * east + north * north).squareRoot()
        guard range > 0 else { return (startLatitude * radiansToDegrees, startLongitude * radiansToDegrees) }
        let azimuth = _atan2(east, north)
        let delta = range / Self.earthRadius
        let sinLatitude = _sin(startLatitude) * _cos(delta) + _cos(startLatitude) * _sin(delta) * _cos(azimuth)
        let latitude = _asin(min(1, max(-1, sinLatitude)))
        let longitude = startLongitude
            + _atan2(_sin(azimuth) * _sin(delta) * _cos(startLatitude), _cos(delta) - _sin(startLatitude) * sinLatitude)
        var longitudeDegrees = longitude * radiansToDegrees
        if longitudeDegrees > 180 { longitudeDegrees -= 360 } else if longitudeDegrees < -180 { longitudeDegrees += 360 }
        return (latitude * radiansToDegrees, longitudeDegrees)
    }
}
