import Foundation

/// A small reproducible random source for test inputs (SplitMix64, Steele et al. 2014): the same
/// state gives the same sequence on every machine.
public struct SplitMix64: Sendable {
    public private(set) var state: UInt64
    public init(state: UInt64) { self.state = state }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1): one of 2⁵³ equally spaced values, 0 included.
    public mutating func uniform() -> Double { Double(next() >> 11) / Double(1 << 53) }

    /// Uniform in (0, 1): the centre of one of 2⁵³ equal bins, so never 0 (safe under `log`).
    public mutating func uniformOpen() -> Double { (Double(next() >> 11) + 0.5) / Double(1 << 53) }

    /// Standard normal (Box–Muller on two open uniforms, the first under the `log`).
    public mutating func standardNormal() -> Double {
        let u = uniformOpen(), v = uniformOpen()
        return (-2 * log(u)).squareRoot() * cos(2 * Double.pi * v)
    }
}
