import Foundation
import OarlogCore
import OarlogTrace
import OarlogTestSupport
import XCTest

/// An interval export's splices break the GPS track (the rest between is not recorded) and carry
/// what the device counted across: the end of the interval before after its last row, and the
/// next interval's first stroke from rest.
final class SpeedCoachIntervalBreakTests: XCTestCase {
    func testEachSpliceBreaksTheTrackWithTheDevicesDistanceAcross() throws {
        let path = try TestPaths.sample("rowingdata/SpeedCoach2Link_interval.csv")
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        // The interval summaries' distances and each interval's first and last row, read here
        // independently of the reader.
        let summaryTitle = lines.firstIndex { $0.hasPrefix("Interval Summaries:") }!
        let summaryHeader = testCSVFields(lines[summaryTitle + 2])
        let totalColumn = summaryHeader.firstIndex(of: "Total Distance (GPS)")!
        var totals: [Double] = []
        var k = summaryTitle + 4
        while testCSVFields(lines[k]).first?.isEmpty == false { totals.append(Double(testCSVFields(lines[k])[totalColumn])!); k += 1 }
        let strokeTitle = lines.firstIndex { $0.hasPrefix("Per-Stroke Data:") }!
        let rows = lines[(strokeTitle + 4)...].map(testCSVFields).filter { $0.count > 3 && !$0[0].isEmpty && $0[1] != "---" }
        var first: [Int: Double] = [:], last: [Int: Double] = [:]
        for r in rows {
            let interval = Int(r[0])!, distance = Double(r[1])!
            if first[interval] == nil { first[interval] = distance }
            last[interval] = distance
        }
        XCTAssertEqual(totals.count, 5)

        var reader = try SpeedCoachReader(path: path)
        let records = try readAll(&reader)
        let gaps = records.enumerated().compactMap { i, r -> (Int, Gap)? in if case .gap(let g) = r { return (i, g) }; return nil }
        XCTAssertEqual(gaps.count, 4, "one per splice")
        for (n, (index, gap)) in gaps.enumerated() {
            let before = n + 1, after = n + 2
            let expected = totals[before - 1] - last[before]! + first[after]!
            XCTAssertTrue(gap.breaksTrack)
            XCTAssertEqual(gap.sensor, .gps)
            XCTAssertEqual(gap.deviceDistance ?? -1, expected, accuracy: 0.01, "splice \(before)→\(after)")
            // The gap comes before the new interval's first fix.
            let nextFix = records[index...].firstIndex { if case .fix = $0 { return true } else { return false } }
            XCTAssertNotNil(nextFix)
            if case .fix(let f)? = nextFix.map({ records[$0] }) { XCTAssertEqual(f.time, gap.end, accuracy: 1e-9) }
        }
    }
}
