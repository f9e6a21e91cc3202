import OarlogCore

/// The accelerometer row `t,accel,ax,ay,az` read in one pass over the bytes, for the reader's
/// hot loop: digits accumulate 8 bytes at a time while the scan looks for each delimiter, the
/// kind is one 8-byte compare, and nothing is checked twice. Anything unusual (an exponent, a
/// `+` sign, over 19 digits, a value that needs `strtod`, a missing field, a time or an
/// acceleration beyond `TraceLimits`) is "not a plain row" (nil) and the reader's general path,
/// with its error messages and skips, decides. The values are
/// exactly those of `DecimalParsing.scanDouble` / `scanFloat` (correctly rounded).
///
/// The buffer must hold a `\n` at or after the row and 16 readable bytes after that `\n`
/// (`ChunkedLineBuffer` keeps a sentinel and padding).
enum FastAccelRow {
    /// The row at `ls`: the sample and the index of its `\n`, or nil.
    @inline(always)
    static func parse(_ p: UnsafePointer<UInt8>, at ls: Int) -> (sample: AccelSample, newline: Int)? {
        var i = ls
        // A time beyond a session (`TraceLimits.maxSessionSeconds`) goes to the general path,
        // which skips the row.
        guard let t = time(p, &i), t <= TraceLimits.maxSessionSeconds else { return nil }
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

    /// The time field `d[ddd…][.ddd…]`, correctly rounded, or nil (a sign, more than 7 integer
    /// digits, more than 19 digits in all: the general path decides). The first 8 fraction
    /// digits are read padded (as `paddedDigits8`), any further ones exactly.
    @inline(always)
    static func time(_ p: UnsafePointer<UInt8>, _ i: inout Int) -> Double? {
        var j = i
        let (ni, vi) = digits8(p, j)
        guard ni &- 1 < 7 else { return nil }               // 1 … 7 integer digits
        j &+= ni
        var m = vi
        var k = 0
        if p[j] == ASCII.dot {
            j &+= 1
            let (n1, v1) = paddedDigits8(p, j)
            j &+= n1
            m = vi &* 100_000_000 &+ v1
            k = 8
            if n1 == 8 {
                // More fraction digits, exactly (wrapping; more than 19 significant digits in
                // all, a lone integer 0 not counted, is refused below).
                let (n2, v2) = digits8(p, j)
                m = m &* DecimalParsing.exactIntegerPowerOfTen(n2) &+ v2
                k &+= n2
                j &+= n2
                var digits = (vi == 0 ? 0 : ni) &+ 8 &+ n2
                if n2 == 8 {
                    let (n3, v3) = digits8(p, j)
                    m = m &* DecimalParsing.exactIntegerPowerOfTen(n3) &+ v3
                    k &+= n3
                    j &+= n3
                    digits &+= n3
                }
                guard digits <= 19 else { return nil }
            }
        }
        var value: Double
        if m <= (1 << 53) && k <= 22 {
            value = Double(Int64(bitPattern: m))
            if k > 0 { value /= exactPowerOfTen(k) }
        } else {
            guard let v = DecimalWideProduct.double(mantissa: m, fractionDigits: k) else { return nil }
            value = v
        }
        i = j
        return value
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
    /// padded to 8 digits [· 10 + a 9th]) · 10^-8 [or -9], without a data-dependent branch
    /// (signs, digit counts and integer widths vary from row to row); others take `mantissa`.
    @inline(always)
    static func float(_ p: UnsafePointer<UInt8>, _ i: inout Int) -> Float? {
        var j = i
        let negative = flag(p[j] == ASCII.minus)
        j &+= Int(truncatingIfNeeded: negative)
        // Bytes are loaded before any test so that the tests can be flags, not branches.
        let (c0, c1, c2) = (p[j], p[j &+ 1], p[j &+ 2])
        let d0 = UInt64(c0 &- ASCII.zero), d1 = UInt64(c1 &- ASCII.zero)
        let two = flag(d1 <= 9) & flag(c2 == ASCII.dot)
        guard d0 <= 9 && (c1 == ASCII.dot || two != 0) else { return generalFloat(p, &i) }
        let integer = two != 0 ? d0 &* 10 &+ d1 : d0
        j &+= 2 &+ Int(truncatingIfNeeded: two)
        let (n, v) = paddedDigits8(p, j)
        j &+= n
        // A 9th fraction digit, taken without a branch; a 10th goes to the general path.
        let d8 = UInt64(p[j] &- ASCII.zero)
        let nine = flag(n == 8) & flag(d8 <= 9)
        let m8 = integer &* 100_000_000 &+ v
        let m = nine != 0 ? m8 &* 10 &+ d8 : m8
        j &+= Int(truncatingIfNeeded: nine)
        guard p[j] &- ASCII.zero > 9 else { return generalFloat(p, &i) }
        // m < 10^11 ≤ 2^53: the product check of `DecimalParsing.scanFloat`, with the sign
        // carried by the scale (10^-8 or 10^-9, correctly rounded).
        let scale8: UInt64 = 0x3E45_798E_E230_8C3A, scale9: UInt64 = 0x3E11_2E0B_E826_D695
        let scaleBits = scale8 ^ ((scale8 ^ scale9) & (0 &- nine)) | (negative &<< 63)
        let product = Double(Int64(bitPattern: m)) * Double(bitPattern: scaleBits)
        // |product| ≥ 10^-9 unless m = 0, so never a subnormal Float. Ambiguous when the low 29
        // bits are within 4 of 2^28 (as unsigned: low − (2^28 − 4) ≤ 8).
        guard (DecimalParsing.bits(product) & 0x1FFF_FFFF) &- 0x0FFF_FFFC > 8 else { return generalFloat(p, &i) }
        i = j
        return Float(product)
    }

    /// 1 or 0, for arithmetic instead of a branch.
    @inline(always)
    static func flag(_ condition: Bool) -> UInt64 { condition ? 1 : 0 }

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
        // Beyond any accelerometer's range (`TraceLimits.maxAcceleration`): the general path
        // skips the row. (The branch-free shapes above have at most two integer digits.)
        guard f.isFinite, f <= Float(TraceLimits.maxAcceleration) else { return nil }
        i = j
        return negative ? -f : f
    }
}
