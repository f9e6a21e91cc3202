import OarlogCore
import OarlogLive

/// One assigned strap as the reader follows it: where it is on the bus, how far its connection
/// has got, its gap bookkeeping, its reconnect backoff and its flood limit. Reader thread only.
struct StrapLink {
    enum Phase: Equatable {
        /// Not connected: connect once the device is known and `retryAt` has come.
        case waiting(retryAt: Seconds)
        /// Device1.Connect sent (serial), at `since`.
        case connecting(serial: UInt32, since: Seconds)
        /// Connected; waiting for its services (the 0x2A37 characteristic) to start notifications.
        case connected(since: Seconds)
        /// GattCharacteristic1.StartNotify sent.
        case starting(serial: UInt32, since: Seconds)
        /// Notifications flow (or should).
        case notifying(since: Seconds)
    }

    let assignment: StrapAssignment
    var statistics: StrapStatistics
    var outages = OutageTracker(sensor: .heartRate)
    var backoff: ReconnectBackoff
    var flood: FloodLimiter
    var phase: Phase = .waiting(retryAt: 0)
    var devicePath: String?
    var characteristicPath: String?
    var lastNotificationAt: Seconds?

    init(_ assignment: StrapAssignment, configuration: HeartRateStrapConfiguration) {
        self.assignment = assignment
        statistics = StrapStatistics(seat: assignment.seat, address: assignment.address)
        backoff = ReconnectBackoff(initialDelay: configuration.initialRetryDelay, maximumDelay: configuration.maximumRetryDelay)
        flood = FloodLimiter(limit: configuration.notificationsPerSecondLimit)
    }

    /// "stroke's strap (AA:BB:…)", the start of its log lines and gap reasons.
    var label: String { "\(assignment.seat)'s strap (\(assignment.address))" }

    var isWaiting: Bool { if case .waiting = phase { return true } else { return false } }

    /// The strap is lost for `reason`: an outage opens (once it has sent data: a strap not yet
    /// met makes no gap), and the next attempt waits the backoff.
    mutating func drop(_ reason: String, now: Seconds, log: (String) -> Void) {
        let wasUp: Bool
        switch phase {
        case .waiting: wasUp = false
        case .connecting, .starting: wasUp = false
        case .connected, .notifying: wasUp = true
        }
        if wasUp { statistics.drops += 1 }
        statistics.connected = false
        if outages.lastDataAt != nil { outages.begin("\(label): \(reason)", now: now) }
        if backoff.recordFailure() || wasUp { log("heart rate: \(label): \(reason); reconnecting") }
        phase = .waiting(retryAt: now + backoff.delay)
        backoff.lengthen()
        lastNotificationAt = nil
    }
}
