import Foundation
import OarlogFleet
import OarlogMQTT
import OarlogWorkouts
import Synchronization

/// The coach's plans on the boat (`serve --publish`): each new plan from `PREFIX/BOAT/plan` or
/// `PREFIX/all/plan` offered to the cox once, the cox's answer back on `PREFIX/BOAT/plan/answer`,
/// and the workout the recording rows published with the boat's other messages.
extension FleetLink {
    /// Connects the live station: the coach's plans become its offers (one that came before this
    /// waits for it), its answers go to the coach, its recording's workout to the fleet. Call
    /// before `station.start()`.
    public func offerPlans(to station: LiveStation) {
        let client = self.client
        let topic = connection.topics.planAnswer(boat: boat)
        let boat = self.boat
        let inbox = plans
        station.workoutAnswers = { offer, accepted in
            inbox.answered(offer.id)
            let answer = FleetPlanAnswer(id: offer.id, boat: boat, accepted: accepted, utc: Date().timeIntervalSince1970)
            client.publish(OutgoingMessage(topic: topic, payload: answer.payload, retain: true))
        }
        let feed = workoutFeed
        station.workoutEvents = { event in feed.push(event) }
        inbox.attach { [weak station] offer in station?.offerWorkout(offer.workoutOffer) }
    }

    /// Plans offered so far, and plans refused as unreadable (with the last reason).
    public var planCounts: (offered: Int, refused: Int, lastProblem: String?) { plans.counts }
}

/// The plans that reach a boat: each offer id once (a retained plan comes again with every
/// reconnect), none already answered, none older than one offered (the plan for this boat and the
/// plan for all both come back after a reconnect, in either order).
final class FleetPlanInbox: Sendable {
    private struct State {
        var seen: [String] = []
        var newestSent = -Double.infinity
        var waiting: FleetPlanOffer?
        var deliver: (@Sendable (FleetPlanOffer) -> Void)?
        var offered = 0
        var refused = 0
        var lastProblem: String?
    }
    /// Offer ids remembered (the oldest forgotten first).
    static let memory = 256
    private let state = Mutex(State())

    func receive(topic: String, payload: [UInt8], topics: FleetTopics) {
        // An empty retained message withdraws a plan: nothing to offer.
        guard let target = topics.parsePlan(topic), !payload.isEmpty else { return }
        let offer: FleetPlanOffer
        do { offer = try FleetPlanOffer(payload: payload, boat: target) } catch {
            state.withLock { s in
                s.refused += 1
                s.lastProblem = "\(topic): \(error)"
            }
            return
        }
        let deliver = state.withLock { s -> (@Sendable (FleetPlanOffer) -> Void)? in
            guard !s.seen.contains(offer.id), offer.sentUTC >= s.newestSent else { return nil }
            remember(offer.id, in: &s)
            s.newestSent = offer.sentUTC
            s.offered += 1
            if s.deliver == nil { s.waiting = offer }
            return s.deliver
        }
        deliver?(offer)
    }

    /// From now on offers go to `deliver` (the one that waited first).
    func attach(_ deliver: @escaping @Sendable (FleetPlanOffer) -> Void) {
        let waiting = state.withLock { s -> FleetPlanOffer? in
            s.deliver = deliver
            defer { s.waiting = nil }
            return s.waiting
        }
        if let waiting { deliver(waiting) }
    }

    /// An offer answered is not offered again.
    func answered(_ id: String) { state.withLock { remember(id, in: &$0) } }

    var counts: (offered: Int, refused: Int, lastProblem: String?) { state.withLock { ($0.offered, $0.refused, $0.lastProblem) } }

    private func remember(_ id: String, in s: inout State) {
        guard !s.seen.contains(id) else { return }
        if s.seen.count >= Self.memory { s.seen.removeFirst() }
        s.seen.append(id)
    }
}

/// Workout events handed from the live station's recording to the publisher on the source's
/// thread. At most `limit` wait (statuses come twice a second; the publisher takes them at
/// every event); past it the oldest status goes.
final class FleetWorkoutFeed: Sendable {
    static let limit = 256
    private let events = Mutex<[WorkoutEvent]>([])

    func push(_ event: WorkoutEvent) {
        events.withLock { list in
            if list.count >= Self.limit, let k = list.firstIndex(where: { if case .status = $0 { true } else { false } }) {
                list.remove(at: k)
            }
            if list.count < Self.limit { list.append(event) }
        }
    }

    func take() -> [WorkoutEvent] {
        events.withLock { list in
            guard !list.isEmpty else { return [] }
            defer { list.removeAll(keepingCapacity: true) }
            return list
        }
    }
}
