import OarlogCore

/// xoshiro256** (Blackman & Vigna, 2018): a small, fast generator with good statistical quality.
/// Seeded through splitmix64 so any 64-bit seed gives a well-mixed state. The simulator uses its
/// own generator, not the system's, so a seed reproduces the same session on every machine.
public struct Xoshiro256StarStar: RandomNumberGenerator, Sendable {
    private var s0: UInt64
    private var s1: UInt64
    private var s2: UInt64
    private var s3: UInt64
    /// Box–Muller makes normal deviates in pairs; the second waits here.
    private var spareNormal: Double = 0
    private var hasSpareNormal = false

    /// A generator for `seed`; `stream` picks an independent sequence for the same seed (the
    /// simulator gives strokes, accelerometer noise and GPS noise their own streams so that,
    /// for example, changing the accelerometer rate does not change the strokes).
    public init(seed: UInt64, stream: UInt64 = 0) {
        var mix = seed ^ (stream &* 0x9E37_79B9_7F4A_7C15) ^ 0xD1B5_4A32_D192_ED03
        s0 = Self.splitMix64(&mix)
        s1 = Self.splitMix64(&mix)
        s2 = Self.splitMix64(&mix)
        s3 = Self.splitMix64(&mix)
        if s0 | s1 | s2 | s3 == 0 { s0 = 1 }
    }

    private static func splitMix64(_ state: inout UInt64) -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    @inline(__always)
    private static func rotateLeft(_ x: UInt64, _ k: UInt64) -> UInt64 {
        (x << k) | (x >> (64 - k))
    }

    @inlinable
    public mutating func next() -> UInt64 {
        nextWord()
    }

    @usableFromInline
    mutating func nextWord() -> UInt64 {
        let result = Self.rotateLeft(s1 &* 5, 7) &* 9
        let t = s1 << 17
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = Self.rotateLeft(s3, 45)
        return result
    }

    /// Uniform in [0, 1), 53 random bits.
    public mutating func uniform() -> Double {
        Double(nextWord() >> 11) * 0x1.0p-53
    }

    /// Uniform in [lower, upper).
    public mutating func uniform(_ lower: Double, _ upper: Double) -> Double {
        lower + (upper - lower) * uniform()
    }

    /// A standard normal deviate (mean 0, standard deviation 1), by the Box–Muller transform.
    public mutating func normal() -> Double {
        if hasSpareNormal {
            hasSpareNormal = false
            return spareNormal
        }
        // u1 in (0, 1] so the logarithm is finite.
        let u1 = 1.0 - uniform()
        let u2 = uniform()
        let radius = (-2.0 * _log(u1)).squareRoot()
        let angle = 2.0 * Double.pi * u2
        spareNormal = radius * _sin(angle)
        hasSpareNormal = true
        return radius * _cos(angle)
    }
}
