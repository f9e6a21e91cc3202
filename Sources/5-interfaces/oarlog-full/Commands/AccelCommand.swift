import ArgumentParser
import OarlogCore
import OarlogDSP
import OarlogIIO
import OarlogLive
import OarlogTrace
import Synchronization
import OarlogTerminal

/// `oarlog accel`: a live check for mounting the accelerometer, reading a Linux IIO device
/// through libiio — rate achieved, the gravity vector, the surge axis the DSP would pick, and a
/// small live level of surge acceleration.
struct AccelCheck: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "accel",
        abstract: "Check the accelerometer: rate achieved, gravity, the surge axis Oarlog picks, a live surge level.",
        discussion: """
            Reads an IIO accelerometer through libiio: on the boat (--uri local:, the default) or from a \
            laptop on its Wi-Fi through iiod (--uri ip:HOST). Buffered when the device has a buffer \
            (with its timestamp channel on the monotonic clock), polled otherwise. On a terminal one \
            status line refreshes in place; piped, one line per second. Gravity should read about 9.8 \
            m/s²; the surge axis appears once the boat moves (row a few strokes, or rock it fore and \
            aft) and should point to the bow. Gaps (FIFO overflow, stalls, a lost device) are \
            reported on stderr. --capture FILE writes the samples as a native CSV trace. Ctrl-C stops.
            """
    )

    @Option(help: "libiio context: local: on the board, ip:HOST (iiod) from another machine.")
    var uri = "local:"

    @Option(help: "IIO device name (mpu6050, adxl345), id (iio:device0) or index; default: the first accelerometer.")
    var device: String?

    @Option(help: "Sampling frequency to set, Hz (default: leave the device's).")
    var rate: Double?

    @Option(help: "Scans per buffer refill (default: a tenth of a second's worth).")
    var buffer: Int?

    @Flag(help: "Poll in_accel_*_raw instead of using the buffer (a sensor wired without its interrupt line).")
    var poll = false

    @Option(help: "The bow in sensor axes if known (+x, -y, or 0.7,-0.7,0); default: estimated from the motion.")
    var axis: String?

    @Option(help: "Also write the samples (and gaps) as a native CSV trace to this file.")
    var capture: String?

    @Option(help: "Stop after this many seconds.")
    var duration: Double?

    func validate() throws {
        if let rate, !(rate > 0 && rate <= 100_000) { throw ValidationError("--rate must be a positive number of Hz") }
        if let buffer, buffer < 1 { throw ValidationError("--buffer must be at least 1") }
        if let axis, MountingAxis(axis) == nil { throw ValidationError("--axis: expected +x, -y, z, auto or three numbers like 0.7,-0.7,0") }
        if let duration, !(duration > 0) { throw ValidationError("--duration must be positive") }
    }

    func run() throws {
        SignalFlag.install()
        var configuration = IIOAccelerometerConfiguration(uri: uri, device: IIODeviceSelector(device), samplingFrequency: rate)
        configuration.bufferSamples = buffer
        if poll { configuration.mode = .polling }
        if let rate { configuration.pollingRate = rate }
        let clock = SessionClock.start()
        // Open once here so a wrong URI, device or missing scale is a clear error, not a retry loop.
        let setup: IIOAccelerometerSetup
        do {
            setup = try IIOAccelerometerReader(configuration: configuration, clock: clock).setup
        } catch {
            throw ValidationError("\(error)")
        }
        StandardStreams.error("oarlog accel: \(setup)\n")

        let monotonic = MonotonicClock()
        let deadline = duration.map { clock.monotonicOrigin + $0 }
        let terminal = StandardStreams.stdoutIsTerminal
        let statusLineShown = Atomic<Bool>(false)
        let source = IIOAccelerometerSource(
            configuration: configuration, clock: clock,
            log: { line in
                if statusLineShown.exchange(false, ordering: .relaxed) { StandardStreams.write("\n") }
                StandardStreams.error("oarlog accel: \(line)\n")
            },
            shouldStop: { SignalFlag.interrupted || deadline.map { monotonic.now() >= $0 } ?? false })

        var writer: TraceWriter?
        if let capture {
            writer = try TraceWriter(path: capture, metadata: [
                (key: "start_utc", value: UTCTime.iso8601(clock.wallClockAtOrigin)),
                (key: "device", value: "\(setup.device) at \(uri)"),
                (key: "source", value: "oarlog accel"),
            ])
        }
        var mounting = MountingEstimator(configuration: MountingEstimatorConfiguration(axis: axis.flatMap(MountingAxis.init) ?? .estimated))
        let reportEvery: Seconds = terminal ? 0.2 : 1.0
        var window = RateWindow()
        var lastSurge: MetresPerSecondSquared?
        var samples = 0, gaps = 0
        source.start()
        while let record = try source.next() {
            try writer?.write(record)
            switch record {
            case .accel(let sample):
                samples += 1
                window.add(sample.time)
                if let s = mounting.surge(of: sample) { lastSurge = s }
                if mounting.hasSettlingHistory { mounting.drainSettlingHistory { _, _ in } }
                if let rate = window.rate(ifOlderThan: reportEvery, at: sample.time) {
                    let line = Self.statusLine(rate: rate, mounting: mounting, surge: lastSurge)
                    if terminal {
                        StandardStreams.write("\r\u{1B}[K" + line)
                        statusLineShown.store(true, ordering: .relaxed)
                    } else {
                        StandardStreams.write(line + "\n")
                    }
                }
            case .gap(let gap):
                gaps += 1
                if statusLineShown.exchange(false, ordering: .relaxed) { StandardStreams.write("\n") }
                StandardStreams.error("oarlog accel: no accelerometer data for \(RowingFormat.decimal(gap.duration, places: 3)) s (\(gap.reason))\n")
            default:
                break
            }
        }
        source.stop()
        if statusLineShown.load(ordering: .relaxed) { StandardStreams.write("\n") }
        try writer?.close()
        let s = source.statistics
        StandardStreams.error("oarlog accel: \(samples) samples, \(gaps) gaps, \(s.timeouts) refill timeouts, device lost \(s.losses) times"
            + (capture.map { "; trace written to \($0)" } ?? "") + "\n")
    }

    /// `100.0 Hz  g +0.12 -0.03 +9.79 (9.80)  surge axis +0.99 +0.02 +0.01 (+x)  surge +0.42 m/s² [·····|###······]`
    static func statusLine(rate: Double, mounting: MountingEstimator, surge: MetresPerSecondSquared?) -> String {
        var parts = [RowingFormat.fixed(rate, places: 1) + " Hz"]
        if let g = mounting.gravity {
            let norm = (g * g).sum().squareRoot()
            parts.append("g " + vector(g) + " (" + RowingFormat.fixed(norm, places: 2) + ")")
        }
        if let u = mounting.surgeAxis {
            parts.append("surge axis " + vector(u) + (nearestAxis(u).map { " (\($0))" } ?? ""))
            parts.append("surge " + signed(Double(surge ?? 0)) + " m/s² " + level(Double(surge ?? 0)))
        } else {
            parts.append("surge axis: settling (row a few strokes or rock the boat fore and aft)")
        }
        return parts.joined(separator: "  ")
    }

    static func vector(_ v: SIMD3<Double>) -> String { "\(signed(v.x)) \(signed(v.y)) \(signed(v.z))" }

    static func signed(_ x: Double) -> String { (x >= 0 ? "+" : "-") + RowingFormat.fixed(abs(x), places: 2) }

    /// `+x` when the vector lies within about 25° of a sensor axis.
    static func nearestAxis(_ u: SIMD3<Double>) -> String? {
        let names = ["x", "y", "z"]
        let a = [u.x, u.y, u.z]
        guard let i = a.indices.max(by: { abs(a[$0]) < abs(a[$1]) }), abs(a[i]) > 0.9 else { return nil }
        return (a[i] > 0 ? "+" : "-") + names[i]
    }

    /// A 21-cell bar from -5 to +5 m/s², centred on 0.
    static func level(_ surge: Double) -> String {
        let half = 10
        let cells = max(-half, min(half, Int((surge / 5 * Double(half)).rounded())))
        var bar = [Character](repeating: "·", count: 2 * half + 1)
        bar[half] = "|"
        if cells > 0 { for k in 1...cells { bar[half + k] = "#" } }
        if cells < 0 { for k in 1...(-cells) { bar[half - k] = "#" } }
        return "[" + String(bar) + "]"
    }
}

/// Samples per second of sample time over each report period.
struct RateWindow {
    private var start: Seconds?
    private var count = 0

    mutating func add(_ t: Seconds) {
        if start == nil { start = t; count = 0; return }
        count += 1
    }

    /// The rate since the window started, once it spans `period`; then a new window starts.
    mutating func rate(ifOlderThan period: Seconds, at t: Seconds) -> Double? {
        guard let s = start, t - s >= period, count > 0 else { return nil }
        let rate = Double(count) / (t - s)
        start = t
        count = 0
        return rate
    }
}
