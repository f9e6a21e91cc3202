import OarlogCore

/// Follows a piece along a course from gate crossings: a piece starts at the start gate (crossed
/// the right way) and ends at the finish; each leg gets its time, split and mean stroke rate.
/// A gate skipped is reported as missed (the leg then spans it), a gate crossed against its
/// direction as wrong way, a piece given up (new start, end of session) as incomplete.
///
/// Leg results wait `strokeLatency` after the leg's end (trace time) so that strokes reported
/// late by the detector still count in the leg their catch fell in. Memory is bounded by the
/// number of gates.
public struct CourseTracker: Sendable {
    public let course: Course
    public let strokeLatency: Seconds

    /// Index (in the course) of the last gate crossed in the current piece, `nil` between pieces.
    private var lastGate: Int?
    private var pieceStart: Seconds = 0
    private var lastGateTime: Seconds = 0
    private var legs: [CourseSegment] = []
    private var missedInLeg: [FenceID] = []
    // Strokes of the leg under way.
    private var legStrokes = 0
    private var legRateSum = 0.0
    private var legRates = 0
    /// Finished legs waiting for late strokes, and the finished piece waiting for them.
    private var pending: [(leg: CourseSegment, rateSum: Double, rates: Int)] = []
    private var pendingPiece: CoursePiece?
    private var pendingReadyAt: Seconds = .infinity

    public init(course: Course, strokeLatency: Seconds = 12) {
        self.course = course
        self.strokeLatency = strokeLatency
    }

    /// The course position of a fence, if it is one of the course's gates.
    public func order(of fence: FenceID) -> Int? { course.gates.firstIndex(of: fence) }

    /// Feeds a gate crossing (any gate; those not in the course are ignored).
    public mutating func crossed(_ crossing: GateCrossing, emit: (FenceEvent) -> Void) {
        guard let k = order(of: crossing.gate) else { return }
        advance(to: crossing.time, emit: emit)
        let t = crossing.time
        if crossing.wrongWay {
            emit(.courseProblem(.wrongWay(gate: crossing.gate, time: t)))
            return
        }
        if k == 0 {
            if let lastGate, lastGate > 0 {
                emit(.courseProblem(.incomplete(startTime: pieceStart, reached: course.gates[lastGate], time: t)))
            }
            flushPending(emit: emit)
            startPiece(at: t)
            return
        }
        guard let last = lastGate else {
            emit(.courseProblem(.notStarted(gate: crossing.gate, time: t)))
            return
        }
        guard k > last else { return }  // a gate already passed, crossed again: nothing new
        for skipped in (last + 1)..<k {
            missedInLeg.append(course.gates[skipped])
            emit(.courseProblem(.missedGate(gate: course.gates[skipped], time: t)))
        }
        let leg = CourseSegment(number: legs.count + pending.count + 1, from: course.gates[last], to: crossing.gate,
                                startTime: lastGateTime, endTime: t,
                                distance: course.distances[k] - course.distances[last],
                                strokes: legStrokes, strokeRate: nil, missedGates: missedInLeg)
        flushPending(emit: emit)
        pending.append((leg, legRateSum, legRates))
        pendingReadyAt = t + strokeLatency
        legStrokes = 0
        legRateSum = 0
        legRates = 0
        missedInLeg = []
        lastGate = k
        lastGateTime = t
        if k == course.gates.count - 1 {
            pendingPiece = CoursePiece(course: course.name, startTime: pieceStart, finishTime: t,
                                       distance: course.length, segments: [])
            lastGate = nil
        }
    }

    /// Feeds a stroke: its catch time and rate (`nil` when the stroke had none).
    public mutating func stroke(catchTime: Seconds, rate: StrokesPerMinute?) {
        if let i = pending.firstIndex(where: { catchTime >= $0.leg.startTime && catchTime < $0.leg.endTime }) {
            pending[i].leg.strokes += 1
            if let rate { pending[i].rateSum += rate; pending[i].rates += 1 }
            return
        }
        guard lastGate != nil, catchTime >= lastGateTime else { return }
        legStrokes += 1
        if let rate { legRateSum += rate; legRates += 1 }
    }

    /// Tells the tracker the trace time has reached `time`: emits leg results whose wait is over.
    public mutating func advance(to time: Seconds, emit: (FenceEvent) -> Void) {
        if time >= pendingReadyAt { flushPending(emit: emit) }
    }

    /// End of the session: emits what is pending and reports a piece under way as incomplete.
    public mutating func finish(at time: Seconds, emit: (FenceEvent) -> Void) {
        flushPending(emit: emit)
        if let lastGate {
            emit(.courseProblem(.incomplete(startTime: pieceStart, reached: course.gates[lastGate], time: time)))
            self.lastGate = nil
        }
    }

    private mutating func startPiece(at t: Seconds) {
        lastGate = 0
        pieceStart = t
        lastGateTime = t
        legs = []
        missedInLeg = []
        legStrokes = 0
        legRateSum = 0
        legRates = 0
    }

    private mutating func flushPending(emit: (FenceEvent) -> Void) {
        for var entry in pending {
            entry.leg.strokeRate = entry.rates > 0 ? entry.rateSum / Double(entry.rates) : nil
            legs.append(entry.leg)
            emit(.segment(entry.leg))
        }
        pending.removeAll(keepingCapacity: true)
        pendingReadyAt = .infinity
        if var piece = pendingPiece {
            piece.segments = legs.suffix(while: { $0.startTime >= piece.startTime })
            emit(.piece(piece))
            pendingPiece = nil
        }
    }
}

extension Array {
    /// The longest run at the end of the array whose elements all satisfy `predicate`.
    fileprivate func suffix(while predicate: (Element) -> Bool) -> [Element] {
        var start = count
        while start > 0 && predicate(self[start - 1]) { start -= 1 }
        return Array(self[start...])
    }
}
