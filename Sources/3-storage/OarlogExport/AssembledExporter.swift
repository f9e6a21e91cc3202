import OarlogCore
import OarlogDSP
import OarlogPipeline

/// What every exporter is: a pipeline sink that wants the raw records, turns them into
/// `ExportItem`s with an `ExportAssembler` and writes those to one `ExportFile`, closed when the
/// run finishes. Each format (`GPXExporter`, `TCXExporter`, `FITExporter`, `StrokeCSVExporter`,
/// `GeoJSONExporter`) holds an `ExportOutput` and supplies only `write(_:)` (and, if it has a
/// trailer to write after the last item, `finishFormat()`); the sink itself comes from the
/// extension below.
protocol AssembledExporter: PipelineSink {
    /// The assembler and the output file.
    var output: ExportOutput { get }
    /// Writes one item in the format.
    func write(_ item: ExportItem) throws
    /// Called after the last item, before the file is closed.
    func finishFormat() throws
}

extension AssembledExporter {
    public var wantsRawRecords: Bool { true }

    public func receive(_ event: PipelineEvent) throws {
        try output.assembler.receive(event) { try write($0) }
    }

    public func finish(summary: SessionSummary) throws {
        try output.assembler.finish(summary: summary) { try write($0) }
        try finishFormat()
        try output.file.close()
    }

    func finishFormat() throws {}

    /// The output file, for the format's `write(_:)`.
    var file: ExportFile { output.file }
}

/// An exporter's state: the assembler that cuts the pipeline's events into export items, and
/// the file the items are written to.
final class ExportOutput {
    var assembler: ExportAssembler
    let file: ExportFile

    init(path: String, configuration: ExportConfiguration) throws {
        assembler = ExportAssembler(configuration: configuration)
        file = try ExportFile(path: path)
    }
}
