import OarlogCore

/// The boat's motion besides surge, as the sensor feels it: heave (vertical acceleration at the
/// stroke frequency and its second harmonic, growing with the crew's effort), pitch with the
/// stroke about a small bow-up trim, a slow roll as the crew balances, and wave chop. Pitch and
/// roll turn gravity a few degrees into the boat's x and y axes.
struct BoatMotion: Sendable {
    /// Heave at motion level 1 (22 spm, firm), m/s².
    static let heaveAmplitude = 0.8
    static let chopAmplitude = 0.12

    let enabled: Bool
    private let phases: (Double, Double, Double, Double, Double)

    init(enabled: Bool, seed: UInt64) {
        self.enabled = enabled
        var random = Xoshiro256StarStar(seed: seed, stream: 4)
        let twoPi = 2 * Double.pi
        phases = (random.uniform() * twoPi, random.uniform() * twoPi, random.uniform() * twoPi,
                  random.uniform() * twoPi, random.uniform() * twoPi)
    }

    /// Heave acceleration (m/s²), pitch (radians, bow up) and roll (radians, port side up) at
    /// time `t`, stroke phase `phase` (0 at the catch, 1 at the next) and motion `level`.
    @inline(__always)
    func attitude(at t: Seconds, phase: Double, level: Double) -> (heave: Double, pitch: Double, roll: Double) {
        guard enabled else { return (0, 0, 0) }
        let twoPi = 2 * Double.pi
        let angle = twoPi * phase
        let heave = level * Self.heaveAmplitude * (0.6 * _sin(angle + 0.4) + 0.3 * _sin(2 * angle + 1.3))
            + Self.chopAmplitude * (_sin(twoPi * 0.9 * t + phases.0) + 0.7 * _sin(twoPi * 1.37 * t + phases.1))
        let pitchDegrees = 0.4 + level * 0.5 * _sin(angle + 1.9) + 0.15 * _sin(twoPi * t / 4.3 + phases.2)
        let rollDegrees = 1.2 * _sin(twoPi * t / 7.1 + phases.3) + 0.6 * _sin(twoPi * t / 2.9 + phases.4)
        return (heave, pitchDegrees * degreesToRadians, rollDegrees * degreesToRadians)
    }
}
