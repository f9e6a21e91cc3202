import OarlogCore
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One sample's mounting as `MountingEstimator.surge(of:)` gave it: the surge (when
/// `hasSurge`; none while the mounting settles) and the fused speed's surge (`fusedSurge`).
struct MountedSample {
    var surge: MetresPerSecondSquared
    var fusedSurge: Float
    var hasSurge: Bool
}

/// The mounting estimator run ahead on the thread that parses a recorded trace
/// (`AccelLookahead`), so that a replay uses both cores: the parsing thread projects every
/// sample onto the boat's surge axis while the analysis thread detects the strokes of the
/// samples before. The analyzer that follows it (`RowingAnalyzer.follow`) reads each sample's
/// surge here instead of running its own estimator: the same estimator, configuration and
/// samples in the same order, so the same values bit for bit, and the same events.
///
/// The surges wait in a ring of `capacity` samples. The parsing thread is never more than its
/// blocks, the pipeline's batch and the records read ahead for the trace's start in front of the
/// analysis (under 57,000 samples); should it find the ring full all the same, or when the trace
/// ends, it hands its estimator over as it stands (`handover`) and stops, and the analyzer goes
/// on with that estimator from that sample. The one sample whose surge settles the mounting
/// carries the estimator as it was then, for the analyzer to replay the samples held while
/// settling, as its own estimator would have. Memory is fixed: 12 bytes a sample of the ring.
public final class MountingLookahead: AccelLookahead, @unchecked Sendable {
    public let configuration: MountingEstimatorConfiguration
    /// Samples the ring holds by default.
    public static let defaultCapacity = 1 << 16
    public let capacity: Int
    private let mask: Int
    private let entries: UnsafeMutablePointer<MountedSample>

    // The parsing thread's.
    private var estimator: MountingEstimator
    private var written = 0
    private var handedOver = false
    /// The estimator's block path writes a run here (`runLength` of each) before the ring.
    private let runTimes: UnsafeMutablePointer<Seconds>
    private let runValues: UnsafeMutablePointer<Float>
    private let runFused: UnsafeMutablePointer<Float>

    // Between the threads: surges written (released by the parsing thread), surges read
    // (released by the analysis thread), and the two marks.
    private let attached = Atomic<Bool>(false)
    private let published = Atomic<Int>(0)
    private let released = Atomic<Int>(0)
    private let marks = Mutex<Marks>(Marks())

    struct Marks: Sendable {
        /// The sample whose surge settled the mounting, and the estimator just after it.
        var settling: (index: Int, estimator: MountingEstimator)?
        /// From this sample on the analyzer runs the estimator itself, from this state.
        var handover: (index: Int, estimator: MountingEstimator)?
    }

    // The analysis thread's.
    private var readIndex = 0
    private var readable = 0
    private var settlingIndex = Int.max
    private var handoverIndex = Int.max

    /// `capacity` is rounded up to a power of two.
    public init(configuration: MountingEstimatorConfiguration, capacity: Int = MountingLookahead.defaultCapacity) {
        self.configuration = configuration
        var size = 1
        while size < max(capacity, 1) { size <<= 1 }
        self.capacity = size
        mask = size - 1
        entries = .allocate(capacity: size)
        estimator = MountingEstimator(configuration: configuration)
        runTimes = .allocate(capacity: MountingEstimator.runLength)
        runValues = .allocate(capacity: MountingEstimator.runLength)
        runFused = .allocate(capacity: MountingEstimator.runLength)
    }

    deinit {
        entries.deallocate()
        runTimes.deallocate()
        runValues.deallocate()
        runFused.deallocate()
    }

    /// Whether a parsing thread feeds this.
    public var isAttached: Bool { attached.load(ordering: .acquiring) }

    // MARK: The parsing thread

    public func attach() -> Bool {
        attached.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
    }

    public func take(_ samples: UnsafeBufferPointer<AccelSample>) {
        guard !handedOver, !samples.isEmpty else { return }
        let n = samples.count
        if written + n - released.load(ordering: .acquiring) > capacity {
            handOver()
            return
        }
        var i = 0
        while i < n {
            if estimator.takesRuns {
                let next = project(samples, from: i, to: n)
                if next > i {
                    i = next
                    continue
                }
            }
            takeOne(samples[i])
            i += 1
        }
        published.store(written, ordering: .releasing)
    }

    public func end() {
        if !handedOver { handOver() }
    }

