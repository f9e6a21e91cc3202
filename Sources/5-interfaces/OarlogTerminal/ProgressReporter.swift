#if canImport(Glibc)
import Glibc
#endif
import OarlogCore
import OarlogDSP
import OarlogLive
import OarlogPipeline

/// Shows the progress of a long replay on a terminal (standard error), in place, a few times a
/// second: trace time replayed, strokes so far, and how fast. Silent when standard error is not a
/// terminal, so piped output stays clean.
public final class ProgressReporter: PipelineSink {

    /// The boat speed's events (ten a second) carry nothing this sink keeps.
    public var wantsBoatSpeed: Bool { false }
    private let clock = MonotonicClock()
    private let started: Seconds
    private var lastShown: Seconds
    private var strokes = 0
    private var records = 0
    private var traceTime: Seconds = 0
    private var shownSomething = false
    private let totalTraceTime: Seconds?

    /// `nil` when progress should not be shown (not a terminal).
    public static func ifTerminal(totalTraceTime: Seconds? = nil) -> ProgressReporter? {
        StandardStreams.stderrIsTerminal ? ProgressReporter(totalTraceTime: totalTraceTime) : nil
    }

    init(totalTraceTime: Seconds?) {
        self.totalTraceTime = totalTraceTime
        started = clock.now()
        lastShown = started
    }

    public var wantsRawRecords: Bool { true }

    public func receive(_ event: PipelineEvent) {
        switch event {
        case .analysis(.stroke): strokes += 1
        case .record(let r):
            records &+= 1
            if let t = r.time { traceTime = t }
            // Reading the clock costs more than the record: look only every 4096 records.
            if records & 4095 == 0 {
                let now = clock.now()
                if now - lastShown >= 0.25 {
                    lastShown = now
                    show(now: now)
                }
            }
        default: break
        }
    }

    private func show(now: Seconds) {
        let rate = Double(records) / max(now - started, 1e-6)
        var line = "\r\u{1B}[K  replayed " + RowingFormat.duration(traceTime)
        if let total = totalTraceTime, total > 0 {
            line += " of " + RowingFormat.duration(total) + " (" + RowingFormat.decimal(min(100, traceTime / total * 100), places: 0) + "%)"
        }
        line += "  strokes \(strokes)  " + RowingFormat.decimal(rate / 1e6, places: 1) + " M records/s"
        StandardStreams.error(line)
        shownSomething = true
    }

    public func finish(summary: SessionSummary) {
        if shownSomething { StandardStreams.error("\r\u{1B}[K") }
    }
}
