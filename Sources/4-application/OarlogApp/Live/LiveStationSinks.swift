import OarlogCore
import OarlogDSP
import OarlogPipeline

/// The preview pipeline's sink: every record (to tap into a recording and for the plot), and the
/// analysis while nothing is recorded.
final class StationSink: PipelineSink {
    unowned let station: LiveStation
    private var plot = AccelerationPlot()
    private var lastFixTime = -Double.infinity
    init(station: LiveStation) { self.station = station }
    var wantsRawRecords: Bool { true }
    func receive(_ event: PipelineEvent) {
        if case .record(let r) = event { station.sourceRecord(r, plot: &plot, lastFixTime: &lastFixTime) }
        station.analysis(event, fromRecording: false)
    }
    func finish(summary: SessionSummary) { station.finished(summary: summary, fromRecording: false) }
}

/// The recording pipeline's sink: its strokes and figures (counted from Go) while it records.
final class RecordingSink: PipelineSink {
    unowned let station: LiveStation
    private var lastFixTime = -Double.infinity
    init(station: LiveStation) { self.station = station }
    var wantsRawRecords: Bool { true }
    func receive(_ event: PipelineEvent) {
        switch event {
        case .record(.fix(let f)):
            guard f.time >= lastFixTime + 1 else { return }
            lastFixTime = f.time
            station.analysis(event, fromRecording: true)
        case .record(.accel): return
        default: station.analysis(event, fromRecording: true)
        }
    }
}

/// A pipeline handed to the thread that runs it (only that thread touches it).
final class PipelineHolder: @unchecked Sendable {
    var pipeline: Pipeline
    init(_ pipeline: Pipeline) { self.pipeline = pipeline }
}
