import OarlogCore

/// An NK LiNK Logbook stroke's EmPower oarlock figures, as the export's flat columns give them
/// (`power` W; `catchAngle`, `finishAngle`, `slip`, `wash`, `effectiveLength`,
/// `positionOfMaxForce` in degrees from the pin's perpendicular; `handleForceAvg`,
/// `maxHandleForce` in newtons; `realWorkPerStroke` in joules). Kept as Floats, NaN where
/// unknown, so that a long export's strokes stay small (44 bytes each).
struct NKOarlockFigures {
    var power: Float = .nan
    var catchAngle: Float = .nan, finishAngle: Float = .nan, slip: Float = .nan, wash: Float = .nan
    var effectiveLength: Float = .nan
    var averageForce: Float = .nan, maxForce: Float = .nan, maxForceAngle: Float = .nan
    var work: Float = .nan

    /// Where the header puts the oarlock's columns (any may be missing).
    struct Columns {
        let power: Int?, catchAngle: Int?, finishAngle: Int?, slip: Int?, wash: Int?, effectiveLength: Int?
        let averageForce: Int?, maxForce: Int?, maxForceAngle: Int?, work: Int?

        init(header: [String]) {
            func column(_ name: String) -> Int? { header.firstIndex(of: name) }
            power = column("power"); catchAngle = column("catchAngle"); finishAngle = column("finishAngle")
            slip = column("slip"); wash = column("wash"); effectiveLength = column("effectiveLength")
            averageForce = column("handleForceAvg"); maxForce = column("maxHandleForce")
            maxForceAngle = column("positionOfMaxForce"); work = column("realWorkPerStroke")
        }
    }

    init() {}

    /// The figures of a stroke row; blank is unknown, a figure beyond its bound is unknown and
    /// counted in `bounds`, text that is not a number is an error naming the field.
    init(_ row: CSVRow, _ c: Columns, _ bounds: inout PlausibleValues) throws {
        func number(_ k: Int?, _ name: String) throws -> Double? {
            guard let k else { return nil }
            return try row.number(k, name, unknownMarker: "")
        }
        func float(_ v: Double?) -> Float { v.map { Float($0) } ?? .nan }
        power = float(bounds.power(try number(c.power, "power")))
        catchAngle = float(bounds.oarAngle(try number(c.catchAngle, "catchAngle")))
        finishAngle = float(bounds.oarAngle(try number(c.finishAngle, "finishAngle")))
        slip = float(bounds.oarAngle(try number(c.slip, "slip")))
        wash = float(bounds.oarAngle(try number(c.wash, "wash")))
        effectiveLength = float(bounds.oarAngle(try number(c.effectiveLength, "effectiveLength")))
        averageForce = float(bounds.handleForce(try number(c.averageForce, "handleForceAvg")))
        maxForce = float(bounds.handleForce(try number(c.maxForce, "maxHandleForce")))
        maxForceAngle = float(bounds.oarAngle(try number(c.maxForceAngle, "positionOfMaxForce")))
        work = float(bounds.strokeWork(try number(c.work, "realWorkPerStroke")))
    }

    /// The oarlock's stroke at `time`; nil when the row gave none of its figures.
    func stroke(at time: Seconds) -> OarlockStroke? {
        let all = [power, catchAngle, finishAngle, slip, wash, effectiveLength, averageForce, maxForce, maxForceAngle, work]
        guard all.contains(where: { !$0.isNaN }) else { return nil }
        func value(_ f: Float) -> Double? { f.isNaN ? nil : Double(f) }
        return OarlockStroke(time: time, power: value(power), catchAngle: value(catchAngle),
                             finishAngle: value(finishAngle), slip: value(slip), wash: value(wash),
                             effectiveLength: value(effectiveLength), averageForce: value(averageForce),
                             maxForce: value(maxForce), maxForceAngle: value(maxForceAngle), work: value(work))
    }
}
