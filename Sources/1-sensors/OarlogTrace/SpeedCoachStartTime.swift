import OarlogCore

extension SpeedCoachReader {
    /// The device's local start, `11/05/16 10:02`, `11/14/16 07:38am`, `01/03/2021 12:56 p.m.`
    /// (month/day/year of 2 or 4 digits; a 24-hour clock, or 12-hour with am/pm, a.m./p.m. in
    /// any case, joined or spaced) → `2016-11-05T10:02:00`.
    static func localStart(_ s: String) -> String? {
        let parts = s.split(separator: " ")
        guard parts.count == 2 || parts.count == 3 else { return nil }
        let date = parts[0].split(separator: "/")
        guard date.count == 3, let month = Int(date[0]), let day = Int(date[1]), var year = Int(date[2]),
              (1...12).contains(month), (1...31).contains(day), date[2].count == 2 || date[2].count == 4 else { return nil }
        if year < 100 { year += 2000 }
        var clock = parts[1].lowercased()
        if parts.count == 3 { clock += parts[2].lowercased() }
        if clock.contains(where: { $0.isLetter }) { clock.removeAll { $0 == "." } }
        var pm: Bool? = nil
        if clock.hasSuffix("am") { pm = false; clock.removeLast(2) } else if clock.hasSuffix("pm") { pm = true; clock.removeLast(2) }
        let hm = clock.split(separator: ":", omittingEmptySubsequences: false)
        guard hm.count == 2 || hm.count == 3, var hour = Int(hm[0]), let minute = Int(hm[1]),
              (0...59).contains(minute) else { return nil }
        let second = hm.count == 3 ? Int(hm[2]) ?? -1 : 0
        guard (0...59).contains(second) else { return nil }
        if let pm {
            guard (1...12).contains(hour) else { return nil }
            hour = hour % 12 + (pm ? 12 : 0)
        }
        guard (0...23).contains(hour) else { return nil }
        func p(_ n: Int, _ width: Int) -> String { DecimalText.zeroPadded(n, width: width) }
        return "\(p(year, 4))-\(p(month, 2))-\(p(day, 2))T\(p(hour, 2)):\(p(minute, 2)):\(p(second, 2))"
    }

    /// A SpeedCoach export without its "Session Information:" block: it starts with a summary
    /// table's header (`Interval,Total Distance (GPS),...`, `Total Intervals,...`) or with the
    /// per-stroke section ("Per-Stroke Data:", "Session Detail Data:"), and names the per-stroke
    /// section within its first lines.
    static func recognises(lines: [String]) -> Bool {
        guard let first = lines.first else { return false }
        let section = lines.contains { $0.hasPrefix("Per-Stroke Data:") || $0.hasPrefix("Session Detail Data:") }
        return first.hasPrefix("Per-Stroke Data:") || first.hasPrefix("Session Detail Data:")
            || (section && (first.hasPrefix("Interval,") || first.hasPrefix("Total Intervals,")))
            || first.hasPrefix("Interval,Total Distance")
    }
}
