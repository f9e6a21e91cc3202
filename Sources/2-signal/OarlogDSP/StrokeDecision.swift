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
/// updates are a maximum, a minimum and a flag (with the same thresholds: when they may
/// change first, `step` hands the sample on before it tracks it).
struct StrokeDecision: Sendable {
    enum Phase: Sendable { case recovery, drive }

    /// A drive ends at the latest this long after it was recognised (its lobe may not end on a
    /// slow, heavy stroke).
    static let longestDrive: Seconds = 3
    /// An announced catch that no drive follows within this long is withdrawn.
    static let announcementLife: Seconds = 1

    // What each sample changes (`+`) and what only `decide` changes, interleaved: the loops
    // write the running figures back one by one, and where two of them lie side by side the
    // compiler packs them into one vector through the whole loop, at a cost of some 1.5 % of the
    // detector's instructions (docs/BENCHMARKS.md).
    var drivePeak: Float = 0               // + band-passed, this drive
    var armed = false                      // +
    var phase = Phase.recovery
    var triggerTime: Seconds = -.infinity { didSet { timesChanged() } }  // when the drive was recognised
    var recoveryTrough: Float = 0          // + band-passed, this recovery (negative)
    var driveThreshold: Float = 0          // band-passed level that recognises a drive
    var decayAfter: Seconds = 2 { didSet { timesChanged() } }  // amplitudes fade this long after a drive
    var runMin: Float = .infinity          // + averaged surge, its lowest since the last drive ended
    var armThreshold: Float = 0            // band-passed level (negative) that arms it
    var minimumTriggerInterval: Seconds = 0 // the refractory period
    var announcedAt: Seconds = .infinity { didSet { timesChanged() } }  // the announced catch's time (∞: none)
    var riseNeeded: Float = .infinity      // a rise above `runMin` that announces the catch (∞: not now)
    var dipOffset: Float = 0               // `runMin` must be this far below the mean
    /// From this time on a sample of the recovery goes to `decide` before `step` tracks it: the
    /// amplitudes may fade (`decayAfter` after the drive) or the announced catch expire
    /// (`announcementLife` after it). No later than the first time either can be due, so
    /// `step` compares the time once where it took two differences, and `decide` checks both
    /// exactly.
    private(set) var handOnFrom: Seconds = -.infinity

    /// `handOnFrom` after `triggerTime`, `decayAfter` or `announcedAt` changed. Where the
    /// rounded `t - triggerTime > decayAfter` (a double), the exact difference is above it too,
    /// so `t` is above the exact sum `triggerTime + decayAfter`, and not below the rounded sum
    /// (rounding keeps the order, and `t` rounds to itself); the same for the announcement.
    private mutating func timesChanged() {
        handOnFrom = min(triggerTime + decayAfter, announcedAt + Self.announcementLife)
    }

    /// Takes one internal-rate sample: `band` the band-passed surge, `value` the averaged surge
    /// and `level` its running mean, both with this sample in. Returns whether `decide` must
    /// take the sample too.
    @inline(__always)
    mutating func step(time: Seconds, band: Float, value: Float, level: Float) -> Bool {
        let rules = self
        return rules.step(time: time, band: band, value: value, level: level, inDrive: phase == .drive,
                          drivePeak: &drivePeak, recoveryTrough: &recoveryTrough, runMin: &runMin, armed: &armed)
    }

    /// `step` with the phase read before (`inDrive`: it is `.drive`) and the running figures
    /// held apart, as a loop over samples keeps them: `step` never changes the phase, and
    /// the compiler keeps loose variables in registers, where a copy of the whole decision it
    /// kept twice over (docs/BENCHMARKS.md). Reads only the thresholds of `self`.
    @inline(__always)
    func step(time: Seconds, band: Float, value: Float, level: Float, inDrive: Bool,
              drivePeak: inout Float, recoveryTrough: inout Float, runMin: inout Float, armed: inout Bool) -> Bool {
        if inDrive {
            if band > drivePeak { drivePeak = band }
            return band < 0 || time - triggerTime > Self.longestDrive  // the drive has ended
        }
        // The amplitudes may fade or the announced catch expire: `decide` takes the sample whole.
        if time >= handOnFrom { return true }
        Self.track(band: band, value: value, armThreshold: armThreshold,
                   recoveryTrough: &recoveryTrough, runMin: &runMin, armed: &armed)
        return mayTrigger(at: time, armed: armed)
            && (band > driveThreshold || risesOutOfADip(value, level: level, runMin: runMin))
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
        Self.track(band: band, value: value, armThreshold: armThreshold,
                   recoveryTrough: &recoveryTrough, runMin: &runMin, armed: &armed)
    }

    @inline(__always)
    static func track(band: Float, value: Float, armThreshold: Float,
                      recoveryTrough: inout Float, runMin: inout Float, armed: inout Bool) {
        if value < runMin { runMin = value }
        if band < recoveryTrough { recoveryTrough = band }
        if band < armThreshold { armed = true }
    }

    /// Whether a drive may be recognised (or a catch announced) at `time`: armed, and past the
    /// refractory period.
    @inline(__always)
    func mayTrigger(at time: Seconds) -> Bool { mayTrigger(at: time, armed: armed) }

    @inline(__always)
    func mayTrigger(at time: Seconds, armed: Bool) -> Bool { armed && time - triggerTime >= minimumTriggerInterval }

    /// Whether the catch announced has waited too long for its drive.
    @inline(__always)
    func announcementExpired(at time: Seconds) -> Bool { time - announcedAt > Self.announcementLife }

    /// Whether the averaged surge `value` has risen `riseNeeded` out of a dip (`runMin`, its
    /// lowest since the last drive) that went at least `dipOffset` below the running mean
    /// `level`: the catch's announcement.
    @inline(__always)
    func risesOutOfADip(_ value: Float, level: Float) -> Bool { risesOutOfADip(value, level: level, runMin: runMin) }

    @inline(__always)
    func risesOutOfADip(_ value: Float, level: Float, runMin: Float) -> Bool {
        value - runMin >= riseNeeded && runMin <= level - dipOffset
    }
}
