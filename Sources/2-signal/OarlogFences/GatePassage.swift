import OarlogCore

/// One gate's view of the boat: which side it was last clearly on, and the raw crossings since.
///
/// With GPS at 5–10 Hz the fixes' jitter is as large as the boat's step, so the track zigzags
/// over the line; a crossing is therefore counted only when the boat, having been clearly
/// (beyond the gate's hysteresis) on one side, is clearly on the other side, and some pair of
/// fixes in between met the gate line within its ends. Its time is then fitted over every
/// fix around the raw crossings (see `FenceMonitor`).
struct GatePassage: Sendable {
    /// The side (+1 left of the gate line, −1 right) the boat was last clearly on.
    var clearSide: Int = 0
    /// Raw crossings (pairs meeting the line within its ends) since the boat left `clearSide`.
    var pending = false
    /// Time span of the pairs that met the line.
    var firstPairStart: Seconds = 0
    var lastPairEnd: Seconds = 0
    /// The last raw crossing, interpolated: the fallback time.
    var lastRawTime: Seconds = 0
    var lastRawFraction: Double = 0

    mutating func reset() {
        clearSide = 0
        pending = false
    }
}
