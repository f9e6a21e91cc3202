import Foundation
@testable import OarlogTrace
import XCTest

/// The exact fast path for long decimals (`DecimalWideProduct`, the Eisel–Lemire idea): its
/// table checked against exact big-integer arithmetic, and its results bit for bit against
/// Swift's own correctly rounded `Double(String)` / `Float(String)`, on random 17–19-digit
/// decimals, exact rounding midpoints (ties to even) and their nearest neighbours.
final class DecimalWideProductTests: XCTestCase {
    /// Parses `text` as one CSV field the way the reader does (sentinel and padding after it).
    private func scan(_ text: String) -> (double: Double, doubleStatus: NumberStatus, float: Float, floatStatus: NumberStatus, consumed: Bool) {
        var bytes = Array(text.utf8)
        bytes.append(ASCII.newline)
        bytes += [UInt8](repeating: 0, count: 24)
        return bytes.withUnsafeBufferPointer { b in
            let p = b.baseAddress!
            var i = 0, k = 0
            let (d, ds) = DecimalParsing.scanDouble(p, &i)
            let (f, fs) = DecimalParsing.scanFloat(p, &k)
            return (d, ds, f, fs, i == text.utf8.count && k == text.utf8.count)
        }
    }

    private func assertMatchesSwift(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
        let r = scan(text)
        XCTAssertTrue(r.consumed, "\(text): field not consumed", file: file, line: line)
        guard let d = Double(text), let f = Float(text) else { return XCTFail("Swift cannot parse \(text)", file: file, line: line) }
        XCTAssertEqual(r.doubleStatus, .number, text, file: file, line: line)
        XCTAssertEqual(r.double.bitPattern, d.bitPattern, "Double \(text): got \(r.double), want \(d)", file: file, line: line)
        if f.isFinite {
            XCTAssertEqual(r.floatStatus, .number, text, file: file, line: line)
            XCTAssertEqual(r.float.bitPattern, f.bitPattern, "Float \(text): got \(r.float), want \(f)", file: file, line: line)
        }
    }

    /// Every table entry T is ⌊2^B / 5^k⌋ with 2^127 ≤ T < 2^128: T·5^k ≤ 2^B < (T + 1)·5^k,
    /// in exact multi-word arithmetic.
    func testReciprocalTableIsExact() {
        // Little-endian 64-bit limbs.
        func multiply(_ a: [UInt64], by s: UInt64) -> [UInt64] {
            var out: [UInt64] = []
            var carry: UInt64 = 0
            for limb in a {
                let (hi, lo) = limb.multipliedFullWidth(by: s)
                let (sum, o) = lo.addingReportingOverflow(carry)
                out.append(sum)
                carry = hi &+ (o ? 1 : 0)
            }
            if carry != 0 { out.append(carry) }
            return out
        }
        func multiply(_ a: [UInt64], _ b: [UInt64]) -> [UInt64] {
            var out = [UInt64](repeating: 0, count: a.count + b.count + 1)
            for (j, limb) in b.enumerated() {
                let partial = multiply(a, by: limb)
                var carry: UInt64 = 0
                for (n, w) in partial.enumerated() {
                    let (s1, o1) = out[j + n].addingReportingOverflow(w)
                    let (s2, o2) = s1.addingReportingOverflow(carry)
                    out[j + n] = s2
                    carry = (o1 ? 1 : 0) + (o2 ? 1 : 0)
                }
                var n = j + partial.count
                while carry != 0 { let (s, o) = out[n].addingReportingOverflow(carry); out[n] = s; carry = o ? 1 : 0; n += 1 }
            }
            while out.count > 1 && out.last == 0 { out.removeLast() }
            return out
        }
        func compare(_ a: [UInt64], _ b: [UInt64]) -> Int {
            var a = a, b = b
            while a.count > 1 && a.last == 0 { a.removeLast() }
            while b.count > 1 && b.last == 0 { b.removeLast() }
            if a.count != b.count { return a.count < b.count ? -1 : 1 }
            for n in stride(from: a.count - 1, through: 0, by: -1) where a[n] != b[n] { return a[n] < b[n] ? -1 : 1 }
            return 0
        }
        var power: [UInt64] = [1]
        for k in 1...64 {
            power = multiply(power, by: 5)
            let t = reciprocalPowerOfFive(k)
            XCTAssertGreaterThanOrEqual(t.hi, 1 << 63, "k = \(k): T below 2^127")
            var twoB = [UInt64](repeating: 0, count: t.shift / 64 + 1)
            twoB[t.shift / 64] = 1 << UInt64(t.shift % 64)
            let low = multiply([t.lo, t.hi], power)
            let (lo1, o) = t.lo.addingReportingOverflow(1)
            let high = multiply([lo1, t.hi &+ (o ? 1 : 0)], power)
            XCTAssertLessThanOrEqual(compare(low, twoB), 0, "k = \(k): T·5^k > 2^B")
            XCTAssertLessThan(compare(twoB, high), 0, "k = \(k): 2^B ≥ (T + 1)·5^k")
            // B = 127 + bit length of 5^k.
            let bitLength = (power.count - 1) * 64 + (64 - power.last!.leadingZeroBitCount)
            XCTAssertEqual(t.shift, 127 + bitLength, "k = \(k)")
        }
    }

