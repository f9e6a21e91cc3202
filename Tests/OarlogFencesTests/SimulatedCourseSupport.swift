import OarlogCore
import OarlogFences
import OarlogSimulator
import XCTest

/// One simulated session kept for a fence test: the fixes, the true distance along the course
/// against time (from the simulator's noise-free boat state at every accelerometer sample), and
/// the true strokes.
struct TruthTrack {
    var fixes: [GPSFix] = []
    var times: [Seconds] = []
    var distances: [Metres] = []
    var strokes: [(catchTime: Seconds, rate: StrokesPerMinute?)] = []

    init(_ configuration: SimulationConfiguration) throws {
        var simulator = try BoatSimulator(configuration: configuration)
        while let record = try simulator.next() {
            switch record {
            case .accel:
                if let frame = simulator.lastBoatFrame {
                    times.append(frame.time)
                    distances.append(frame.distance)
                }
            case .fix(let fix): fixes.append(fix)
            default: break
            }
        }
        strokes = simulator.groundTruth.strokes.map { ($0.catchTime, $0.strokeRate) }
    }

    /// When the boat truly had travelled `distance` (linear between accelerometer samples).
    func time(atDistance distance: Metres) -> Seconds? {
        guard let k = distances.firstIndex(where: { $0 >= distance }), k > 0 else { return nil }
        let f = (distance - distances[k - 1]) / (distances[k] - distances[k - 1])
        return times[k - 1] + f * (times[k] - times[k - 1])
    }

    /// The fixes' position at `time` (linear between the two fixes around it): with a
    /// noise-free run at 10 Hz this is the true track to a few millimetres.
    func position(at time: Seconds) -> GeoPoint? {
        guard let k = fixes.firstIndex(where: { $0.time >= time }), k > 0 else { return nil }
        let a = fixes[k - 1], b = fixes[k]
        let f = (time - a.time) / (b.time - a.time)
        return GeoPoint(latitude: a.latitude + f * (b.latitude - a.latitude),
                        longitude: a.longitude + f * (b.longitude - a.longitude))
    }
}

/// Gates laid square across a noise-free track at given distances along it (the simulator's
/// own course geometry, so the truth crossing of gate k is exactly when the boat has travelled
/// `distances[k]`).
func gatesAcross(_ track: TruthTrack, at distances: [Metres], width: Metres = 30,
                 names: [String]? = nil) throws -> (fences: [Fence], course: Course) {
    var fences: [Fence] = []
    for (k, d) in distances.enumerated() {
        let t = try XCTUnwrap(track.time(atDistance: d), "track too short for a gate at \(d) m")
        let centre = try XCTUnwrap(track.position(at: t))
        let ahead = try XCTUnwrap(track.position(at: t + 1))
        let behind = try XCTUnwrap(track.position(at: t - 1))
        let bearing = Geodesy.initialBearing(from: behind, to: ahead)
        let left = Geodesy.destination(from: centre, distance: width / 2, bearing: bearing - 90)
        let right = Geodesy.destination(from: centre, distance: width / 2, bearing: bearing + 90)
        let role: CourseRole = k == 0 ? .start : (k == distances.count - 1 ? .finish : .marker)
        let id = FenceID(index: k, name: names?[k] ?? "gate \(Int(d - distances[0])) m")
        fences.append(Fence(id: id, shape: .gate(line: [left, right], direction: .bearing(bearing)),
                            courseRole: role, courseDistance: d - distances[0]))
    }
    let course = Course(name: "simulated", gates: fences.map(\.id), distances: distances.map { $0 - distances[0] })
    return (fences, course)
}

/// Runs a monitor over the fixes (and strokes, interleaved by time); returns every event.
func monitor(_ fences: [Fence], course: Course?, fixes: [GPSFix],
             strokes: [(catchTime: Seconds, rate: StrokesPerMinute?)] = [],
             configuration: FenceMonitorConfiguration = .init()) -> (events: [FenceEvent], statistics: FenceStatistics) {
    var m = FenceMonitor(fences: fences, course: course, configuration: configuration)
    var events: [FenceEvent] = []
    var s = 0
    for fix in fixes {
        // Strokes arrive about a stroke late in the pipeline; feed them 3 s after their catch.
        while s < strokes.count, strokes[s].catchTime + 3 <= fix.time {
            m.stroke(catchTime: strokes[s].catchTime, rate: strokes[s].rate)
            s += 1
        }
        m.process(fix) { events.append($0) }
    }
    while s < strokes.count {
        m.stroke(catchTime: strokes[s].catchTime, rate: strokes[s].rate)
        s += 1
    }
    m.finish { events.append($0) }
    return (events, m.statistics)
}

extension Array where Element == FenceEvent {
    var crossings: [GateCrossing] { compactMap { if case .cross(let c) = $0 { return c } else { return nil } } }
    var segments: [CourseSegment] { compactMap { if case .segment(let s) = $0 { return s } else { return nil } } }
    var pieces: [CoursePiece] { compactMap { if case .piece(let p) = $0 { return p } else { return nil } } }
    var problems: [CourseProblem] { compactMap { if case .courseProblem(let p) = $0 { return p } else { return nil } } }
}

func fmt(_ x: Double, _ places: Int = 3) -> String {
    var scale = 1.0
    for _ in 0..<places { scale *= 10 }
    return String((x * scale).rounded() / scale)
}
