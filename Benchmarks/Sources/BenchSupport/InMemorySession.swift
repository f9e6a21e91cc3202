import OarlogCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A rowing session held in memory, as the trace records a sensor and a GPS receiver would give:
/// a 3-axis accelerometer at 100 Hz whose surge is the benchmark's float32 signal, mounted tilted
/// and turned in the boat (so the mounting estimator has work to do), and a 1 Hz GPS fix of a boat
/// going east at about 4 m/s. Records are built from contiguous buffers as they are asked for, so
/// a session of any length costs no memory beyond the surge buffer and allocates nothing.
///
/// Time never runs backward: once the surge buffer is used up it starts again from its first
/// sample with time still counting on, so a benchmark can replay it as long as it likes.
public struct InMemorySession: RecordSource, Sendable {
    public let surge: [Float]
    public let sampleInterval: Seconds
    /// Accelerometer samples per GPS fix.
    public let samplesPerFix: Int
    /// Accelerometer samples given so far (the next sample's global index).
    public var samplesGiven: Int { nextIndex }
    @usableFromInline var nextIndex = 0
    /// Samples this session gives before it ends (`Int.max`: never ends).
    public var sampleLimit: Int
    @usableFromInline var fixPending = false

    // Sensor axes from boat axes (x forward, y to port, z up): turned 30° about z, then tilted 8°
    // about the sensor's y. Rows are the sensor axes expressed in boat axes.
    @usableFromInline let mounting: (x: SIMD3<Float>, y: SIMD3<Float>, z: SIMD3<Float>)

    static func makeMounting() -> (x: SIMD3<Float>, y: SIMD3<Float>, z: SIMD3<Float>) {
        let yaw = Float(30.0 * Double.pi / 180), pitch = Float(8.0 * Double.pi / 180)
        let (cy, sy, cp, sp) = (Float(cos(Double(yaw))), Float(sin(Double(yaw))), Float(cos(Double(pitch))), Float(sin(Double(pitch))))
        // R = Ry(pitch) · Rz(yaw); sensor = R · boat.
        let x = SIMD3<Float>(cp * cy, cp * sy, -sp)
        let y = SIMD3<Float>(-sy, cy, 0)
        let z = SIMD3<Float>(sp * cy, sp * sy, cp)
        return (x, y, z)
    }

    public init(surge: [Float], sampleRate: Hertz = BenchFiles.sampleRate, fixRate: Hertz = 1, sampleLimit: Int = .max) {
        precondition(!surge.isEmpty, "empty surge buffer")
        self.surge = surge
        self.sampleInterval = 1 / sampleRate
        self.samplesPerFix = max(1, Int((sampleRate / fixRate).rounded()))
        self.sampleLimit = sampleLimit
        self.mounting = Self.makeMounting()
    }

    /// The accelerometer sample with global index `index` (the surge buffer repeats).
    @inlinable
    public func accelSample(_ index: Int) -> AccelSample {
        let s = surge[index % surge.count]
        let boat = SIMD3<Float>(s, 0, standardGravity)
        let m = mounting
        return AccelSample(time: Double(index) * sampleInterval,
                           x: (m.x * boat).sum(), y: (m.y * boat).sum(), z: (m.z * boat).sum())
    }

    /// The GPS fix at `time`: due east from Putney at 4 m/s ± 0.3 m/s over a 10-minute cycle.
    public static func fix(at time: Seconds) -> GPSFix {
        let earthRadius: Metres = 6_371_000
        let latitude: Degrees = 51.4873, longitude0: Degrees = -0.2241
        let cycle: Seconds = 600
        let speed = 4.0 + 0.3 * sin(2 * Double.pi * time / cycle)
        let distance = 4.0 * time + 0.3 * cycle / (2 * Double.pi) * (1 - cos(2 * Double.pi * time / cycle))
        let longitude = longitude0 + distance / (earthRadius * cos(latitude * Double.pi / 180)) * 180 / Double.pi
        return GPSFix(time: time, latitude: latitude, longitude: longitude, speed: speed, course: 90,
                      horizontalAccuracy: 2.5, mode: .threeD, satellitesUsed: 10)
    }

    /// The batch path (what a CSV replay takes): the accelerometer samples that come next, up to
    /// the next fix or `buffer.count`, exactly the `.accel` records `next()` would give.
    @inlinable
    public mutating func nextAccelBatch(into buffer: UnsafeMutableBufferPointer<AccelSample>) -> Int {
        var n = 0
        while n < buffer.count && !fixPending && nextIndex < sampleLimit {
            let index = nextIndex
            nextIndex += 1
            if index % samplesPerFix == 0 { fixPending = true }
            buffer[n] = accelSample(index)
            n += 1
        }
        return n
    }

    /// The next record: each accelerometer sample, and after every `samplesPerFix`-th one, a fix
    /// at the same time.
    @inlinable
    public mutating func next() -> TraceRecord? {
        if fixPending {
            fixPending = false
            return .fix(Self.fix(at: Double(nextIndex - 1) * sampleInterval))
        }
        guard nextIndex < sampleLimit else { return nil }
        let index = nextIndex
        nextIndex += 1
        if index % samplesPerFix == 0 { fixPending = true }
        return .accel(accelSample(index))
    }
}
