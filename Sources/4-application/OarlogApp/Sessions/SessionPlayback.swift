import Foundation
import OarlogCore
import OarlogDSP
import OarlogLive
import OarlogPipeline
import OarlogSession

/// A recorded session played back as if live, for the web app's playback
/// (`/api/sessions/{id}/playback`): the same messages as `/api/live` (status, stroke, fix, accel,
/// note), paced by the recorded clock at 0.1× to 60×, paused, resumed and sought anywhere.
///
/// A seek starts the session's records again from that time through the file's index (never
/// from the file's start), through the same analysis as `oarlog play` (`SessionReplay`) for the
/// figures of the moment (rate, split, speed) and the acceleration trace. Strokes, their count
/// and the distance come from what the session recorded, so that after a seek they are the
/// session's own at that time (`oarlog show --json --strokes`), not counted from the seek.
///
/// A playback has no thread: it lives on a serial queue it is given (shared with other
/// playbacks), where a timer runs its pass in steps (`PlaybackPass`) and its controls run in the
/// order they came. Everything mutable here is touched only on that queue.
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
    /// The crew's zones (beside the session's file), for the heart rates shown as it plays.
    let heartRateZones: HeartRateZoneTable
    let hasAccelerometer: Bool
    private let send: @Sendable (String) -> Void
    private let queue: DispatchQueue
    /// Whether the phone has taken what was sent so far: while it has not, the pass waits for it
    /// (a slow phone gets a slower playback, not an ever longer queue).
    private let phoneIsReady: @Sendable () -> Bool
    /// How often a playing pass runs what has come due: 20 times a second.
    public static let tick = 0.05

    struct State {
        var position: Seconds = 0
        var speed: Double = 1
        var paused = true
        var ended = false
        var lastNote: String?
    }
    private var state = State()
    private var pass: PlaybackPass?
    private var timer: DispatchSourceTimer?
    private var lastTick: Seconds = 0
    private var stopped = false
    private let clock = MonotonicClock()
    /// The fields every status of this playback carries alike.
    private var sensors: (gps: SensorState, accelerometer: SensorState) {
        (hasGPS ? .ok : .absent, hasAccelerometer ? .ok : .absent)
    }

    /// Opens the session (its strokes are read once, here: call it off the event loops). `send`
    /// gets every message, in order, on `queue`.
    public init(reader: SessionReader, queue: DispatchQueue, phoneIsReady: @escaping @Sendable () -> Bool = { true },
                send: @escaping @Sendable (String) -> Void) throws {
        id = SessionText.id(of: reader.path)
        replay = SessionReplay(reader)
        let figures = try SessionFigures.load(reader, includeStrokes: true)
        strokes = figures.strokes ?? []
        notes = try reader.notes(onDamage: .skipDamagedChunks).sorted { $0.time < $1.time }
        duration = figures.duration
        hasGPS = figures.fixes > 0
        heartRateZones = HeartRateZones(sessionsPath: (reader.path as NSString).deletingLastPathComponent).table()
        hasAccelerometer = figures.accelerometerSamples > 0
        self.queue = queue
        self.phoneIsReady = phoneIsReady
        self.send = send
    }

    // MARK: Controls

    /// Sends where the playback stands (a `playback` message and the figures at that moment).
    public func start() {
        queue.async { [self] in announce(at: state.position) }
    }

    public func apply(seek: Double?, speed: Double?, pause: Bool?) {
        queue.async { [self] in
            guard !stopped else { return }
            stopPass()
            if let seek {
                state.position = min(max(0, seek), duration)
                state.ended = state.position >= duration
                state.lastNote = notes.last(where: { $0.time <= state.position })?.text
            }
            if let speed { state.speed = speed }
            if let pause { state.paused = pause }
            if state.ended && pause == false && seek == nil {  // play again from the start
                state.position = 0
                state.ended = false
                state.lastNote = nil
            }
            announce(at: state.position)
            if !state.paused && !state.ended { startPass(from: state.position) }
        }
    }

    /// Stops the playback for good (the phone went away); nothing is sent after it.
    public func stop() {
        queue.async { [self] in
            stopped = true
            stopPass()
        }
    }

    // MARK: Passes

    /// Stops the running pass where it got to.
    private func stopPass() {
        timer?.cancel()
        timer = nil
        guard let pass else { return }
        state.position = pass.sink.time
        state.lastNote = pass.sink.lastNote
        self.pass = nil
    }

    private func startPass(from position: Seconds) {
        let sink = PlaybackSink(playback: self, from: position, firstStroke: strokeCount(at: position),
                                baseDistance: distance(at: position), lastNote: state.lastNote)
        do {
            pass = try PlaybackPass(replay: replay, from: position, speed: state.speed, sink: sink)
        } catch {
            send(LiveMessage.error("playback stopped: \(error)"))
            return ranOut()
        }
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now(), repeating: Self.tick)
        timer.setEventHandler { [weak self] in self?.step() }
        self.timer = timer
        lastTick = clock.now()
        timer.resume()
    }

    /// One tick: the records now due, unless the phone is behind (then the pass's clock waits).
    private func step() {
        guard let pass, !stopped else { return }
        let now = clock.now()
        defer { lastTick = now }
        guard phoneIsReady() else { return pass.hold(for: now - lastTick) }
        do {
            if try pass.advance(now: now) { ranOut() }
        } catch {
            send(LiveMessage.error("playback stopped: \(error)"))
            ranOut()
        }
    }

    /// The pass ran out by itself: the end, paused there.
    private func ranOut() {
        timer?.cancel()
        timer = nil
        pass = nil
        state.position = duration
        state.paused = true
        state.ended = true
        announce(at: duration)
    }

    /// A `playback` message and the session's figures at `position`.
    private func announce(at position: Seconds) {
        let s = state
        send(LiveMessage.playback(position: position, duration: duration, speed: s.speed, paused: s.paused, ended: s.ended))
        let count = strokeCount(at: position)
        let last = lastStroke(before: count)
        send(status(at: position, distance: distance(at: position), speed: nil, split: last?.split,
                    strokeRate: last?.smoothedRate ?? last?.stroke.strokeRate, strokeCount: count, lastNote: s.lastNote, ended: s.ended))
    }

    /// A status message of this playback: the figures at `time`, with the session's own stroke
    /// count and the last stroke's distance per stroke.
    func status(at time: Seconds, distance: Metres, speed: MetresPerSecond?, split: SecondsPer500m?,
                strokeRate: StrokesPerMinute?, strokeCount: Int, lastNote: String?, ended: Bool = false,
                heartRates: LiveHeartRates = LiveHeartRates()) -> String {
        var status = LiveStatus(source: "playback")
        status.figures = LiveFigures(time: time, elapsed: time, distance: distance, speed: speed, split: split,
                                     strokeRate: strokeRate, strokes: strokeCount)
        status.distancePerStroke = lastStroke(before: strokeCount)?.distancePerStroke
        status.lastNote = lastNote
        (status.gps, status.accelerometer) = sensors
        status.ended = ended
        status.heartRates = heartRates
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

    func emit(_ message: String) { send(message) }
}
