import Foundation
import XCTest
import OarlogCore
import OarlogDSP
import OarlogExport
import OarlogPipeline
import OarlogTestSupport
import OarlogWorkouts

struct ExportTestFailure: Error, CustomStringConvertible {
    var description: String
}

func fixturePath(_ name: String) -> String {
    TestPaths.packageRoot.appendingPathComponent("Tests/OarlogExportTests/Fixtures").appendingPathComponent(name).path
}

/// A fresh temporary directory, removed when the test ends.
func temporaryDirectory(_ test: XCTestCase) throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("oarlog-export-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    test.addTeardownBlock { try? FileManager.default.removeItem(at: url) }
    return url
}

/// Runs a program found on PATH (through `/usr/bin/env`).
func run(_ arguments: [String]) throws -> CommandRun {
    try ChildProcess.run("/usr/bin/env", arguments)
}

/// Validates an XML file against an XSD with xmllint; fails clearly when xmllint is missing.
func assertSchemaValid(_ path: String, schema: String, file: StaticString = #filePath, line: UInt = #line) throws {
    let which = try run(["which", "xmllint"])
    guard which.status == 0 else {
        XCTFail("xmllint is not installed (Debian: apt-get install libxml2-utils); cannot validate \(path)", file: file, line: line)
        return
    }
    let result = try run(["xmllint", "--noout", "--schema", fixturePath(schema), path])
    XCTAssertEqual(result.status, 0, "xmllint --schema \(schema) rejected \(path):\n\(result.err.prefix(2000))", file: file, line: line)
    XCTAssertTrue(result.err.contains("validates"), "xmllint did not say it validates: \(result.err.prefix(500))", file: file, line: line)
}

/// Decodes a FIT file with Garmin's FIT SDK (Python) through Fixtures/fit_decode.py.
func decodeFIT(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
    let result = try run(["python3", fixturePath("fit_decode.py"), path])
    guard result.status == 0 else {
        let hint = result.status == 3 ? " (install it: python3 -m pip install garmin-fit-sdk)" : ""
        XCTFail("Garmin FIT SDK decoder failed with status \(result.status)\(hint): \(result.err.prefix(2000))", file: file, line: line)
        throw ExportTestFailure(description: "FIT decoder unavailable or failed")
    }
    guard let json = try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any] else {
        throw ExportTestFailure(description: "decoder output is not a JSON object")
    }
    return json
}

/// Collects what the pipeline produced, as ground truth for the exports: the raw fixes, the
/// analyzer's strokes, the metadata and the workout tracker's intervals.
final class PipelineRecorder: PipelineSink {
    var wantsRawRecords: Bool { true }
    var fixes: [GPSFix] = []
    var strokes: [StrokeMetrics] = []
    var metadata: [String: String] = [:]
    var intervals: [WorkoutInterval] = []

    func receive(_ event: PipelineEvent) {
        switch event {
        case .record(.fix(let f)): fixes.append(f)
        case .record(.metadata(let k, let v)): metadata[k] = v
        case .analysis(.stroke(let m)): strokes.append(m)
        case .workout(.interval(let i)): intervals.append(i)
        default: break
        }
    }
}

/// Every export of one session, made in one pipeline run.
struct ExportRun {
    var directory: URL
    var summary: SessionSummary
    var recorder: PipelineRecorder
    var gpx: String { directory.appendingPathComponent("session.gpx").path }
    var tcx: String { directory.appendingPathComponent("session.tcx").path }
    var fit: String { directory.appendingPathComponent("session.fit").path }
    var csv: String { directory.appendingPathComponent("session.csv").path }
    var rowingdataCSV: String { directory.appendingPathComponent("session-rowingdata.csv").path }
    var geojson: String { directory.appendingPathComponent("session.geojson").path }

    static func make<Source: RecordSource>(_ source: inout Source, in directory: URL,
                                           analyzer: AnalyzerConfiguration = AnalyzerConfiguration(),
                                           laps: LapRule = .rests(minimumPause: 30),
                                           workout: WorkoutTracker? = nil) throws -> ExportRun {
        let configuration = ExportConfiguration(analyzer: analyzer, laps: laps)
        let recorder = PipelineRecorder()
        let run = ExportRun(directory: directory, summary: SessionSummary(), recorder: recorder)
        let sinks: [any PipelineSink] = [
            recorder,
            try GPXExporter(path: run.gpx, configuration: configuration),
            try TCXExporter(path: run.tcx, configuration: configuration),
            try FITExporter(path: run.fit, configuration: configuration),
            try StrokeCSVExporter(path: run.csv, configuration: configuration),
            try StrokeCSVExporter(path: run.rowingdataCSV, columns: .rowingdata, configuration: configuration),
            try GeoJSONExporter(path: run.geojson, configuration: configuration),
        ]
        var pipeline = Pipeline(analyzer: RowingAnalyzer(configuration: analyzer), sinks: sinks, workout: workout)
        var result = run
        result.summary = try pipeline.run(&source)
        return result
    }
}

/// Parses simple CSV (quoted cells allowed) into rows of cells.
func parseCSV(_ text: String) -> [[String]] {
    var rows: [[String]] = []
    for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
        var cells: [String] = [], cell = "", quoted = false
        var chars = Array(line).makeIterator()
        while let c = chars.next() {
            if quoted {
                if c == "\"" { quoted = false } else { cell.append(c) }
            } else if c == "\"" {
                quoted = true
            } else if c == "," {
                cells.append(cell)
                cell = ""
            } else {
                cell.append(c)
            }
        }
        cells.append(cell)
        rows.append(cells)
    }
    return rows
}

/// Occurrences of `needle` in `text`.
func count(_ needle: String, in text: String) -> Int {
    text.components(separatedBy: needle).count - 1
}

extension Dictionary where Key == String, Value == Any {
    func double(_ key: String) -> Double? { (self[key] as? NSNumber)?.doubleValue }
    func string(_ key: String) -> String? { self[key] as? String }
}

func messages(_ decoded: [String: Any], _ name: String) -> [[String: Any]] {
    ((decoded["messages"] as? [String: Any])?[name] as? [[String: Any]]) ?? []
}

/// FIT semicircles → degrees.
func degrees(_ semicircles: Double?) -> Double? { semicircles.map { $0 * 180 / 2_147_483_648.0 } }

/// FIT date_time → seconds since 1970.
func unixTime(_ fit: Double?) -> Double? { fit.map { $0 + 631_065_600 } }
