import OarlogCore

/// Turns gpsd's stream of position reports into one fix per epoch.
///
/// gpsd sends a TPV for every sentence that touches the fix (GGA, GLL, RMC, VTG, …), so one
/// receiver epoch arrives as several TPVs with the same `time`, filled in progressively. The rule:
///
/// 1. A TPV without a 2D/3D fix and a finite position is skipped (`noFix`); one with a position
///    but no time yet is skipped (`noTime`).
/// 2. An epoch is the set of TPVs with the same time. Its fix is the **first TPV of the epoch that
///    has time, position and speed**. Later TPVs of the epoch are `repeats`. If the epoch ends
///    (a newer time arrives, or `flush`) without any TPV carrying speed, its first TPV with time
///    and position is emitted then, with unknown speed (`partial`): a receiver that sends only
///    GGA/GLL still gives fixes, one epoch late.
/// 3. A TPV older than the current epoch is a receiver clock going backward: that epoch is
///    dropped (`backward`). If the next epoch continues from the stepped-back time (newer than the
///    dropped one, still older than the last fix) the receiver's clock has stepped, and its new
///    timeline is accepted from there (`clockSteps`); a newer time simply carries on.
///
/// Pure and allocation-free: times compare as whole nanoseconds, so epochs match exactly.
public struct EpochReducer: Sendable {
    /// What the reducer did with the reports it saw.
    public struct Counts: Sendable, Equatable {
        /// TPVs seen: always `fixes + repeats + noFix + noTime + backward` once flushed.
        public var reports = 0
        /// Fixes emitted (one per epoch).
        public var fixes = 0
        /// Further TPVs of an epoch already emitted or dropped (normal with gpsd).
        public var repeats = 0
        /// TPVs with no 2D/3D fix or no usable position (mode 0/1).
        public var noFix = 0
        /// TPVs with a position but no time yet (gpsd before it has a date).
        public var noTime = 0
        /// Epochs dropped because their time was older than the current epoch.
        public var backward = 0
        /// Times the receiver's clock stepped back and its new timeline was accepted.
        public var clockSteps = 0
        /// Fixes emitted without speed (an epoch whose TPVs never carried one).
        public var partial = 0
        public init() {}
    }

    public private(set) var counts = Counts()
    /// Time (ns since 1970) of the current epoch.
    public private(set) var epochTime: Int64?
    private var epochEmitted = false
    private var pending: GPSDReport?
    /// The most recent backward epoch dropped, while the clock may be stepping.
    private var droppedEpochTime: Int64?

    public init() {}

    /// Feeds one TPV; calls `emit` with the fixes it completes (zero, one, or two when a partial
    /// epoch is closed by a full one).
    public mutating func add(_ report: GPSDReport, emit: (GPSDReport) -> Void) {
        counts.reports += 1
        guard report.hasPosition else { counts.noFix += 1; return }
        guard let t = report.utcNanoseconds else { counts.noTime += 1; return }
        if let current = epochTime {
            if t == current {
                if epochEmitted { counts.repeats += 1 } else { consider(report, emit: emit) }
                return
            }
            if t < current {
                if let dropped = droppedEpochTime {
                    if t == dropped { counts.repeats += 1; return }
                    if t > dropped {
                        counts.clockSteps += 1
                        startEpoch(t, emit: emit)
                        consider(report, emit: emit)
                        return
                    }
                }
                counts.backward += 1
                droppedEpochTime = t
                return
            }
        }
        startEpoch(t, emit: emit)
        consider(report, emit: emit)
    }

    /// Emits the current epoch's partial fix, if it never got a full one (end of stream, lost
    /// connection).
    public mutating func flush(emit: (GPSDReport) -> Void) {
        if !epochEmitted, let p = pending {
            counts.fixes += 1
            counts.partial += 1
            epochEmitted = true
            emit(p)
        }
        pending = nil
    }

    private mutating func startEpoch(_ t: Int64, emit: (GPSDReport) -> Void) {
        flush(emit: emit)
        epochTime = t
        epochEmitted = false
        droppedEpochTime = nil
    }

    private mutating func consider(_ report: GPSDReport, emit: (GPSDReport) -> Void) {
        if report.speed != nil {
            if pending != nil { counts.repeats += 1 }
            pending = nil
            epochEmitted = true
            counts.fixes += 1
            emit(report)
        } else if pending == nil {
            pending = report
        } else {
            counts.repeats += 1
        }
    }
}
