import OarlogCore
import XCTest

final class RowingFormatTests: XCTestCase {
    func testSplitsReadAsARowerReadsThem() {
        XCTAssertEqual(RowingFormat.split(119.44), "1:59.4")
        XCTAssertEqual(RowingFormat.split(119.96), "2:00.0")
        XCTAssertEqual(RowingFormat.split(95), "1:35.0")
        XCTAssertEqual(RowingFormat.split(nil), "—")
        XCTAssertEqual(RowingFormat.split(.nan), "—")
    }

    func testDurations() {
        XCTAssertEqual(RowingFormat.duration(600), "10:00.0")
        XCTAssertEqual(RowingFormat.duration(4513.0), "1:15:13.0")
        XCTAssertEqual(RowingFormat.duration(59.96), "1:00.0")
        XCTAssertEqual(RowingFormat.duration(nil), "—")
    }

    func testDistancesAndDecimals() {
        XCTAssertEqual(RowingFormat.distance(14360.2), "14,360 m")
        XCTAssertEqual(RowingFormat.distance(999.6), "1,000 m")
        XCTAssertEqual(RowingFormat.distance(nil), "—")
        XCTAssertEqual(RowingFormat.decimal(24.04, unit: "spm"), "24.0 spm")
        XCTAssertEqual(RowingFormat.fixed(-0.05, places: 1), "-0.1")
        XCTAssertEqual(RowingFormat.fixed(3.14159, places: 3), "3.142")
        XCTAssertEqual(RowingFormat.fixed(-0.0001, places: 2), "0.00")
    }

    /// Every formatter is total: "—" for no number, and any finite value prints in full (no
    /// exponent, no trap past `Int`'s range).
    func testNoNumberPrintsAsNoData() {
        for value in [Double.nan, .infinity, -.infinity] {
            XCTAssertEqual(RowingFormat.split(value), "—")
            XCTAssertEqual(RowingFormat.duration(value), "—")
            XCTAssertEqual(RowingFormat.distance(value), "—")
            XCTAssertEqual(RowingFormat.decimal(value), "—")
            XCTAssertEqual(RowingFormat.decimal(value, unit: "spm"), "—")
            XCTAssertEqual(RowingFormat.fixed(value, places: 2), "—")
        }
        // A split or an elapsed time below zero is no figure either.
        XCTAssertEqual(RowingFormat.split(-1e300), "—")
        XCTAssertEqual(RowingFormat.duration(-1), "—")
        XCTAssertEqual(RowingFormat.duration(-.greatestFiniteMagnitude), "—")
    }

    func testHugeValues() {
        let zeros = { (n: Int) in String(repeating: "0", count: n) }
        let thousands = { (n: Int) in String(repeating: ",000", count: n) }
        XCTAssertEqual(RowingFormat.duration(1e300), "2777777777777778" + zeros(281) + ":36:00.0")
        XCTAssertEqual(RowingFormat.split(1e300), "16666666666666668" + zeros(282) + ":00.0")
        XCTAssertEqual(RowingFormat.distance(1e300), "1" + thousands(100) + " m")
        XCTAssertEqual(RowingFormat.distance(-1e300), "-1" + thousands(100) + " m")
        XCTAssertEqual(RowingFormat.decimal(1e300), "1" + zeros(300) + ".0")
        XCTAssertEqual(RowingFormat.decimal(-1e300, places: 0, unit: "m"), "-1" + zeros(300) + " m")

        let greatest = Double.greatestFiniteMagnitude
        XCTAssertEqual(RowingFormat.duration(greatest), "499359204128421" + zeros(290) + ":26:08.0")
        XCTAssertEqual(RowingFormat.split(greatest), "29961552247705265" + zeros(290) + ":08.0")
        XCTAssertEqual(RowingFormat.distance(greatest), "179,769,313,486,231,570" + thousands(97) + " m")
        XCTAssertEqual(RowingFormat.decimal(greatest, places: 2), "17976931348623157" + zeros(292) + ".00")

        // Just past Int.max (9.22e18): exact.
        XCTAssertEqual(RowingFormat.duration(9.3e18), "2583333333333333:20:00.0")
        XCTAssertEqual(RowingFormat.split(9.3e18), "155000000000000000:00.0")
        XCTAssertEqual(RowingFormat.distance(9.3e18), "9,300,000,000,000,000,000 m")
        XCTAssertEqual(RowingFormat.distance(-9.3e18), "-9,300,000,000,000,000,000 m")
        XCTAssertEqual(RowingFormat.decimal(9.3e18), "9300000000000000000.0")
        XCTAssertEqual(RowingFormat.fixed(-9.3e18, places: 2), "-9300000000000000000.00")
        // Where whole tenths leave an Int: 28 million years.
        XCTAssertEqual(RowingFormat.duration(899_999_999_999_999), "249999999999:59:59.0")
        XCTAssertEqual(RowingFormat.duration(1e15), "277777777777:46:40.0")
    }

    func testOrdinaryValuesEdges() {
        XCTAssertEqual(RowingFormat.duration(-0.0), "0:00.0")
        XCTAssertEqual(RowingFormat.duration(0.04), "0:00.0")
        XCTAssertEqual(RowingFormat.duration(3599.96), "1:00:00.0")
        XCTAssertEqual(RowingFormat.duration(360_000), "100:00:00.0")
        XCTAssertEqual(RowingFormat.split(-0.0), "0:00.0")
        XCTAssertEqual(RowingFormat.split(3600), "60:00.0")
        XCTAssertEqual(RowingFormat.distance(-0.4), "0 m")
        XCTAssertEqual(RowingFormat.distance(-1234.5), "-1,235 m")
        XCTAssertEqual(RowingFormat.distance(0), "0 m")
        XCTAssertEqual(RowingFormat.distance(100), "100 m")
        XCTAssertEqual(RowingFormat.distance(1000), "1,000 m")
        XCTAssertEqual(RowingFormat.decimal(-0.0), "0.0")
    }

    func testJSONWriterNestsAndNullsMissingValues() {
        var w = JSONWriter()
        w.beginObject()
        w.field("a", 1.5)
        w.field("b", nil as Double?)
        w.field("c", Double.nan)
        w.beginArray(key: "list")
        w.beginObject(); w.field("t_s", 2.0, places: 3); w.endObject()
        w.beginObject(); w.field("s", "q\"uote\n"); w.endObject()
        w.endArray()
        w.field("n", 3)
        w.endObject()
        XCTAssertEqual(w.text, #"{"a":1.5,"b":null,"c":null,"list":[{"t_s":2.000},{"s":"q\"uote\n"}],"n":3}"#)
    }
}
