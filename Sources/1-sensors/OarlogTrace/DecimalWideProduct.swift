/// Correctly rounded `mantissa / 10^k` for any 64-bit decimal mantissa (up to 19 significant
/// digits, such as the 17-digit times `0.060000000000000005` that accumulating 0.01 writes),
/// with one or two 64×64→128-bit multiplies: the Eisel–Lemire idea, restricted to the negative
/// powers of ten that plain CSV decimals have (k = 1 … 64 fraction digits).
///
/// Why it is exact: with m' = mantissa shifted so its top bit is set and T = ⌊2^B / 5^k⌋
/// (`reciprocalPowerOfFive`), the 192-bit product P = m'·T lies within m' < 2^64 below
/// V = m'·2^B/5^k, which is the true value scaled by a power of two. The result's significand is
/// the top bits of P; it is rounded the same as V unless the bits below the rounding position lie
/// just below or at the halfway point, within that error. Only then (about once in 2^50 for
/// the full product; once in 2^9 for the first, single multiply, which then takes the second)
/// is the answer "don't know" (nil), and the caller asks `strtod`/`strtof`.
enum DecimalWideProduct {
    /// The value of `mantissa / 10^k` rounded to the nearest Double (ties to even), or nil when
    /// this method cannot decide (the caller then uses `strtod`). `k` in 1 … 64.
    @inline(always)
    static func double(mantissa: UInt64, fractionDigits k: Int) -> Double? {
        guard let (significand, exponent) = rounded(mantissa: mantissa, fractionDigits: k, droppedBits: 11) else { return nil }
        // significand ∈ [2^52, 2^53): value = significand · 2^exponent.
        let biased = exponent &+ 52 &+ 1023
        guard biased > 0 && biased < 0x7FF else { return nil }
        let bits = UInt64(truncatingIfNeeded: biased) << 52 | (significand & 0x000F_FFFF_FFFF_FFFF)
        return Double(bitPattern: bits)
    }

    /// `mantissa / 10^k` rounded to the nearest Float, or nil (the caller uses `strtof`).
    @inline(always)
    static func float(mantissa: UInt64, fractionDigits k: Int) -> Float? {
        guard let (significand, exponent) = rounded(mantissa: mantissa, fractionDigits: k, droppedBits: 40) else { return nil }
        // significand ∈ [2^23, 2^24).
        let biased = exponent &+ 23 &+ 127
        guard biased > 0 && biased < 0xFF else { return nil }
        let bits = UInt32(truncatingIfNeeded: biased) << 23 | (UInt32(truncatingIfNeeded: significand) & 0x007F_FFFF)
        return Float(bitPattern: bits)
    }

    /// The rounded significand (`64 − droppedBits` bits, top bit set) and its binary exponent,
    /// or nil if undecidable here (or `mantissa` is 0, or `k` is outside 1 … 64).
    /// `droppedBits` is the number of low bits of a 64-bit significand with its top bit set that
    /// rounding removes: 11 for Double, 40 for Float.
    @inline(always)
    static func rounded(mantissa: UInt64, fractionDigits k: Int, droppedBits: Int) -> (UInt64, Int)? {
        let t = reciprocalPowerOfFive(k)
        guard mantissa != 0, t.shift != 0 else { return nil }
        let lz = mantissa.leadingZeroBitCount
        let m = mantissa &<< UInt64(truncatingIfNeeded: lz)
        // The top 128 bits of m·T_hi·2^64; m·T_lo only adds to the low word.
        let (hi1, lo1) = m.multipliedFullWidth(by: t.hi)
        // P ∈ [2^190, 2^192), so the top word hi1 ∈ [2^62, 2^64): its top bit decides the width.
        let top = Int(truncatingIfNeeded: hi1 >> 63)            // 1 if bit 63 is set
        let dropped = droppedBits &- 1 &+ top                    // low bits of hi1 below the result
        let lowMask: UInt64 = (1 &<< UInt64(truncatingIfNeeded: dropped)) &- 1
        let half: UInt64 = 1 &<< UInt64(truncatingIfNeeded: dropped &- 1)
        var low = hi1 & lowMask
        var word = hi1
        if low == half || low == half &- 1 {
            // Near the halfway point: take the full 192-bit product, error < 2^64.
            let (hi2, lo2) = m.multipliedFullWidth(by: t.lo)
            let (mid, carry) = lo1.addingReportingOverflow(hi2)
            if carry { word &+= 1 }
            if word >> 63 != hi1 >> 63 { return nil }               // carried into a new bit: let strtod decide
            low = word & lowMask
            if (low == half &- 1 && mid == .max) || (low == half && mid == 0 && lo2 == 0) { return nil }
        }
        var significand = (word >> UInt64(truncatingIfNeeded: dropped)) &+ (low >= half ? 1 : 0)
        // value ≈ word · 2^(128 − B − lz − k) = significand · 2^(dropped + 128 − B − lz − k)
        var exponent = dropped &+ 128 &- t.shift &- lz &- k
        if significand >> UInt64(truncatingIfNeeded: 64 &- droppedBits) != 0 {  // rounded up to 2^(64-droppedBits)
            significand >>= 1
            exponent &+= 1
        }
        return (significand, exponent)
    }
}

