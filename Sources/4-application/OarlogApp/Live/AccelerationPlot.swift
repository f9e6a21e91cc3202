import OarlogCore

/// The boat's fore-aft acceleration for the live plot, thinned to about 25 points a second and
/// sent five times a second: gravity (the axis with the largest mean) set aside, the horizontal
/// axis that moves most is plotted, its slow mean removed. Fixed memory.
struct AccelerationPlot {
    private var mean = SIMD3<Double>(0, 0, 0)
    private var variance = SIMD3<Double>(0, 0, 0)
    private var seen = 0
    private var lastPoint = -Double.infinity
    private var times: [Seconds] = []
    private var values: [Double] = []
    private var lastSent = -Double.infinity

    mutating func add(_ s: AccelSample) -> String? {
        let v = SIMD3<Double>(Double(s.x), Double(s.y), Double(s.z))
        seen += 1
        let k = seen < 200 ? 1 / Double(seen) : 0.005
        let d = v - mean
        mean += d * k
        variance += (d * d - variance) * k
        guard s.time >= lastPoint + 0.04 else { return nil }
        lastPoint = s.time
        let g = mean.x.magnitude > mean.y.magnitude ? (mean.x.magnitude > mean.z.magnitude ? 0 : 2) : (mean.y.magnitude > mean.z.magnitude ? 1 : 2)
        var axis = g == 0 ? 1 : 0
        for i in 0..<3 where i != g && variance[i] > variance[axis] { axis = i }
        times.append(s.time)
        values.append(v[axis] - mean[axis])
        guard s.time >= lastSent + 0.2 || times.count >= 64 else { return nil }
        lastSent = s.time
        defer {
            times.removeAll(keepingCapacity: true)
            values.removeAll(keepingCapacity: true)
        }
        return LiveMessage.accel(times: times, surge: values)
    }
}
