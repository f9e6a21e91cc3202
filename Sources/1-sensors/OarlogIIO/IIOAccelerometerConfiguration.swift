import OarlogCore

/// Where and how an IIO accelerometer is read.
public struct IIOAccelerometerConfiguration: Sendable, Equatable {
    /// How the scans are fetched.
    public enum Mode: String, Sendable, Equatable, CaseIterable {
        /// A buffer when the device has scan elements, else polling.
        case automatic
        /// A triggered buffer only (fails on a device without one).
        case buffered
        /// `in_accel_*_raw` read at `pollingRate` (a device wired without its interrupt line).
        case polling
    }

    /// libiio context: `local:` on the boat, `ip:HOST` (iiod) from a laptop on its Wi-Fi.
    public var uri: String
    public var device: IIODeviceSelector
    /// Written to `sampling_frequency` when given; the source reports the one in force either way.
    public var samplingFrequency: Hertz?
    public var mode: Mode = .automatic
    /// Scans per buffer refill; default 20 ms worth (at least 1): a stroke is shown at its catch,
    /// so the samples must not wait long in the kernel (at 1.6 kHz 32 scans, 50 refills a second).
    public var bufferSamples: Int?
    /// Polling rate when no sampling frequency was asked for.
    public var pollingRate: Hertz = 100
    /// Use the device's timestamp channel when it has one on a monotonic clock.
    public var useTimestampChannel = true
    /// Written to `current_timestamp_clock`: `monotonic` (never steps; `boottime` also works).
    public var timestampClock = "monotonic"
    /// A refill waiting longer than this is a stall (the context's timeout).
    public var refillTimeout: Seconds = 1
    /// Consecutive refill timeouts after which the device is closed and opened again.
    public var timeoutsBeforeReopen = 5
    /// An interval longer than this many sample periods is reported as a gap.
    public var gapFactor = 1.5
    /// First wait before reopening a lost device; doubled per failure up to `maximumRetryDelay`.
    public var initialRetryDelay: Seconds = 0.1
    public var maximumRetryDelay: Seconds = 2
    /// Records buffered between the reader thread and the pipeline.
    public var queueCapacity = 4096

    public init(uri: String = "local:", device: IIODeviceSelector = .firstAccelerometer, samplingFrequency: Hertz? = nil) {
        self.uri = uri
        self.device = device
        self.samplingFrequency = samplingFrequency
    }
}

/// What the reader found and set up on the device: what is in force, not what was asked.
public struct IIOAccelerometerSetup: Sendable, Equatable, CustomStringConvertible {
    public enum Mode: String, Sendable, Equatable { case buffered, polling }
    /// Where sample times come from.
    public enum Timing: Sendable, Equatable {
        /// The device's timestamp channel, on this clock (`monotonic` or `boottime`).
        case deviceTimestamps(clock: String)
        /// Refill times spread over the scans.
        case refillTimes
        /// The moment each polled value was read.
        case readTimes
    }
    public var uri: String
    /// `mpu6050 (iio:device0)`.
    public var device: String
    public var mode: Mode
    /// The device's sampling frequency after setting it, if it has one.
    public var samplingFrequency: Hertz?
    /// Reads per second in polling mode.
    public var pollingRate: Hertz?
    /// Scans per refill in buffered mode.
    public var bufferSamples: Int?
    public var timing: Timing
    /// Scan types of x, y, z (buffered mode).
    public var formats: [IIOScanFormat]
    public var conversions: [IIOAxisConversion]
    /// What could not be done as asked (a frequency that would not set, a clock left real-time).
    public var notes: [String]

    public var description: String {
        var parts = ["\(device) at \(uri)", mode.rawValue]
        if let f = samplingFrequency { parts.append("sampling frequency \(Self.hertz(f)) Hz") }
        if let r = pollingRate { parts.append("polled at \(Self.hertz(r)) Hz") }
        if let n = bufferSamples { parts.append("\(n) scans per refill") }
        switch timing {
        case .deviceTimestamps(let clock): parts.append("times from the device's \(clock) timestamps")
        case .refillTimes: parts.append("times from refills")
        case .readTimes: parts.append("times from reads")
        }
        if !formats.isEmpty { parts.append("type " + formats.map(\.description).joined(separator: " ")) }
        if let c = conversions.first { parts.append("scale \(c.scale)" + (c.offset != 0 ? " offset \(c.offset)" : "")) }
        return parts.joined(separator: ", ") + notes.map { "; " + $0 }.joined()
    }

    static func hertz(_ f: Hertz) -> String {
        f == f.rounded() && abs(f) < 1e9 ? String(Int(f)) : String(f)
    }
}
