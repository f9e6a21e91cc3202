import OarlogPipeline

/// The export file formats, with their usual file extensions. `html` is the single-file report
/// of a kept session: the application floor makes it (OarlogApp's SessionReport), not a sink.
public enum ExportFormat: String, Sendable, CaseIterable {
    case gpx, tcx, fit, csv, geojson, html

    /// The extension a file of this format gets by default (`csv` exports are per stroke, so
    /// they are named `.strokes.csv` and never overwrite a CSV trace).
    public var defaultExtension: String {
        self == .csv ? "strokes.csv" : rawValue
    }

    /// `input` with its extension replaced by this format's (`session.csv` → `session.gpx`).
    public func defaultOutputPath(forInput input: String) -> String {
        let slash = input.lastIndex(of: "/")
        let nameStart = slash.map { input.index(after: $0) } ?? input.startIndex
        var stem = input
        if let dot = input[nameStart...].lastIndex(of: "."), dot > nameStart { stem = String(input[..<dot]) }
        return stem + "." + defaultExtension
    }

    /// A pipeline sink writing this format to `path`.
    public func makeExporter(path: String, configuration: ExportConfiguration = ExportConfiguration(),
                             csvColumns: StrokeCSVExporter.Columns = .oarlog) throws -> any PipelineSink {
        switch self {
        case .gpx: return try GPXExporter(path: path, configuration: configuration)
        case .tcx: return try TCXExporter(path: path, configuration: configuration)
        case .fit: return try FITExporter(path: path, configuration: configuration)
        case .csv: return try StrokeCSVExporter(path: path, columns: csvColumns, configuration: configuration)
        case .geojson: return try GeoJSONExporter(path: path, configuration: configuration)
        case .html: throw ExportError("the HTML report is of a kept session, not a stream of strokes")
        }
    }
}

extension LapRule {
    /// Parses `rests` (30 s pauses), `rests:45`, `every:500` (metres) or `whole`.
    public init?(parsing text: String) {
        let t = text.lowercased().filter { !$0.isWhitespace }
        if t == "whole" || t == "none" {
            self = .whole
        } else if t == "rests" || t == "rest" {
            self = .rests(minimumPause: 30)
        } else if t.hasPrefix("rests:"), let s = Double(String(t.dropFirst(6).filter { $0 != "s" })), s > 0, s.isFinite {
            self = .rests(minimumPause: s)
        } else if t.hasPrefix("every:"), let m = Double(String(t.dropFirst(6).filter { $0 != "m" })), m >= 10, m.isFinite {
            self = .distance(m)
        } else {
            return nil
        }
    }
}
