import OarlogCore
import XCTest

final class UTCTimeTests: XCTestCase {
    func testCivilDaysAgainstKnownDates() {
        // Day counts from `date -u -d 2000-02-29 +%s` / 86400 and friends.
        XCTAssertEqual(UTCTime.daysSince1970(year: 1970, month: 1, day: 1), 0)
        XCTAssertEqual(UTCTime.daysSince1970(year: 2000, month: 2, day: 29), 11_016)
        XCTAssertEqual(UTCTime.daysSince1970(year: 1969, month: 12, day: 31), -1)
        XCTAssertEqual(UTCTime.daysSince1970(year: 2026, month: 5, day: 2), 20_575)
        // Every day from 1600 to 2400 maps to a valid date and back to itself, and consecutive days
        // give consecutive dates (29 February only in leap years).
        var mismatches = 0, leapDays = 0
        var last = UTCTime.civilDate(daysSince1970: UTCTime.daysSince1970(year: 1600, month: 1, day: 1) - 1)
        for days in UTCTime.daysSince1970(year: 1600, month: 1, day: 1)...UTCTime.daysSince1970(year: 2400, month: 12, day: 31) {
            let date = UTCTime.civilDate(daysSince1970: days)
            let next = date.day == last.day + 1 && date.month == last.month && date.year == last.year
                || date.day == 1 && (date.month == last.month + 1 && date.year == last.year
                                     || date.month == 1 && last.month == 12 && date.year == last.year + 1)
            if !next || UTCTime.daysSince1970(year: date.year, month: date.month, day: date.day) != days { mismatches += 1 }
            if date.month == 2 && date.day == 29 { leapDays += 1 }
            last = date
        }
        XCTAssertEqual(mismatches, 0)
        // 1600–2400: 201 years divisible by 4, less 1700, 1800, 1900, 2100, 2200, 2300.
        XCTAssertEqual(leapDays, 195)
    }

    func testMillisecondsAreTruncatedUnlessRoundingIsAskedFor() {
        XCTAssertEqual(UTCTime.iso8601(1_777_705_200.0006), "2026-05-02T07:00:00.000Z")
        XCTAssertEqual(UTCTime.iso8601(1_777_705_200.0006, millisecondRounding: .toNearestOrAwayFromZero),
                       "2026-05-02T07:00:00.001Z")
        XCTAssertEqual(UTCTime.iso8601(-0.25), "1969-12-31T23:59:59.750Z")
    }

    func testParsingOffsetsAndRejects() {
        XCTAssertEqual(UTCTime.parseISO8601("2026-05-02 07:00:00"), 1_777_705_200)
        XCTAssertEqual(UTCTime.parseISO8601("2026-05-02T05:30:00-0130"), 1_777_705_200)
        XCTAssertEqual(UTCTime.parseISO8601("2026-05-02T09:00:00+02"), 1_777_705_200)
        XCTAssertNil(UTCTime.parseISO8601("2026-05-02T07:00:00."))
        XCTAssertNil(UTCTime.parseISO8601("2026-05-02T07:00"))
        XCTAssertNil(UTCTime.parseISO8601("2026-05-02T07:00:00Zjunk"))
    }

    func testTimesItCannotShowPrintAsTheInvalidTime() {
        XCTAssertEqual(UTCTime.iso8601(.nan), UTCTime.invalidISO8601)
        XCTAssertEqual(UTCTime.iso8601(.infinity), UTCTime.invalidISO8601)
        XCTAssertEqual(UTCTime.iso8601(-.infinity), UTCTime.invalidISO8601)
        XCTAssertEqual(UTCTime.iso8601(1e300), UTCTime.invalidISO8601)
        XCTAssertEqual(UTCTime.iso8601(-1e300), UTCTime.invalidISO8601)
        XCTAssertEqual(UTCTime.iso8601(9.3e18), UTCTime.invalidISO8601)
        XCTAssertEqual(UTCTime.iso8601(.greatestFiniteMagnitude), UTCTime.invalidISO8601)
        XCTAssertEqual(UTCTime.iso8601(millisecondsSince1970: .min), UTCTime.invalidISO8601)
        XCTAssertEqual(UTCTime.invalidISO8601, "0000-00-00T00:00:00.000Z")
        XCTAssertNil(UTCTime.parseISO8601(UTCTime.invalidISO8601))
        // The four-digit years, both ends.
        XCTAssertEqual(UTCTime.iso8601(253_402_300_799.999), "9999-12-31T23:59:59.999Z")
        XCTAssertEqual(UTCTime.iso8601(253_402_300_800), UTCTime.invalidISO8601)
        XCTAssertEqual(UTCTime.iso8601(-62_167_219_200), "0000-01-01T00:00:00.000Z")
        XCTAssertEqual(UTCTime.iso8601(-62_167_219_200.001), UTCTime.invalidISO8601)
        XCTAssertEqual(UTCTime.iso8601(-0.001), "1969-12-31T23:59:59.999Z")
    }

    func testWholeMilliseconds() {
        XCTAssertEqual(UTCTime.iso8601(millisecondsSince1970: 1_617_102_785_001), "2021-03-30T11:13:05.001Z")
        XCTAssertEqual(UTCTime.iso8601(millisecondsSince1970: -1), "1969-12-31T23:59:59.999Z")
        XCTAssertEqual(UTCTime.iso8601(millisecondsSince1970: 0), "1970-01-01T00:00:00.000Z")
    }

    func testTypedStartTimesKeepToFourDigitYears() {
        XCTAssertEqual(UTCTime.parseTypedUTC("0000-01-01 00:00"), -62_167_219_200)
        XCTAssertNotNil(UTCTime.parseTypedUTC("9999-12-31T23:59:59.999Z"))
        XCTAssertNil(UTCTime.parseTypedUTC("10000-01-01T00:00"))
        XCTAssertNil(UTCTime.parseTypedUTC("9223372036854775807-01-01T00:00"))
    }
}
