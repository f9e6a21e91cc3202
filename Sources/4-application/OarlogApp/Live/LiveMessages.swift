import OarlogCore
import OarlogDSP
import OarlogFences

/// The JSON messages of the live stream (`/api/live`, docs/API.md): one object per message with
/// a `"type"`, keys and units as `oarlog replay --json`, `null` for no data.
public enum LiveMessage {
    /// A stroke: the fields of a `stroke_list` entry, and when the pipeline gave it (UTC
    /// milliseconds: a client on the same clock sees how late it arrived).
    public static func stroke(_ m: StrokeMetrics, emittedUTC: Double? = nil) -> String {
        var w = JSONWriter()
        w.beginObject()
        w.field("type", "stroke")
        w.strokeFields(m)
        if let emittedUTC { w.field("emitted_unix_ms", emittedUTC * 1000, places: 1) }
        w.endObject()
        return w.take()
    }

    /// A stroke at its catch (`AnalyzerEvent.caught`: its `stroke` message follows with
    /// everything) or a catch withdrawn: index, catch time, rate and smoothed rate.
    public static func caught(_ m: StrokeMetrics, emittedUTC: Double? = nil) -> String {
        var w = JSONWriter()
        w.beginObject()
        w.field("type", "catch")
        w.field("index", m.stroke.index)
        w.field("t_s", m.stroke.catchTime, places: 3)
        w.field("rate_spm", m.stroke.strokeRate, places: 2)
        w.field("smoothed_rate_spm", m.smoothedRate, places: 2)
        w.field("withdrawn", m.stroke.stage == .withdrawn)
        if let emittedUTC { w.field("emitted_unix_ms", emittedUTC * 1000, places: 1) }
        w.endObject()
        return w.take()
    }

    /// A position, at most once a second.
    public static func fix(_ f: GPSFix) -> String {
        var w = JSONWriter()
        w.beginObject()
        w.field("type", "fix")
        w.field("t_s", f.time, places: 3)
        w.field("lat", f.latitude, places: 7)
        w.field("lon", f.longitude, places: 7)
        w.field("speed_mps", f.speed, places: 2)
        w.field("split_s_per_500m", f.speed.flatMap { $0 > 0.2 ? 500 / $0 : nil }, places: 2)
        w.field("course_deg", f.course, places: 1)
        w.endObject()
        return w.take()
    }

    /// The boat's acceleration for the live plot: the samples since the last message, thinned.
    public static func accel(times: [Seconds], surge: [Double]) -> String {
        var w = JSONWriter()
        w.beginObject()
        w.field("type", "accel")
        w.array("t_s", times, places: 3)
        w.array("a_mps2", surge, places: 3)
        w.endObject()
        return w.take()
    }

    public static func note(_ n: Note) -> String {
        var w = JSONWriter()
        w.beginObject()
        w.field("type", "note")
        w.field("t_s", n.time, places: 3)
        w.field("text", n.text)
        w.endObject()
        return w.take()
    }

    public static func fence(_ e: FenceEvent) -> String {
        var w = JSONWriter()
        w.beginObject()
        w.field("type", "fence")
        w.field("t_s", e.time, places: 3)
        w.field("text", FenceEventPrinter.line(e))
        w.endObject()
        return w.take()
    }

    /// A session started or stopped (with its id; when stopped, its summary as `show --json`).
    public static func session(event: String, id: String, title: String, summary: String? = nil) -> String {
        var w = JSONWriter()
        w.beginObject()
        w.field("type", "session")
        w.field("event", event)
        w.field("id", id)
        w.field("title", title)
        if let summary { w.field("summary", json: summary) }
        w.endObject()
        return w.take()
    }

    /// Where a playback stands (`/api/sessions/{id}/playback`): sent on every seek, speed,
    /// pause and play, and when it reaches the end.
    public static func playback(position: Seconds, duration: Seconds, speed: Double, paused: Bool, ended: Bool) -> String {
        var w = JSONWriter()
        w.beginObject()
        w.field("type", "playback")
        w.field("t_s", position, places: 3)
        w.field("duration_s", duration, places: 3)
        w.field("speed", speed, places: 2)
        w.field("paused", paused)
        w.field("ended", ended)
        w.endObject()
        return w.take()
    }

    /// Something went wrong on the server's side of a stream (a damaged file, a request refused).
    public static func error(_ message: String) -> String {
        var w = JSONWriter()
        w.beginObject()
        w.field("type", "error")
        w.field("message", message)
        w.endObject()
        return w.take()
    }

    /// The figures so far: what a phone that joins mid-session shows first.
    public static func status(_ s: LiveStatus) -> String {
        var w = JSONWriter()
        w.beginObject()
        w.field("type", "status")
        w.field("source", s.source)
        w.field("elapsed_s", s.figures?.elapsed, places: 3)
        w.field("distance_m", s.figures?.distance, places: 2)
        w.field("strokes", s.figures?.strokes ?? 0)
        w.field("stroke_rate_spm", s.figures?.strokeRate, places: 2)
        w.field("split_s_per_500m", s.figures?.split, places: 2)
        w.field("speed_mps", s.figures?.speed, places: 2)
        w.field("distance_per_stroke_m", s.distancePerStroke, places: 2)
        w.field("last_note", s.lastNote)
        w.field("gps", s.gps.rawValue)
        w.field("accelerometer", s.accelerometer.rawValue)
        w.field("recording", s.recordingID != nil)
        w.field("session", s.recordingID)
        w.field("ended", s.ended)
        w.heartRates(s.heartRates)
        w.endObject()
        return w.take()
    }
}

/// What the status message carries.
public struct LiveStatus: Sendable, Equatable {
    /// `replay` or `live`.
    public var source: String
    public var figures: LiveFigures?
    public var distancePerStroke: Metres?
    public var lastNote: String?
    public var gps: SensorState = .waiting
    public var accelerometer: SensorState = .waiting
    /// The session being recorded, if any.
    public var recordingID: String?
    /// The source has ended (a replay ran out): the figures are final.
    public var ended = false
    /// The crew's latest heart rates, with their zones.
    public var heartRates = LiveHeartRates()

    public init(source: String) { self.source = source }
}

/// A sensor as the cox sees it: data flowing, not yet, or stopped ("no GPS" is not lost data).
public enum SensorState: String, Sendable, Equatable {
    case ok, waiting, lost, absent
}
