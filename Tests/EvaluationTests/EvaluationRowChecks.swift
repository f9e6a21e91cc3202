import OarlogEvaluation
import XCTest

extension XCTestCase {
    /// Prints `rows` as `oarlog evaluate` shows them and fails for each outside its tolerance
    /// (and if there are none at all): the one check every evaluation test makes.
    func assertWithinTolerance(_ rows: [EvaluationRow], file: StaticString = #filePath, line: UInt = #line) {
        print(EvaluationRow.table(rows))
        XCTAssertFalse(rows.isEmpty, file: file, line: line)
        for row in rows where !row.passed {
            XCTFail("\(row.dataset) — \(row.check): expected \(row.expected), found \(row.found), error \(row.error), tolerance \(row.tolerance)",
                    file: file, line: line)
        }
    }
}
