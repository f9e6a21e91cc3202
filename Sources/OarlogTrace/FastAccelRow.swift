import OarlogCore

/// The accelerometer row `t,accel,ax,ay,az` read in one pass over the bytes, for the reader's
/// hot loop: digits accumulate 8 bytes at a time while the scan looks for each delimiter, the
/// kind is one 8-byte compare, and nothing is checked twice. Anything unusual (an exponent, a
/// `+` sign, over 19 digits, a value that needs `strtod`, a missing field) is "not a plain
/// row" (nil) and the reader's general path, with its error messages, decides. The values are
/// exactly those of `DecimalParsing.scanDouble` / `scanFloat` (correctly rounded).
///
/// The buffer must hold a `\n` at or after the row and 16 readable bytes after that `\n`
/// (`ChunkedLineBuffer` keeps a sentinel and padding).
enum FastAccelRow {
    /// The row at `ls`: the sample and the index of its `\n`, or nil.
    @inline(always)
    static func parse(_ p: UnsafePointer<UInt8>, at ls: Int) -> (sample: AccelSample, newline: Int)? {
        var i = ls
        guard let t = time(p, &i) else { return nil }
        // ",accel," as the low 7 bytes of one little-endian load.
        guard load(p, i) & 0x00FF_FFFF_FFFF_FFFF == 0x002C_6C65_6363_612C else { return nil }
        i &+= 7
        guard let x = float(p, &i), p[i] == ASCII.comma else { return nil }
        i &+= 1
        guard let y = float(p, &i), p[i] == ASCII.comma else { return nil }
        i &+= 1
        guard let z = float(p, &i) else { return nil }
        if p[i] == ASCII.carriageReturn { i &+= 1 }
        guard p[i] == ASCII.newline else { return nil }
        return (AccelSample(time: t, x: x, y: y, z: z), i)
    }

