import OarlogCore

/// An instrumented oarlock's stroke in the session file (record kind `oarlock`, 0x08, minor
/// version 5; docs/SESSION_FORMAT.md): `f64 time`, `u16 present` (bit k set: figure k follows),
/// the present figures as `f64` in the order power, catch angle, finish angle, slip, wash,
/// effective length, average force, peak force, angle at the peak force, work, then
/// `string seat` (empty: the only oarlock). A reader that does not know the kind skips it.
extension RecordCoding {
    static func encodeOarlock(_ o: OarlockStroke, into w: inout ByteWriter) {
        let figures = [o.power, o.catchAngle, o.finishAngle, o.slip, o.wash, o.effectiveLength,
                       o.averageForce, o.maxForce, o.maxForceAngle, o.work]
        var present: UInt16 = 0
        for (k, v) in figures.enumerated() where v != nil { present |= 1 << UInt16(k) }
        w.f64(o.time)
        w.u16(present)
        for v in figures { if let v { w.f64(v) } }
        w.string(o.seat ?? "")
    }

    static func decodeOarlock(_ r: inout ByteReader) throws -> OarlockStroke {
        let time = try r.f64()
        let present = try r.u16()
        var figures = [Double?](repeating: nil, count: 10)
        for k in 0..<10 where present & (1 << UInt16(k)) != 0 { figures[k] = try r.f64() }
        let seat = try r.string()
        return OarlockStroke(time: time, seat: seat.isEmpty ? nil : seat, power: figures[0], catchAngle: figures[1],
                             finishAngle: figures[2], slip: figures[3], wash: figures[4], effectiveLength: figures[5],
                             averageForce: figures[6], maxForce: figures[7], maxForceAngle: figures[8], work: figures[9])
    }
}
