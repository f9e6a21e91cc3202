import OarlogCore
import OarlogDSP
import OarlogPipeline
import OarlogWorkouts

/// The coxswain's live display: stroke rate, split, total strokes, elapsed, distance and
/// distance per stroke, readable at a glance, refreshed with the analyzer's live figures (about
/// twice a second). On a terminal it redraws in place; otherwise it prints one line every
/// `lineInterval` seconds of session time, for a log. The latest note and sensor gaps show under
/// the figures. `remaining` (playback) adds the time left.
public final class LiveDisplay: PipelineSink {
    private let output: (String) -> Void
    private let inPlace: Bool
    private let lineInterval: Seconds
    private let totalDuration: Seconds?
    private var drawnLines = 0
    private var lastLine: Seconds = -.infinity
    private var lastStroke: StrokeMetrics?
    private var lastNote: Note?
    private var gaps = 0
    private var lastGap: Gap?
    private var latest: LiveFigures?
    private var workout: WorkoutStatus?

    /// `inPlace`: redraw on a terminal (ANSI); `totalDuration`: the session's length, for playback.
    public init(inPlace: Bool, lineInterval: Seconds = 10, totalDuration: Seconds? = nil, output: @escaping (String) -> Void) {
        self.inPlace = inPlace
        self.lineInterval = lineInterval
        self.totalDuration = totalDuration
        self.output = output
    }

    /// Notes and gaps are raw records; the pipeline then also hands us every sample, which we
    /// skip cheaply.
    public var wantsRawRecords: Bool { true }

    public func receive(_ event: PipelineEvent) {
        switch event {
        case .record(.note(let note)): lastNote = note
        case .record(.gap(let gap)):
            gaps += 1
            lastGap = gap
        case .analysis(.stroke(let m)): lastStroke = m
        case .workout(.status(let status)): workout = status
        case .analysis(.live(let figures)):
            latest = figures
            render(figures)
        default: break
        }
    }

    public func finish(summary: SessionSummary) {
        if inPlace, drawnLines > 0 { output("\n") }
    }

    /// The figures as the display shows them (also used by tests).
    public static func cells(_ f: LiveFigures, lastStroke: StrokeMetrics?, remaining: Seconds?,
                             workout: WorkoutStatus? = nil) -> [(String, String)] {
        var cells: [(String, String)] = [
            ("RATE", RowingFormat.decimal(f.strokeRate)),
            ("SPLIT /500m", RowingFormat.split(f.split)),
            ("STROKES", String(f.strokes)),
            ("ELAPSED", RowingFormat.duration(f.elapsed)),
            ("DISTANCE", RowingFormat.distance(f.distance)),
            ("DIST/STROKE", RowingFormat.decimal(lastStroke?.distancePerStroke, unit: "m")),
        ]
        if let remaining { cells.append(("REMAINING", RowingFormat.duration(max(0, remaining)))) }
        if let w = workout { cells += workoutCells(w) }
        return cells
    }

    /// Where the crew is in its plan: the piece (or rest) and what is left of it.
    static func workoutCells(_ w: WorkoutStatus) -> [(String, String)] {
        switch w.phase {
        case .waiting: return [("WORKOUT", "first catch starts it")]
        case .finished: return [("WORKOUT", "done")]
        case .rowing:
            let step = w.kind == .rest ? "rest" : w.kind == .work ? "piece \(w.pieceNumber ?? 0)/\(w.pieceCount)" : w.kind.rawValue
            let left = w.remainingTime.map { RowingFormat.duration($0) } ?? RowingFormat.distance(w.remainingDistance)
            return [("STEP", step), ("LEFT", left)]
        }
    }

    private func render(_ f: LiveFigures) {
        let remaining = totalDuration.map { $0 - f.time }
        let cells = Self.cells(f, lastStroke: lastStroke, remaining: remaining, workout: workout)
        if inPlace {
            let widths = cells.map { max($0.0.count, $0.1.count) + 3 }
            var header = "", values = ""
            for (i, cell) in cells.enumerated() {
                header += TextTable.padRight(cell.0, widths[i])
                values += TextTable.padRight(cell.1, widths[i])
            }
            var status = gaps == 0 ? "sensors ok" : "\(gaps) sensor gap\(gaps == 1 ? "" : "s")"
                + (lastGap.map { " (last: \($0.sensor.rawValue), " + RowingFormat.duration($0.duration) + ")" } ?? "")
            if let note = lastNote { status += "   note " + RowingFormat.duration(note.time) + ": " + note.text }
            var frame = drawnLines > 0 ? "\u{1B}[\(drawnLines)A\r" : ""
            frame += "\u{1B}[2K" + header + "\n\u{1B}[2K\u{1B}[1m" + values + "\u{1B}[0m\n\u{1B}[2K" + status + "\n"
            drawnLines = 3
            output(frame)
        } else if f.time - lastLine >= lineInterval {
            lastLine = f.time
            output(cells.map { $0.0.lowercased() + " " + $0.1 }.joined(separator: "  ") + "\n")
        }
    }
}
