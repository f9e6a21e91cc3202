import Foundation
import OarlogCore
import OarlogDSP
import OarlogPipeline
import OarlogSession
import Synchronization

/// A recorded session played back as if live, for the web app's playback
/// (`/api/sessions/{id}/playback`): the same messages as `/api/live` (status, stroke, fix, accel,
/// note), paced by the recorded clock at 0.1× to 60×, paused, resumed and sought anywhere.
///
/// A seek starts the session's records again from that time through the file's index (never
/// from the file's start), through the same pipeline as `oarlog play` (`SessionReplay`) for the
/// figures of the moment (rate, split, speed) and the acceleration trace. Strokes, their count
/// and the distance come from what the session recorded, so that after a seek they are the
/// session's own at that time (`oarlog show --json --strokes`), not counted from the seek.
public final class SessionPlayback: @unchecked Sendable {
    public let id: String
    /// The session's length (its last record), seconds.
    public let duration: Seconds
    let replay: SessionReplay
    /// The strokes the session recorded, in order.
    let strokes: [StrokeMetrics]
    /// The session's notes, in time order (the last one before a seek is shown after it).
    let notes: [Note]
    let hasGPS: Bool
    let hasAccelerometer: Bool
    private let send: @Sendable (String) -> Void

    struct State {
        var position: Seconds = 0
        var speed: Double = 1
        var paused = true
        var ended = false
        /// Bumped by every control: the running pass stops when it changes.
        var generation = 0
        var lastNote: String?
    }
    private let state = Mutex(State())
    /// Serialises the controls (one pass runs at a time).
    private let control = Mutex(())
    private var runner: (thread: Thread, done: DispatchSemaphore)?
    /// The fields every status of this playback carries alike.
    private var sensors: (gps: SensorState, accelerometer: SensorState) {
        (hasGPS ? .ok : .absent, hasAccelerometer ? .ok : .absent)
    }

    /// Opens the session (its strokes are read once, here). `send` gets every message, in order,
    /// from one thread at a time.
    public init(reader: SessionReader, send: @escaping @Sendable (String) -> Void) throws {
        id = SessionText.id(of: reader.path)
        replay = SessionReplay(reader)
        let figures = try SessionFigures.load(reader, includeStrokes: true)
        strokes = figures.strokes ?? []
        notes = try reader.notes(onDamage: .skipDamagedChunks).sorted { $0.time < $1.time }
        duration = figures.duration
        hasGPS = figures.fixes > 0
        hasAccelerometer = figures.accelerometerSamples > 0
        self.send = send
    }

    // MARK: Controls

    /// Sends where the playback stands (a `playback` message and the figures at that moment).
    public func start() {
        control.withLock { _ in announce(at: state.withLock { $0.position }) }
    }

    public func apply(seek: Double?, speed: Double?, pause: Bool?) {
        control.withLock { _ in
            stopPass()
            state.withLock { s in
                if let seek {
                    s.position = min(max(0, seek), duration)
                    s.ended = s.position >= duration
                    s.lastNote = notes.last(where: { $0.time <= s.position })?.text
                }
                if let speed { s.speed = speed }
                if let pause { s.paused = pause }
                if s.ended && pause == false && seek == nil {  // play again from the start
                    s.position = 0
                    s.ended = false
                    s.lastNote = nil
                }
            }
            let (position, paused, ended) = state.withLock { ($0.position, $0.paused, $0.ended) }
            announce(at: position)
            if !paused && !ended { startPass(from: position) }
        }
    }

    /// Stops the playback for good (the phone went away).
    public func stop() {
        control.withLock { _ in stopPass() }
    }

    // MARK: Passes

    private func stopPass() {
        state.withLock { $0.generation += 1 }
        if let runner {
            runner.done.wait()
            self.runner = nil
        }
    }

    private func startPass(from position: Seconds) {
        let (generation, speed, lastNote) = state.withLock { ($0.generation, $0.speed, $0.lastNote) }
        let done = DispatchSemaphore(value: 0)
        let sink = PlaybackSink(playback: self, from: position, firstStroke: strokeCount(at: position),
                                baseDistance: distance(at: position), lastNote: lastNote)
        let thread = Thread { [self] in
            defer { done.signal() }
            let stillCurrent = { self.state.withLock { $0.generation } == generation }
            do {
                _ = try replay.run(sinks: [sink], pacing: .clock(speed: speed), from: position > 0 ? position : nil,
                                   shouldStop: { !stillCurrent() })
            } catch {
                send(LiveMessage.error("playback stopped: \(error)"))
            }
            // Where the pass got to (a control reads it once this thread is done); ran out by
            // itself: the end, paused there.
            let ranOut = state.withLock { s -> Bool in
                s.position = sink.time
                s.lastNote = sink.lastNote
                guard s.generation == generation else { return false }
                s.position = duration
                s.paused = true
                s.ended = true
                return true
            }
            if ranOut { announce(at: duration) }
        }
        thread.name = "oarlog-playback"
        runner = (thread, done)
        thread.start()
    }

