import ArgumentParser
import Foundation
import OarlogCore
import OarlogDSP
import OarlogFences
import OarlogGPS
import OarlogIIO
import OarlogLive
import OarlogPipeline
import OarlogReport
import OarlogSession
import Synchronization

/// `oarlog record`: what runs in the boat. Reads the accelerometer (IIO) and the GPS (gpsd),
/// shows the coxswain's live display, records the session file, and stops cleanly on Ctrl-C or
/// SIGTERM. `--auto` records each outing of a headless boat as its own session.
struct Record: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Record a session live from the accelerometer and GPS, with the coxswain's display.",
        discussion: """
            A countdown (3… 2… 1… Go!) comes first: data counts from Go. The display shows stroke rate,
            split, total strokes, elapsed time, distance and distance per stroke, refreshed about twice a
            second (in place on a terminal; one line every 10 s otherwise). Each line typed on the
            keyboard (stdin) is a note stamped with the session time. Ctrl-C or SIGTERM stops: the file
            is closed and the summary printed. A sensor that is missing is reported once and recorded as
            absent; gpsd is still watched in case it starts later.

            --auto (a headless boat): no countdown; a session opens when rowing begins (--start-strokes
            strokes within 20 s; the 10 s before the first are kept), ends --idle seconds after the last
            stroke, and the next outing becomes another session. Stop with SIGTERM.

            Sessions go to $OARLOG_DATA_DIR/sessions (else $XDG_DATA_HOME/oarlog/sessions, else
            ~/.local/share/oarlog/sessions); see `oarlog sessions`.
            Examples:
              oarlog record --title "Morning outing"
              oarlog record --gps 192.168.4.1:2947 --iio ip:192.168.4.1
              oarlog record --auto --idle 180
            """
    )

    @Option(help: "The session's title (also in its file name).")
    var title: String?

    @Option(help: "Seconds of countdown before data counts (0: start at once).")
    var countdown: Int = 3

    @Flag(help: "Start a session whenever rowing begins and end it after --idle seconds without strokes; repeat.")
    var auto = false

    @Option(help: "With --auto: seconds without a stroke that end an outing.")
    var idle: Double = 120

    @Option(name: .customLong("start-strokes"), help: "With --auto: strokes within 20 s that mean rowing has begun.")
    var startStrokes: Int = 6

    @Option(help: "gpsd as HOST:PORT.")
    var gps: String = "localhost:2947"

    @Flag(name: .customLong("no-gps"), help: "Record without GPS.")
    var noGPS = false

    @Option(help: "libiio context of the accelerometer: local: on the board, ip:HOST through iiod.")
    var iio: String = "local:"

    @Option(help: "IIO device name (mpu6050, adxl345), id (iio:device0) or index; default: the first accelerometer.")
    var device: String?

    @Option(help: "Accelerometer sampling frequency to set, Hz (default: leave the device's).")
    var rate: Double?

    @Flag(name: .customLong("no-accel"), help: "Record without the accelerometer (GPS only: no strokes).")
    var noAccel = false

    @Option(help: "GeoJSON fences or a course (docs/FENCES.md): gate crossings and area events are shown and recorded.")
    var fences: String?

    @Option(help: "Stop after this many seconds (unattended runs, tests).")
    var duration: Double?

    @OptionGroup(title: "Analysis")
    var analysis: AnalysisOptions

    func validate() throws {
        if !(0...60).contains(countdown) { throw ValidationError("--countdown must be 0–60 seconds") }
        if !(idle >= 10 && idle.isFinite) { throw ValidationError("--idle must be at least 10 seconds") }
        if !(2...50).contains(startStrokes) { throw ValidationError("--start-strokes must be 2–50") }
        if noGPS && noAccel { throw ValidationError("--no-gps and --no-accel leave nothing to record") }
        if auto && noAccel { throw ValidationError("--auto finds rowing in the accelerometer: it cannot be used with --no-accel") }
        if !noGPS && Self.hostPort(gps) == nil { throw ValidationError("--gps '\(gps)': expected HOST:PORT, e.g. localhost:2947") }
        if let rate, !(rate > 0 && rate <= 100_000) { throw ValidationError("--rate must be a positive number of Hz") }
        if let duration, !(duration > 0) { throw ValidationError("--duration must be positive") }
        _ = try analysis.analyzerConfiguration()
    }

    /// `host:port` → (host, port); a bare host gets gpsd's port.
    static func hostPort(_ text: String) -> (host: String, port: Int)? {
        guard let colon = text.lastIndex(of: ":") else { return text.isEmpty ? nil : (text, 2947) }
        let host = String(text[..<colon])
        guard let port = Int(text[text.index(after: colon)...]), (1...65535).contains(port) else { return nil }
        return (host.isEmpty ? "localhost" : host, port)
    }

    func run() throws {
        SignalFlag.install()
        let monotonic = MonotonicClock()
        // Session time 0 is Go: the sensors start now and warm up during the countdown; what they
        // deliver before Go is dropped.
        let lead = auto ? 0 : Double(countdown)
        let clock = SessionClock(monotonicOrigin: monotonic.now() + lead, wallClockAtOrigin: monotonic.wallClockNow() + lead)
        let sensors = try openSensors(clock: clock)
        let live = LiveSources(sensors.sources)
        let stopAt = duration.map { clock.monotonicOrigin + $0 }
        live.start()
        let watcher = StopWatcher(live: live, deadline: stopAt)
        watcher.start()
        NoteReader.start(live: live, clock: clock)
        defer { watcher.finish() }

        if auto {
            try recordOutings(live: live, clock: clock, sensors: sensors)
        } else {
            try countDown(clock: clock, monotonic: monotonic)
            if SignalFlag.interrupted {
                live.stop()
                StandardStreams.error("stopped before Go: nothing recorded\n")
                return
            }
            var source = Prepended([Self.startRecord(clock.utc(of: 0))], FromSessionStart(base: live))
            try recordOne(&source, metadata: metadata(clock: clock, start: 0, sensors: sensors), outing: nil)
        }
    }

    // MARK: Sensors

    struct Sensors {
        var sources: [any LiveRecordSource] = []
        /// One line per sensor for the metadata ("absent" for a missing one).
        var devices: [String] = []
        var accelerometerRate: Hertz?
    }

    /// Opens what answers; reports each missing sensor once.
    func openSensors(clock: SessionClock) throws -> Sensors {
        var sensors = Sensors()
        var problems: [String] = []
        if !noAccel {
            var configuration = IIOAccelerometerConfiguration(uri: iio, device: IIODeviceSelector(device), samplingFrequency: rate)
            if let rate { configuration.pollingRate = rate }
            do {
                let setup = try IIOAccelerometerReader(configuration: configuration, clock: clock).setup
                sensors.devices.append("accelerometer: \(setup.device) at \(iio)")
                sensors.accelerometerRate = setup.samplingFrequency ?? (setup.mode == .polling ? setup.pollingRate : nil)
                sensors.sources.append(IIOAccelerometerSource(
                    configuration: configuration, clock: clock,
                    log: { StandardStreams.error("\noarlog record: \($0)\n") },
                    shouldStop: { SignalFlag.interrupted }))
                StandardStreams.error("accelerometer: \(setup)\n")
            } catch {
                problems.append("no accelerometer (\(error))")
                sensors.devices.append("accelerometer: absent (\(error))")
                StandardStreams.error("oarlog record: no accelerometer at \(iio): \(error) — recording without strokes\n")
            }
        }
        if !noGPS, let (host, port) = Self.hostPort(gps) {
            let reachable: Bool
            do {
                _ = try GPSDClient(host: host, port: port)
                reachable = true
                sensors.devices.append("gps: gpsd \(host):\(port)")
                StandardStreams.error("gps: gpsd \(host):\(port)\n")
            } catch {
                reachable = false
                problems.append("no GPS (\(error))")
                sensors.devices.append("gps: absent at start (gpsd \(host):\(port): \(error))")
                StandardStreams.error("oarlog record: no GPS: gpsd \(host):\(port): \(error) — recording without distance "
                    + "or split; gpsd is watched in case it starts\n")
            }
            // Logged once: a GPS missing at the start is not reported again on every retry.
            let quiet = Atomic<Bool>(!reachable)
            sensors.sources.append(GPSDSource(
                configuration: GPSDSourceConfiguration(host: host, port: port), clock: clock,
                log: { line in
                    if line.hasPrefix("gpsd: watching") {
                        if quiet.exchange(false, ordering: .relaxed) { StandardStreams.error("\noarlog record: GPS found: \(line)\n") }
                        return
                    }
                    if !quiet.load(ordering: .relaxed) { StandardStreams.error("\noarlog record: \(line)\n") }
                },
                shouldStop: { SignalFlag.interrupted }))
        }
        let answered = sensors.devices.filter { !$0.contains("absent") }
        if answered.isEmpty {
            throw CommandFailure("no sensor answered: " + problems.joined(separator: "; ")
                + ". Check them with `oarlog devices`, `oarlog accel` and `oarlog gps`.")
        }
        if auto && !answered.contains(where: { $0.hasPrefix("accelerometer:") }) {
            throw CommandFailure("--auto needs the accelerometer to see rowing begin: " + problems.joined(separator: "; "))
        }
        return sensors
    }

    /// The session's start as a trace metadata record (recorded, and shown in the summary).
    static func startRecord(_ utc: Double) -> TraceRecord {
        .metadata(key: "start_utc", value: SessionSupport.isoText(utc))
    }

    func metadata(clock: SessionClock, start: Seconds, sensors: Sensors) -> SessionMetadata {
        var settings = SessionSupport.settings(analysis)
        if auto { settings += [.init("auto_idle_s", "\(idle)"), .init("auto_start_strokes", "\(startStrokes)")] }
        if let fences { settings.append(.init("fences", fences)) }
        return SessionMetadata(title: title ?? "", startUTC: clock.utc(of: start), monotonicOrigin: clock.monotonicOrigin + start,
                               devices: sensors.devices, accelerometerRate: sensors.accelerometerRate,
                               softwareVersion: SessionSupport.softwareVersion, settings: settings)
    }

    // MARK: Recording

    /// 3… 2… 1… Go!, one a second, ending at session time 0.
    func countDown(clock: SessionClock, monotonic: MonotonicClock) throws {
        guard countdown > 0 else { return }
        for k in stride(from: countdown, through: 1, by: -1) {
            if SignalFlag.interrupted { return }
            StandardStreams.write("\(k)… ")
            let until = clock.monotonicOrigin - Double(k - 1)
            while monotonic.now() < until && !SignalFlag.interrupted { monotonic.sleep(until: min(until, monotonic.now() + 0.1)) }
        }
        if !SignalFlag.interrupted { StandardStreams.write("Go!\n") }
    }

    /// Records one session from `source` to its end (stop, or the outing's end); prints its summary.
    func recordOne<Source: RecordSource>(_ source: inout Source, metadata: SessionMetadata, outing: AutoOuting?) throws {
        var pipeline = try makePipeline(metadata: metadata)
        let writer = pipeline.sinks.compactMap { $0 as? SessionWriter }.first!
        let facts = pipeline.sinks.compactMap { $0 as? SessionFacts }.first!
        let summary = try pipeline.run(&source, shouldStop: { SignalFlag.interrupted })
        report(summary: summary, facts: facts, writer: writer, outing: outing)
    }

    func makePipeline(metadata: SessionMetadata) throws -> Pipeline {
        let writer: SessionWriter
        do {
            writer = try SessionWriter.create(metadata: metadata, options: SessionWriter.Options(durability: .syncEveryChunk))
        } catch {
            throw CommandFailure("cannot record: \(error)")
        }
        StandardStreams.error("recording to \(writer.path)\n")
        let terminal = StandardStreams.stdoutIsTerminal
        let facts = SessionFacts()
        var sinks: [any PipelineSink] = [writer, facts, LiveDisplay(inPlace: terminal, lineInterval: 10) { StandardStreams.write($0) }]
        let monitor = try fences.map { FenceMonitor(try FenceFile.load(path: $0)) }
        if monitor != nil && !terminal { sinks.append(FenceEventPrinter { StandardStreams.write($0 + "\n") }) }
        return Pipeline(analyzer: RowingAnalyzer(configuration: try analysis.analyzerConfiguration()), sinks: sinks, fences: monitor)
    }

    func report(summary: SessionSummary, facts: SessionFacts, writer: SessionWriter, outing: AutoOuting?) {
        let name = metadataTitle(writer.metadata) + (outing.map { " (outing \($0.number))" } ?? "")
        StandardStreams.write("\n" + SummaryTable.render(title: "Oarlog session — \(name)", summary: summary, facts: facts))
        StandardStreams.error("saved session \(SessionSupport.id(of: writer.path)) (\(writer.path), "
            + SessionSupport.sizeText(writer.bytesWritten) + ")\n")
    }

    func metadataTitle(_ m: SessionMetadata) -> String {
        m.title.isEmpty ? SessionSupport.dateText(m.startUTC) + " UTC" : m.title
    }

    /// `--auto`: every outing of the run, each its own session.
    func recordOutings(live: LiveSources, clock: SessionClock, sensors: Sensors) throws {
        var configuration = AutoSessionConfiguration()
        configuration.idleToEnd = idle
        configuration.strokesToStart = startStrokes
        configuration.mounting = try analysis.analyzerConfiguration().mounting
        let controller = AutoSessionController(source: live, configuration: configuration)
        StandardStreams.error("waiting for rowing (\(startStrokes) strokes within 20 s)…\n")
        var facts: SessionFacts?
        var writer: SessionWriter?
        try controller.run(leadingRecords: { [Self.startRecord(clock.utc(of: $0.start))] }, makePipeline: { outing in
            StandardStreams.error("outing \(outing.number): rowing began at \(SessionSupport.dateText(clock.utc(of: outing.firstStroke))) UTC\n")
            let pipeline = try makePipeline(metadata: metadata(clock: clock, start: outing.start, sensors: sensors))
            writer = pipeline.sinks.compactMap { $0 as? SessionWriter }.first
            facts = pipeline.sinks.compactMap { $0 as? SessionFacts }.first
            return pipeline
        }, finished: { outing, summary, _ in
            if let writer, let facts { report(summary: summary, facts: facts, writer: writer, outing: outing) }
            if !SignalFlag.interrupted { StandardStreams.error("waiting for rowing…\n") }
        }, shouldStop: { SignalFlag.interrupted })
        StandardStreams.error("\(controller.outingCount) outing(s) recorded\n")
    }
}

