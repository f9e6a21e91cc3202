/// Two biquads run side by side in the lanes of one vector (lane 0 the first, lane 1 the
/// second; lanes 2 and 3 idle): each `process` is one pass of both, lane by lane the same
/// arithmetic as `Biquad.process`. The stroke detector's block path pipelines its band-pass
/// this way: each pass high-passes the new sample and low-passes the previous one.
struct BiquadPair: Sendable {
    let b0: SIMD4<Float>, b1: SIMD4<Float>, b2: SIMD4<Float>, a1: SIMD4<Float>, a2: SIMD4<Float>
    var z1: SIMD4<Float>, z2: SIMD4<Float>

    init(_ first: Biquad, _ second: Biquad) {
        b0 = SIMD4(first.b0, second.b0, 0, 0); b1 = SIMD4(first.b1, second.b1, 0, 0)
        b2 = SIMD4(first.b2, second.b2, 0, 0)
        a1 = SIMD4(first.a1, second.a1, 0, 0); a2 = SIMD4(first.a2, second.a2, 0, 0)
        z1 = SIMD4(first.z1, second.z1, 0, 0); z2 = SIMD4(first.z2, second.z2, 0, 0)
    }

    /// Filters `x[0]` through the first and `x[1]` through the second.
    @inline(__always)
    mutating func process(_ x: SIMD4<Float>) -> SIMD4<Float> {
        let y = b0 * x + z1
        z1 = b1 * x - a1 * y + z2
        z2 = b2 * x - a2 * y
        return y
    }

    /// Takes back the first's last sample: its state as it was in `before`.
    @inline(__always)
    mutating func undoFirst(to before: BiquadPair) {
        z1[0] = before.z1[0]; z2[0] = before.z2[0]
    }

    /// The two biquads' state written back.
    func store(first: inout Biquad, second: inout Biquad) {
        first.z1 = z1[0]; first.z2 = z2[0]
        second.z1 = z1[1]; second.z2 = z2[1]
    }
}
