import OarlogReport
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
