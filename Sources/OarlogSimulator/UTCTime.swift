import OarlogCore

extension UTCTime {
    /// Parses a start time as typed on the command line (`--start-utc`): `YYYY-MM-DDTHH:MM[:SS[.fff]]`
    /// with a `T` or a space, an optional `Z`, surrounding spaces and unpadded numbers allowed;
    /// always UTC (no offsets, unlike `parseISO8601`, which reads what traces write).
    static func parseTypedUTC(_ text: String) -> Double? {
        var body = text.trimmingSpaces()
        if body.hasSuffix("Z") || body.hasSuffix("z") { body.removeLast() }
        let halves = body.split(whereSeparator: { $0 == "T" || $0 == " " })
        guard halves.count == 2 else { return nil }
        let date = halves[0].split(separator: "-")
        let time = halves[1].split(separator: ":")
        guard date.count == 3, time.count == 3 || time.count == 2,
              let year = Int(date[0]), let month = Int(date[1]), let day = Int(date[2]),
              let hour = Int(time[0]), let minute = Int(time[1]),
              (1...12).contains(month), (1...31).contains(day), (0...23).contains(hour), (0...59).contains(minute)
        else { return nil }
        let second = time.count == 3 ? Double(time[2]) : 0
        guard let second, second >= 0, second < 61 else { return nil }
        return epochSeconds(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    }
}
