import CIIO
import OarlogCore
import OarlogLive
#if canImport(Glibc)
import Glibc
#endif

/// Reads one IIO accelerometer, synchronously: opening it sets it up (channels, sampling
/// frequency, timestamp clock, buffer) and throws a clear `IIOError` naming anything missing;
/// each `read` then waits for the next scans and hands them over as `AccelSample`s in m/s² on
/// the session's monotonic time line. `IIOAccelerometerSource` runs one on a thread and
/// reopens it when the device is lost.
public final class IIOAccelerometerReader: @unchecked Sendable {
    public let configuration: IIOAccelerometerConfiguration
    public let setup: IIOAccelerometerSetup
    public let clock: SessionClock
    private let context: IIOContext
    private let channels: IIOAccelerometerChannels
    private let stream: IIOBufferStream?
    private var timeline: IIOSampleTimeline
    /// Device timestamp (ns) at session time 0, when the timestamp channel is used.
    private let timestampOriginNanoseconds: Int64?
    private let monotonic = MonotonicClock()
    private var nextPoll: Seconds = 0
    private let pollInterval: Seconds

    /// What one `read` found.
    public enum Outcome: Sendable, Equatable {
        /// This many samples were delivered.
        case samples(Int)
        /// No data within `refillTimeout` (a stalled FIFO, a device that stopped).
        case timeout
    }

    /// Opens and sets up the device. Throws `IIOError` saying what is missing.
    public init(configuration: IIOAccelerometerConfiguration, clock: SessionClock) throws {
        self.configuration = configuration
        self.clock = clock
        context = try IIOContext(uri: configuration.uri)
        try context.setTimeout(configuration.refillTimeout)
        let device = try context.device(configuration.device)
        channels = try IIOAccelerometerChannels(device: device)
        var notes: [String] = []
        let inForce = Self.setSamplingFrequency(configuration.samplingFrequency, device: device, channel: channels.x, notes: &notes)
        let buffered = try Self.streamsThroughBuffer(configuration.mode, channels: channels, device: device)
        var timing = IIOAccelerometerSetup.Timing.readTimes
        var originNanoseconds: Int64? = nil
        if buffered {
            (timing, originNanoseconds) = Self.refillTiming(configuration, channels: channels, device: device, clock: clock, notes: &notes)
        }
        timestampOriginNanoseconds = originNanoseconds

        let rate = inForce ?? configuration.samplingFrequency
        let samples = configuration.bufferSamples ?? max(1, Int(((rate ?? 100) / 50).rounded()))
        let pollingRate = configuration.samplingFrequency ?? inForce ?? configuration.pollingRate
        pollInterval = 1 / max(0.1, pollingRate)
        if buffered {
            stream = try IIOBufferStream(channels: channels, device: device, withTimestamp: originNanoseconds != nil, samples: samples)
        } else {
            stream = nil
        }
        let nominal: Seconds? = buffered ? rate.map { 1 / $0 } : pollInterval
        timeline = IIOSampleTimeline(nominalInterval: nominal, gapFactor: configuration.gapFactor,
                                     openedAt: clock.sessionTime(ofMonotonic: monotonic.now()))
        setup = IIOAccelerometerSetup(
            uri: configuration.uri, device: device.displayName, mode: buffered ? .buffered : .polling,
            samplingFrequency: inForce, pollingRate: buffered ? nil : pollingRate, bufferSamples: buffered ? samples : nil,
            timing: timing,
            formats: stream.map { [$0.formats.x, $0.formats.y, $0.formats.z] } ?? [],
            conversions: [channels.conversions.x, channels.conversions.y, channels.conversions.z], notes: notes)
        nextPoll = monotonic.now()
    }

    /// Waits for the next scans (one refill, or one polling tick) and passes each sample to
    /// `emit` with, when data is missing before it, why (the time line's gap). Throws when the
    /// device is lost (I/O error, iiod gone).
    public func read(_ emit: (AccelSample, _ gapReason: String?) -> Void) throws -> Outcome {
        if let stream { return try readBuffer(stream, emit) }
        return try poll(emit)
    }

    /// Makes a `read` blocked in a refill return at once (call from another thread to stop).
    public func cancel() { stream?.cancel() }

