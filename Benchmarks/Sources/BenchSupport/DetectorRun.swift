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
