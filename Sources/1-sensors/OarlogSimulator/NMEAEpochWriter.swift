import OarlogCore

/// Writes a fix as the NMEA 0183 sentences a u-blox M8/M9 receiver sends for one navigation
/// epoch: `$GNRMC` (time, date, position, speed and course over ground) then `$GNGGA` (time,
/// position, fix quality, satellites, HDOP, altitude), both with the same centisecond time
/// (`hhmmss.ss`), positions in `ddmm.mmmmm` (u-blox's five decimals of a minute, about 2 cm)
/// and speed in knots to 0.001.
///
/// What a log for `gpsfake` or a test's NMEA server is made of: at 10 Hz every epoch's time
/// differs from the last by 0.10 s, so gpsd reports each epoch once (`EpochReducer`).
public enum NMEAEpochWriter {
    /// Metres per second in one knot's 1852 m per hour.
    static let metresPerSecondPerKnot = 1852.0 / 3600.0

    /// The two sentences of the epoch of `fix` (`fix.utc` is its time; a fix without one gives
    /// none). `horizontalDilution` is the HDOP written in GGA.
    public static func sentences(for fix: GPSFix, horizontalDilution: Double = 0.8) -> [String] {
        guard let utc = fix.utc, utc.isFinite, utc >= 0, fix.latitude.isFinite, fix.longitude.isFinite else { return [] }
        let centiseconds = Int64((utc * 100).rounded())
        let time = timeOfDay(centiseconds: centiseconds)
        let date = dateText(centiseconds: centiseconds)
        let latitude = angle(fix.latitude, degreeDigits: 2, positive: "N", negative: "S")
        let longitude = angle(fix.longitude, degreeDigits: 3, positive: "E", negative: "W")
        let knots = fix.speed.map { DecimalText.fixed($0 / metresPerSecondPerKnot, places: 3, nonFinite: "") } ?? ""
        let course = fix.course.map { DecimalText.fixed($0, places: 2, nonFinite: "") } ?? ""
        let rmc = "GNRMC,\(time),A,\(latitude),\(longitude),\(knots),\(course),\(date),,,A"
        let satellites = DecimalText.zeroPadded(fix.satellitesUsed ?? 9, width: 2)
        let hdop = DecimalText.fixed(horizontalDilution, places: 2, nonFinite: "")
        let altitude = DecimalText.fixed(fix.altitude ?? 0, places: 1, nonFinite: "0.0")
        let gga = "GNGGA,\(time),\(latitude),\(longitude),1,\(satellites),\(hdop),\(altitude),M,47.0,M,,"
        return [framed(rmc), framed(gga)]
    }

    /// `$body*CS`: the checksum is the XOR of every byte of the body, two upper-case hex digits.
    public static func framed(_ body: String) -> String {
        let sum = body.utf8.reduce(UInt8(0), ^)
        let digits = Array("0123456789ABCDEF".utf8)
        let hex = String(decoding: [digits[Int(sum >> 4)], digits[Int(sum & 0x0F)]], as: UTF8.self)
        return "$" + body + "*" + hex
    }

    /// `hhmmss.ss` of the day.
    static func timeOfDay(centiseconds: Int64) -> String {
        let ofDay = centiseconds % 8_640_000
        let hours = ofDay / 360_000, minutes = ofDay / 6_000 % 60, seconds = ofDay / 100 % 60, hundredths = ofDay % 100
        return DecimalText.zeroPadded(hours, width: 2) + DecimalText.zeroPadded(minutes, width: 2)
            + DecimalText.zeroPadded(seconds, width: 2) + "." + DecimalText.zeroPadded(hundredths, width: 2)
    }

    /// `ddmmyy` of the UTC date.
    static func dateText(centiseconds: Int64) -> String {
        let date = UTCTime.civilDate(daysSince1970: Int(centiseconds / 8_640_000))
        return DecimalText.zeroPadded(date.day, width: 2) + DecimalText.zeroPadded(date.month, width: 2)
            + DecimalText.zeroPadded(date.year % 100, width: 2)
    }

    /// `ddmm.mmmmm,N` (or `dddmm.mmmmm,E` with three degree digits): whole degrees, then minutes
    /// rounded to 1e-5 (a minute that rounds up to 60 carries into the degrees).
    static func angle(_ degrees: Degrees, degreeDigits: Int, positive: String, negative: String) -> String {
        let hundredThousandthsOfMinute = Int64((degrees.magnitude * 60 * 100_000).rounded())
        let perDegree: Int64 = 60 * 100_000
        let whole = hundredThousandthsOfMinute / perDegree
        let minuteUnits = hundredThousandthsOfMinute % perDegree
        let minutes = DecimalText.zeroPadded(minuteUnits / 100_000, width: 2) + "."
            + DecimalText.zeroPadded(minuteUnits % 100_000, width: 5)
        return DecimalText.zeroPadded(whole, width: degreeDigits) + minutes + "," + (degrees < 0 ? negative : positive)
    }
}