    /// Scans dropped because their device time did not move forward.
    public var outOfOrderScans: Int { timeline.outOfOrder }

    private func readBuffer(_ stream: IIOBufferStream, _ emit: (AccelSample, String?) -> Void) throws -> Outcome {
        let bytes = stream.refill()
        if bytes == -Int(ETIMEDOUT) || bytes == -Int(EAGAIN) { return .timeout }
        if bytes < 0 {
            throw IIOError.buffer(device: setup.device, reason: "refill failed: \(IIOError.text(ofErrno: Int32(-bytes)))")
        }
        let count = stream.step > 0 ? bytes / stream.step : 0
        if count == 0 { return .timeout }
        let base = stream.bytes
        let step = stream.step
        let (ox, oy, oz, ot) = stream.offsets
        let (fx, fy, fz, ft) = stream.formats
        let (cx, cy, cz) = channels.conversions
        var delivered = 0
        if let ot, let ft, let origin = timestampOriginNanoseconds {
            for k in 0..<count {
                let scan = base + k * step
                let stamp = ft.decode(scan + ot)
                let t = Seconds(stamp &- origin) * 1e-9
                let placement = timeline.place(deviceTime: t)
                guard case .inOrder(let gapAfter) = placement else { continue }
                let sample = AccelSample(time: t, x: cx.acceleration(raw: fx.decode(scan + ox)),
                                         y: cy.acceleration(raw: fy.decode(scan + oy)), z: cz.acceleration(raw: fz.decode(scan + oz)))
                emit(sample, gapAfter.map { missingText(from: $0, to: t, what: "device timestamps") })
                delivered += 1
            }
        } else {
            let refillTime = clock.sessionTime(ofMonotonic: monotonic.now())
            let spread = timeline.spread(count: count, refillTime: refillTime)
            for k in 0..<count {
                let scan = base + k * step
                let t = spread.time(ofScan: k)
                let sample = AccelSample(time: t, x: cx.acceleration(raw: fx.decode(scan + ox)),
                                         y: cy.acceleration(raw: fy.decode(scan + oy)), z: cz.acceleration(raw: fz.decode(scan + oz)))
                let gap = k == 0 ? spread.gapAfter.map { missingText(from: $0, to: t, what: "refill times") } : nil
                emit(sample, gap)
            }
            delivered = count
        }
        return .samples(delivered)
    }

    private func poll(_ emit: (AccelSample, String?) -> Void) throws -> Outcome {
        monotonic.sleep(until: nextPoll)
        let before = monotonic.now()
        var rx: Int64 = 0, ry: Int64 = 0, rz: Int64 = 0
        var status = channels.x.readInteger("raw", into: &rx)
        if status == 0 { status = channels.y.readInteger("raw", into: &ry) }
        if status == 0 { status = channels.z.readInteger("raw", into: &rz) }
        let after = monotonic.now()
        if status != 0 {
            throw IIOError.attribute(device: setup.device, name: "in_accel_*_raw", reason: IIOError.text(ofErrno: status))
        }
        // The middle of the three reads: the values were sampled somewhere in there.
        let t = clock.sessionTime(ofMonotonic: (before + after) / 2)
        nextPoll = max(nextPoll + pollInterval, after)
        guard case .inOrder(let gapAfter) = timeline.place(deviceTime: t) else { return .samples(0) }
        let (cx, cy, cz) = channels.conversions
        emit(AccelSample(time: t, x: cx.acceleration(raw: rx), y: cy.acceleration(raw: ry), z: cz.acceleration(raw: rz)),
             gapAfter.map { missingText(from: $0, to: t, what: "polling fell behind") })
        return .samples(1)
    }

    private func missingText(from start: Seconds, to end: Seconds, what: String) -> String {
        let ms = Int(((end - start) * 1000).rounded())
        if let nominal = timeline.nominalInterval {
            let missing = max(1, Int(((end - start) / nominal).rounded()) - 1)
            return "\(ms) ms between samples where \(Int((nominal * 1000).rounded())) ms were expected: about \(missing) missing (\(what))"
        }
        return "\(ms) ms without samples (\(what))"
    }

    // MARK: Setup helpers

    private struct FrequencyAttribute {
        let read: () throws -> Double
        let write: (String) throws -> Void
    }

