import OarlogCore
import OarlogDSP
import OarlogFences
import OarlogPipeline
import OarlogWorkouts

/// A pipeline sink that tells the fleet what the boat is doing: a message at each catch and one
/// when the stroke is concluded (the same index, with everything), the
/// position at most once a second, the display's figures every `statusInterval` (retained),
/// notes, fence events, the crew's heart rates (in the status), the session's start and end, and
/// where the crew is in its workout plan
/// (at most once a second and at each step's change) with each interval. Each message gets the boat's next
/// sequence number; `send` hands it on (to an MQTT client's outbox). The same in `record`,
/// `serve` and `replay`.
///
/// It wants raw records for the fixes, notes and the session's `start_utc`, and takes runs of
/// accelerometer samples without looking at them. Nothing is kept but the last figures.
public final class FleetPublisher: PipelineSink {
    public let boat: String
    public let boatName: String
    public let topics: FleetTopics
    public let statusInterval: Seconds
    public let positionInterval: Seconds
    private let title: String
    private let send: (String, FleetMessage) -> Void
    private let describeFence: (FenceEvent) -> FleetFenceEvent
    private let wallClock: () -> Double
    /// Workout events from elsewhere (`serve`: the recording's pipeline), taken at each event.
    private let workoutFeed: (() -> [WorkoutEvent])?
    public let workoutInterval: Seconds
    private var lastWorkout: (time: Seconds, step: Int, phase: WorkoutStatus.Phase)?

    private var startUTC: Double?
    private var session = ""
    private var started = false
    private var sequence = 0
    private var lastPosition: Seconds = -.infinity
    private var lastStatus: Seconds = -.infinity
    private var live: LiveFigures?
    private var heartRates = CrewHeartRates()
    private var lastTime: Seconds = 0
    public private(set) var published = 0

    /// - Parameters:
    ///   - startUTC: UTC at session time 0 if known now; else the `start_utc` record, else `wallClock()`.
    ///   - workoutInterval: a workout status at most this often (and at each step's change).
    ///   - workoutFeed: workout events of a pipeline other than this one's (the live station's
    ///     recording), published at this pipeline's time when its next event comes.
    ///   - send: called with the topic and the message, on the pipeline's thread.
    public init(boatName: String, topics: FleetTopics, title: String, startUTC: Double? = nil, statusInterval: Seconds = 5,
                positionInterval: Seconds = 1, workoutInterval: Seconds = 1, wallClock: @escaping () -> Double,
                describeFence: @escaping (FenceEvent) -> FleetFenceEvent, workoutFeed: (() -> [WorkoutEvent])? = nil,
                send: @escaping (String, FleetMessage) -> Void) {
        self.workoutInterval = workoutInterval
        self.workoutFeed = workoutFeed
        // The name as receivers take it (`FleetText`), and the topic id from that: a receiver
        // shows a name only when it is the name of the boat's topic id.
        self.boatName = FleetText.clip(boatName, bytes: FleetText.nameBytes)
        self.boat = FleetTopics.boatID(self.boatName)
        self.topics = topics
        self.title = title
        self.startUTC = startUTC
        self.statusInterval = statusInterval
        // A little under a second, so that a 1 Hz receiver's every fix goes out despite jitter.
        self.positionInterval = positionInterval * 0.9
        self.describeFence = describeFence
        self.wallClock = wallClock
        self.send = send
    }

    public var wantsRawRecords: Bool { true }

    public func receive(accel samples: UnsafeBufferPointer<AccelSample>) {
        if let last = samples.last { lastTime = max(lastTime, last.time) }
        takeWorkoutFeed()
    }

