import OarlogCore

/// The path for uniformly sampled blocks (recorded data): the averaging boxes read straight
/// from the block, the band-pass pipelined in one vector (`BiquadPair`), the raw samples read
/// in place.
extension StrokeDetector {
    /// Feeds a block of uniformly sampled surge values (m/s²): sample `i` is at
    /// `startTime + i * sampleInterval`. The fast path for recorded data.
    public mutating func process(block: UnsafeBufferPointer<Float>, startTime: Seconds,
                                 sampleInterval: Seconds, emit: (StrokeEvent) -> Void) {
        guard block.count > 0, sampleInterval > 0 else { return }
        if lastInputTime.isFinite {
            let dt = startTime - lastInputTime
            if dt <= 0 { return }
            if dt > max(configuration.gapThreshold, 5 * max(sampleInterval, intervalEstimate)) { reset(emit: emit) }
        }
        intervalEstimate = sampleInterval
        if let first = firstSample {
            firstSample = nil
            redesign(interval: sampleInterval, emit: emit)
            accumulate(time: first.time, value: first.value, emit: emit)
        }
        if designedInterval == 0 || abs(sampleInterval / designedInterval - 1) > 0.01 {
            redesign(interval: sampleInterval, emit: emit)
        }
        raw.attach(block, startTime: startTime, interval: sampleInterval)  // read in place, its tail kept
        defer { raw.detach() }
        let n = block.count
        var i = 0
        // Complete a box left over from the previous call.
        while boxCount > 0 && i < n {
            accumulate(time: startTime + Double(i) * sampleInterval, value: block[i], emit: emit)
            i += 1
        }
        if decimation == 4 {
            i = runSteps(UniformBoxes(block, decimation: 4, startTime: startTime, interval: sampleInterval), from: i, emit: emit)
        } else {
            i = runSteps(UniformBoxes(block, decimation: decimation, startTime: startTime, interval: sampleInterval), from: i, emit: emit)
        }
        // Fewer than a box remain: they wait for the next block.
        while i < n {
            accumulate(time: startTime + Double(i) * sampleInterval, value: block[i], emit: emit)
            i += 1
        }
        lastInputTime = startTime + Double(n - 1) * sampleInterval
    }

    /// The block path's internal-rate loop: the boxes of `boxes` from sample `start` on through
    /// `step`, exactly, sample for sample. Returns the index of the first sample not taken
    /// (fewer than a box remain).
    @inline(__always)
    private mutating func runSteps(_ boxes: UniformBoxes, from start: Int, emit: (StrokeEvent) -> Void) -> Int {
        let d = boxes.decimation, n = boxes.count
        var i = start
        if !filtersPrimed && i + d <= n {
            step(time: boxes.time(i), value: boxes.average(i), emit: emit)
            i += d
        }
        while i + d <= n { runPipelined(boxes, from: &i, emit: emit) }
        return i
    }

    /// `step` for the boxes from sample `i` on, with the filter state, the level and the
    /// decision in local variables and the history written in place, until the decision hands
    /// a box on or the block ends; then the state is written back and that box finished
    /// (`decide`, or the rest of `step` for the block's last box).
    ///
    /// The two biquads run pipelined (`BiquadPair`): each pass high-passes the new box and
    /// low-passes the previous one, so the band-passed value, the history and the decision lag
    /// one box behind the input inside the loop.
    @inline(__always)
    private mutating func runPipelined(_ boxes: UniformBoxes, from i: inout Int, emit: (StrokeEvent) -> Void) {
        let d = boxes.decimation, n = boxes.count
        // Start the pipeline: the first box's high-pass alone.
        var pendingTime = boxes.time(i)
        var pendingValue = boxes.average(i)
        var highPassed = highPass.process(pendingValue)
        i += d
        var filters = BiquadPair(highPass, lowPass)
        var mean = level
        let alpha = levelAlpha
        // The decision's thresholds, and its running figures in variables of the loop's own.
        let rules = decision
        let inDrive = rules.phase == .drive
        var drivePeak = rules.drivePeak, recoveryTrough = rules.recoveryTrough
        var runMin = rules.runMin, armed = rules.armed
        var handedOn: (time: Seconds, band: Float)? = nil
        history.withUnsafeRing { ringTimes, ringValues, count in
            let mask = StrokeSignalHistory.mask
            while i &+ d <= n {
                let value = boxes.average(i)
                let before = filters
                let y = filters.process(SIMD4<Float>(value, highPassed, 0, 0))
                // The pending box: band-passed, into the level and the history, decided.
                let band = y[1], time = pendingTime
                mean += alpha * (pendingValue - mean)
                ringTimes[count & mask] = time
                ringValues[count & mask] = pendingValue
                count &+= 1
                if rules.step(time: time, band: band, value: pendingValue, level: mean, inDrive: inDrive,
                              drivePeak: &drivePeak, recoveryTrough: &recoveryTrough, runMin: &runMin, armed: &armed) {
                    filters.undoFirst(to: before)  // the new box was not taken after all
                    handedOn = (time, band)
                    return
                }
                pendingTime = boxes.time(i)
                pendingValue = value
                highPassed = y[0]
                i &+= d
            }
        }
        filters.store(first: &highPass, second: &lowPass)
        level = mean
        decision.drivePeak = drivePeak; decision.recoveryTrough = recoveryTrough
        decision.runMin = runMin; decision.armed = armed
        if let e = handedOn {
            decide(time: e.time, band: e.band, emit: emit)
        } else {
            // The block's last whole box, high-passed already: the rest of `step`.
            let band = lowPass.process(highPassed)
            level += levelAlpha * (pendingValue - level)
            history.append(time: pendingTime, value: pendingValue)
            if self.decision.step(time: pendingTime, band: band, value: pendingValue, level: level) {
                decide(time: pendingTime, band: band, emit: emit)
            }
        }
    }
}

/// A uniform block read as averaging boxes of `decimation` samples: the box from sample `i` on
/// and its time (the mean of its samples' times).
struct UniformBoxes {
    let block: UnsafeBufferPointer<Float>
    let decimation: Int
    let startTime: Seconds, interval: Seconds
    private let base: UnsafeRawPointer
    private let scale: Float
    private let centre: Double

    @inline(__always)
    init(_ block: UnsafeBufferPointer<Float>, decimation: Int, startTime: Seconds, interval: Seconds) {
        self.block = block
        self.decimation = decimation
        self.startTime = startTime
        self.interval = interval
        base = UnsafeRawPointer(block.baseAddress!)
        scale = 1 / Float(decimation)
        centre = Double(decimation - 1) * 0.5
    }

    var count: Int { block.count }

    @inline(__always)
    func time(_ i: Int) -> Seconds { startTime + (Double(i) + centre) * interval }

    @inline(__always)
    func average(_ i: Int) -> Float {
        let d = decimation
        if d == 4 {  // the sum in the order of the loop below (adding to zero is exact)
            let v = base.loadUnaligned(fromByteOffset: i &* 4, as: SIMD4<Float>.self)
            return (((v[0] + v[1]) + v[2]) + v[3]) * scale
        }
        var k = 0
        var lanes = SIMD4<Float>.zero
        while k + 4 <= d {
            lanes += base.loadUnaligned(fromByteOffset: (i + k) * 4, as: SIMD4<Float>.self)
            k += 4
        }
        var sum = lanes.sum()
        while k < d { sum += block[i + k]; k += 1 }
        return sum * scale
    }
}
