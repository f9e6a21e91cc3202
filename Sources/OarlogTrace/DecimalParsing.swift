#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// ASCII bytes the trace parsers look for.
enum ASCII {
    static let tab: UInt8 = 9
    static let newline: UInt8 = 10
    static let carriageReturn: UInt8 = 13
    static let space: UInt8 = 32
    static let quote: UInt8 = 34
    static let hash: UInt8 = 35
    static let plus: UInt8 = 43
    static let comma: UInt8 = 44
    static let minus: UInt8 = 45
    static let dot: UInt8 = 46
    static let zero: UInt8 = 48
    static let colon: UInt8 = 58
}

/// How a numeric CSV field scanned.
enum NumberStatus: UInt8 {
    case number
    /// Nothing between the separators.
    case empty
    /// `nan`, `inf`, `infinity` (any case, optional sign), or a value too large for the type.
    case nonFinite
    /// Anything else: not a decimal number.
    case invalid
}

/// Exact powers of ten representable in a Double (10^0 … 10^22: 5^22 < 2^53).
@inline(__always)
func exactPowerOfTen(_ k: Int) -> Double {
    switch k {
    case 0: return 1e0
    case 1: return 1e1
    case 2: return 1e2
    case 3: return 1e3
    case 4: return 1e4
    case 5: return 1e5
    case 6: return 1e6
    case 7: return 1e7
    case 8: return 1e8
    case 9: return 1e9
    case 10: return 1e10
    case 11: return 1e11
    case 12: return 1e12
    case 13: return 1e13
    case 14: return 1e14
    case 15: return 1e15
    case 16: return 1e16
    case 17: return 1e17
    case 18: return 1e18
    case 19: return 1e19
    case 20: return 1e20
    case 21: return 1e21
    default: return 1e22
    }
}

/// Byte-level decimal parsing for CSV fields. A field ends at `,`, at `\n`, or at `\r` right
/// before `\n`; the buffer must hold a `\n` at or after the field (the readers keep a sentinel).
/// Nothing here allocates.
enum DecimalParsing {
    /// Fast path (Clinger): a plain decimal `[+-]digits[.digits]` whose digits, read as one
    /// integer, are below 2^53 and with at most 22 fraction digits is exactly
    /// `mantissa / 10^fractionDigits`, both operands exact, so one IEEE division rounds correctly.
    /// Returns nil (without moving `i`) when the field needs the slow path.
    @inline(__always)
    static func fastDecimal(_ p: UnsafePointer<UInt8>, _ i: inout Int) -> Double? {
        var j = i
        let first = p[j]
        let negative = first == ASCII.minus
        if negative || first == ASCII.plus { j &+= 1 }
        var mantissa: UInt64 = 0
        let integerStart = j
        while true {
            let d = p[j] &- ASCII.zero
            if d > 9 { break }
            mantissa = mantissa &* 10 &+ UInt64(d)
            j &+= 1
        }
        var digitCount = j &- integerStart
        var fractionDigits = 0
        if p[j] == ASCII.dot {
            j &+= 1
            let fractionStart = j
            while true {
                let d = p[j] &- ASCII.zero
                if d > 9 { break }
                mantissa = mantissa &* 10 &+ UInt64(d)
                j &+= 1
            }
            fractionDigits = j &- fractionStart
            digitCount &+= fractionDigits
        }
        let terminator = p[j]
        guard digitCount > 0, digitCount <= 19, mantissa <= (1 << 53), fractionDigits <= 22,
              terminator == ASCII.comma || terminator == ASCII.newline
                || (terminator == ASCII.carriageReturn && p[j &+ 1] == ASCII.newline)
        else { return nil }
        var value = Double(mantissa)
        if fractionDigits > 0 { value /= exactPowerOfTen(fractionDigits) }
        i = j
        return negative ? -value : value
    }

    /// Scans a Double field; `i` ends at the field's terminator (also on failure, so the caller
    /// can quote the field).
    @inline(__always)
    static func scanDouble(_ p: UnsafePointer<UInt8>, _ i: inout Int) -> (value: Double, status: NumberStatus) {
        if let v = fastDecimal(p, &i) { return (v, .number) }
        return slowDouble(p, &i)
    }