    /// Random decimals of 16–19 significant digits with 1–19 fraction digits (the range that
    /// Clinger's method cannot take), both signs.
    func testLongDecimalsMatchSwiftParsers() {
        var rng = SeededGenerator(seed: 2026)
        for _ in 0..<20_000 {
            let digits = Int.random(in: 16...19, using: &rng)
            let fraction = Int.random(in: 1...digits, using: &rng)
            var s = String((0..<digits).map { n in Character(String(n == 0 ? Int.random(in: 1...9, using: &rng) : Int.random(in: 0...9, using: &rng))) })
            s.insert(".", at: s.index(s.startIndex, offsetBy: digits - fraction))
            if s.first == "." { s = "0" + s }
            if Bool.random(using: &rng) { s = "-" + s }
            assertMatchesSwift(s)
        }
    }

    /// Times written by accumulating 0.01 s (what a logger does): 17-digit shortest forms.
    func testAccumulatedTimesRoundTrip() {
        var t = 0.0
        var long = 0
        for _ in 0..<200_000 {
            t += 0.01
            let s = t.description
            if s.filter(\.isNumber).count >= 16 { long += 1 }
            let r = scan(s)
            XCTAssertEqual(r.double.bitPattern, t.bitPattern, "\(s)")
        }
        XCTAssertGreaterThan(long, 100_000, "the test should exercise long decimals")
    }

    /// Exact midpoints between neighbouring Doubles that have at most 19 digits (x.5 near 2^52,
    /// x.25/x.75 near 2^51, x.125… near 2^50) round to the even neighbour; one unit in the last
    /// digit either side rounds away from the midpoint. The same for Float midpoints near 2^10
    /// (14 fraction digits) and 2^20.
    func testMidpointsAndTheirNeighbours() {
        var rng = SeededGenerator(seed: 11)
        func decimal(_ numerator: UInt64, over twoPower: Int) -> (digits: String, fraction: Int) {
            // numerator / 2^twoPower = numerator·5^twoPower / 10^twoPower, exactly.
            var n = numerator
            for _ in 0..<twoPower { n *= 5 }
            return (String(n), twoPower)
        }
        func format(_ digits: String, _ fraction: Int) -> String {
            var s = digits
            while s.count <= fraction { s = "0" + s }
            s.insert(".", at: s.index(s.endIndex, offsetBy: -fraction))
            return s
        }
        var checked = 0
        for _ in 0..<3000 {
            // Doubles: value = M·2^-e with M ∈ [2^52, 2^53), midpoint (2M+1)·2^-(e+1).
            let e = Int.random(in: 0...2, using: &rng)
            let m = UInt64.random(in: (1 << 52)..<(1 << 53), using: &rng)
            let (digits, fraction) = decimal(2 * m + 1, over: e + 1)
            guard let mantissa = UInt64(digits) else { continue }
            for delta in [-1, 0, 1] as [Int64] {
                let text = format(String(UInt64(Int64(mantissa) + delta)), fraction)
                assertMatchesSwift(text)
                checked += 1
            }
            // Floats: value = M·2^-e with M ∈ [2^23, 2^24), e = 13 (values near 2^10) or 3.
            let ef = Bool.random(using: &rng) ? 13 : 3
            let mf = UInt64.random(in: (1 << 23)..<(1 << 24), using: &rng)
            let (fd, ff) = decimal(2 * mf + 1, over: ef + 1)
            let fm = UInt64(fd)!
            for delta in [-1, 0, 1] as [Int64] {
                assertMatchesSwift(format(String(UInt64(Int64(fm) + delta)), ff))
                checked += 1
            }
        }
        XCTAssertEqual(checked, 18_000)
    }

    /// Direct calls: 0.1 and friends, the largest 19-digit mantissa, and the cases that must be
    /// left to strtod (zero mantissa, k outside the table).
    func testDirectValues() {
        XCTAssertEqual(DecimalWideProduct.double(mantissa: 1, fractionDigits: 1), 0.1)
        XCTAssertEqual(DecimalWideProduct.double(mantissa: 60_000_000_000_000_005, fractionDigits: 18), 0.060000000000000005)
        XCTAssertEqual(DecimalWideProduct.double(mantissa: 9_999_999_999_999_999_999, fractionDigits: 19), Double("0.9999999999999999999"))
        XCTAssertEqual(DecimalWideProduct.double(mantissa: 18_446_744_073_709_551_615, fractionDigits: 64), Double("18446744073709551615e-64"))
        XCTAssertEqual(DecimalWideProduct.float(mantissa: 41_115_868, fractionDigits: 8), Float("0.41115868"))
        XCTAssertNil(DecimalWideProduct.double(mantissa: 0, fractionDigits: 3))
        XCTAssertNil(DecimalWideProduct.double(mantissa: 5, fractionDigits: 0))
        XCTAssertNil(DecimalWideProduct.double(mantissa: 5, fractionDigits: 65))
        // Long fields beyond the fast path still parse (through strtod): 20+ digits, exponents.
        for s in ["0.0060000000000000005", "123456789012345678901.5", "1e-05", "1.7976931348623157e308", "4.9e-324"] {
            assertMatchesSwift(s)
        }
    }
}
