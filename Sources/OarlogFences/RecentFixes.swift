import OarlogCore

/// The last accepted fixes (fixed capacity, overwritten in a ring): what a gate crossing is
/// fitted on once it is confirmed.
struct RecentFixes: Sendable {
    struct Entry: Sendable {
        var time: Seconds
        var point: GeoPoint
        var speed: MetresPerSecond?
    }

    private var storage: [Entry]
    private var next = 0
    private(set) var count = 0

    init(capacity: Int) {
        storage = Array(repeating: Entry(time: 0, point: GeoPoint(latitude: 0, longitude: 0), speed: nil), count: capacity)
    }

    mutating func append(_ fix: GPSFix) {
        storage[next] = Entry(time: fix.time, point: fix.point, speed: fix.speed)
        next = (next + 1) % storage.count
        count = min(count + 1, storage.count)
    }

    /// Visits the stored fixes from the oldest to the newest.
    func forEach(_ body: (Entry) -> Void) {
        let start = (next - count + storage.count) % storage.count
        for k in 0..<count { body(storage[(start + k) % storage.count]) }
    }
}
