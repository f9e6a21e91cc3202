import OarlogCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Thin wrappers so the simulator's files need not each import the C library, and so calls read
// the same on Linux and macOS.
@inline(__always) func _sin(_ x: Double) -> Double { sin(x) }
@inline(__always) func _cos(_ x: Double) -> Double { cos(x) }
@inline(__always) func _log(_ x: Double) -> Double { log(x) }
@inline(__always) func _exp(_ x: Double) -> Double { exp(x) }
@inline(__always) func _pow(_ x: Double, _ y: Double) -> Double { pow(x, y) }
@inline(__always) func _atan2(_ y: Double, _ x: Double) -> Double { atan2(y, x) }
@inline(__always) func _asin(_ x: Double) -> Double { asin(x) }

let degreesToRadians = Double.pi / 180
let radiansToDegrees = 180 / Double.pi
