import OarlogCore

/// Raw samples kept while the mounting settles, to decide the sign of the surge axis and to
/// replay the strokes rowed meanwhile. A fixed-size ring: no allocation after `init`.
struct MountingHistory: Sendable {
    private var times: [Seconds]
    private var vectors: [SIMD3<Float>]
    private(set) var count = 0     // total appended
    let capacity: Int

    init(capacity: Int) {
        self.capacity = max(16, capacity)
        times = [Seconds](repeating: 0, count: self.capacity)
        vectors = [SIMD3<Float>](repeating: .zero, count: self.capacity)
    }

    @inline(__always)
    mutating func append(time: Seconds, vector: SIMD3<Float>) {
        let slot = count % capacity
        times[slot] = time
        vectors[slot] = vector
        count += 1
    }

    mutating func removeAll() { count = 0 }

    var oldest: Int { max(0, count - capacity) }
    func time(_ n: Int) -> Seconds { times[n % capacity] }
    func vector(_ n: Int) -> SIMD3<Double> { SIMD3<Double>(vectors[n % capacity]) }

    /// The oldest sample held whose time is at or after `time`.
    func firstIndex(atOrAfter time: Seconds) -> Int {
        var n = count
        while n > oldest && self.time(n - 1) >= time { n -= 1 }
        return n
    }
}
