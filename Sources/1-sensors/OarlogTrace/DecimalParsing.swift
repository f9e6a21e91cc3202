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
@inline(always)
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
    /// The leading ASCII digits of 8 bytes (first byte lowest): how many, and their value.
    @inline(always)
    static func leadingDigits(_ chunk: UInt64) -> (count: Int, value: UInt64) {
        let x = chunk ^ 0x3030_3030_3030_3030          // digit bytes become 0...9
        // A byte is a non-digit iff its value is ≥ 10: x + 0x76 sets the high bit then (or x
        // has it already). A carry out of a byte ≥ 0x8A can only corrupt bytes after it, and
        // that byte is itself a non-digit, so the first flagged byte is right.
        let nonDigit = ((x &+ 0x7676_7676_7676_7676) | x) & 0x8080_8080_8080_8080
        let n = nonDigit.trailingZeroBitCount >> 3      // 8 when all are digits
        // The n digits to the top bytes (zeros below are leading zeros), then the classic
        // 8-digit SWAR conversion. A masking shift cannot shift by 64: n = 0 gives 0 apart.
        var v = n == 0 ? 0 : x &<< UInt64(truncatingIfNeeded: (8 &- n) &<< 3)
        v = (v &* 10) &+ (v >> 8)
        let pairsHigh: UInt64 = (v & 0x0000_00FF_0000_00FF) &* 0x000F_4240_0000_0064       // ×100, ×10^6<<32
        let pairsLow: UInt64 = ((v >> 16) & 0x0000_00FF_0000_00FF) &* 0x0000_2710_0000_0001 // ×1, ×10^4<<32
        return (n, (pairsHigh &+ pairsLow) >> 32)
    }

    /// Reads the run of ASCII digits at `j` into `mantissa` (wrapping; the caller rejects more
    /// than 19 digits), 8 bytes at a time, and returns how many there were. Each load reads at
    /// most 8 bytes past a digit, and the run ends at the latest at the `\n` sentinel: the
    /// reader's buffer has 16 bytes of padding after it.
    @inline(always)
    static func digitRun(_ p: UnsafePointer<UInt8>, _ j: inout Int, _ mantissa: inout UInt64) -> Int {
        var count = 0
        while true {
            let (n, v) = leadingDigits(UInt64(littleEndian: UnsafeRawPointer(p + j).loadUnaligned(as: UInt64.self)))
            mantissa = mantissa &* exactIntegerPowerOfTen(n) &+ v
            j &+= n
            count &+= n
            if n < 8 { return count }
        }
    }

    @inline(always)
    static func exactIntegerPowerOfTen(_ n: Int) -> UInt64 {
        switch n {
        case 0: return 1
        case 1: return 10
        case 2: return 100
        case 3: return 1000
        case 4: return 10_000
        case 5: return 100_000
        case 6: return 1_000_000
        case 7: return 10_000_000
        default: return 100_000_000
        }
    }

    /// The parts of a plain decimal `[+-]digits[.digits]` ending at a field terminator, or nil
    /// (without moving `i`) if the field is anything else or has more than 19 digits.
    @inline(always)
    static func plainDecimal(_ p: UnsafePointer<UInt8>, _ i: inout Int)
        -> (mantissa: UInt64, fractionDigits: Int, negative: Bool)? {
        var j = i
        let first = p[j]
        let negative = first == ASCII.minus
        if negative || first == ASCII.plus { j &+= 1 }
        var mantissa: UInt64 = 0
        var digitCount: Int
        // Most fields have a one-digit integer part ("0.113", "9.806"): skip the 8-byte scan. A
        // lone "0" adds no significant digit (so "0.060000000000000005" has 18 of them).
        let d0 = p[j] &- ASCII.zero
        var sawDigit = false
        if d0 <= 9 && p[j &+ 1] == ASCII.dot {
            mantissa = UInt64(d0)
            digitCount = d0 == 0 ? 0 : 1
            sawDigit = true
            j &+= 1
        } else {
            digitCount = digitRun(p, &j, &mantissa)
        }
        var fractionDigits = 0
        if p[j] == ASCII.dot {
            j &+= 1
            fractionDigits = digitRun(p, &j, &mantissa)
            digitCount &+= fractionDigits
        }
        let terminator = p[j]
        guard sawDigit || digitCount > 0, digitCount <= 19,
              terminator == ASCII.comma || terminator == ASCII.newline
                || (terminator == ASCII.carriageReturn && p[j &+ 1] == ASCII.newline)
        else { return nil }
        i = j
        return (mantissa, fractionDigits, negative)
    }

    /// Fast path for a plain decimal of at most 19 digits. Digits that, read as one integer, are
    /// at most 2^53 with at most 22 fraction digits are exactly `mantissa / 10^fractionDigits`
    /// with both operands exact, so one IEEE division rounds correctly (Clinger); longer ones
    /// (17-digit times such as `0.060000000000000005`) take `DecimalWideProduct`. Returns nil
    /// (without moving `i`) when the field needs the slow path.
    @inline(always)
    static func fastDecimal(_ p: UnsafePointer<UInt8>, _ i: inout Int) -> Double? {
        var j = i
        guard let d = plainDecimal(p, &j) else { return nil }
        var value: Double
        if d.mantissa <= (1 << 53) && d.fractionDigits <= 22 {
            value = Double(d.mantissa)
            if d.fractionDigits > 0 { value /= exactPowerOfTen(d.fractionDigits) }
        } else if d.fractionDigits == 0 {
            value = Double(d.mantissa)          // one correctly rounded conversion
        } else {
            guard let v = DecimalWideProduct.double(mantissa: d.mantissa, fractionDigits: d.fractionDigits) else { return nil }
            value = v
        }
        i = j
        return d.negative ? -value : value
    }

    /// 10^-k rounded to the nearest Double (the literals are correctly rounded by the compiler).
    @inline(always)
    static func inversePowerOfTen(_ k: Int) -> Double {
        switch k {
        case 0: return 1
        case 1: return 1e-1
        case 2: return 1e-2
        case 3: return 1e-3
        case 4: return 1e-4
        case 5: return 1e-5
        case 6: return 1e-6
        case 7: return 1e-7
        case 8: return 1e-8
        case 9: return 1e-9
        case 10: return 1e-10
        case 11: return 1e-11
        case 12: return 1e-12
        case 13: return 1e-13
        case 14: return 1e-14
        case 15: return 1e-15
        case 16: return 1e-16
        case 17: return 1e-17
        case 18: return 1e-18
        case 19: return 1e-19
        case 20: return 1e-20
        case 21: return 1e-21
        default: return 1e-22
        }
    }

    /// Scans a Double field; `i` ends at the field's terminator (also on failure, so the caller
    /// can quote the field).
    @inline(always)
    static func scanDouble(_ p: UnsafePointer<UInt8>, _ i: inout Int) -> (value: Double, status: NumberStatus) {
        if let v = fastDecimal(p, &i) { return (v, .number) }
        return slowDouble(p, &i)
    }

    /// The bits of a Double. (`Double.bitPattern` is an out-of-line call in this toolchain's
    /// release builds; this is a register move.)
    @inline(always)
    static func bits(_ d: Double) -> UInt64 {
        withUnsafeBytes(of: d) { $0.loadUnaligned(as: UInt64.self) }
    }

    /// Scans a Float field, correctly rounded, without a division in the common case.
    ///
    /// `mantissa × 10^-k` in Double (both factors within half an ulp, the product rounded once)
    /// is within 2 Double ulps of the decimal's true value. A Float has 29 bits fewer, so unless
    /// the Double's low 29 bits lie within a few units of the pattern `1 0…0` (a Float rounding
    /// midpoint), the true value and the product round to the same Float. Near a midpoint, and
    /// for mantissas over 2^53, `DecimalWideProduct` decides; if it cannot, `strtof` does.
    /// Subnormal Floats go to `strtof`.
    @inline(always)
    static func scanFloat(_ p: UnsafePointer<UInt8>, _ i: inout Int) -> (value: Float, status: NumberStatus) {
        var j = i
        if let d = plainDecimal(p, &j) {
            if d.mantissa <= (1 << 53) && d.fractionDigits <= 22 {
                let product = Double(d.mantissa) * inversePowerOfTen(d.fractionDigits)
                let lowBits = Int64(truncatingIfNeeded: bits(product) & 0x1FFF_FFFF) &- 0x1000_0000
                let magnitudeOK = product >= Double(Float.leastNormalMagnitude) || d.mantissa == 0
                if magnitudeOK && (lowBits > 4 || lowBits < -4) {
                    let f = Float(product)
                    i = j
                    return f.isFinite ? (d.negative ? -f : f, .number) : (f, .nonFinite)
                }
            }
            if d.fractionDigits == 0 {
                let f = Float(d.mantissa)       // one correctly rounded conversion
                i = j
                return f.isFinite ? (d.negative ? -f : f, .number) : (f, .nonFinite)
            }
            if let f = DecimalWideProduct.float(mantissa: d.mantissa, fractionDigits: d.fractionDigits) {
                i = j
                return (d.negative ? -f : f, .number)
            }
        }
        return slowFloat(p, &i)
    }

    /// The field [i, end): stops at `,`, `\n`, or `\r\n`.
    @inline(always)
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
    @inline(always)
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
        slowNumber(p, &i) { strtod($0, $1) }
    }

    @inline(never)
    static func slowFloat(_ p: UnsafePointer<UInt8>, _ i: inout Int) -> (value: Float, status: NumberStatus) {
        slowNumber(p, &i) { strtof($0, $1) }
    }

    /// The slow path of either width: the field copied NUL-terminated to the stack and read by
    /// the C library's `convert` (`strtod` or `strtof`), which must take the whole field.
    @inline(__always)
    private static func slowNumber<Value: BinaryFloatingPoint>(
        _ p: UnsafePointer<UInt8>, _ i: inout Int,
        _ convert: (UnsafePointer<CChar>, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Value
    ) -> (value: Value, status: NumberStatus) {
        let start = i
        let end = fieldEnd(p, from: start)
        i = end
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: maxNumberLength + 1) { buffer in
            let base = buffer.baseAddress!
            let status = prepareSlowField(p, start, end, base)
            guard status == .number else { return (.nan, status) }
            var stop: UnsafeMutablePointer<CChar>? = nil
            let value = convert(base, &stop)
            guard let stop, stop - base == end - start else { return (.nan, .invalid) }
            return value.isFinite ? (value, .number) : (value, .nonFinite)
        }
    }
}
