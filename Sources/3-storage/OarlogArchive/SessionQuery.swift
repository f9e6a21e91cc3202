import OarlogCore

/// What `oarlog sessions` (and the race list) asks the archive: filters, all of which must hold,
/// and an order. Built from what a person types (`init(search:from:to:near:...)`), each option
/// checked with an error that names it.
public struct SessionQuery: Sendable, Equatable {
    public enum Order: String, Sendable, CaseIterable {
        /// Newest first.
        case date
        /// Longest first.
        case distance
        /// Fastest average split first; sessions without a split last.
        case split
    }

    /// Every word must begin a word of the title, the notes, the course or the place names (any
    /// case, accents ignored).
    public var text: String?
    /// Sessions that started at or after this UTC (seconds since 1970).
    public var from: Double?
    /// … and before this.
    public var to: Double?
    /// A place and how near: sessions whose GPS track came within `radius` of `point` (its
    /// bounding box does).
    public struct Nearness: Sendable, Equatable {
        public var point: GeoPoint
        public var radius: Metres
    }

    public var near: Nearness?
    public var minimumDistance: Metres?
    /// The average stroke rate within these bounds (inclusive).
    public var rate: ClosedRange<StrokesPerMinute>?
    /// Sessions of this boat (exact, any case).
    public var boat: String?
    public var order: Order = .date

    public init() {}

    /// The radius `--near LAT,LON` uses when none is given.
    public static let defaultNearRadius: Metres = 500

    /// From options as typed: `search` any text; `from`/`to` a date `YYYY-MM-DD` (a whole day:
    /// `to` includes it) or a UTC time `YYYY-MM-DDTHH:MM[:SS]Z`; `near` `LAT,LON[,METRES]`;
    /// `minimumDistance` metres; `rate` `A-B` or `A` (spm, A ± 0.5); `sort` date, distance or split.
    public init(search: String? = nil, from: String? = nil, to: String? = nil, near: String? = nil, minimumDistance: String? = nil,
                rate: String? = nil, boat: String? = nil, sort: String? = nil) throws(SessionQueryError) {
        if let search, !search.trimmingWhitespace().isEmpty { text = search }
        if let from { self.from = try Self.time(from, option: "from", endOfDay: false) }
        if let to { self.to = try Self.time(to, option: "to", endOfDay: true) }
        if let f = self.from, let t = self.to, t <= f {
            throw SessionQueryError(option: "to", text: to ?? "", reason: "it is not after --from")
        }
        if let near { self.near = try Self.place(near) }
        if let minimumDistance {
            guard let m = Double(minimumDistance.trimmingWhitespace()), m.isFinite, m >= 0 else {
                throw SessionQueryError(option: "min-distance", text: minimumDistance, reason: "give metres, e.g. 2000")
            }
            self.minimumDistance = m
        }
        if let rate { self.rate = try Self.rateRange(rate) }
        if let boat, !boat.trimmingWhitespace().isEmpty { self.boat = boat.trimmingWhitespace() }
        if let sort {
            guard let o = Order(rawValue: sort.trimmingWhitespace().lowercased()) else {
                throw SessionQueryError(option: "sort", text: sort, reason: "give date, distance or split")
            }
            order = o
        }
    }

    static func time(_ text: String, option: String, endOfDay: Bool) throws(SessionQueryError) -> Double {
        let t = text.trimmingWhitespace()
        let parts = t.split(separator: "-", omittingEmptySubsequences: false)
        if parts.count == 3, let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]),
           (1...9999).contains(y), (1...12).contains(m), (1...31).contains(d) {
            guard d <= daysIn(month: m, year: y) else {
                throw SessionQueryError(option: option, text: text, reason: "that month has \(daysIn(month: m, year: y)) days")
            }
            let day = UTCTime.epochSeconds(year: y, month: m, day: d)
            return endOfDay ? day + 86_400 : day
        }
        if let utc = UTCTime.parseTypedUTC(t) {
            // The date must be a day of the calendar: `2026-02-30T10:00Z` is no time at all.
            let date = t.prefix(while: { $0 != "T" && $0 != "t" && $0 != " " }).split(separator: "-").compactMap { Int($0) }
            if date.count == 3, date[2] > daysIn(month: date[1], year: date[0]) {
                throw SessionQueryError(option: option, text: text, reason: "that month has \(daysIn(month: date[1], year: date[0])) days")
            }
            return utc
        }
        throw SessionQueryError(option: option, text: text, reason: "give a date YYYY-MM-DD or a UTC time YYYY-MM-DDTHH:MMZ")
    }

    /// Days in a month of the Gregorian calendar (a leap February has 29).
    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    static func place(_ text: String) throws(SessionQueryError) -> Nearness {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Double(String($0).trimmingWhitespace()) }
        guard parts.count == 2 || parts.count == 3, let lat = parts[0], let lon = parts[1], lat.isFinite, lon.isFinite,
              abs(lat) <= 90, abs(lon) <= 180 else {
            throw SessionQueryError(option: "near", text: text, reason: "give LAT,LON[,METRES] in degrees, e.g. 51.4920,-0.2370,800")
        }
        var radius = defaultNearRadius
        if parts.count == 3 {
            guard let r = parts[2], r.isFinite, r > 0, r <= 20_000_000 else {
                throw SessionQueryError(option: "near", text: text, reason: "the radius must be metres above 0")
            }
            radius = r
        }
        return Nearness(point: GeoPoint(latitude: lat, longitude: lon), radius: radius)
    }

    static func rateRange(_ text: String) throws(SessionQueryError) -> ClosedRange<StrokesPerMinute> {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false).map { Double(String($0).trimmingWhitespace()) }
        guard parts.count == 1 || parts.count == 2, let low = parts[0], let high = parts.last ?? nil,
              low.isFinite, high.isFinite, low >= 0, high >= low else {
            throw SessionQueryError(option: "rate", text: text, reason: "give strokes per minute A-B (e.g. 18-24) or one rate")
        }
        // One rate is the rate as a display rounds it: 22 holds 21.5 to 22.5.
        return parts.count == 1 ? max(0, low - 0.5)...(high + 0.5) : low...high
    }
}

/// An option `oarlog sessions` (or `/api/sessions`) cannot use, and why.
public struct SessionQueryError: Error, Sendable, Equatable, CustomStringConvertible {
    public var option: String
    public var text: String
    public var reason: String
    public var description: String { "--\(option) '\(text)': \(reason)" }
}
