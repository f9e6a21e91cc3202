import OarlogCore

/// One line of the evaluation table: on this dataset, this figure was expected, this was found.
public struct EvaluationRow: Sendable, Equatable {
    public var dataset: String
    public var check: String
    public var expected: String
    public var found: String
    public var error: String
    public var tolerance: String
    public var passed: Bool

    public init(dataset: String, check: String, expected: String, found: String, error: String,
                tolerance: String, passed: Bool) {
        self.dataset = dataset
        self.check = check
        self.expected = expected
        self.found = found
        self.error = error
        self.tolerance = tolerance
        self.passed = passed
    }

    /// A dataset that could not be evaluated at all (missing file, read error): a failed row.
    public static func failure(dataset: String, check: String, _ message: String) -> EvaluationRow {
        EvaluationRow(dataset: dataset, check: check, expected: "—", found: "error: \(message)", error: "—",
                      tolerance: "—", passed: false)
    }

    /// Renders rows as an aligned text table.
    public static func table(_ rows: [EvaluationRow]) -> String {
        let header = ["dataset", "check", "expected", "found", "error", "tolerance", "result"]
        let cells = rows.map { [$0.dataset, $0.check, $0.expected, $0.found, $0.error, $0.tolerance, $0.passed ? "pass" : "FAIL"] }
        var widths = header.map(\.count)
        for row in cells { for (i, c) in row.enumerated() { widths[i] = max(widths[i], c.count) } }
        func line(_ r: [String]) -> String {
            r.enumerated().map { i, c in TextTable.padRight(c, widths[i]) }.joined(separator: "  ")
        }
        var out = line(header) + "\n" + line(widths.map { String(repeating: "-", count: $0) }) + "\n"
        for r in cells { out += line(r) + "\n" }
        let passed = rows.filter(\.passed).count
        out += "evaluation: \(passed) of \(rows.count) checks within tolerance\n"
        return out
    }
}