    /// Scans a Float field, correctly rounded. The fast path rounds the decimal to the nearest
    /// Double and then to Float; that double rounding can only differ from direct rounding when
    /// the Double lands exactly on a midpoint between two Floats (the Double is the nearest
    /// double to the decimal, and every Float midpoint is itself a Double), so that case, and
    /// subnormal Floats, go to `strtof`.
    @inline(__always)
    static func scanFloat(_ p: UnsafePointer<UInt8>, _ i: inout Int) -> (value: Float, status: NumberStatus) {
        var j = i
        if let d = fastDecimal(p, &j) {
            let magnitude = d.magnitude
            let isMidpoint = (d.bitPattern & 0x1FFF_FFFF) == 0x1000_0000
            if !isMidpoint && (magnitude >= Double(Float.leastNormalMagnitude) || magnitude == 0) {
                let f = Float(d)
                i = j
                return f.isFinite ? (f, .number) : (f, .nonFinite)
            }
        }
        return slowFloat(p, &i)
    }

    /// The field [i, end): stops at `,`, `\n`, or `\r\n`.
    @inline(__always)
    static func fieldEnd(_ p: UnsafePointer<UInt8>, from i: Int) -> Int {
        var j = i
        while true {
            let c = p[j]
            if c == ASCII.comma || c == ASCII.newline { return j }
            if c == ASCII.carriageReturn && p[j &+ 1] == ASCII.newline { return j }
            j &+= 1
        }
    }

    /// Longest field the slow path accepts (a Double needs at most ~25 characters; a generous
    /// limit keeps the stack buffer small).
    static let maxNumberLength = 64

    /// Classifies a field the fast path did not take and copies it, NUL-terminated, to `buffer`.
    @inline(__always)
    private static func prepareSlowField(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int,
                                         _ buffer: UnsafeMutablePointer<CChar>) -> NumberStatus {
        let length = end - start
        if length == 0 { return .empty }
        if length > maxNumberLength { return .invalid }
        // nan / inf / infinity, any case, optional sign.
        var k = start
        if p[k] == ASCII.plus || p[k] == ASCII.minus { k += 1 }
        let word = end - k
        if (word == 3 && (matches(p, k, "nan") || matches(p, k, "inf")))
            || (word == 8 && matches(p, k, "infinity")) {
            return .nonFinite
        }
        for n in start..<end {
            let c = p[n]
            let ok = (c >= ASCII.zero && c <= ASCII.zero + 9) || c == ASCII.plus || c == ASCII.minus
                || c == ASCII.dot || c == 0x65 || c == 0x45
            if !ok { return .invalid }
            buffer[n - start] = CChar(bitPattern: c)
        }
        buffer[length] = 0
        return .number
    }

    /// Whether the bytes at `k` spell `word` (lowercase ASCII), ignoring case.
    private static func matches(_ p: UnsafePointer<UInt8>, _ k: Int, _ word: StaticString) -> Bool {
        let w = word.utf8Start
        for n in 0..<word.utf8CodeUnitCount where p[k + n] | 0x20 != w[n] { return false }
        return true
    }

    @inline(never)
    static func slowDouble(_ p: UnsafePointer<UInt8>, _ i: inout Int) -> (value: Double, status: NumberStatus) {
        let start = i
        let end = fieldEnd(p, from: start)
        i = end
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: maxNumberLength + 1) { buffer in
            let base = buffer.baseAddress!
            let status = prepareSlowField(p, start, end, base)
            guard status == .number else { return (.nan, status) }
            var stop: UnsafeMutablePointer<CChar>? = nil
            let value = strtod(base, &stop)
            guard let stop, stop - base == end - start else { return (.nan, .invalid) }
            return value.isFinite ? (value, .number) : (value, .nonFinite)
        }
    }

    @inline(never)
    static func slowFloat(_ p: UnsafePointer<UInt8>, _ i: inout Int) -> (value: Float, status: NumberStatus) {
        let start = i
        let end = fieldEnd(p, from: start)
        i = end
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: maxNumberLength + 1) { buffer in
            let base = buffer.baseAddress!
            let status = prepareSlowField(p, start, end, base)
            guard status == .number else { return (.nan, status) }
            var stop: UnsafeMutablePointer<CChar>? = nil
            let value = strtof(base, &stop)
            guard let stop, stop - base == end - start else { return (.nan, .invalid) }
            return value.isFinite ? (value, .number) : (value, .nonFinite)
        }
    }
}
