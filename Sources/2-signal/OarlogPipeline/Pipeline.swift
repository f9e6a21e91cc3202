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
    /// Records seen, by kind (for progress and statistics).
    public private(set) var recordCount = 0
    /// Trace time of the latest record.
    public private(set) var latestTime: Seconds?

    /// Accelerometer samples handled per run on the batch path.
    static let batchCapacity = 4096

    public init(analyzer: RowingAnalyzer = RowingAnalyzer(), sinks: [any PipelineSink] = [], pacing: Pacing = .asFastAsPossible,
                fences: FenceMonitor? = nil, workout: WorkoutTracker? = nil) {
        self.analyzer = analyzer
        self.sinks = sinks
        self.pacer = Pacer(pacing)
        self.fences = fences
        self.workout = workout
    }

    /// Runs the source to its end and returns the session's summary. `shouldStop` is polled
    /// between records (a live session stops on SIGINT).
    @discardableResult
    public mutating func run<Source: RecordSource>(_ source: inout Source, shouldStop: () -> Bool = { false }) throws -> SessionSummary {
        let rawSinks = sinks.filter { $0.wantsRawRecords }
        let allSinks = sinks
        var sinkError: Error?
        let emitFence: (FenceEvent) -> Void = { event in
            guard sinkError == nil else { return }
            do {
                for sink in allSinks { try sink.receive(.fence(event)) }
            } catch {
                sinkError = error
            }
        }
        // The fence monitor lives in a local while the run goes on (the closures below cannot
        // capture `self`); it is put back at the end.
        var monitor = fences
        // The workout tracker likewise (see `fences`).
        var tracker = workout
        let emitWorkout: (WorkoutEvent) -> Void = { event in
            guard sinkError == nil else { return }
            do {
                for sink in allSinks { try sink.receive(.workout(event)) }
            } catch {
                sinkError = error
            }
        }
        let emit: (AnalyzerEvent) -> Void = { event in
            if case .stroke(let metrics) = event { monitor?.stroke(metrics) }
            tracker?.observe(event, emit: emitWorkout)
            guard sinkError == nil else { return }
            do {
                for sink in allSinks { try sink.receive(.analysis(event)) }
            } catch {
                sinkError = error
            }
        }
        defer {
            fences = monitor
            workout = tracker
        }
        tracker?.announce(emit: emitWorkout)
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
                    if let sinkError { throw sinkError }
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
            if case .fix(let fix) = record { monitor?.process(fix, emit: emitFence) }
            if let t = record.time, tracker != nil { tracker?.advance(to: t, distance: analyzer.distance.history, emit: emitWorkout) }
            if !rawSinks.isEmpty {
                for sink in rawSinks { try sink.receive(.record(record)) }
            }
            if let sinkError { throw sinkError }
            if shouldStop() { break }
        }
        analyzer.finish(emit: emit)
        monitor?.finish(emit: emitFence)
        tracker?.finish(at: latestTime, distance: analyzer.distance.history, emit: emitWorkout)
        if let sinkError { throw sinkError }
        let summary = analyzer.summary
        for sink in allSinks { try sink.finish(summary: summary) }
        return summary
    }
}
