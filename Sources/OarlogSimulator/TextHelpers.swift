import OarlogCore

/// Small text helpers that keep the simulator free of Foundation.

extension String {
    /// The string without leading and trailing spaces and tabs.
    func trimmingSpaces() -> String {
        var scalars = Substring(self)
        while let first = scalars.first, first == " " || first == "\t" || first == "\r" || first == "\n" {
            scalars = scalars.dropFirst()
        }
        while let last = scalars.last, last == " " || last == "\t" || last == "\r" || last == "\n" {
            scalars = scalars.dropLast()
        }
        return String(scalars)
    }
}

/// `value` with exactly `decimals` digits after the point (rounded half away from zero), no
/// exponent: "12.340", "-0.05". Non-finite values give "" (an unknown field in our CSVs).
public func formatFixed(_ value: Double, decimals: Int) -> String {
    guard value.isFinite else { return "" }
    var scale = 1.0
    for _ in 0..<max(0, decimals) { scale *= 10 }
    let scaled = (abs(value) * scale).rounded(.toNearestOrAwayFromZero)
    guard scaled < 9.0e18 else { return String(value) }
    let units = UInt64(scaled)
    let divisor = UInt64(scale)
    let whole = units / divisor
    var text = (value < 0 && units != 0 ? "-" : "") + String(whole)
    if decimals > 0 {
        let fraction = String(units % divisor)
        text += "." + String(repeating: "0", count: decimals - fraction.count) + fraction
    }
    return text
}
