import OarlogCore

/// The course on the water: where the boat is after travelling `s` metres, and its heading.
/// Positions are worked in a local plane (east, north metres from the start) and mapped to
/// latitude/longitude on the WGS 84 ellipsoid, as a GPS receiver reports them and as Oarlog
/// measures them: the point `range` metres from the start along the geodesic with the plane's
/// azimuth (the azimuthal equidistant projection, Vincenty's direct solution). Exact in distance
/// along any line from the start, so the geodesic distance between fixes on a straight course
/// adds up to the distance travelled (a sphere would be up to 0.3 % off Oarlog's measure), and
/// within a few parts per million elsewhere over tens of kilometres.
///
/// On a measured course (`.gates`) the plane's origin is the start gate's centre, every gate
/// centre is placed in it exactly (its geodesic range and azimuth from the origin), and the boat
/// goes round the `GatePathLoop` through them.
struct CoursePlane: Sendable {
    let startLatitude: Double   // radians
    let startLongitude: Double  // radians
    let heading: Double         // radians
    let swing: Double           // radians
    let wavenumber: Double      // radians per metre
    /// The way round a measured course, or `nil` for a straight or curving one.
    let loop: GatePathLoop?

    init(configuration: SimulationConfiguration) {
        var latitude = configuration.startLatitude, longitude = configuration.startLongitude
        var heading = configuration.heading * degreesToRadians
        var swing = 0.0, wavenumber = 0.0
        var loop: GatePathLoop?
        switch configuration.course {
        case .straight:
            break
        case .curving(let amplitude, let wavelength):
            swing = amplitude * degreesToRadians
            wavenumber = wavelength > 0 ? 2 * Double.pi / wavelength : 0
        case .gates(let path):
            let origin = path.gates[0].centre
            (latitude, longitude) = (origin.latitude, origin.longitude)
            let centres = path.gates.map { gate -> (east: Metres, north: Metres) in
                let polar = Geodesy.inverse(from: origin, to: gate.centre)
                let azimuth = polar.initialBearing * degreesToRadians
                return (polar.distance * _sin(azimuth), polar.distance * _cos(azimuth))
            }
            loop = GatePathLoop(centres: centres, leadIn: path.leadIn, runOut: path.runOut, turnRadius: path.turnRadius)
            heading = loop?.place(atDistance: 0).bearing ?? heading
        }
        startLatitude = latitude * degreesToRadians
        startLongitude = longitude * degreesToRadians
        self.heading = heading
        self.swing = swing
        self.wavenumber = wavenumber
        self.loop = loop
    }

    /// Heading (radians clockwise from north) after `s` metres along the course.
    @inline(__always)
    func bearing(atDistance s: Metres) -> Double {
        if let loop { return loop.place(atDistance: s).bearing }
        return swing == 0 ? heading : heading + swing * _sin(wavenumber * s)
    }

    /// Latitude and longitude (degrees) of a point `east`, `north` metres from the start.
    func coordinates(east: Metres, north: Metres) -> (latitude: Degrees, longitude: Degrees) {
        let range = (east * east + north * north).squareRoot()
        let start = GeoPoint(latitude: startLatitude * radiansToDegrees, longitude: startLongitude * radiansToDegrees)
        guard range > 0 else { return (start.latitude, start.longitude) }
        let p = Geodesy.destination(from: start, distance: range, bearing: _atan2(east, north) * radiansToDegrees)
        return (p.latitude, p.longitude)
    }
}