    @inline(always)
    static func load(_ p: UnsafePointer<UInt8>, _ i: Int) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self))
    }

    /// The leading digits of the 8 bytes at `i`: how many (0…8) and their value, without a
    /// branch (`DecimalParsing.leadingDigits` with the shift split in two, so 0 digits needs
    /// no special case).
    @inline(always)
    static func digits8(_ p: UnsafePointer<UInt8>, _ i: Int) -> (count: Int, value: UInt64) {
        let x = load(p, i) ^ 0x3030_3030_3030_3030
        let nonDigit = ((x &+ 0x7676_7676_7676_7676) | x) & 0x8080_8080_8080_8080
        let n = nonDigit.trailingZeroBitCount &>> 3
        let half = UInt64(truncatingIfNeeded: 32 &- (n &<< 2))      // (64 − 8n) / 2
        var v = (x &<< half) &<< half
        v = (v &* 10) &+ (v &>> 8)
        let pairsHigh: UInt64 = (v & 0x0000_00FF_0000_00FF) &* 0x000F_4240_0000_0064
        let pairsLow: UInt64 = ((v &>> 16) & 0x0000_00FF_0000_00FF) &* 0x0000_2710_0000_0001
        return (n, (pairsHigh &+ pairsLow) &>> 32)
    }

    /// The digits of `[-]d[ddd…][.ddd…]`: mantissa, fraction digits, sign, or nil if the field
    /// does not start like that or has more than 19 digits. `i` ends on the first byte after
    /// the digits (the caller checks it is the right delimiter).
    @inline(always)
    static func mantissa(_ p: UnsafePointer<UInt8>, _ i: inout Int) -> (UInt64, fractionDigits: Int, negative: Bool)? {
        var j = i
        let negative = p[j] == ASCII.minus
        j &+= negative ? 1 : 0
        var m: UInt64
        var digits: Int
        let d0 = p[j] &- ASCII.zero
        guard d0 <= 9 else { return nil }
        if p[j &+ 1] == ASCII.dot {
            // One integer digit ("0.113", "9.806"); a lone 0 is not a significant digit.
            m = UInt64(d0)
            digits = d0 == 0 ? 0 : 1
            j &+= 2
        } else {
            let (n, v) = digits8(p, j)
            guard n < 8 else { return nil }              // long integer parts: general path
            m = v
            digits = n
            j &+= n
            guard p[j] == ASCII.dot else {
                i = j
                return (m, 0, negative)
            }
            j &+= 1
        }
        var (n, v) = digits8(p, j)
        m = m &* DecimalParsing.exactIntegerPowerOfTen(n) &+ v
        j &+= n
        var fraction = n
        while n == 8 {                                   // 9+ fraction digits (rare for Floats)
            (n, v) = digits8(p, j)
            m = m &* DecimalParsing.exactIntegerPowerOfTen(n) &+ v
            j &+= n
            fraction &+= n
            if fraction > 19 { return nil }
        }
        guard digits &+ fraction <= 19 else { return nil }
        i = j
        return (m, fraction, negative)
    }

    /// A Double field (the time), correctly rounded, or nil.
    @inline(always)
    static func time(_ p: UnsafePointer<UInt8>, _ i: inout Int) -> Double? {
        var j = i
        guard let (m, k, negative) = mantissa(p, &j) else { return nil }
        var value: Double
        if m <= (1 << 53) && k <= 22 {
            value = Double(m)
            if k > 0 { value /= exactPowerOfTen(k) }
        } else if k == 0 {
            value = Double(m)
        } else {
            guard let v = DecimalWideProduct.double(mantissa: m, fractionDigits: k) else { return nil }
            value = v
        }
        i = j
        return negative ? -value : value
    }

    /// The 8 bytes at `i` read as 8 digits, the first non-digit and everything after it taken as
    /// trailing zeros: `digits · 10^(8 − count)`. No shift by the digit count is needed, so a
    /// fraction read this way always has 8 digits; the value is the same.
    @inline(always)
    static func paddedDigits8(_ p: UnsafePointer<UInt8>, _ i: Int) -> (count: Int, value: UInt64) {
        let x = load(p, i) ^ 0x3030_3030_3030_3030
        let nonDigit = ((x &+ 0x7676_7676_7676_7676) | x) & 0x8080_8080_8080_8080
        let keep = ((nonDigit & (0 &- nonDigit)) &>> 7) &- 1   // bytes before the first non-digit
        var v = x & keep
        v = (v &* 10) &+ (v &>> 8)
        let pairsHigh: UInt64 = (v & 0x0000_00FF_0000_00FF) &* 0x000F_4240_0000_0064
        let pairsLow: UInt64 = ((v &>> 16) & 0x0000_00FF_0000_00FF) &* 0x0000_2710_0000_0001
        return (nonDigit.trailingZeroBitCount &>> 3, (pairsHigh &+ pairsLow) &>> 32)
    }

    /// A Float field, correctly rounded, or nil. The common shapes `[-]d.ddd…` and
    /// `[-]dd.ddd…` with up to 9 fraction digits are read as (integer part · 10^8 + fraction
    /// padded to 8 digits [· 10 + a 9th]) · 10^-8 [or -9]; others take `mantissa`.
    @inline(always)
    static func float(_ p: UnsafePointer<UInt8>, _ i: inout Int) -> Float? {
        var j = i
        let negative = p[j] == ASCII.minus
        j &+= negative ? 1 : 0
        let d0 = UInt64(p[j] &- ASCII.zero)
        let d1 = UInt64(p[j &+ 1] &- ASCII.zero)
        var integer: UInt64
        if d0 <= 9 && d1 == UInt64(ASCII.dot &- ASCII.zero) {
            integer = d0
            j &+= 2
        } else if d0 <= 9 && d1 <= 9 && p[j &+ 2] == ASCII.dot {
            integer = d0 &* 10 &+ d1
            j &+= 3
        } else {
            return generalFloat(p, &i)
        }
        let (n, v) = paddedDigits8(p, j)
        var m = integer &* 100_000_000 &+ v
        j &+= n
        var k = 8
        if n == 8 {
            let d = p[j] &- ASCII.zero
            if d <= 9 {
                m = m &* 10 &+ UInt64(d)
                k = 9
                j &+= 1
                guard p[j] &- ASCII.zero > 9 else { return generalFloat(p, &i) }
            }
        }
        // m < 10^11 ≤ 2^53: the product check of `DecimalParsing.scanFloat`.
        let product = Double(Int64(bitPattern: m)) * (k == 8 ? 1e-8 : 1e-9)
        let lowBits = Int64(truncatingIfNeeded: DecimalParsing.bits(product) & 0x1FFF_FFFF) &- 0x1000_0000
        guard (product >= Double(Float.leastNormalMagnitude) || m == 0) && (lowBits > 4 || lowBits < -4) else {
            return generalFloat(p, &i)
        }
        i = j
        let f = Float(product)
        return negative ? -f : f
    }

    /// A Float field of any plain shape (through `mantissa`), correctly rounded, or nil.
    @inline(never)
    static func generalFloat(_ p: UnsafePointer<UInt8>, _ i: inout Int) -> Float? {
        var j = i
        guard let (m, k, negative) = mantissa(p, &j) else { return nil }
        var f: Float
        if m <= (1 << 53) {   // k ≤ 19 here
            let product = Double(m) * DecimalParsing.inversePowerOfTen(k)
            let lowBits = Int64(truncatingIfNeeded: DecimalParsing.bits(product) & 0x1FFF_FFFF) &- 0x1000_0000
            guard product >= Double(Float.leastNormalMagnitude) || m == 0 else { return nil }
            if lowBits > 4 || lowBits < -4 {
                f = Float(product)
            } else if k == 0 {
                f = Float(m)
            } else {
                guard let w = DecimalWideProduct.float(mantissa: m, fractionDigits: k) else { return nil }
                f = w
            }
        } else if k == 0 {
            f = Float(m)
        } else {
            guard let w = DecimalWideProduct.float(mantissa: m, fractionDigits: k) else { return nil }
            f = w
        }
        guard f.isFinite else { return nil }
        i = j
        return negative ? -f : f
    }
}
