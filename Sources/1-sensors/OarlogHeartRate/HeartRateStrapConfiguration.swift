import OarlogCore

/// A strap given to a seat: the seat's short name ("stroke", "bow", "2") and the strap's
/// Bluetooth address (`AA:BB:CC:DD:EE:FF`).
public struct StrapAssignment: Sendable, Equatable, Hashable {
    public var seat: String
    public var address: String
    public init(seat: String, address: String) {
        self.seat = seat
        self.address = address.uppercased()
    }
}

/// How `HeartRateStrapSource` reads the straps.
public struct HeartRateStrapConfiguration: Sendable {
    /// At most this many straps at once (a crew of eight; a cox has no strap in the boat's count).
    public static let maximumStraps = 8

    /// The straps to read (the first `maximumStraps`).
    public var straps: [StrapAssignment]
    /// The D-Bus address of bluetoothd's bus; `nil`: the system bus (`DBUS_SYSTEM_BUS_ADDRESS`
    /// when set, else /run/dbus/system_bus_socket).
    public var busAddress: String?
    /// A strap sending more notifications than this in one second has the rest counted and
    /// skipped (a real strap sends about one a second).
    public var notificationsPerSecondLimit = 20
    /// Connected but no notification for this long: the strap counts as dropped and is reconnected.
    public var silenceTimeout: Seconds = 5
    /// A Connect or StartNotify unanswered for this long is given up and tried again.
    public var callTimeout: Seconds = 15
    /// First wait before connecting a dropped strap again; doubled per attempt up to the maximum.
    public var initialRetryDelay: Seconds = 0.5
    public var maximumRetryDelay: Seconds = 8
    /// The longest wait of one bus read (how late a stop or a silence is noticed).
    public var pollInterval: Seconds = 0.1
    /// Records buffered between the reader thread and the pipeline.
    public var queueCapacity = 1024
    /// Called on the reader thread with each accepted measurement (seat, measurement, session
    /// time), before it is queued: RR intervals and contact, which the trace does not keep.
    public var measurementTap: (@Sendable (String, HeartRateMeasurement, Seconds) -> Void)?

    public init(straps: [StrapAssignment], busAddress: String? = nil) {
        self.straps = Array(straps.prefix(Self.maximumStraps))
        self.busAddress = busAddress
    }
}

/// Counts per strap, as skipped notifications must be counted (a snapshot).
public struct StrapStatistics: Sendable, Equatable {
    public var seat: String
    public var address: String
    public var name: String?
    public var connected = false
    /// Notifications received (all of them).
    public var notifications = 0
    /// Heart rates handed to the pipeline.
    public var delivered = 0
    /// Notifications that were not a usable measurement (short, wrong length, 0 or > 250 bpm).
    public var rejected = 0
    /// Notifications over the per-second limit.
    public var flooded = 0
    /// Times the strap connected (the first included).
    public var connections = 0
    /// Drops (disconnected, removed, silent).
    public var drops = 0
    public var gaps = 0
    public var lastBeatsPerMinute: Int?
    public var lastRejection: String?
    public init(seat: String, address: String) {
        self.seat = seat
        self.address = address
    }
}

/// At most `limit` notifications in any one-second window that starts with a notification; the
/// rest of that window is skipped. Constant memory.
struct FloodLimiter: Sendable {
    let limit: Int
    private var windowStart: Seconds = -.infinity
    private var countInWindow = 0

    init(limit: Int) { self.limit = max(1, limit) }

    /// True when a notification at `time` may pass.
    mutating func admit(at time: Seconds) -> Bool {
        if time - windowStart >= 1 {
            windowStart = time
            countInWindow = 0
        }
        countInWindow += 1
        return countInWindow <= limit
    }
}
