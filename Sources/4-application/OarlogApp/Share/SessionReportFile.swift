import OarlogExport

/// `oarlog export ID --format html`: the report of a kept session, written as one file.
extension SessionExport {
    /// Writes the session's report to `path` (a trace has no kept session to report: save it first).
    func writeReport(to path: String) throws -> Outcome {
        guard case .session(let reader) = input else {
            throw AppError("--format html is the report of a kept session: save the trace first "
                + "(`oarlog replay \(inputPath) --save`), then `oarlog export last --format html`")
        }
        let report = try SessionReport(reader)
        let file = try ExportFile(path: path)
        try file.write(report.html())
        try file.close()
        return Outcome(path: path, summary: report.figures.summary, skipNote: nil)
    }
}
