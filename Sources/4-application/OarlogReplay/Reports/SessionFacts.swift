import OarlogCore
import OarlogDSP
import OarlogPipeline

/// Collects what the summary shows beside the DSP's totals: which sensors gave data, notes, gaps,
/// the trace's metadata, and the figures another device recorded for the same strokes
/// (SpeedCoach, NK LiNK), so ours can be compared with theirs. Bounded memory: counts and the
/// latest values only (notes and gaps are kept up to a cap).
public final class SessionFacts: PipelineSink {

    /// The boat speed's events (ten a second) carry nothing this sink keeps.
    public var wantsBoatSpeed: Bool { false }
    public static let keptItemLimit = 1000

    public private(set) var accelSamples = 0
    public private(set) var fixes = 0
    public private(set) var notes: [Note] = []
    public private(set) var noteCount = 0
    public private(set) var gaps: [Gap] = []
    public private(set) var gapCount = 0
    public private(set) var metadata: [(key: String, value: String)] = []
    public private(set) var firstTime: Seconds?
    public private(set) var lastTime: Seconds?
    /// The other device's figures at its last stroke.
    public private(set) var lastReference: ReferenceStroke?
    public private(set) var referenceStrokes = 0
    /// The heart rates and oarlock strokes near each stroke (`stroke_list`, the stroke table).
    public private(set) var strokeFigures = StrokeDeviceFigures()

    public init() {}

    public var wantsRawRecords: Bool { true }

    public func receive(_ event: PipelineEvent) {
        if case .analysis(.caught(let m)) = event { strokeFigures.noteCatch(m.stroke.catchTime) }
        guard case .record(let record) = event else { return }
        if let t = record.time {
            if firstTime == nil { firstTime = t }
            lastTime = t
        }
        switch record {
        case .accel: accelSamples += 1
        case .fix: fixes += 1
        case .note(let note):
            noteCount += 1
            if notes.count < Self.keptItemLimit { notes.append(note) }
        case .gap(let gap):
            gapCount += 1
            if gaps.count < Self.keptItemLimit { gaps.append(gap) }
        case .reference(let reference):
            referenceStrokes += 1
            lastReference = reference
        case .heartRate, .oarlock: strokeFigures.add(record)  // the analyzer's summary has their totals
        case .metadata(let key, let value):
            if metadata.count < Self.keptItemLimit { metadata.append((key, value)) }
        }
    }

    /// `receive(.record(.accel(sample)))` for each sample of a run, at once.
    public func receive(accel samples: UnsafeBufferPointer<AccelSample>) {
        guard let first = samples.first, let last = samples.last else { return }
        if firstTime == nil { firstTime = first.time }
        lastTime = last.time
        accelSamples += samples.count
    }

    /// The value of a metadata key, if the trace had it.
    public func metadata(_ key: String) -> String? {
        metadata.last(where: { $0.key == key })?.value
    }

    /// The other device's own figure for a summary key (e.g. `device_total_distance_m`), if given
    /// as a finite number.
    public func deviceFigure(_ key: String) -> Double? {
        metadata(key).flatMap(Double.init).flatMap { $0.isFinite ? $0 : nil }
    }

    /// The other device's own count for a key (strokes, intervals), if given as a whole number
    /// (a trace's free-form metadata may hold anything: 1e300 is no count).
    public func deviceCount(_ key: String) -> Int? {
        deviceFigure(key).flatMap { $0 >= 0 && $0 <= 1e12 && $0 == $0.rounded() ? Int($0) : nil }
    }

    /// Whether another device's figures stand beside Oarlog's: it gave its strokes, or any of
    /// its own figures (`device_…` metadata).
    public var hasDeviceFigures: Bool {
        referenceStrokes > 0 || metadata.contains { $0.key.hasPrefix("device_") && $0.key != "device_session_id" }
    }

    /// The other device's total distance: its summary's, else its last stroke's.
    public var deviceDistance: Metres? { deviceFigure("device_total_distance_m") ?? lastReference?.distance }
    /// The other device's elapsed time: its summary's, else its last stroke's time.
    public var deviceElapsed: Seconds? { deviceFigure("device_elapsed_s") ?? lastReference?.time }
    /// The other device's stroke count: its summary's, else its last stroke's running count.
    public var deviceStrokes: Int? { deviceCount("device_total_strokes") ?? lastReference?.strokeCount }
}
