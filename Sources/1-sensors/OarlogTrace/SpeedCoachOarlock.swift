import OarlogCore

/// The EmPower oarlock's columns of a SpeedCoach per-stroke table (beside `Power`, W): `Catch`,
/// `Slip`, `Finish`, `Wash` (degrees), `Force Avg`, `Force Max` (N), `Work` (J) and
/// `Max Force Angle` (degrees, as the device writes it: the SpeedCoach's figure sits near 65°
/// where the catch is −61° and the finish 40°, so it is measured from the catch rather than
/// from the pin's perpendicular as NK LiNK's `positionOfMaxForce` is; it is kept as written).
/// The effective length is the total arc less slip and wash, when all four angles are known.
struct SpeedCoachOarlockColumns {
    var catchAngle: Int?, slip: Int?, finishAngle: Int?, wash: Int?
    var averageForce: Int?, work: Int?, maxForce: Int?, maxForceAngle: Int?

    init() {}

    init(_ table: SpeedCoachLayout.Table) {
        catchAngle = table.index(["Catch"]); slip = table.index(["Slip"])
        finishAngle = table.index(["Finish"]); wash = table.index(["Wash"])
        averageForce = table.index(["Force Avg"]); work = table.index(["Work"])
        maxForce = table.index(["Force Max"]); maxForceAngle = table.index(["Max Force Angle"])
    }

    /// The row's oarlock stroke (at time 0: the caller sets it), nil when every figure is `---`
    /// or blank. `power` is the row's, already read. A figure beyond its bound is unknown,
    /// counted in `bounds`.
    func stroke(_ row: CSVRow, power: Double?, _ bounds: inout PlausibleValues) throws -> OarlockStroke? {
        func number(_ k: Int?, _ name: String) throws -> Double? {
            guard let k else { return nil }
            return try row.number(k, name)
        }
        let catchAngle = bounds.oarAngle(try number(catchAngle, "Catch"))
        let finishAngle = bounds.oarAngle(try number(finishAngle, "Finish"))
        let slip = bounds.oarAngle(try number(slip, "Slip"))
        let wash = bounds.oarAngle(try number(wash, "Wash"))
        var effective: Double?
        if let c = catchAngle, let f = finishAngle, let s = slip, let w = wash { effective = f - c - s - w }
        let o = OarlockStroke(time: 0, power: power, catchAngle: catchAngle,
                              finishAngle: finishAngle, slip: slip, wash: wash, effectiveLength: effective,
                              averageForce: bounds.handleForce(try number(averageForce, "Force Avg")),
                              maxForce: bounds.handleForce(try number(maxForce, "Force Max")),
                              maxForceAngle: bounds.oarAngle(try number(maxForceAngle, "Max Force Angle")),
                              work: bounds.strokeWork(try number(work, "Work")))
        let figures = [o.power, o.catchAngle, o.finishAngle, o.slip, o.wash, o.averageForce, o.maxForce, o.maxForceAngle, o.work]
        return figures.contains { $0 != nil } ? o : nil
    }
}