    /// A `playback` message and the session's figures at `position`.
    private func announce(at position: Seconds) {
        let s = state.withLock { $0 }
        send(LiveMessage.playback(position: position, duration: duration, speed: s.speed, paused: s.paused, ended: s.ended))
        let count = strokeCount(at: position)
        let last = lastStroke(before: count)
        send(status(at: position, distance: distance(at: position), speed: nil, split: last?.split,
                    strokeRate: last?.smoothedRate ?? last?.stroke.strokeRate, strokeCount: count, lastNote: s.lastNote, ended: s.ended))
    }

    /// A status message of this playback: the figures at `time`, with the session's own stroke
    /// count and the last stroke's distance per stroke.
    func status(at time: Seconds, distance: Metres, speed: MetresPerSecond?, split: SecondsPer500m?,
                strokeRate: StrokesPerMinute?, strokeCount: Int, lastNote: String?, ended: Bool = false) -> String {
        var status = LiveStatus(source: "playback")
        status.figures = LiveFigures(time: time, elapsed: time, distance: distance, speed: speed, split: split,
                                     strokeRate: strokeRate, strokes: strokeCount)
        status.distancePerStroke = lastStroke(before: strokeCount)?.distancePerStroke
        status.lastNote = lastNote
        (status.gps, status.accelerometer) = sensors
        status.ended = ended
        return LiveMessage.status(status)
    }

    /// The last of the first `count` strokes.
    func lastStroke(before count: Int) -> StrokeMetrics? {
        count > 0 ? strokes[count - 1] : nil
    }

    // MARK: The session at a time

    /// How many recorded strokes had their catch at or before `t`.
    func strokeCount(at t: Seconds) -> Int {
        var lo = 0, hi = strokes.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if strokes[mid].stroke.catchTime <= t { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// The distance rowed by `t`: between two strokes' catches, in proportion to the time.
    func distance(at t: Seconds) -> Metres {
        let n = strokeCount(at: t)
        guard n > 0, let before = strokes[..<n].last(where: { $0.distance != nil }), let d0 = before.distance else { return 0 }
        guard n < strokes.count, let d1 = strokes[n].distance else { return d0 }
        let t0 = before.stroke.catchTime, t1 = strokes[n].stroke.catchTime
        return t1 > t0 ? d0 + (d1 - d0) * min(1, (t - t0) / (t1 - t0)) : d0
    }

    fileprivate func emit(_ message: String) { send(message) }
}

/// One pass of the playback: the pipeline's records and figures as live messages; the session's
/// recorded strokes at their catch times.
/// Handed to the pass's thread alone (only that thread touches it).
final class PlaybackSink: PipelineSink, @unchecked Sendable {
    unowned let playback: SessionPlayback
    let from: Seconds
    private var nextStroke: Int
    private let baseDistance: Metres
    private var plot = AccelerationPlot()
    private var lastFixTime = -Double.infinity
    private var lastStatusTime = -Double.infinity
    /// Where the pass has got to, and the last note it passed (read by the playback once the
    /// pass's thread is done).
    private(set) var time: Seconds
    private(set) var lastNote: String?

    init(playback: SessionPlayback, from: Seconds, firstStroke: Int, baseDistance: Metres, lastNote: String?) {
        self.playback = playback
        self.from = from
        nextStroke = firstStroke
        self.baseDistance = baseDistance
        time = from
        self.lastNote = lastNote
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
            default: break
            }
        case .analysis(.live(let figures)):
            guard figures.time >= from, figures.time >= lastStatusTime + 0.45 else { return }
            lastStatusTime = figures.time
            playback.emit(playback.status(at: time, distance: baseDistance + figures.distance, speed: figures.speed,
                                          split: figures.split,
                                          strokeRate: figures.strokeRate ?? playback.lastStroke(before: nextStroke)?.smoothedRate,
                                          strokeCount: nextStroke, lastNote: lastNote))
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
