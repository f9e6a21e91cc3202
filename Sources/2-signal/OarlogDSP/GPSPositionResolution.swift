import OarlogCore

/// Finds how finely a source writes its positions: the number of decimals of the decimal-degree
/// grid that every latitude and longitude seen so far lies on.
///
/// A SpeedCoach export has 4 decimals (1e-4° ≈ 11 m of latitude): consecutive fixes a stroke apart
/// then differ by about one grid step, and summing them inflates distance by several percent, so
/// the distance accumulator smooths such positions. A receiver's own output (7+ decimals, or NMEA
/// ddmm.mmmm) is recognised as fine after its first fix or two.
public struct GPSPositionResolution: Sendable, Equatable {
    /// Decimals seen so far (0…`fineDecimals`); `fineDecimals` means "finer than we care about".
    public private(set) var decimals: Int = 0
    public private(set) var fixesSeen = 0
    public static let fineDecimals = 7

    public init() {}

    public mutating func observe(latitude: Degrees, longitude: Degrees) {
        fixesSeen += 1
        while decimals < Self.fineDecimals
            && (!Self.isOnGrid(latitude, decimals: decimals) || !Self.isOnGrid(longitude, decimals: decimals)) {
            decimals += 1
        }
    }

    /// The north-south size of one grid step in metres (1e-decimals degrees of latitude);
    /// `nil` before any fix. Fine sources give about 0.011 m.
    public var gridStep: Metres? {
        guard fixesSeen > 0 else { return nil }
        var step = 111_320.0
        for _ in 0..<decimals { step /= 10 }
        return step
    }

    static func isOnGrid(_ value: Degrees, decimals: Int) -> Bool {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = value * scale
        return abs(scaled - scaled.rounded()) < 1e-6
    }
}