/// Drops what the sensors delivered before Go (session time < 0); a gap that runs past Go is
/// cut to start at 0.
struct FromSessionStart<Base: RecordSource>: RecordSource {
    var base: Base
    mutating func next() throws -> TraceRecord? {
        while let r = try base.next() {
            guard let t = r.time, t < 0 else { return r }
            if case .gap(var g) = r, g.end > 0 {
                g.start = 0
                return .gap(g)
            }
        }
        return nil
    }
}

/// Stops the live sources on SIGINT/SIGTERM or at the deadline, so a pipeline blocked waiting for
/// a silent sensor still ends.
final class StopWatcher: @unchecked Sendable {
    private let live: LiveSources
    private let deadline: Seconds?
    private let done = Atomic<Bool>(false)

    init(live: LiveSources, deadline: Seconds?) {
        self.live = live
        self.deadline = deadline
    }

    func start() {
        let thread = Thread { [self] in
            let clock = MonotonicClock()
            while !done.load(ordering: .relaxed) {
                if SignalFlag.interrupted || deadline.map({ clock.now() >= $0 }) ?? false {
                    SignalFlag.raise()
                    live.stop()
                    return
                }
                clock.sleep(until: clock.now() + 0.1)
            }
        }
        thread.name = "oarlog-stop-watcher"
        thread.start()
    }

    func finish() { done.store(true, ordering: .relaxed) }
}

/// Lines typed on stdin become notes, stamped with the session time when Enter was pressed.
enum NoteReader {
    static func start(live: LiveSources, clock: SessionClock) {
        let thread = Thread {
            let monotonic = MonotonicClock()
            while let line = readLine() {
                let text = line.trimmingCharacters(in: .whitespaces)
                guard !text.isEmpty else { continue }
                let time = clock.sessionTime(ofMonotonic: monotonic.now())
                live.inject(.note(Note(time: time, text: text)))
            }
        }
        thread.name = "oarlog-notes"
        thread.start()
    }
}