    /// The estimator's block path for `samples[start..<end]` (as far as it takes them).
    private func project(_ samples: UnsafeBufferPointer<AccelSample>, from start: Int, to end: Int) -> Int {
        let next = estimator.surges(of: samples, from: start, to: end, times: runTimes, values: runValues, fusedValues: runFused)
        for k in 0..<(next - start) {
            entries[(written &+ k) & mask] = MountedSample(surge: runValues[k], fusedSurge: runFused[k], hasSurge: true)
        }
        written += next - start
        return next
    }

    /// The estimator's per-sample path for one sample (and the mark of its settling).
    private func takeOne(_ sample: AccelSample) {
        let surge = estimator.surge(of: sample)
        entries[written & mask] = MountedSample(surge: surge ?? 0, fusedSurge: estimator.fusedSurge, hasSurge: surge != nil)
        if surge != nil && estimator.hasSettlingHistory {
            let settled = estimator
            estimator.drainSettlingHistory { _, _ in }
            let index = written
            marks.withLock { $0.settling = (index, settled) }
        }
        written += 1
    }

    private func handOver() {
        handedOver = true
        let index = written, state = estimator
        marks.withLock { $0.handover = (index, state) }
        published.store(written, ordering: .releasing)
    }

    /// The sample that settled the mounting and the one the estimator was handed over at, as
    /// far as the parsing thread has come (for tests and diagnostics).
    public var landmarks: (settling: Int?, handover: Int?) {
        marks.withLock { ($0.settling?.index, $0.handover?.index) }
    }

    // MARK: The analysis thread

    /// What the next sample is, for the analysis thread.
    enum Next {
        /// Its mounting; `settled` is the estimator just after it when it settled the mounting.
        case sample(MountedSample, settled: MountingEstimator?)
        /// The analyzer runs the estimator itself from this sample on, from this state.
        case handover(MountingEstimator)
    }

    /// How many of the next samples, at most `limit`, go through in one run: computed, with a
    /// surge, neither the settling sample nor past a handover. 0: take the next with `next()`.
    func runLength(limit: Int) -> Int {
        released.store(readIndex, ordering: .releasing)  // the last run's surges are read
        waitForNext()
        let n = min(limit, readable - readIndex, settlingIndex - readIndex, capacity - (readIndex & mask))
        let base = entries + (readIndex & mask)
        var k = 0
        while k < n && base[k].hasSurge { k += 1 }
        return k
    }

    /// The next `count` samples' mounting (`count` from `runLength`), moving past them; valid
    /// until the next call.
    func takeRun(_ count: Int) -> UnsafePointer<MountedSample> {
        let base = entries + (readIndex & mask)
        readIndex += count
        return UnsafePointer(base)
    }

    /// The next sample's mounting, or the handover.
    func next() -> Next {
        released.store(readIndex, ordering: .releasing)
        waitForNext()
        if readIndex == handoverIndex {
            let state = marks.withLock { $0.handover.unsafelyUnwrapped.estimator }
            return .handover(state)
        }
        let entry = entries[readIndex & mask]
        var settled: MountingEstimator? = nil
        if readIndex == settlingIndex {
            settled = marks.withLock { $0.settling.unsafelyUnwrapped.estimator }
            settlingIndex = .max
        }
        readIndex += 1
        return .sample(entry, settled: settled)
    }

    /// The estimator as the parsing thread left it, when the analysis has read every sample it
    /// computed (the trace ended): the analyzer's own estimator then stands there.
    func finalEstimator() -> MountingEstimator? {
        marks.withLock { m in m.handover.flatMap { $0.index == readIndex ? $0.estimator : nil } }
    }

    /// Waits (it does not in a replay: a sample reaches the analysis only after the parsing
    /// thread computed it) until the next sample is computed or handed over.
    private func waitForNext() {
        while readIndex >= readable && readIndex != handoverIndex {
            readable = published.load(ordering: .acquiring)
            marks.withLock { m in
                // Once read past, the settling sample is not looked for again.
                if let s = m.settling, s.index >= readIndex { settlingIndex = s.index }
                if let h = m.handover { handoverIndex = h.index }
            }
            // Reading past the handover would mean samples the trace never gave the lookahead.
            precondition(readIndex <= handoverIndex, "the analysis read a sample the parsing thread did not take")
            if readIndex >= readable && readIndex != handoverIndex { sched_yield() }
        }
    }
}
