import OarlogCore

/// The means of an instrumented oarlock's figures over a run of its strokes (a session, an
/// interval, a piece): each figure over the strokes that give it, nil where none does. A fixed
/// handful of sums: adding a stroke allocates nothing.
public struct OarlockAverages: Sendable, Equatable {
    /// A running sum and count.
    public struct Mean: Sendable, Equatable {
        public private(set) var sum = 0.0
        public private(set) var count = 0
        public init() {}
        /// A mean as stored (a session's summary frame).
        public init(sum: Double, count: Int) {
            self.sum = sum
            self.count = max(0, count)
        }
        mutating func add(_ v: Double?) {
            guard let v, v.isFinite else { return }
            sum += v
            count += 1
        }
        /// The mean, nil without values.
        public var value: Double? { count > 0 ? sum / Double(count) : nil }
    }

    public var power = Mean()
    public var catchAngle = Mean(), finishAngle = Mean(), slip = Mean(), wash = Mean()
    public var effectiveLength = Mean()
    public var averageForce = Mean(), maxForce = Mean(), maxForceAngle = Mean()
    public var work = Mean()
    /// Oarlock strokes added.
    public var strokes = 0

    public init() {}

    public mutating func add(_ o: OarlockStroke) {
        strokes += 1
        power.add(o.power)
        catchAngle.add(o.catchAngle); finishAngle.add(o.finishAngle)
        slip.add(o.slip); wash.add(o.wash); effectiveLength.add(o.effectiveLength)
        averageForce.add(o.averageForce); maxForce.add(o.maxForce); maxForceAngle.add(o.maxForceAngle)
        work.add(o.work)
    }

    public var averagePower: Watts? { power.value }
    public var averageCatchAngle: Degrees? { catchAngle.value }
    public var averageFinishAngle: Degrees? { finishAngle.value }
    public var averageSlip: Degrees? { slip.value }
    public var averageWash: Degrees? { wash.value }
    public var averageEffectiveLength: Degrees? { effectiveLength.value }
    /// The mean of the strokes' average handle forces.
    public var averageForceMean: Newtons? { averageForce.value }
    /// The mean of the strokes' peak handle forces.
    public var averageMaxForce: Newtons? { maxForce.value }
    public var averageMaxForceAngle: Degrees? { maxForceAngle.value }
    public var averageWork: Joules? { work.value }
}

/// Heart rate per named sensor (one strap per rower: "stroke", "bow", …) over a run of records:
/// each sensor's mean and maximum. Bounded: the first `maxSensors` names are kept; the beats of
/// any further sensor are counted in `ignoredSamples` and go into no sensor's figures (they
/// still count in the run's overall heart rate). Records without a sensor name are not here.
public struct HeartRateBySensor: Sendable, Equatable {
    /// Most sensors kept: 16 (an eight and its cox, twice over).
    public static let maxSensors = 16

    /// One sensor's figures.
    public struct Sensor: Sendable, Equatable {
        public let name: String
        public private(set) var sum = 0.0
        public private(set) var count = 0
        public private(set) var max: BeatsPerMinute = 0
        init(name: String) { self.name = name }
        /// A sensor's figures as stored (a session's summary frame).
        public init(name: String, sum: Double, count: Int, max: BeatsPerMinute) {
            self.name = name
            self.sum = sum
            self.count = Swift.max(1, count)
            self.max = max
        }
        mutating func add(_ bpm: BeatsPerMinute) {
            sum += bpm
            count += 1
            max = Swift.max(max, bpm)
        }
        public var average: BeatsPerMinute { sum / Double(count) }
    }

    /// The sensors in the order they first gave a heart rate.
    public private(set) var sensors: [Sensor] = []
    /// Heart rates of sensors beyond the first `maxSensors`.
    public private(set) var ignoredSamples = 0

    public init() {}

    /// Sensors as stored (a session's summary frame; at most `maxSensors` are kept).
    public init(sensors: [Sensor], ignoredSamples: Int) {
        self.sensors = Array(sensors.prefix(Self.maxSensors))
        self.ignoredSamples = ignoredSamples
    }

    public mutating func add(_ bpm: BeatsPerMinute, sensor: String?) {
        guard let sensor, bpm.isFinite, bpm > 0 else { return }
        if let k = sensors.firstIndex(where: { $0.name == sensor }) {
            sensors[k].add(bpm)
        } else if sensors.count < Self.maxSensors {
            var s = Sensor(name: sensor)
            s.add(bpm)
            sensors.append(s)
        } else {
            ignoredSamples += 1
        }
    }
}
