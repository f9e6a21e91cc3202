import OarlogCore
import OarlogDSP
import OarlogExport

/// Text made safe inside HTML, in an element's content or a quoted attribute: the exports' XML
/// escaping (`&apos;` is HTML5's too; control characters other than tab and line breaks dropped).
enum HTMLText {
    static func escape(_ text: String) -> String { ExportText.xmlEscaped(text) }
}

/// The report as one HTML page: a Content-Security-Policy that lets nothing be fetched, the
/// style inline, no script; one column on a phone, the figures in a grid, the drawings scaling
/// with their viewBox and the tables scrolling sideways.
extension SessionReport {
    /// The whole file.
    public func html() -> String {
        var out = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="generator" content="Oarlog">
            <title>\(HTMLText.escape(title)) — Oarlog</title>
            <style>\(Self.style)</style>
            </head>
            <body>
            <main>

            """
        out += header() + figuresSection() + trackSection() + plotsSection() + piecesSection() + notesSection()
        out += "<footer>Oarlog session \(HTMLText.escape(id)). Figures as <code>oarlog show</code> gives them; "
            + "\u{2014} means the session has no such data.</footer>\n</main>\n</body>\n</html>\n"
        return out
    }

    func header() -> String {
        var facts = [SessionText.date(metadata.startUTC) + " UTC"]
        if !metadata.boat.isEmpty { facts.append(metadata.boat) }
        if let course = fences?.course?.name, !course.isEmpty { facts.append("Course: " + course) }
        return "<header><h1 id=\"report-title\">\(HTMLText.escape(title))</h1>"
            + "<p class=\"when\">\(facts.map(HTMLText.escape).joined(separator: " · "))</p></header>\n"
    }

    /// The summary figures, "—" where the session has no such data (as `oarlog show`).
    var figureTiles: [(key: String, label: String, value: String, unit: String)] {
        let s = figures.summary
        let heart = s.averageHeartRate.map { RowingFormat.decimal($0, places: 0) } ?? RowingFormat.noData
        // The highest beside the label: "137 bpm (max 170)" does not fit a phone's tile.
        let maxHeart = s.maxHeartRate.map { " (max " + RowingFormat.decimal($0, places: 0) + ")" } ?? ""
        return [
            ("distance_m", "Distance", RowingFormat.distance(s.distance), ""),
            ("elapsed_s", "Time", RowingFormat.duration(s.elapsed), ""),
            ("split_s_per_500m", "Average split", RowingFormat.split(s.averageSplit), "/500m"),
            ("stroke_rate_spm", "Average rate", RowingFormat.decimal(s.averageStrokeRate), "spm"),
            ("strokes", "Strokes", figures.strokesKnown ? String(s.strokes) : RowingFormat.noData, ""),
            ("distance_per_stroke_m", "Distance per stroke", RowingFormat.decimal(s.distancePerStroke, places: 2), "m"),
            ("heart_rate_bpm", "Heart rate" + maxHeart, heart, heart == RowingFormat.noData ? "" : "bpm"),
            ("moving_time_s", "Moving time", RowingFormat.duration(s.movingTime), ""),
        ]
    }

    func figuresSection() -> String {
        var out = "<section class=\"figures\" id=\"figures\">"
        for tile in figureTiles {
            let unit = tile.value == RowingFormat.noData || tile.unit.isEmpty ? "" : " <small>\(HTMLText.escape(tile.unit))</small>"
            out += "<div class=\"figure\" data-key=\"\(tile.key)\"><div class=\"value\">\(HTMLText.escape(tile.value))\(unit)</div>"
                + "<div class=\"label\">\(tile.label)</div></div>"
        }
        return out + "</section>\n"
    }

    func trackSection() -> String {
        guard let drawing = SessionReportTrack(track: track, fences: fences) else {
            return "<section id=\"track\"><h2>Track</h2><p class=\"nodata\">No GPS track: the session has no position fixes.</p></section>\n"
        }
        return "<section id=\"track\"><h2>Track</h2>" + drawing.svg()
            + "<p class=\"caption\">\(trackFixes) fixes\(trackFixes > track.count ? ", \(track.count) drawn" : ""). "
            + "<span class=\"key start\">S</span> start, <span class=\"key finish\">F</span> finish"
            + (fences?.fences.isEmpty == false ? ", the course's gates in blue" : "") + ".</p></section>\n"
    }

    func plotsSection() -> String {
        "<section id=\"plots\"><h2>Split</h2>" + SessionReportPlot.split(split).svg()
            + "<h2>Stroke rate</h2>" + SessionReportPlot.rate(rate).svg() + "</section>\n"
    }

    func notesSection() -> String {
        guard !notes.isEmpty else { return "<section id=\"notes\"><h2>Notes</h2><p class=\"nodata\">No notes.</p></section>\n" }
        var out = "<section id=\"notes\"><h2>Notes</h2><ul class=\"notes\">"
        for n in notes {
            out += "<li><span class=\"at\">\(RowingFormat.duration(n.time))</span> \(HTMLText.escape(n.text))</li>"
        }
        return out + "</ul></section>\n"
    }
}
