import Foundation
import OarlogCore

/// One of the report's plots (split, stroke rate) as SVG against session time: the mean of each
/// bucket joined by a line, broken at rests (buckets without a stroke), with labelled grid lines.
/// The drawing is 1000 × 320 units; the SVG scales with its viewBox.
struct SessionReportPlot {
    static let width = 1_000.0
    static let height = 320.0
    /// The plot area inside the drawing (room on the left for the values, below for the times).
    static let left = 96.0, right = 16.0, top = 16.0, bottom = 44.0

    let series: PlotSeries
    let key: String
    let label: String
    /// Lower is better (a split): the axis runs upwards from slow to fast.
    let inverted: Bool
    /// How a value on the axis is written.
    let format: (Double) -> String
    /// The span the axis covers, when the data allows one.
    let span: ClosedRange<Double>?

    /// A split plot: 1:30 to 3:00 at most (a stop's split would flatten the rest), faster up.
    static func split(_ series: PlotSeries) -> SessionReportPlot {
        var span: ClosedRange<Double>?
        if let r = series.range {
            let (low, high) = (max(60, r.lowerBound), min(300, max(r.upperBound, r.lowerBound + 10)))
            if low < high { span = low...high }
        }
        return SessionReportPlot(series: series, key: "split", label: "Split /500m", inverted: true,
                                 format: { RowingFormat.split($0) }, span: span)
    }

    static func rate(_ series: PlotSeries) -> SessionReportPlot {
        let span = series.range.map { r in max(0, r.lowerBound - 2)...max(r.upperBound + 2, r.lowerBound + 4) }
        return SessionReportPlot(series: series, key: "rate", label: "Stroke rate (spm)", inverted: false,
                                 format: { DecimalText.fixed($0, places: 0, nonFinite: "—") }, span: span)
    }

    static func number(_ v: Double) -> String { DecimalText.fixed(v, places: 1, nonFinite: "0") }

    var plotWidth: Double { Self.width - Self.left - Self.right }
    var plotHeight: Double { Self.height - Self.top - Self.bottom }

    func x(_ time: Seconds) -> Double {
        Self.left + (series.duration > 0 ? time / series.duration : 0) * plotWidth
    }

    func y(_ value: Double, _ span: ClosedRange<Double>) -> Double {
        let share = (min(max(value, span.lowerBound), span.upperBound) - span.lowerBound) / (span.upperBound - span.lowerBound)
        return Self.top + (inverted ? share : 1 - share) * plotHeight
    }

    /// The SVG element, or a line saying there is no data.
    func svg() -> String {
        guard let span else { return "<p class=\"nodata\" data-plot=\"\(key)\">\(label): no data</p>" }
        var out = "<svg class=\"plot\" data-plot=\"\(key)\" viewBox=\"0 0 \(Int(Self.width)) \(Int(Self.height))\" role=\"img\" "
            + "aria-label=\"\(label) against time\" preserveAspectRatio=\"xMidYMid meet\">"
        out += valueGrid(span) + timeGrid()
        out += "<path class=\"line\" d=\"\(line(span))\"/>"
        return out + "</svg>"
    }

    /// The line through the bucket means, a new stroke of the pen after each gap.
    func line(_ span: ClosedRange<Double>) -> String {
        var d = ""
        var drawing = false
        let half = series.bucketSeconds / 2
        for p in series.points {
            guard let v = p.value else { drawing = false; continue }
            d += (drawing ? "L" : "M") + Self.number(x(p.time + half)) + " " + Self.number(y(v, span))
            drawing = true
        }
        return d
    }

    /// Four grid lines across, each labelled with its value.
    func valueGrid(_ span: ClosedRange<Double>) -> String {
        var out = "<g class=\"grid\">"
        for k in 0...3 {
            let v = span.lowerBound + Double(k) / 3 * (span.upperBound - span.lowerBound)
            let yy = Self.number(y(v, span))
            out += "<path d=\"M\(Self.number(Self.left)) \(yy)H\(Self.number(Self.width - Self.right))\"/>"
            out += "<text class=\"value\" x=\"\(Self.number(Self.left - 8))\" y=\"\(yy)\" dy=\"9\">\(format(v))</text>"
        }
        return out + "</g>"
    }

    /// Grid lines down at round times (every 1, 2, 5, 10, 15, 30 or 60 minutes: five or so).
    func timeGrid() -> String {
        let minutes = series.duration / 60
        let step = [0.5, 1, 2, 5, 10, 15, 30, 60].first { minutes / $0 <= 6 } ?? 120
        var out = "<g class=\"grid\">"
        var t = 0.0
        while t <= minutes + 1e-9 {
            let xx = Self.number(x(t * 60))
            out += "<path d=\"M\(xx) \(Self.number(Self.top))V\(Self.number(Self.top + plotHeight))\"/>"
            out += "<text class=\"time\" x=\"\(xx)\" y=\"\(Self.number(Self.height - 10))\">\(Self.clock(t * 60))</text>"
            t += step
        }
        return out + "</g>"
    }

    /// `25:00` or `1:05:00`.
    static func clock(_ seconds: Seconds) -> String {
        let s = Int(seconds.rounded())
        let (h, m, r) = (s / 3600, s / 60 % 60, s % 60)
        let mm = h > 0 ? DecimalText.zeroPadded(m, width: 2) : String(m)
        return (h > 0 ? "\(h):" : "") + mm + ":" + DecimalText.zeroPadded(r, width: 2)
    }
}