    public func receive(_ event: PipelineEvent) {
        takeWorkoutFeed()
        switch event {
        case .record(.metadata(let key, let value)):
            if key == "start_utc", !started, let utc = UTCTime.parseISO8601(value) { startUTC = utc }
        case .record(let record):
            guard let t = record.time else { return }
            startIfNeeded()
            lastTime = max(lastTime, t)
            switch record {
            case .fix(let fix) where t - lastPosition >= positionInterval:
                lastPosition = t
                emit(at: t, .position(FleetPosition(latitude: fix.latitude, longitude: fix.longitude, speed: fix.speed,
                                                    course: fix.course, distance: live?.distance)))
            case .note(let note):
                emit(at: t, .note(note.text))
            case .heartRate(let h):
                heartRates.add(h)
            default:
                break
            }
        case .analysis(.caught(let metrics)):
            startIfNeeded()
            emit(at: metrics.stroke.catchTime, .caught(FleetCatch(metrics)))
        case .analysis(.withdrawn(let stroke)):
            startIfNeeded()
            emit(at: stroke.catchTime, .caught(FleetCatch(StrokeMetrics(stroke: stroke))))
        case .analysis(.stroke(let metrics)):
            startIfNeeded()
            emit(at: metrics.stroke.catchTime, .stroke(FleetStroke(metrics)))
        case .analysis(.speed):
            break  // the status carries the live split; the fused speed's samples are the recorder's
        case .analysis(.live(let figures)):
            startIfNeeded()
            live = figures
            if figures.time - lastStatus >= statusInterval {
                lastStatus = figures.time
                emit(at: figures.time, .status(status(of: figures, ended: false)), name: true)
            }
        case .fence(let event):
            startIfNeeded()
            if case .rejectedCrossing = event { return }
            emit(at: event.time, .fence(describeFence(event)))
        case .workout(let e):
            startIfNeeded()
            workout(e)
        case .ghost:
            break  // the race against a ghost is the boat's own: not published
        }
    }

    private func takeWorkoutFeed() {
        guard let workoutFeed else { return }
        let events = workoutFeed()
        guard !events.isEmpty else { return }
        startIfNeeded()
        for e in events { workout(e) }
    }

    /// A workout status (at most every `workoutInterval`, and whenever the step or the phase
    /// changes) or an interval, at the publisher's latest time.
    private func workout(_ event: WorkoutEvent) {
        switch event {
        case .status(let s):
            if let last = lastWorkout, last.step == s.stepIndex, last.phase == s.phase, lastTime - last.time < workoutInterval { return }
            lastWorkout = (lastTime, s.stepIndex, s.phase)
            emit(at: lastTime, .workout(s))
        case .interval(let i):
            emit(at: lastTime, .interval(i))
        case .planned, .started, .finished:
            break
        }
    }

    public func finish(summary: SessionSummary) {
        startIfNeeded()
        let end = lastTime
        if let live {
            var final = live
            final.strokes = summary.strokes
            final.distance = summary.distance ?? live.distance
            emit(at: end, .status(status(of: final, ended: true)), name: true)
        } else {
            emit(at: end, .status(FleetStatus(state: .ended, strokes: summary.strokes, strokeRate: nil, split: nil, speed: nil,
                                              distance: summary.distance ?? 0)), name: true)
        }
        emit(at: end, .session(FleetSessionEvent(started: false, title: title, summary: FleetSummary(summary))), name: true)
    }

    private func startIfNeeded() {
        guard !started else { return }
        started = true
        if startUTC == nil { startUTC = wallClock() }
        session = UTCTime.iso8601(startUTC ?? 0)
        emit(at: 0, .session(FleetSessionEvent(started: true, title: title)), name: true)
    }

    private func status(of f: LiveFigures, ended: Bool) -> FleetStatus {
        FleetStatus(state: ended ? .ended : (f.strokeRate == nil ? .paused : .rowing), strokes: f.strokes, strokeRate: f.strokeRate,
                    split: f.split, speed: f.speed, distance: f.distance, heartRates: heartRates.current(at: max(f.time, lastTime)))
    }

    private func emit(at time: Seconds, _ content: FleetContent, name: Bool = false) {
        sequence += 1
        published += 1
        let message = FleetMessage(boat: boat, boatName: name ? boatName : nil, session: session, sequence: sequence,
                                   utc: (startUTC ?? 0) + time, elapsed: time, content: content)
        send(topics.topic(boat: boat, message.kind), message)
    }
}
