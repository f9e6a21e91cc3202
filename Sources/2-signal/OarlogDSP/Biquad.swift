#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import OarlogCore

/// A second-order IIR section (transposed direct form II), the building block of the stroke
/// band-pass. Float state and coefficients: the sensors give far less than 24 bits.
public struct Biquad: Sendable, Equatable {
    public var b0: Float, b1: Float, b2: Float, a1: Float, a2: Float
    @usableFromInline var z1: Float = 0
    @usableFromInline var z2: Float = 0

    public init(b0: Float, b1: Float, b2: Float, a1: Float, a2: Float) {
        self.b0 = b0; self.b1 = b1; self.b2 = b2; self.a1 = a1; self.a2 = a2
    }

    /// Butterworth (Q = 1/√2) low-pass with cut-off `cutoff` at sample rate `sampleRate`
    /// (bilinear transform with pre-warping). The cut-off is clamped below Nyquist.
    public static func lowPass(cutoff: Hertz, sampleRate: Hertz) -> Biquad {
        let k = tan(Double.pi * min(cutoff / sampleRate, 0.45))
        let norm = 1 / (1 + 2.0.squareRoot() * k + k * k)
        let b0 = k * k * norm
        return Biquad(b0: Float(b0), b1: Float(2 * b0), b2: Float(b0),
                      a1: Float(2 * (k * k - 1) * norm), a2: Float((1 - 2.0.squareRoot() * k + k * k) * norm))
    }

    /// Butterworth (Q = 1/√2) high-pass with cut-off `cutoff` at sample rate `sampleRate`.
    public static func highPass(cutoff: Hertz, sampleRate: Hertz) -> Biquad {
        let k = tan(Double.pi * min(cutoff / sampleRate, 0.45))
        let norm = 1 / (1 + 2.0.squareRoot() * k + k * k)
        return Biquad(b0: Float(norm), b1: Float(-2 * norm), b2: Float(norm),
                      a1: Float(2 * (k * k - 1) * norm), a2: Float((1 - 2.0.squareRoot() * k + k * k) * norm))
    }

    /// Filters one sample.
    @inlinable @inline(__always)
    public mutating func process(_ x: Float) -> Float {
        let y = b0 * x + z1
        z1 = b1 * x - a1 * y + z2
        z2 = b2 * x - a2 * y
        return y
    }

    /// Gain at 0 Hz.
    public var dcGain: Float { (b0 + b1 + b2) / (1 + a1 + a2) }

    /// Sets the state as if `x` had been the input forever (no start-up transient).
    public mutating func settle(at x: Float) {
        let y = dcGain * x
        z1 = y - b0 * x
        z2 = b2 * x - a2 * y
    }

    /// Replaces the coefficients and keeps the state (for a small change of sample rate).
    public mutating func setCoefficients(from other: Biquad) {
        b0 = other.b0; b1 = other.b1; b2 = other.b2; a1 = other.a1; a2 = other.a2
    }
}
