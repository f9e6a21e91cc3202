import OarlogCore

/// The crew's latest heart rates as the live screen shows them: one per strap or seat, at most
/// `maximumSensors` (a ninth name is ignored, and counted, until one of the eight has been silent
/// for `staleAfter`: then it takes that one's place); each with its zone from the crew's zones
/// (`HeartRateZones`). A rate older than `staleAfter` on the source's clock is shown as none.
public struct LiveHeartRates: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        /// The strap's or seat's name; nil for a single strap without one.
        public var sensor: String?
        public var bpm: BeatsPerMinute
        /// When it was measured (the source's clock).
        public var time: Seconds
    }

    public static let maximumSensors = 8
    public static let staleAfter: Seconds = 10
    /// The longest name shown (a longer one is cut in the message: it is for a tile).
    public static let maximumNameLength = 40

    public private(set) var entries: [Entry] = []
    /// Heart rates of names beyond the eight kept.
    public private(set) var ignored = 0
    /// The source's newest time (what ages are measured against).
    public var now: Seconds = -.infinity
    public var zones = HeartRateZoneTable()

    public init() {}

    public var isEmpty: Bool { entries.isEmpty }

    /// Keeps `sample` as its sensor's latest rate.
    public mutating func add(_ sample: HeartRateSample) {
        guard sample.bpm.isFinite, sample.time.isFinite else { return }
        if sample.time > now { now = sample.time }
        if let i = entries.firstIndex(where: { $0.sensor == sample.sensor }) {
            if sample.time >= entries[i].time {
                entries[i].bpm = sample.bpm
                entries[i].time = sample.time
            }
            return
        }
        let entry = Entry(sensor: sample.sensor, bpm: sample.bpm, time: sample.time)
        if entries.count < Self.maximumSensors {
            if entries.isEmpty { entries.reserveCapacity(Self.maximumSensors) }
            entries.append(entry)
            return
        }
        // Full: the name silent longest gives way, if it has been silent for `staleAfter`.
        guard let oldest = entries.indices.min(by: { entries[$0].time < entries[$1].time }),
              now - entries[oldest].time > Self.staleAfter else {
            ignored += 1
            return
        }
        entries[oldest] = entry
    }

    /// How old `entry` is on the source's clock.
    public func age(_ entry: Entry) -> Seconds { max(0, now - entry.time) }

    public func isStale(_ entry: Entry) -> Bool { age(entry) > Self.staleAfter }
}

extension LiveStation {
    /// Reads the crew's zones again (`hr-zones.json`): at the start, and after the API changed them.
    public func reloadHeartRateZones() {
        let table = HeartRateZones(sessionsPath: directory.path).table()
        updateStatus(send: true) { $0.heartRates.zones = table }
    }

    /// The crew's latest heart rates (what the status message carries).
    public var heartRates: LiveHeartRates { status.heartRates }
}

extension JSONWriter {
    /// `"heart_rates": [{"sensor", "bpm", "age_s", "zone"}]`, in the order first heard: `sensor`
    /// null for a single strap without a name; `bpm` and `zone` null once the rate is older than
    /// `LiveHeartRates.staleAfter` (`age_s` says how old); `zone` 1–5, null when that sensor has
    /// no zones.
    mutating func heartRates(_ rates: LiveHeartRates) {
        beginArray(key: "heart_rates")
        for entry in rates.entries {
            let stale = rates.isStale(entry)
            beginObject()
            field("sensor", entry.sensor.map { String($0.prefix(LiveHeartRates.maximumNameLength)) })
            field("bpm", stale ? nil : entry.bpm, places: 0)
            field("age_s", rates.age(entry), places: 1)
            field("zone", stale ? nil : rates.zones.zone(of: entry.bpm, sensor: entry.sensor))
            endObject()
        }
        endArray()
    }
}
