import OarlogCore
import XCTest

final class DecimalTextTests: XCTestCase {
    private func fixed(_ value: Double, _ places: Int) -> String {
        DecimalText.fixed(value, places: places, nonFinite: "no number")
    }

    func testOrdinaryValues() {
        XCTAssertEqual(fixed(12.3456, 3), "12.346")
        XCTAssertEqual(fixed(51.48731234, 7), "51.4873123")
        XCTAssertEqual(fixed(-0.2241, 7), "-0.2241000")
        XCTAssertEqual(fixed(0.05, 2), "0.05")
        XCTAssertEqual(fixed(1e-5, 2), "0.00")
        XCTAssertEqual(fixed(999.96, 1), "1000.0")
        XCTAssertEqual(fixed(24, 0), "24")
        XCTAssertEqual(fixed(1234.5, -1), "1235", "fewer than 0 places are 0 places")
        // Rounded half away from zero on value × 10^places in binary: 1.005 × 100 is 100.49999999999999.
        XCTAssertEqual(fixed(-2.5, 0), "-3")
        XCTAssertEqual(fixed(2.5, 0), "3")
        XCTAssertEqual(fixed(0.125, 2), "0.13")
        XCTAssertEqual(fixed(1.005, 2), "1.00")
    }

    func testZeroHasNoSign() {
        XCTAssertEqual(fixed(-0.0, 1), "0.0")
        XCTAssertEqual(fixed(-0.0, 0), "0")
        XCTAssertEqual(fixed(-0.0004, 3), "0.000")
        XCTAssertEqual(fixed(-0.0005, 3), "-0.001")
    }

    func testNonFiniteValuesPrintAsTheCallerSays() {
        XCTAssertEqual(fixed(.nan, 2), "no number")
        XCTAssertEqual(fixed(-.nan, 0), "no number")
        XCTAssertEqual(fixed(.infinity, 1), "no number")
        XCTAssertEqual(fixed(-.infinity, 1), "no number")
        XCTAssertEqual(DecimalText.fixed(.nan, places: 2, nonFinite: ""), "")
        XCTAssertEqual(DecimalText.fixed(.infinity, places: 2, nonFinite: "null"), "null")
    }

    /// Values beyond the range of `Int` print in full, never with an exponent, and never trap.
    func testHugeValuesPrintAllTheirDigits() {
        let zeros = { (n: Int) in String(repeating: "0", count: n) }
        XCTAssertEqual(fixed(1e300, 1), "1" + zeros(300) + ".0")
        XCTAssertEqual(fixed(-1e300, 0), "-1" + zeros(300))
        XCTAssertEqual(fixed(-1e300, 2), "-1" + zeros(300) + ".00")
        XCTAssertEqual(fixed(.greatestFiniteMagnitude, 2), "17976931348623157" + zeros(292) + ".00")
        XCTAssertEqual(fixed(-.greatestFiniteMagnitude, 0), "-17976931348623157" + zeros(292))
        // 9.3e18 is past Int.max (9.22e18): below 2⁶⁴ units it is exact, above it the same digits.
        XCTAssertEqual(fixed(9.3e18, 0), "9300000000000000000")
        XCTAssertEqual(fixed(9.3e18, 1), "9300000000000000000.0")
        XCTAssertEqual(fixed(-9.3e18, 3), "-9300000000000000000.000")
        XCTAssertEqual(fixed(Double(Int64.max), 0), "9223372036854775808")
        XCTAssertEqual(fixed(18_446_744_073_709_551_616, 0), "18446744073709552000")
        XCTAssertEqual(fixed(123_456.789, 15), "123456.789000000000000")
    }

    func testTinyValuesAndManyPlaces() {
        XCTAssertEqual(fixed(.leastNonzeroMagnitude, 2), "0.00")
        XCTAssertEqual(fixed(-.leastNonzeroMagnitude, 2), "0.00")
        XCTAssertEqual(fixed(1, 20), "1." + String(repeating: "0", count: 20))
        XCTAssertEqual(fixed(1e-30, 25), "0." + String(repeating: "0", count: 25))
        XCTAssertEqual(fixed(1.5e-21, 21), "0.000000000000000000002")
        XCTAssertEqual(fixed(-1.5e-21, 21), "-0.000000000000000000002")
        XCTAssertEqual(fixed(9.99999e-21, 20), "0.00000000000000000001")
    }

    func testZeroPadding() {
        XCTAssertEqual(DecimalText.zeroPadded(7, width: 2), "07")
        XCTAssertEqual(DecimalText.zeroPadded(2026, width: 4), "2026")
        XCTAssertEqual(DecimalText.zeroPadded(12345, width: 3), "12345")
        XCTAssertEqual(DecimalText.zeroPadded(0, width: 3), "000")
        XCTAssertEqual(DecimalText.zeroPadded(-7, width: 3), "-07")
        XCTAssertEqual(DecimalText.zeroPadded(Int64.min, width: 2), "-9223372036854775808")
        XCTAssertEqual(DecimalText.zeroPadded(UInt8(5), width: 0), "5")
    }

    func testTrimmingWhitespace() {
        XCTAssertEqual(" \t a b \r\n".trimmingWhitespace(), "a b")
        XCTAssertEqual(" \t ".trimmingWhitespace(), "")
        XCTAssertEqual("x"[...].trimmingWhitespace(), "x")
    }
}
