/// One stroke as an instrumented oarlock (NK EmPower) measured it, from a device's export: the
/// oar's power, its angles (degrees from the pin's perpendicular: the catch negative, the finish
/// positive), the handle's forces and the stroke's work. Every figure is optional: exports carry
/// different subsets. `seat` names the rower's seat or the oarlock when a boat has several.
public struct OarlockStroke: Sendable, Equatable {
    public var time: Seconds
    public var seat: String?
    public var power: Watts?
    public var catchAngle: Degrees?
    public var finishAngle: Degrees?
    /// Degrees of the drive rowed before the blade held the water.
    public var slip: Degrees?
    /// Degrees of the drive's end lost as the blade left the water.
    public var wash: Degrees?
    /// The arc rowed with the blade loaded (total arc less slip and wash).
    public var effectiveLength: Degrees?
    public var averageForce: Newtons?
    public var maxForce: Newtons?
    /// The oar's angle at the peak force.
    public var maxForceAngle: Degrees?
    public var work: Joules?

    public init(time: Seconds, seat: String? = nil, power: Watts? = nil, catchAngle: Degrees? = nil,
                finishAngle: Degrees? = nil, slip: Degrees? = nil, wash: Degrees? = nil,
                effectiveLength: Degrees? = nil, averageForce: Newtons? = nil, maxForce: Newtons? = nil,
                maxForceAngle: Degrees? = nil, work: Joules? = nil) {
        self.time = time
        self.seat = seat
        self.power = power
        self.catchAngle = catchAngle
        self.finishAngle = finishAngle
        self.slip = slip
        self.wash = wash
        self.effectiveLength = effectiveLength
        self.averageForce = averageForce
        self.maxForce = maxForce
        self.maxForceAngle = maxForceAngle
        self.work = work
    }
}