/// floor(2^B / 5^k) as 128 bits (hi, lo), B = 127 + bit length of 5^k, so hi ≥ 2^63, for
/// k = 1 … 64 (generated exactly with Python's integers; DecimalWideProductTests checks every entry).
@inline(always)
func reciprocalPowerOfFive(_ k: Int) -> (hi: UInt64, lo: UInt64, shift: Int) {
    switch k {
    case 1: return (0xCCCCCCCCCCCCCCCC, 0xCCCCCCCCCCCCCCCC, 130)
    case 2: return (0xA3D70A3D70A3D70A, 0x3D70A3D70A3D70A3, 132)
    case 3: return (0x83126E978D4FDF3B, 0x645A1CAC083126E9, 134)
    case 4: return (0xD1B71758E219652B, 0xD3C36113404EA4A8, 137)
    case 5: return (0xA7C5AC471B478423, 0x0FCF80DC33721D53, 139)
    case 6: return (0x8637BD05AF6C69B5, 0xA63F9A49C2C1B10F, 141)
    case 7: return (0xD6BF94D5E57A42BC, 0x3D32907604691B4C, 144)
    case 8: return (0xABCC77118461CEFC, 0xFDC20D2B36BA7C3D, 146)
    case 9: return (0x89705F4136B4A597, 0x31680A88F8953030, 148)
    case 10: return (0xDBE6FECEBDEDD5BE, 0xB573440E5A884D1B, 151)
    case 11: return (0xAFEBFF0BCB24AAFE, 0xF78F69A51539D748, 153)
    case 12: return (0x8CBCCC096F5088CB, 0xF93F87B7442E45D3, 155)
    case 13: return (0xE12E13424BB40E13, 0x2865A5F206B06FB9, 158)
    case 14: return (0xB424DC35095CD80F, 0x538484C19EF38C94, 160)
    case 15: return (0x901D7CF73AB0ACD9, 0x0F9D37014BF60A10, 162)
    case 16: return (0xE69594BEC44DE15B, 0x4C2EBE687989A9B3, 165)
    case 17: return (0xB877AA3236A4B449, 0x09BEFEB9FAD487C2, 167)
    case 18: return (0x9392EE8E921D5D07, 0x3AFF322E62439FCF, 169)
    case 19: return (0xEC1E4A7DB69561A5, 0x2B31E9E3D06C32E5, 172)
    case 20: return (0xBCE5086492111AEA, 0x88F4BB1CA6BCF584, 174)
    case 21: return (0x971DA05074DA7BEE, 0xD3F6FC16EBCA5E03, 176)
    case 22: return (0xF1C90080BAF72CB1, 0x5324C68B12DD6338, 179)
    case 23: return (0xC16D9A0095928A27, 0x75B7053C0F178293, 181)
    case 24: return (0x9ABE14CD44753B52, 0xC4926A9672793542, 183)
    case 25: return (0xF79687AED3EEC551, 0x3A83DDBD83F52204, 186)
    case 26: return (0xC612062576589DDA, 0x95364AFE032A819D, 188)
    case 27: return (0x9E74D1B791E07E48, 0x775EA264CF55347D, 190)
    case 28: return (0xFD87B5F28300CA0D, 0x8BCA9D6E188853FC, 193)
    case 29: return (0xCAD2F7F5359A3B3E, 0x096EE45813A04330, 195)
    case 30: return (0xA2425FF75E14FC31, 0xA1258379A94D028D, 197)
    case 31: return (0x81CEB32C4B43FCF4, 0x80EACF948770CED7, 199)
    case 32: return (0xCFB11EAD453994BA, 0x67DE18EDA5814AF2, 202)
    case 33: return (0xA6274BBDD0FADD61, 0xECB1AD8AEACDD58E, 204)
    case 34: return (0x84EC3C97DA624AB4, 0xBD5AF13BEF0B113E, 206)
    case 35: return (0xD4AD2DBFC3D07787, 0x955E4EC64B44E864, 209)
    case 36: return (0xAA242499697392D2, 0xDDE50BD1D5D0B9E9, 211)
    case 37: return (0x881CEA14545C7575, 0x7E50D64177DA2E54, 213)
    case 38: return (0xD9C7DCED53C72255, 0x96E7BD358C904A21, 216)
    case 39: return (0xAE397D8AA96C1B77, 0xABEC975E0A0D081A, 218)
    case 40: return (0x8B61313BBABCE2C6, 0x2323AC4B3B3DA015, 220)
    case 41: return (0xDF01E85F912E37A3, 0x6B6C46DEC52F6688, 223)
    case 42: return (0xB267ED1940F1C61C, 0x55F038B237591ED3, 225)
    case 43: return (0x8EB98A7A9A5B04E3, 0x77F3608E92ADB242, 227)
    case 44: return (0xE45C10C42A2B3B05, 0x8CB89A7DB77C506A, 230)
    case 45: return (0xB6B00D69BB55C8D1, 0x3D607B97C5FD0D22, 232)
    case 46: return (0x9226712162AB070D, 0xCAB3961304CA70E8, 234)
    case 47: return (0xE9D71B689DDE71AF, 0xAAB8F01E6E10B4A6, 237)
    case 48: return (0xBB127C53B17EC159, 0x5560C018580D5D52, 239)
    case 49: return (0x95A8637627989AAD, 0xDDE7001379A44AA8, 241)
    case 50: return (0xEF73D256A5C0F77C, 0x963E66858F6D4440, 244)
    case 51: return (0xBF8FDB78849A5F96, 0xDE98520472BDD033, 246)
    case 52: return (0x993FE2C6D07B7FAB, 0xE546A8038EFE4029, 248)
    case 53: return (0xF53304714D9265DF, 0xD53DD99F4B3066A8, 251)
    case 54: return (0xC428D05AA4751E4C, 0xAA97E14C3C26B886, 253)
    case 55: return (0x9CED737BB6C4183D, 0x55464DD69685606B, 255)
    case 56: return (0xFB158592BE068D2E, 0xEED6E2F0F0D56712, 258)
    case 57: return (0xC8DE047564D20A8B, 0xF245825A5A445275, 260)
    case 58: return (0xA0B19D2AB70E6ED6, 0x5B6ACEAEAE9D0EC4, 262)
    case 59: return (0x808E17555F3EBF11, 0xE2BBD88BBEE40BD0, 264)
    case 60: return (0xCDB02555653131B6, 0x3792F412CB06794D, 267)
    case 61: return (0xA48CEAAAB75A8E2B, 0x5FA8C3423C052DD7, 269)
    case 62: return (0x83A3EEEEF9153E89, 0x1953CF68300424AC, 271)
    case 63: return (0xD29FE4B18E88640E, 0x8EEC7F0D19A03AAD, 274)
    case 64: return (0xA87FEA27A539E9A5, 0x3F2398D747B36224, 276)
    default: return (0, 0, 0)
    }
}
