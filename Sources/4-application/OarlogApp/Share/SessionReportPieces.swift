import OarlogCore
import OarlogWorkouts

/// The report's table of pieces, as the session page has them (SessionPieces): the intervals of
/// the plan rowed (with each target and the share rowed in its band, as `oarlog show` prints
/// them), else the course's legs, else the runs of rowing between rests.
extension SessionReport {
    var piecesTitle: String {
        switch pieces.kind {
        case .workout: "Intervals" + (pieces.plan.map { " — " + $0.name } ?? "")
        case .course: "Course legs"
        case .rests: "Pieces (rowing between rests)"
        }
    }

    func piecesSection() -> String {
        var out = "<section id=\"pieces\" data-kind=\"\(pieces.kind.rawValue)\"><h2>\(HTMLText.escape(piecesTitle))</h2>"
        guard !pieces.pieces.isEmpty else {
            return out + "<p class=\"nodata\">No piece of \(SessionPieces.minimumStrokes) strokes or more.</p></section>\n"
        }
        let workout = pieces.kind == .workout
        var head = ["", "Start", "Time", "Distance", "Split", "Rate", "Strokes", "m/stroke"]
        if workout { head.append("Target") }
        out += "<div class=\"scroll\"><table><thead><tr>" + head.map { "<th>\($0)</th>" }.joined() + "</tr></thead><tbody>"
        for p in pieces.pieces {
            out += "<tr" + (p.interval?.kind == .rest ? " class=\"rest\"" : "") + ">" + pieceCells(p, workout: workout) + "</tr>"
        }
        return out + "</tbody></table></div></section>\n"
    }

    func pieceCells(_ p: SessionPieces.Piece, workout: Bool) -> String {
        let perStroke: Double? = p.interval?.distancePerStroke
            ?? p.distance.flatMap { p.strokes > 0 ? $0 / Double(p.strokes) : nil }
        var label = p.label
        if let interval = p.interval {
            if let own = interval.label, !own.isEmpty { label += " (\(own))" }
            if !interval.completed { label += " (stopped)" }
        }
        var cells = [
            "<th scope=\"row\">\(HTMLText.escape(label))</th>",
            "<td>\(RowingFormat.duration(p.start))</td>",
            "<td>\(RowingFormat.duration(p.time))</td>",
            "<td>\(RowingFormat.distance(p.distance))</td>",
            "<td>\(RowingFormat.split(p.split))</td>",
            "<td>\(RowingFormat.decimal(p.rate))</td>",
            "<td>\(p.strokes)</td>",
            "<td>\(RowingFormat.decimal(perStroke, places: 2))</td>",
        ]
        if workout { cells.append("<td class=\"target\">\(HTMLText.escape(p.interval.map(IntervalTable.target) ?? RowingFormat.noData))</td>") }
        return cells.joined()
    }
}
