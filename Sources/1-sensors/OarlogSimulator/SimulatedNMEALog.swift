import OarlogCore

/// A simulated outing as the NMEA log its receiver would have sent: the simulator's fixes (at
/// `configuration.gpsRate`, outages included) written epoch by epoch by `NMEAEpochWriter`, with
/// the true distance the boat had covered at each fix. Made for feeding gpsd (`gpsfake`, a test's
/// NMEA server) a 5–10 Hz receiver that the project does not have.
public struct SimulatedNMEALog: Sendable {
    /// The sentences, in order: two per fix (RMC, GGA), no line ends.
    public var lines: [String]
    /// The fixes written, in order (one epoch each).
    public var fixes: [GPSFix]
    /// The true distance covered from the start of the outing at each fix, metres.
    public var trueDistances: [Metres]

    /// The true distance between the first fix and the last.
    public var trueDistance: Metres {
        guard let first = trueDistances.first, let last = trueDistances.last else { return 0 }
        return last - first
    }

    /// Runs the simulator over `configuration` (its accelerometer samples are made and dropped:
    /// a low `accelRate` keeps this quick) and writes every fix.
    public init(configuration: SimulationConfiguration, horizontalDilution: Double = 0.8) throws {
        var simulator = try BoatSimulator(configuration: configuration, truthRetention: .recent(8))
        lines = []
        fixes = []
        trueDistances = []
        while let record = try simulator.next() {
            guard case .fix(let fix) = record else { continue }
            let epoch = NMEAEpochWriter.sentences(for: fix, horizontalDilution: horizontalDilution)
            guard !epoch.isEmpty else { continue }
            lines += epoch
            fixes.append(fix)
            // The accelerometer sample at or just before the fix carries the boat's state.
            let frame = simulator.lastBoatFrame
            trueDistances.append((frame?.distance ?? 0) + (frame?.speed ?? 0) * max(0, fix.time - (frame?.time ?? fix.time)))
        }
    }

    /// The log as a file's text (CRLF line ends, as a receiver sends).
    public var text: String { lines.map { $0 + "\r\n" }.joined() }
}
