import OarlogCore
import OarlogDSP
import OarlogPipeline

/// What every exporter shares: a pipeline sink that wants the raw records, turns them into
/// `ExportItem`s with an `ExportAssembler` and writes those to one `ExportFile` at `path`, closed
/// when the run finishes. Each format (`GPXExporter`, `TCXExporter`, `FITExporter`,
/// `StrokeCSVExporter`, `GeoJSONExporter`) subclasses it and supplies only `write(_:)` (and, if
/// it has a trailer to write after the last item, `finishFormat()`).
public class AssembledExporter: PipelineSink {
    public var wantsRawRecords: Bool { true }
    public let path: String
    private var assembler: ExportAssembler
    /// The output file; subclasses write to it.
    let file: ExportFile

    init(writingTo path: String, configuration: ExportConfiguration) throws {
        self.path = path
        assembler = ExportAssembler(configuration: configuration)
        file = try ExportFile(path: path)
    }

    public func receive(_ event: PipelineEvent) throws {
        try assembler.receive(event) { try write($0) }
    }

    public func finish(summary: SessionSummary) throws {
        try assembler.finish(summary: summary) { try write($0) }
        try finishFormat()
        try file.close()
    }

    /// Writes one item in the subclass's format.
    func write(_ item: ExportItem) throws {
        preconditionFailure("\(type(of: self)) must override write(_:)")
    }

    /// Called after the last item, before the file is closed.
    func finishFormat() throws {}
}