    /// Sets the sampling frequency (a device attribute, or one the accel channels share) to
    /// `wanted`, if given; returns the frequency in force, noting what could not be done.
    private static func setSamplingFrequency(_ wanted: Hertz?, device: IIODevice, channel: IIOChannel,
                                             notes: inout [String]) -> Hertz? {
        let frequency = frequencyAttribute(device: device, channel: channel)
        if let wanted {
            if let frequency {
                do { try frequency.write(IIOAccelerometerSetup.hertz(wanted)) } catch { notes.append("could not set the sampling frequency: \(error)") }
            } else {
                notes.append("the device has no sampling_frequency to set")
            }
        }
        let inForce = try? frequency?.read()
        if let wanted, let inForce, abs(inForce - wanted) > 1e-6 * wanted {
            notes.append("asked for \(IIOAccelerometerSetup.hertz(wanted)) Hz, the device chose \(IIOAccelerometerSetup.hertz(inForce)) Hz")
        }
        return inForce
    }

    /// Whether the device is read through a buffer (else polled), as the mode asks; throws when
    /// a buffer is asked of a device without one.
    private static func streamsThroughBuffer(_ mode: IIOAccelerometerConfiguration.Mode, channels: IIOAccelerometerChannels,
                                             device: IIODevice) throws -> Bool {
        switch mode {
        case .automatic: return channels.areScanElements
        case .buffered:
            guard channels.areScanElements else {
                throw IIOError.buffer(device: device.displayName, reason: "no buffer support (no scan_elements for accel_x/y/z); use polling")
            }
            return true
        case .polling: return false
        }
    }

    /// A buffered device's timing: its own timestamps on the session's time line when it has a
    /// timestamp channel and a clock to set (with the device time, ns, at session time 0), else
    /// the refill times.
    private static func refillTiming(_ configuration: IIOAccelerometerConfiguration, channels: IIOAccelerometerChannels,
                                     device: IIODevice, clock: SessionClock,
                                     notes: inout [String]) -> (IIOAccelerometerSetup.Timing, Int64?) {
        guard configuration.useTimestampChannel, channels.timestamp != nil else { return (.refillTimes, nil) }
        switch setTimestampClock(device: device, to: configuration.timestampClock) {
        case .success(let clockName):
            let origin = Int64((clock.monotonicOrigin * 1e9).rounded())
            if clockName == "boottime" {
                return (.deviceTimestamps(clock: clockName), origin + nanoseconds(CLOCK_BOOTTIME) - nanoseconds(CLOCK_MONOTONIC))
            }
            return (.deviceTimestamps(clock: clockName), origin)
        case .failure(let note):
            notes.append(note)
            return (.refillTimes, nil)
        }
    }

    private static func frequencyAttribute(device: IIODevice, channel: IIOChannel) -> FrequencyAttribute? {
        if device.hasAttribute("sampling_frequency") {
            return FrequencyAttribute(read: { try device.readDouble("sampling_frequency") },
                                      write: { try device.write("sampling_frequency", $0) })
        }
        if channel.hasAttribute("sampling_frequency") {
            return FrequencyAttribute(read: { try channel.readDouble("sampling_frequency") },
                                      write: { try channel.write("sampling_frequency", $0) })
        }
        return nil
    }

    private enum ClockResult { case success(String), failure(String) }

    /// Asks the driver to stamp on `wanted`; the clock in force if it is one that never steps.
    private static func setTimestampClock(device: IIODevice, to wanted: String) -> ClockResult {
        guard device.hasAttribute("current_timestamp_clock") else {
            return .failure("timestamp channel not used: the device has no current_timestamp_clock (its stamps are real-time, which steps); times come from refills")
        }
        var note = ""
        do { try device.write("current_timestamp_clock", wanted) } catch { note = " (setting it failed: \(error))" }
        let inForce = (try? device.read("current_timestamp_clock")) ?? "?"
        if inForce == "monotonic" || inForce == "boottime" { return .success(inForce) }
        return .failure("timestamp channel not used: current_timestamp_clock is \(inForce)\(note), which steps; times come from refills")
    }

    private static func nanoseconds(_ id: clockid_t) -> Int64 {
        var ts = timespec()
        clock_gettime(id, &ts)
        return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
    }
}
