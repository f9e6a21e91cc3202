import OarlogCore
import OarlogDSP
import OarlogFences
import OarlogWorkouts

/// The streaming rowing pipeline: one source of records in time order (a replay, a merge of live
/// device readers) → the DSP (`RowingAnalyzer`) → every sink. The same code runs live, in replay
/// and in benchmarks; memory stays bounded whatever the length of the session.
public struct Pipeline {
    public var analyzer: RowingAnalyzer
    public var sinks: [any PipelineSink]
    public var pacer: Pacer
    /// The optional geofence stage: fed every fix and every completed stroke; its events go to
    /// the sinks as `.fence`. Its statistics (rejected crossings…) stay readable after `run`.
    public var fences: FenceMonitor?
    /// The optional workout stage: times a plan from the analyzer's catches and distance; its
    /// events go to the sinks as `.workout`, and its status is readable live (`workoutStatus`).
    public var workout: WorkoutTracker?
    /// The optional ghost stage: a race against a reference attempt of a course, fed every fix and
    /// every catch; its events go to the sinks as `.ghost`.
    public var ghost: GhostRace?
    /// Records seen, by kind (for progress and statistics).
    public private(set) var recordCount = 0
    /// Trace time of the latest record.
    public private(set) var latestTime: Seconds?

    /// Accelerometer samples handled per run on the batch path.
    static let batchCapacity = 4096

    public init(analyzer: RowingAnalyzer = RowingAnalyzer(), sinks: [any PipelineSink] = [], pacing: Pacing = .asFastAsPossible,
                fences: FenceMonitor? = nil, workout: WorkoutTracker? = nil, ghost: GhostRace? = nil) {
        self.analyzer = analyzer
        self.sinks = sinks
        self.pacer = Pacer(pacing)
        self.fences = fences
        self.workout = workout
        self.ghost = ghost
    }

    /// Runs the source to its end and returns the session's summary. `shouldStop` is polled
    /// between records (a live session stops on SIGINT).
    @discardableResult
    public mutating func run<Source: RecordSource>(_ source: inout Source, shouldStop: () -> Bool = { false }) throws -> SessionSummary {
        let rawSinks = sinks.filter { $0.wantsRawRecords }
        let fanOut = SinkFanOut(sinks)
        let emitFence: (FenceEvent) -> Void = { fanOut.send(.fence($0)) }
        let emitWorkout: (WorkoutEvent) -> Void = { fanOut.send(.workout($0)) }
        let emitGhost: (GhostEvent) -> Void = { fanOut.send(.ghost($0)) }
        // The fence monitor and the workout tracker live in locals while the run goes on (the
        // closures below cannot capture `self`); they are put back at the end.
        var monitor = fences
        var tracker = workout
        var race = ghost
        // The boat speed's events (ten a second) go to the sinks that take them and nowhere
        // else: the fences, the workout and the ghost pass them by.
        let speedWanted = !fanOut.speedSinks.isEmpty
        let emit: (AnalyzerEvent) -> Void = { event in
            if case .speed = event {
                if speedWanted { fanOut.send(.analysis(event)) }
                return
            }
            if case .stroke(let metrics) = event { monitor?.stroke(metrics) }
            tracker?.observe(event, emit: emitWorkout)
            fanOut.send(.analysis(event))
            if case .caught(let metrics) = event { race?.caught(at: metrics.stroke.catchTime, emit: emitGhost) }
        }
        defer {
            fences = monitor
            workout = tracker
            ghost = race
        }
        tracker?.announce(emit: emitWorkout)
        race?.announce(emit: emitGhost)
        // Recorded data read as fast as possible goes through in runs of accelerometer samples
        // (parsed straight into one buffer, analysed without wrapping each in a record); a paced
        // replay or a live source goes record by record.
        let batching = pacer.pacing == .asFastAsPossible
        let batch = UnsafeMutableBufferPointer<AccelSample>.allocate(capacity: batching ? Self.batchCapacity : 0)
        defer { batch.deallocate() }
        while true {
            if batching {
                let n = try source.nextAccelBatch(into: batch)
                if n > 0 {
                    let samples = UnsafeBufferPointer(rebasing: batch[0..<n])
                    recordCount &+= n
                    latestTime = samples[n - 1].time
                    analyzer.process(accel: samples, emit: emit)
                    tracker?.advance(to: samples[n - 1].time, distance: analyzer.distance.history, emit: emitWorkout)
                    for sink in rawSinks { try sink.receive(accel: samples) }
                    if let sinkError = fanOut.error { throw sinkError }
                    if shouldStop() { break }
                    continue
                }
            }
            guard let record = try source.next() else { break }
            recordCount &+= 1
            if let t = record.time {
                pacer.wait(for: t)
                latestTime = t
            }
            analyzer.process(record, emit: emit)
            if case .fix(let fix) = record {
                monitor?.process(fix, emit: emitFence)
                race?.process(fix, emit: emitGhost)
            }
            if let t = record.time, tracker != nil { tracker?.advance(to: t, distance: analyzer.distance.history, emit: emitWorkout) }
            if !rawSinks.isEmpty {
                for sink in rawSinks { try sink.receive(.record(record)) }
            }
            if let sinkError = fanOut.error { throw sinkError }
            if shouldStop() { break }
        }
        analyzer.finish(emit: emit)
        monitor?.finish(emit: emitFence)
        tracker?.finish(at: latestTime, distance: analyzer.distance.history, emit: emitWorkout)
        if let sinkError = fanOut.error { throw sinkError }
        let summary = analyzer.summary
        for sink in sinks { try sink.finish(summary: summary) }
        return summary
    }
}

/// Hands an event to every sink in order; the first error stops the fan-out and is thrown by
/// the run at the next record.
final class SinkFanOut {
    let sinks: [any PipelineSink]
    /// The sinks that take the boat speed's events (`wantsBoatSpeed`).
    let speedSinks: [any PipelineSink]
    private(set) var error: Error?
    init(_ sinks: [any PipelineSink]) {
        self.sinks = sinks
        speedSinks = sinks.filter { $0.wantsBoatSpeed }
    }

    func send(_ event: PipelineEvent) {
        guard error == nil else { return }
        do {
            if case .analysis(.speed) = event {
                for sink in speedSinks { try sink.receive(event) }
                return
            }
            for sink in sinks { try sink.receive(event) }
        } catch {
            self.error = error
        }
    }
}
