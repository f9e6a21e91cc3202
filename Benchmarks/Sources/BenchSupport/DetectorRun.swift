import OarlogCore
import OarlogDSP

/// Runs a stroke detector over a block of evenly spaced surge samples (m/s²) through its block
/// path, and counts the strokes it finds. The benchmarks and `oarlog-bench detect` share it, so
/// both measure the same loop. Allocates nothing.
@inlinable
public func detectStrokes(_ detector: inout StrokeDetector, surge: UnsafeBufferPointer<Float>,
                          startTime: Seconds, sampleInterval: Seconds) -> Int {
    var strokes = 0
    detector.process(block: surge, startTime: startTime, sampleInterval: sampleInterval) { _ in strokes &+= 1 }
    return strokes
}

/// The same, sample by sample (the live path: one call per accelerometer reading).
@inlinable
public func detectStrokesPerSample(_ detector: inout StrokeDetector, surge: UnsafeBufferPointer<Float>,
                                   startTime: Seconds, sampleInterval: Seconds) -> Int {
    var strokes = 0
    for i in 0..<surge.count {
        if detector.process(time: startTime + Double(i) * sampleInterval, surge: surge[i]) != nil { strokes &+= 1 }
    }
    return strokes
}

/// Feeds `samples` accelerometer samples of `session` (and the fixes among them) to `analyzer`
/// the way a replay does: runs of samples up to each fix through `process(accel:)`, each fix
/// through `process(_:)`. Returns the strokes completed. `buffer` holds one run. Allocates nothing.
@inlinable
public func analyzeInRuns(_ analyzer: inout RowingAnalyzer, session: inout InMemorySession,
                          buffer: UnsafeMutableBufferPointer<AccelSample>, samples: Int) -> Int {
    var strokes = 0
    let end = session.samplesGiven + samples
    while session.samplesGiven < end {
        let n = session.nextAccelBatch(into: UnsafeMutableBufferPointer(rebasing: buffer[0..<min(buffer.count, end - session.samplesGiven)]))
        if n > 0 {
            analyzer.process(accel: UnsafeBufferPointer(rebasing: buffer[0..<n])) { if case .stroke = $0 { strokes &+= 1 } }
        } else if let record = session.next() {
            analyzer.process(record) { if case .stroke = $0 { strokes &+= 1 } }
        } else {
            break
        }
    }
    return strokes
}
