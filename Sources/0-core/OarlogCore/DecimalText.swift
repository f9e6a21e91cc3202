/// Numbers as plain decimal text, without Foundation (so never a locale's separators) and never
/// with an exponent (XML schema decimals, CSV cells and a person's screen all want plain digits).
/// Total: every `Double` prints, whatever its size; the caller says what a non-number prints as.
public enum DecimalText {
    /// `value` with exactly `places` digits after the point (none, and no point, for `places` ≤ 0),
    /// rounded half away from zero; a value that rounds to zero has no sign (`-0.0004` → `0.000`).
    /// NaN and ±infinity print as `nonFinite` (`"—"` for a person, `""` for a CSV cell, `"null"`
    /// in JSON).
    ///
    /// Any finite value prints in full, however large: `1e300` with 1 place is a 1 followed by
    /// 300 zeros, then `.0` (the digits of the shortest decimal that reads back as the same
    /// `Double`, as `description` gives them, without the exponent). Ordinary values (up to 2⁶⁴
    /// units of the last place) are rounded exactly on the binary value.
    public static func fixed(_ value: Double, places: Int, nonFinite: String) -> String {
        guard value.isFinite else { return nonFinite }
        let places = max(0, places)
        if places <= 19 {
            var scale = 1.0
            for _ in 0..<places { scale *= 10 }
            let scaled = (value.magnitude * scale).rounded(.toNearestOrAwayFromZero)
            if scaled < 18_446_744_073_709_551_616.0 {  // 2⁶⁴: the units fit a UInt64
                let units = UInt64(scaled), unit = UInt64(scale)
                let sign = value < 0 && units != 0 ? "-" : ""
                let whole = String(units / unit)
                return places == 0 ? sign + whole : sign + whole + "." + zeroPadded(units % unit, width: places)
            }
        }
        return expanded(value, places: places)
    }

    /// `value` in decimal, zero-padded on the left to at least `width` characters, the sign
    /// included as `printf("%0*d")` does: `zeroPadded(7, width: 2)` is `07`, `zeroPadded(-7, width: 3)`
    /// is `-07`; a wider number is not cut.
    public static func zeroPadded<I: BinaryInteger>(_ value: I, width: Int) -> String {
        let digits = String(value.magnitude)
        let sign = value < 0 ? "-" : ""
        let zeros = width - sign.count - digits.count
        return zeros > 0 ? sign + String(repeating: "0", count: zeros) + digits : sign + digits
    }

    /// The general case of `fixed` (very large values, or more than 19 places): the digits of
    /// `description` placed without an exponent, rounded half away from zero at `places`.
    static func expanded(_ value: Double, places: Int) -> String {
        // `description` of a finite magnitude: "123.45", "1e-05", "1.7976931348623157e+308".
        let shortest = value.magnitude.description
        var mantissa = Substring(shortest), exponent = 0
        if let e = shortest.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            mantissa = shortest[..<e]
            exponent = Int(shortest[shortest.index(after: e)...].filter { $0 != "+" }) ?? 0
        }
        var digits: [UInt8] = []
        var point: Int?
        for c in mantissa.utf8 {
            if c == UInt8(ascii: ".") { point = digits.count } else { digits.append(c - UInt8(ascii: "0")) }
        }
        // The decimal point sits after `whole` digits (may be ≤ 0 or past the end).
        var whole = (point ?? digits.count) + exponent
        if whole < 1 {
            digits.insert(contentsOf: repeatElement(0, count: 1 - whole), at: 0)
            whole = 1
        }
        let kept = whole + places
        if digits.count < kept { digits.append(contentsOf: repeatElement(0, count: kept - digits.count)) }
        if digits.count > kept {
            let roundUp = digits[kept] >= 5
            digits.removeSubrange(kept...)
            if roundUp {
                var i = kept - 1
                while i >= 0 && digits[i] == 9 {
                    digits[i] = 0
                    i -= 1
                }
                if i >= 0 {
                    digits[i] += 1
                } else {
                    digits.insert(1, at: 0)
                    whole += 1
                }
            }
        }
        var first = 0
        while first < whole - 1 && digits[first] == 0 { first += 1 }
        let sign = value < 0 && digits.contains(where: { $0 != 0 }) ? "-" : ""
        func characters(_ range: Range<Int>) -> String {
            String(decoding: digits[range].map { $0 + UInt8(ascii: "0") }, as: UTF8.self)
        }
        let integer = characters(first..<whole)
        return places == 0 ? sign + integer : sign + integer + "." + characters(whole..<digits.count)
    }
}
