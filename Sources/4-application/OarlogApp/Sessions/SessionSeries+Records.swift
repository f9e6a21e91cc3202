import OarlogAPI
import OarlogCore
import OarlogSession

/// Values at times put into a series' buckets: each bucket's minimum, maximum and mean.
struct SeriesBuckets {
    private(set) var low: [Double?]
    private(set) var high: [Double?]
    private var sum: [Double]
    private var counted: [Int]
    /// Values added in all.
    private(set) var samples = 0

    init(count n: Int) {
        low = [Double?](repeating: nil, count: n)
        high = low
        sum = [Double](repeating: 0, count: n)
        counted = [Int](repeating: 0, count: n)
    }

    mutating func add(_ v: Double?, bucket b: Int) {
        guard let v, v.isFinite, b >= 0, b < sum.count else { return }
        low[b] = min(low[b] ?? v, v)
        high[b] = max(high[b] ?? v, v)
        sum[b] += v
        counted[b] += 1
        samples += 1
    }

    /// `"min": [...], "max": [...], "mean": [...]` (null for a bucket without a value).
    func write(_ w: inout JSONWriter, places: Int) {
        w.array("min", low, places: places)
        w.array("max", high, places: places)
        w.array("mean", counted.indices.lazy.map { b in counted[b] > 0 ? sum[b] / Double(counted[b]) : nil }, places: places)
    }
}

/// The series a session's records give (not its strokes): heart rate per strap or seat, and the
/// oarlock's power, angles and forces per stroke — else the device's strokes' power — in the
/// same buckets as the stroke series. Read from the records in one pass (`SessionReader.records`).
struct SessionRecordSeries {
    /// At most this many straps or seats get a series of their own (the rest are counted).
    static let maximumSensors = 16

    let buckets: Int
    let width: Seconds
    var heartRates: [(sensor: String?, values: SeriesBuckets)] = []
    var ignoredSensors = 0
    var referencePower: SeriesBuckets
    var oarlockPower: SeriesBuckets
    var catchAngle: SeriesBuckets
    var finishAngle: SeriesBuckets
    var averageForce: SeriesBuckets
    var maxForce: SeriesBuckets

    init(buckets n: Int, width: Seconds) {
        buckets = n
        self.width = width
        referencePower = SeriesBuckets(count: n)
        oarlockPower = referencePower
        catchAngle = referencePower
        finishAngle = referencePower
        averageForce = referencePower
        maxForce = referencePower
    }

    /// Every record of `reader` that one of `fields` wants, bucketed (the accelerometer's blocks
    /// are passed over unread).
    static func read(_ reader: SessionReader, buckets n: Int, width: Seconds, fields: [SeriesRequest.Field]) throws -> SessionRecordSeries {
        var series = SessionRecordSeries(buckets: n, width: width)
        let wantsHeartRate = fields.contains(.heartRate)
        try reader.forEachHeartRateAndOarlock(references: true) { record in
            switch record {
            case .heartRate(let h) where wantsHeartRate: series.add(h)
            case .reference(let r): series.referencePower.add(r.power, bucket: series.bucket(r.time))
            case .oarlock(let o): series.add(o)
            default: break
            }
        }
        return series
    }

    func bucket(_ t: Seconds) -> Int {
        guard t.isFinite, buckets > 0 else { return -1 }
        return width > 0 ? min(buckets - 1, max(0, Int(t / width))) : 0
    }

    mutating func add(_ h: HeartRateSample) {
        let b = bucket(h.time)
        if let i = heartRates.firstIndex(where: { $0.sensor == h.sensor }) {
            heartRates[i].values.add(h.bpm, bucket: b)
        } else if heartRates.count < Self.maximumSensors {
            var values = SeriesBuckets(count: buckets)
            values.add(h.bpm, bucket: b)
            heartRates.append((h.sensor, values))
        } else {
            ignoredSensors += 1
        }
    }

    mutating func add(_ o: OarlockStroke) {
        let b = bucket(o.time)
        oarlockPower.add(o.power, bucket: b)
        catchAngle.add(o.catchAngle, bucket: b)
        finishAngle.add(o.finishAngle, bucket: b)
        averageForce.add(o.averageForce, bucket: b)
        maxForce.add(o.maxForce, bucket: b)
    }

    /// The power per stroke: the oarlock's when it gave any, else the device's strokes'.
    var power: (values: SeriesBuckets, source: String?) {
        if oarlockPower.samples > 0 { return (oarlockPower, "oarlock") }
        return (referencePower, referencePower.samples > 0 ? "reference" : nil)
    }

    /// Writes `field`'s series: `heart_rate_bpm` an array of `{"sensor", "samples",
    /// "zone_floors_bpm", "min", "max", "mean"}` (first heard first); `power_w` `{"samples",
    /// "source", "min", "max", "mean"}`; the oarlock's `{"samples", "min", "max", "mean"}`.
    func write(_ field: SeriesRequest.Field, _ w: inout JSONWriter, zones: HeartRateZoneTable) {
        switch field {
        case .heartRate:
            w.beginArray(key: field.key)
            for (sensor, values) in heartRates {
                w.beginObject()
                w.field("sensor", sensor)
                w.field("samples", values.samples)
                if let setting = zones.setting(for: sensor) {
                    w.array("zone_floors_bpm", setting.zoneFloorsBPM, places: 1)
                } else {
                    w.field("zone_floors_bpm", nil as String?)
                }
                values.write(&w, places: 1)
                w.endObject()
            }
            w.endArray()
        case .power:
            let (values, source) = power
            w.beginObject(key: field.key)
            w.field("samples", values.samples)
            w.field("source", source)
            values.write(&w, places: 1)
            w.endObject()
        case .catchAngle, .finishAngle, .averageForce, .maxForce:
            let values = field == .catchAngle ? catchAngle : field == .finishAngle ? finishAngle
                : field == .averageForce ? averageForce : maxForce
            w.beginObject(key: field.key)
            w.field("samples", values.samples)
            values.write(&w, places: 1)
            w.endObject()
        case .split, .rate, .speed, .distance, .boatSpeed:
            break
        }
    }
}
