import ArgumentParser
import OarlogCore
import OarlogGPS
import OarlogLive
import OarlogTrace
import Synchronization
import OarlogTerminal

/// `oarlog gps`: a live GPS monitor for setting up the boat, reading a running gpsd.
struct GPSMonitor: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gps",
        abstract: "Watch the GPS through gpsd: fix mode, satellites, position, speed and the split it implies.",
        discussion: """
            Refreshes one status line in place on a terminal, prints one line per fix when piped, or one \
            JSON object per fix with --json (gpsd's error estimates eph/epx/epy/eps included). With \
            --capture FILE the fixes (and any gaps) are written as a native CSV trace, so an NMEA log \
            replayed into gpsd becomes a trace. gpsd not running, killed or restarted is retried and \
            reported as a gap. Stop with Ctrl-C.
            """
    )

    @Option(help: "gpsd host.")
    var host = "localhost"

    @Option(help: "gpsd port.")
    var port = 2947

    @Option(help: "Watch only this device (e.g. /dev/ttyACM0); default: every device gpsd has.")
    var device: String?

    @Flag(help: "Print one JSON object per fix.")
    var json = false

    @Option(help: "Also write the fixes as a native CSV trace to this file.")
    var capture: String?

    @Option(help: "Stop after this many fixes.")
    var count: Int?

    @Option(help: "Stop after this many seconds.")
    var duration: Double?

    func validate() throws {
        guard (1...65535).contains(port) else { throw ValidationError("--port must be 1–65535") }
        if let count, count < 1 { throw ValidationError("--count must be at least 1") }
        if let duration, !(duration > 0) { throw ValidationError("--duration must be positive") }
    }

    func run() throws {
        SignalFlag.install()
        let clock = SessionClock.start()
        let monotonic = MonotonicClock()
        let deadline = duration.map { clock.monotonicOrigin + $0 }
        let terminal = StandardStreams.stdoutIsTerminal && !json
        let statusLineShown = Atomic<Bool>(false)
        let source = GPSDSource(
            configuration: GPSDSourceConfiguration(host: host, port: port, device: device),
            clock: clock,
            log: { line in
                // On a terminal, keep the status line intact: the message goes on its own line.
                if statusLineShown.exchange(false, ordering: .relaxed) { StandardStreams.write("\n") }
                StandardStreams.error("oarlog gps: \(line)\n")
            },
            shouldStop: { SignalFlag.interrupted || deadline.map { monotonic.now() >= $0 } ?? false })

        var writer: TraceWriter?
        if let capture {
            writer = try TraceWriter(path: capture, metadata: [
                (key: "start_utc", value: UTCTime.iso8601(clock.wallClockAtOrigin)),
                (key: "device", value: "gpsd \(host):\(port)" + (device.map { " \($0)" } ?? "")),
                (key: "source", value: "oarlog gps"),
            ])
        }
        source.start()
        var fixes = 0
        events: while let event = source.nextEvent() {
            try writer?.write(event.record)
            switch event {
            case .fix(let report):
                fixes += 1
                if json {
                    StandardStreams.write(Self.json(report) + "\n")
                } else if terminal {
                    StandardStreams.write("\r\u{1B}[K" + Self.statusLine(report))
                    statusLineShown.store(true, ordering: .relaxed)
                } else {
                    StandardStreams.write(Self.statusLine(report) + "\n")
                }
                if let count, fixes >= count { break events }
            case .gap(let gap):
                if statusLineShown.exchange(false, ordering: .relaxed) { StandardStreams.write("\n") }
                StandardStreams.error("oarlog gps: no GPS data for \(RowingFormat.decimal(gap.duration)) s (\(gap.reason))\n")
            }
        }
        source.stop()
        if statusLineShown.load(ordering: .relaxed) { StandardStreams.write("\n") }
        try writer?.close()
        let s = source.statistics
        let e = s.epochs
        StandardStreams.error("oarlog gps: \(fixes) fixes, \(s.gaps) gaps; gpsd reports \(e.reports), without fix \(e.noFix), "
            + "without time \(e.noTime), time going backward \(e.backward)"
            + (capture.map { "; trace written to \($0)" } ?? "") + "\n")
    }

    /// `3D 12 sats  52.850155 N   5.313617 E  2.88 m/s (5.6 kn)  split 2:53.5  230.5°  ±11.4 m  09:47:37Z`
    static func statusLine(_ r: GPSDReport) -> String {
        let mode: String
        switch r.mode {
        case .threeD: mode = "3D"
        case .twoD: mode = "2D"
        case .noFix: mode = "no fix"
        case .unknown: mode = "?"
        }
        let sats = r.satellitesUsed.map { "\($0) sats" } ?? "— sats"
        let lat = RowingFormat.fixed(abs(r.latitude), places: 6) + (r.latitude < 0 ? " S" : " N")
        let lon = RowingFormat.fixed(abs(r.longitude), places: 6) + (r.longitude < 0 ? " W" : " E")
        let speed = r.speed.map { RowingFormat.fixed($0, places: 2) + " m/s (" + RowingFormat.fixed($0 * 3600 / 1852, places: 1) + " kn)" } ?? "— m/s"
        let split = "split " + RowingFormat.split(r.speed.flatMap { Double.split(fromSpeed: $0) })
        let course = r.course.map { RowingFormat.fixed($0, places: 1) + "°" } ?? "—°"
        let error = r.horizontalError.map { "±" + RowingFormat.fixed($0, places: 1) + " m" } ?? "± —"
        let time = r.utc.map { String(UTCTime.iso8601($0).dropFirst(11).prefix(8)) + "Z" } ?? "no time"
        return [mode, sats, lat, lon, speed, split, course, error, time].joined(separator: "  ")
    }

    /// One fix as a JSON object (units in the keys; unknown values null).
    static func json(_ r: GPSDReport) -> String {
        var w = JSONWriter()
        w.beginObject()
        w.field("utc", r.utc.map { UTCTime.iso8601($0) })
        w.field("t_s", r.receivedAt, places: 3)
        w.field("mode", r.mode.rawValue)
        w.field("satellites_used", r.satellitesUsed)
        w.field("lat_deg", r.latitude)
        w.field("lon_deg", r.longitude)
        w.field("speed_mps", r.speed)
        w.field("split_s_per_500m", r.speed.flatMap { Double.split(fromSpeed: $0) }, places: 1)
        w.field("course_deg", r.course)
        w.field("alt_m", r.altitude)
        w.field("eph_m", r.horizontalError)
        w.field("epx_m", r.longitudeError)
        w.field("epy_m", r.latitudeError)
        w.field("eps_mps", r.speedError)
        w.field("epv_m", r.verticalError)
        w.endObject()
        return w.take()
    }
}
