import OarlogCore
import OarlogPipeline
import OarlogWorkouts

/// A plan sent by the coach (`serve --coach` → MQTT), waiting for the cox's answer.
public struct WorkoutOffer: Sendable, Equatable {
    /// The coach's id for this sending (answers quote it).
    public var id: String
    /// Who sent it (the coach's name or client id).
    public var from: String
    public var plan: WorkoutPlan
    public init(id: String, from: String, plan: WorkoutPlan) {
        self.id = id
        self.from = from
        self.plan = plan
    }
}

/// The workout on the cox's screen: the plan chosen for the next recording (on the page, by
/// `serve --workout`, or a coach's plan the cox accepted), the coach's offer, and the plan's
/// status and intervals while a recording rows it (the live stream's `workout`, `interval`,
/// `workout_plan` and `workout_offer` messages).
extension LiveStation {
    public enum WorkoutError: Error, Equatable, CustomStringConvertible {
        case recording
        case noOffer(id: String)
        public var description: String {
            switch self {
            case .recording: return "a recording is rowing its plan: stop it before choosing another"
            case .noOffer(let id): return "no plan \(id) is waiting for an answer"
            }
        }
    }

    /// The plan the next recording rows (nil: none).
    public var workout: WorkoutPlan? { state.withLock { $0.workout } }
    /// The coach's plan waiting for an answer.
    public var workoutOffer: WorkoutOffer? { state.withLock { $0.workoutOffer } }
    /// The plan's status while a recording rows it.
    public var workoutStatus: WorkoutStatus? { state.withLock { $0.workoutStatus } }

    /// Chooses the plan the next recording rows (nil: none). Refused while recording.
    public func chooseWorkout(_ plan: WorkoutPlan?, startsAtGo: Bool = false) throws {
        try state.withLock { s in
            guard s.recording == nil else { throw WorkoutError.recording }
            s.workout = plan
            s.workoutStartsAtGo = startsAtGo
            s.workoutStatus = nil
        }
        broadcast(LiveMessage.workoutPlan(plan, startsAtGo: startsAtGo))
    }

    /// A plan the coach sent: the cox sees it and accepts or declines it (`answerWorkoutOffer`).
    /// A newer offer replaces one not yet answered.
    public func offerWorkout(_ offer: WorkoutOffer) {
        state.withLock { $0.workoutOffer = offer }
        broadcast(LiveMessage.workoutOffer(offer))
    }

    /// The cox's answer: accepting makes the plan the next recording's (not while recording: the
    /// offer then stays). `workoutAnswers` (the fleet) hears it either way.
    @discardableResult
    public func answerWorkoutOffer(id: String, accept: Bool) throws -> WorkoutOffer {
        let offer = try state.withLock { s -> WorkoutOffer in
            guard let offer = s.workoutOffer, offer.id == id else { throw WorkoutError.noOffer(id: id) }
            if accept {
                guard s.recording == nil else { throw WorkoutError.recording }
                s.workout = offer.plan
                s.workoutStatus = nil
            }
            s.workoutOffer = nil
            return offer
        }
        if accept { broadcast(LiveMessage.workoutPlan(offer.plan, startsAtGo: false)) }
        broadcast(LiveMessage.workoutOffer(nil))
        workoutAnswers?(offer, accept)
        return offer
    }

    /// The tracker a new recording runs (session time 0 is the go).
    func trackerForRecording() -> WorkoutTracker? {
        state.withLock { s in
            s.workoutStatus = nil
            return s.workout.map { WorkoutTracker(plan: $0, goTime: s.workoutStartsAtGo ? 0 : nil) }
        }
    }

    /// A recording's workout event: the status and each interval to the phones.
    func workoutEvent(_ event: WorkoutEvent) {
        switch event {
        case .status(let status):
            state.withLock { $0.workoutStatus = status }
            broadcast(LiveMessage.workout(status))
        case .interval(let interval):
            broadcast(LiveMessage.interval(interval))
        case .started, .finished, .planned:
            break
        }
    }
}
