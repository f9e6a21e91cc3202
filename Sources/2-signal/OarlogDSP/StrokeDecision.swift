import OarlogCore

/// The stroke detector's decision on one internal-rate sample, the part every sample goes
/// through: the phase, the running figures it keeps (the drive's peak, the recovery's trough,
/// the arming, the averaged surge's lowest point since the last drive) and the thresholds it
/// compares them with. Written once for the detector's three paths — sample by sample
/// (`StrokeDetector.step`), samples with their own times (`process(times:values:count:emit:)`)
/// and uniform blocks (`runSteps`) — which copy it into a local variable for their loops.
///
/// `step` does all that a sample asks of the decision almost always; when it answers `true`
/// the sample asks for more (a drive recognised, a stroke completed, a catch announced or
/// withdrawn, amplitudes fading) and `StrokeDetector.decide` takes it, with the thresholds,
/// the histories and the strokes. Taking a sample again there changes nothing `step` did: its
/// updates are a maximum, a minimum and a flag.
struct StrokeDecision: Sendable {
    enum Phase: Sendable { case recovery, drive }

    /// A drive ends at the latest this long after it was recognised (its lobe may not end on a
    /// slow, heavy stroke).
    static let longestDrive: Seconds = 3
    /// An announced catch that no drive follows within this long is withdrawn.
    static let announcementLife: Seconds = 1

    // What each sample changes. (Put first: the block loop's copy compiles to fewer instructions
    // this way: 1.4 % fewer in the detector's whole run; see docs/BENCHMARKS.md.)
    var drivePeak: Float = 0               // band-passed, this drive
    var recoveryTrough: Float = 0          // band-passed, this recovery (negative)
    var runMin: Float = .infinity          // averaged surge, its lowest since the last drive ended
    var armed = false
    var phase = Phase.recovery

    // What only `decide` changes.
    var triggerTime: Seconds = -.infinity  // when the drive was recognised
    var decayAfter: Seconds = 2            // amplitudes fade this long after a drive
    var minimumTriggerInterval: Seconds = 0 // the refractory period
    var announcedAt: Seconds = .infinity   // the announced catch's time (∞: none)
    var driveThreshold: Float = 0          // band-passed level that recognises a drive
    var armThreshold: Float = 0            // band-passed level (negative) that arms it
    var riseNeeded: Float = .infinity      // a rise above `runMin` that announces the catch (∞: not now)
    var dipOffset: Float = 0               // `runMin` must be this far below the mean

    /// Takes one internal-rate sample: `band` the band-passed surge, `value` the averaged surge
    /// and `level` its running mean, both with this sample in. Returns whether `decide` must
    /// take the sample too.
    @inline(__always)
    mutating func step(time: Seconds, band: Float, value: Float, level: Float) -> Bool {
        step(time: time, band: band, value: value, level: level, inDrive: phase == .drive)
    }

    /// `step` with the phase read before (`inDrive`: it is `.drive`), as a loop over samples
    /// reads it: `step` never changes it.
    @inline(__always)
    mutating func step(time: Seconds, band: Float, value: Float, level: Float, inDrive: Bool) -> Bool {
        if inDrive {
            if band > drivePeak { drivePeak = band }
            return band < 0 || time - triggerTime > Self.longestDrive  // the drive has ended
        }
        if time - triggerTime > decayAfter { return true }  // `decide` fades the amplitudes first
        track(band: band, value: value)
        return announcementExpired(at: time)
            || mayTrigger(at: time) && (band > driveThreshold || risesOutOfADip(value, level: level))
    }

    /// A drive recognised at `time`.
    mutating func beginDrive(at time: Seconds) {
        phase = .drive
        triggerTime = time
        drivePeak = 0
    }

    /// The drive is over (a stroke, or a bump that was none): the recovery starts unarmed.
    mutating func endDrive() {
        phase = .recovery
        armed = false
        recoveryTrough = 0
    }

    /// The recovery's running figures: the trough, the arming, the averaged surge's lowest.
    @inline(__always)
    mutating func track(band: Float, value: Float) {
        if value < runMin { runMin = value }
        if band < recoveryTrough { recoveryTrough = band }
        if band < armThreshold { armed = true }
    }

    /// Whether a drive may be recognised (or a catch announced) at `time`: armed, and past the
    /// refractory period.
    @inline(__always)
    func mayTrigger(at time: Seconds) -> Bool { armed && time - triggerTime >= minimumTriggerInterval }

    /// Whether the catch announced has waited too long for its drive.
    @inline(__always)
    func announcementExpired(at time: Seconds) -> Bool { time - announcedAt > Self.announcementLife }

    /// Whether the averaged surge `value` has risen `riseNeeded` out of a dip (`runMin`, its
    /// lowest since the last drive) that went at least `dipOffset` below the running mean
    /// `level`: the catch's announcement.
    @inline(__always)
    func risesOutOfADip(_ value: Float, level: Float) -> Bool {
        value - runMin >= riseNeeded && runMin <= level - dipOffset
    }
}
