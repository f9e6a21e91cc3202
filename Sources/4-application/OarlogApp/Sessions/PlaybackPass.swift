import OarlogCore
import OarlogDSP
import OarlogPipeline
import OarlogSession

/// One pass of a playback, run in steps rather than on a thread of its own: each tick of the
/// playback's timer runs the records whose time has come on the wall clock (scaled by the speed),
/// through the same analysis as `oarlog play` (record by record, as a paced pipeline does), and
/// returns. So a playback costs no thread and no sleep, and any number of them share the few
/// queues of the server's playback pool.
/// Touched only on its playback's queue.
final class PlaybackPass: @unchecked Sendable {
    let speed: Double
    let sink: PlaybackSink
    private var analyzer: RowingAnalyzer
    private var source: LeadingRecords<NotesInTimeOrder>
    /// The next record, read and not yet due.
    private var pending: TraceRecord?
    /// The first record's time and the wall clock then: record t is due at
    /// `wall + (t - trace) / speed` (as `Pacer` has it).
    private var origin: (trace: Seconds, wall: Seconds)?

    init(replay: SessionReplay, from position: Seconds, speed: Double, sink: PlaybackSink) throws {
        self.speed = speed
        self.sink = sink
        analyzer = RowingAnalyzer(configuration: try replay.settings.analyzerConfiguration())
        source = try replay.records(from: position > 0 ? position : nil)
    }

    /// The phone was behind and nothing was run for `seconds`: the pass's clock waits with it.
    func hold(for seconds: Seconds) {
        origin?.wall += seconds
    }

    /// Runs the records due by `now` (at most `limit`, so that one playback cannot hold its
    /// queue for long); true once the session has run out (the analysis is finished then).
    func advance(now: Seconds, limit: Int = 20_000) throws -> Bool {
        for _ in 0..<limit {
            if pending == nil { pending = try source.next() }
            guard let record = pending else {
                analyzer.finish { sink.receive(.analysis($0)) }
                return true
            }
            if let t = record.time {
                let origin = self.origin ?? (t, now)
                self.origin = origin
                if origin.wall + (t - origin.trace) / speed > now { return false }
            }
            pending = nil
            analyzer.process(record) { sink.receive(.analysis($0)) }
            sink.receive(.record(record))
        }
        return false
    }
}

/// One pass of the playback: the pipeline's records and figures as live messages; the session's
/// recorded strokes at their catch times.
/// Touched only on its playback's queue.
final class PlaybackSink: PipelineSink, @unchecked Sendable {
    unowned let playback: SessionPlayback
    let from: Seconds
    private var nextStroke: Int
    private let baseDistance: Metres
    private var plot = AccelerationPlot()
    private var lastFixTime = -Double.infinity
    private var lastStatusTime = -Double.infinity
    /// The crew's heart rates as the pass has met them (shown as live).
    private var heartRates = LiveHeartRates()
    /// Where the pass has got to, and the last note it passed.
    private(set) var time: Seconds
    private(set) var lastNote: String?

    init(playback: SessionPlayback, from: Seconds, firstStroke: Int, baseDistance: Metres, lastNote: String?) {
        self.playback = playback
        self.from = from
        nextStroke = firstStroke
        self.baseDistance = baseDistance
        time = from
        self.lastNote = lastNote
        heartRates.zones = playback.heartRateZones
    }

    var wantsRawRecords: Bool { true }

    func receive(_ event: PipelineEvent) {
        switch event {
        case .record(let record):
            guard let t = record.time, t >= from else { return }
            if t > time { time = t }
            releaseStrokes(upTo: t)
            switch record {
            case .accel(let sample):
                if let message = plot.add(sample) { playback.emit(message) }
            case .fix(let fix):
                if fix.time >= lastFixTime + 1 {
                    lastFixTime = fix.time
                    playback.emit(LiveMessage.fix(fix))
                }
            case .note(let note):
                lastNote = note.text
                playback.emit(LiveMessage.note(note))
            case .heartRate(let h):
                heartRates.add(h)
            default: break
            }
        case .analysis(.live(let figures)):
            guard figures.time >= from, figures.time >= lastStatusTime + 0.45 else { return }
            lastStatusTime = figures.time
            heartRates.now = max(heartRates.now, time)
            playback.emit(playback.status(at: time, distance: baseDistance + figures.distance, speed: figures.speed,
                                          split: figures.split,
                                          strokeRate: figures.strokeRate ?? playback.lastStroke(before: nextStroke)?.smoothedRate,
                                          strokeCount: nextStroke, lastNote: lastNote, heartRates: heartRates))
        case .fence(let e):
            guard e.time >= from else { return }
            playback.emit(LiveMessage.fence(e))
        default: break
        }
    }

    private func releaseStrokes(upTo t: Seconds) {
        let strokes = playback.strokes
        while nextStroke < strokes.count, strokes[nextStroke].stroke.catchTime <= t {
            playback.emit(LiveMessage.stroke(strokes[nextStroke]))
            nextStroke += 1
        }
    }
}
