import OarlogCore

/// The last accepted fixes (a `RingBuffer`, the oldest overwritten): what a gate crossing is
/// fitted on once it is confirmed.
struct RecentFixes: Sendable {
    struct Entry: Sendable {
        var time: Seconds
        var point: GeoPoint
        var speed: MetresPerSecond?
    }

    private var ring: RingBuffer<Entry>

    init(capacity: Int) {
        ring = RingBuffer(capacity: capacity, filler: Entry(time: 0, point: GeoPoint(latitude: 0, longitude: 0), speed: nil))
    }

    mutating func append(_ fix: GPSFix) {
        ring.append(Entry(time: fix.time, point: fix.point, speed: fix.speed))
    }

    /// Visits the stored fixes from the oldest to the newest.
    func forEach(_ body: (Entry) -> Void) {
        for entry in ring { body(entry) }
    }
}
