import OarlogCore

/// Finds the complete passages of a course in a recorded outing: its GPS fixes and its strokes
/// (catch time, rate) go through the same `FenceMonitor` and `CourseTracker` that time a course
/// live and in `oarlog course`, so an attempt found here has the very times that command gives.
/// A passage counts when the start was crossed the right way, then every marker in order, then
/// the finish: a piece that skipped a marker (or was given up, or rowed the wrong way) is not an
/// attempt. Pure: no I/O, memory bounded by the course and the pieces found.
public enum CourseSearch {
    /// A stroke as the search needs it.
    public struct Stroke: Sendable, Equatable {
        public var catchTime: Seconds
        public var rate: StrokesPerMinute?
        public init(catchTime: Seconds, rate: StrokesPerMinute?) {
            self.catchTime = catchTime
            self.rate = rate
        }
    }

    /// The course's complete passages in `fixes` (time order) with `strokes` (time order) counted
    /// into their legs. Only the course's gates are watched (areas cost fixes nothing here).
    public static func passages(of file: FenceFile, fixes: [GPSFix], strokes: [Stroke],
                                configuration: FenceMonitorConfiguration = .init()) -> [CoursePiece] {
        guard let course = file.course else { return [] }
        var monitor = FenceMonitor(fences: CourseCheck.gateFences(file), course: course, configuration: configuration)
        var pieces: [CoursePiece] = []
        let collect: (FenceEvent) -> Void = { event in
            if case .piece(let piece) = event, piece.segments.allSatisfy({ $0.missedGates.isEmpty }),
               piece.segments.count == course.gates.count - 1 {
                pieces.append(piece)
            }
        }
        // Strokes go in at their catch, among the fixes: a stroke whose catch is before a gate
        // counts in the leg it was rowed in, as the tracker's wait for late strokes does live.
        var s = 0
        for fix in fixes {
            while s < strokes.count, strokes[s].catchTime < fix.time {
                monitor.stroke(catchTime: strokes[s].catchTime, rate: strokes[s].rate)
                s += 1
            }
            monitor.process(fix, emit: collect)
        }
        while s < strokes.count {
            monitor.stroke(catchTime: strokes[s].catchTime, rate: strokes[s].rate)
            s += 1
        }
        monitor.finish(emit: collect)
        return pieces
    }

    /// A box (south, north, west, east, degrees) around each of the course's start and finish
    /// lines, `margin` metres wide of them: an outing whose track's box does not take in both
    /// cannot hold a passage (the archive's cheap first test, before any file is read).
    public static func startAndFinishBoxes(of file: FenceFile, margin: Metres = 50)
        -> [(south: Degrees, north: Degrees, west: Degrees, east: Degrees)] {
        let lines = CourseCheck.gateLines(file)
        guard let first = lines.first, let last = lines.last, lines.count >= 2 else { return [] }
        return [first, last].map { line in
            let south = line.map(\.latitude).min()!, north = line.map(\.latitude).max()!
            let west = line.map(\.longitude).min()!, east = line.map(\.longitude).max()!
            let latSpan = margin / 110_574
            let cosine = FenceMath.cos(min(89.9, max(abs(south), abs(north))) * FenceMath.degreesToRadians)
            let lonSpan = margin / (111_320 * max(0.01, cosine))
            return (south - latSpan, north + latSpan, west - lonSpan, east + lonSpan)
        }
    }
}
