import OarlogCore

/// A running FNV-1a hash of stroke events, field by field as bit patterns (`oarlog-bench
/// digest`): two runs with the same digest emitted the same events, bit for bit.
struct EventDigest {
    private(set) var events = 0
    private var hash: UInt64 = 0xcbf2_9ce4_8422_2325

    var hex: String { String(hash, radix: 16) }

    mutating func add(_ event: StrokeEvent) {
        events += 1
        mix(UInt64(bitPattern: Int64(event.index)))
        mix(event.catchTime.bitPattern)
        mix(event.driveDuration.bitPattern)
        mix(event.recoveryDuration?.bitPattern ?? 0x7ff8_dead_0000_0001)
        mix(UInt64(event.peakAcceleration.bitPattern))
        mix(event.strokeRate?.bitPattern ?? 0x7ff8_dead_0000_0002)
        mix(String(describing: event.stage).utf8.reduce(UInt64(0)) { $0 &* 31 &+ UInt64($1) })
    }

    private mutating func mix(_ word: UInt64) {
        for shift in stride(from: 0, to: 64, by: 8) {
            hash = (hash ^ ((word >> UInt64(shift)) & 0xff)) &* 0x100_0000_01b3
        }
    }
}
