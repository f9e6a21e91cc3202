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
    /// The values of the grid lines, lowest first: the axis spans the first to the last (none:
    /// no data).
    let ticks: [Double]
    var span: ClosedRange<Double>? {
        guard let low = ticks.first, let high = ticks.last, low < high else { return nil }
        return low...high
    }

    /// A split plot, faster up: the axis spans the middle 94% of the values (a stop's split would
    /// flatten the rest; values beyond are drawn at the edge), within 1:00 and 5:00, in round steps.
    static func split(_ series: PlotSeries) -> SessionReportPlot {
        let span = series.percentiles(0.03, 0.97).map { max(60, $0.lowerBound)...min(300, max($0.upperBound, $0.lowerBound + 10)) }
        let ticks = span.map { niceTicks($0, steps: [5, 10, 15, 30, 60]) } ?? []
        return SessionReportPlot(series: series, key: "split", label: "Split /500m", inverted: true,
                                 format: { clock($0) }, ticks: ticks)
    }

    static func rate(_ series: PlotSeries) -> SessionReportPlot {
        let span = series.percentiles(0.01, 0.99).map { max(0, $0.lowerBound - 1)...max($0.upperBound + 1, $0.lowerBound + 4) }
        let ticks = span.map { niceTicks($0, steps: [1, 2, 5, 10, 20]) } ?? []
        return SessionReportPlot(series: series, key: "rate", label: "Stroke rate (spm)", inverted: false,
                                 format: { DecimalText.fixed($0, places: 0, nonFinite: "—") }, ticks: ticks)
    }

    /// Round values from below `span` to above it, the smallest step of `steps` that needs five
    /// or fewer (empty when the span is not a span of finite values).
    static func niceTicks(_ span: ClosedRange<Double>, steps: [Double]) -> [Double] {
        guard span.lowerBound.isFinite, span.upperBound.isFinite else { return [] }
        func rounded(_ step: Double) -> (low: Double, high: Double) {
            let low = (span.lowerBound / step).rounded(.down) * step
            return (low, max(low + step, (span.upperBound / step).rounded(.up) * step))
        }
        let step = steps.first { let r = rounded($0); return (r.high - r.low) / $0 <= 4.5 } ?? steps.last ?? 1
        let (low, high) = rounded(step)
        return Swift.stride(from: low, through: high + step / 2, by: step).map { $0 }
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

    /// The line through the bucket means, a new stroke of the pen after a rest (no catch for
    /// `SessionPieces.restGap`, as the pieces are cut): empty buckets between strokes are joined.
    func line(_ span: ClosedRange<Double>) -> String {
        var d = ""
        var previous: Seconds?
        let half = series.bucketSeconds / 2
        for p in series.points {
            guard let v = p.value else { continue }
            let joined = previous.map { p.time - $0 <= SessionPieces.restGap + series.bucketSeconds } ?? false
            d += (joined ? "L" : "M") + Self.number(x(p.time + half)) + " " + Self.number(y(v, span))
            previous = p.time
        }
        return d
    }

    /// A grid line across at each tick, labelled with its value.
    func valueGrid(_ span: ClosedRange<Double>) -> String {
        var out = "<g class=\"grid\">"
        for v in ticks {
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

    /// `25:00` or `1:05:00` (whole seconds: a time axis, a split axis).
    static func clock(_ seconds: Seconds) -> String {
        let s = Int(seconds.rounded())
        let (h, m, r) = (s / 3600, s / 60 % 60, s % 60)
        let mm = h > 0 ? DecimalText.zeroPadded(m, width: 2) : String(m)
        return (h > 0 ? "\(h):" : "") + mm + ":" + DecimalText.zeroPadded(r, width: 2)
    }
}
