import OarlogAPI
import OarlogCore
import OarlogFences
import OarlogSession

/// The comparison as `oarlog compare --json` and `GET /api/compare` give it, and as the table.
extension SessionComparison {

    /// One JSON object: `segment_m` (null with a course), `course`, `a` and `b` (the session, its
    /// piece, its `interval` number when the session rowed a plan, start, and the compared
    /// stretch's time, distance, split, strokes and rate; with `trailPoints`, its `trail` for a
    /// map: `t_s` from the stretch's start, `lat_deg`, `lon_deg`, `distance_m`) and `segments` (each side's `elapsed_s`, `time_s`, `split_s_per_500m`,
    /// `strokes`, `rate_spm`; `gap_s`, B's elapsed minus A's; `a_gained_s`, B's segment time minus
    /// A's). Null where a side has no data.
    public func json(trailPoints: Int? = nil) -> String {
        var w = JSONWriter()
        w.beginObject()
        w.field("segment_m", segmentLength, places: 0)
        w.field("course", courseName)
        for (key, side) in [("a", a), ("b", b)] {
            w.beginObject(key: key)
            w.field("id", side.id)
            w.field("title", side.title)
            w.field("start_utc", SessionText.iso(side.startUTC))
            w.field("piece", side.piece)
            w.field("piece_label", side.pieceLabel)
            w.field("interval", side.interval)
            w.field("from_s", side.from, places: 2)
            w.field("to_s", side.to, places: 2)
            let total = side.total
            w.field("time_s", total.time, places: 2)
            w.field("distance_m", total.distance, places: 1)
            w.field("split_s_per_500m", total.split, places: 2)
            w.field("strokes", total.strokes)
            w.field("rate_spm", total.rate, places: 2)
            if let trailPoints {
                let chosen = SessionTrail.thinned(side.points, to: trailPoints)
                w.beginObject(key: "trail")
                w.field("points", chosen.count)
                let columns: [(String, (SessionTrail.Point) -> Double, Int)] = [
                    ("t_s", { $0.time - side.from }, 2), ("lat_deg", \.latitude, 7), ("lon_deg", \.longitude, 7), ("distance_m", \.distance, 1),
                ]
                for (name, value, places) in columns {
                    w.beginArray(key: name)
                    for p in chosen { w.element(value(p), places: places) }
                    w.endArray()
                }
                w.endObject()
            }
            w.endObject()
        }
        w.beginArray(key: "segments")
        for s in segments {
            w.beginObject()
            w.field("number", s.number)
            w.field("label", s.label)
            w.field("from_m", s.from, places: 1)
            w.field("to_m", s.to, places: 1)
            w.field("distance_m", s.distance, places: 1)
            w.field("partial", s.partial)
            for (key, leg) in [("a", s.a), ("b", s.b)] {
                w.beginObject(key: key)
                w.field("elapsed_s", leg.elapsed, places: 2)
                w.field("time_s", leg.time, places: 2)
                w.field("split_s_per_500m", leg.split, places: 2)
                w.field("strokes", leg.strokes)
                w.field("rate_spm", leg.rate, places: 2)
                w.endObject()
            }
            w.field("gap_s", s.gap, places: 2)
            w.field("a_gained_s", s.gained, places: 2)
            w.endObject()
        }
        w.endArray()
        w.endObject()
        return w.take()
    }

    /// Who is ahead and by how much: `A by 3.2 s`, `level`, or "—".
    public static func gapText(_ gap: Seconds?) -> String {
        guard let gap, gap.isFinite else { return RowingFormat.noData }
        let tenths = (abs(gap) * 10).rounded() / 10
        if tenths == 0 { return "level" }
        return (gap > 0 ? "A" : "B") + " by " + RowingFormat.decimal(tenths, places: 1) + " s"
    }

    /// Who gained in a segment and how much: `A +1.6 s`, `even`, or "—".
    public static func gainedText(_ gained: Seconds?) -> String {
        guard let gained, gained.isFinite else { return RowingFormat.noData }
        let tenths = (abs(gained) * 10).rounded() / 10
        if tenths == 0 { return "even" }
        return (gained > 0 ? "A" : "B") + " +" + RowingFormat.decimal(tenths, places: 1) + " s"
    }

    /// The two sides named, then one row per segment: each side's time at the segment's end,
    /// split, rate and strokes; the gap at its end and who gained in it.
    public func table() -> String {
        var out = ""
        for (name, side) in [("A", a), ("B", b)] {
            let total = side.total
            var line = "\(name)  \(side.id)  \(side.title)"
            if let k = side.piece {
                line += (side.interval == nil ? "  piece \(k)" : "  interval \(k)") + (side.pieceLabel.map { " (\($0))" } ?? "")
            }
            line += "  " + RowingFormat.duration(total.time) + "  " + RowingFormat.distance(total.distance)
                + "  " + RowingFormat.split(total.split) + " /500m  " + RowingFormat.decimal(total.rate, places: 1, unit: "spm")
            out += line + "\n"
        }
        out += courseName.map { "Course \($0): time at each gate, the leg's split, rate and strokes.\n" }
            ?? "Every \(RowingFormat.distance(segmentLength ?? 0)) of each side's own GPS distance.\n"
        out += "\n"
        var rows = [[courseName == nil ? "DISTANCE" : "LEG", "A TIME", "A SPLIT", "A RATE", "A STR", "B TIME", "B SPLIT", "B RATE", "B STR", "GAP", "IN LEG"]]
        for s in segments {
            var cells = [s.label + (s.partial ? " *" : "")]
            for leg in [s.a, s.b] {
                cells += [RowingFormat.duration(leg.elapsed), RowingFormat.split(leg.split), RowingFormat.decimal(leg.rate, places: 1),
                          leg.strokes.map(String.init) ?? RowingFormat.noData]
            }
            cells += [Self.gapText(s.gap), Self.gainedText(s.gained)]
            rows.append(cells)
        }
        out += TextTable.columns(rows, rightAligned: Set(1...10))
        if segments.contains(where: \.partial) {
            out += "* to the end of the shorter side (\(RowingFormat.distance(min(a.distance, b.distance))))\n"
        }
        return out
    }
}
