#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The few libm functions the fence geometry needs (no Foundation in this module).
@usableFromInline
enum FenceMath {
    @usableFromInline static func atan2(_ y: Double, _ x: Double) -> Double {
        #if canImport(Glibc)
        Glibc.atan2(y, x)
        #else
        Darwin.atan2(y, x)
        #endif
    }
    @usableFromInline static func sin(_ x: Double) -> Double {
        #if canImport(Glibc)
        Glibc.sin(x)
        #else
        Darwin.sin(x)
        #endif
    }
    @usableFromInline static func cos(_ x: Double) -> Double {
        #if canImport(Glibc)
        Glibc.cos(x)
        #else
        Darwin.cos(x)
        #endif
    }
    static let degreesToRadians = Double.pi / 180
}
