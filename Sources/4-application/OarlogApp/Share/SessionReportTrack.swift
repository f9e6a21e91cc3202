import Foundation
import OarlogCore
import OarlogFences

/// The report's track: the trail drawn as an SVG path on a plain background (no map tiles: the
/// file fetches nothing), north up, with a start and a finish pin, the course's gates and the
/// areas recorded with the session, and a scale bar. The drawing is 1000 units wide; the SVG
/// scales with its viewBox.
struct SessionReportTrack {
    static let width = 1_000.0
    static let margin = 40.0

    /// Local metres east and north of a reference point (equirectangular: fine over a few km).
    struct Plane {
        let origin: GeoPoint
        let metresPerDegreeLongitude: Double
        static let metresPerDegreeLatitude = 111_132.0

        init(origin: GeoPoint) {
            self.origin = origin
            metresPerDegreeLongitude = 111_320 * cos(origin.latitude * .pi / 180)
        }

        func metres(_ latitude: Degrees, _ longitude: Degrees) -> (east: Double, north: Double) {
            ((longitude - origin.longitude) * metresPerDegreeLongitude, (latitude - origin.latitude) * Self.metresPerDegreeLatitude)
        }
    }

    let track: [SessionTrail.Point]
    let fences: [Fence]
    let plane: Plane
    /// The drawing's height (its width is `width`), and metres → drawing units.
    let height: Double
    let scale: Double
    let west: Double
    let north: Double

    init?(track: [SessionTrail.Point], fences: FenceFile?) {
        guard let first = track.first else { return nil }
        self.track = track
        self.fences = fences?.fences ?? []
        let plane = Plane(origin: GeoPoint(latitude: first.latitude, longitude: first.longitude))
        var points = track.map { plane.metres($0.latitude, $0.longitude) }
        // The gates count in the frame (a course's start and finish lines), not the areas: an
        // area may be a whole river.
        for fence in fences?.fences ?? [] {
            if case .gate(let line, _) = fence.shape { points += line.map { plane.metres($0.latitude, $0.longitude) } }
        }
        let east = points.map(\.east), northing = points.map(\.north)
        let spanEast = max(50, (east.max() ?? 0) - (east.min() ?? 0))
        let spanNorth = max(50, (northing.max() ?? 0) - (northing.min() ?? 0))
        let inner = Self.width - 2 * Self.margin
        // Tall tracks get a tall drawing, up to 1.2 times its width; flat ones at least 0.45.
        let height = min(1.2 * Self.width, max(0.45 * Self.width, inner * spanNorth / spanEast + 2 * Self.margin))
        let scale = min(inner / spanEast, (height - 2 * Self.margin) / spanNorth)
        self.plane = plane
        self.height = height
        self.scale = scale
        // Centred: the frame's west and north edges in metres.
        west = ((east.min() ?? 0) + (east.max() ?? 0)) / 2 - Self.width / 2 / scale
        north = ((northing.min() ?? 0) + (northing.max() ?? 0)) / 2 + height / 2 / scale
    }

    /// A point in drawing units (y down).
    func xy(_ latitude: Degrees, _ longitude: Degrees) -> (x: Double, y: Double) {
        let m = plane.metres(latitude, longitude)
        return ((m.east - west) * scale, (north - m.north) * scale)
    }

    static func number(_ v: Double) -> String { DecimalText.fixed(v, places: 1, nonFinite: "0") }

    func pair(_ p: (x: Double, y: Double)) -> String { Self.number(p.x) + " " + Self.number(p.y) }

    /// The SVG element.
    func svg() -> String {
        var out = "<svg class=\"track\" viewBox=\"0 0 \(Int(Self.width)) \(Int(height.rounded()))\" role=\"img\" "
            + "aria-label=\"The track, north up\" preserveAspectRatio=\"xMidYMid meet\">"
        out += "<rect class=\"water\" x=\"0\" y=\"0\" width=\"100%\" height=\"100%\"/>"
        out += fenceShapes()
        out += "<path class=\"route\" data-points=\"\(track.count)\" d=\"" + routePath() + "\"/>"
        out += gateLabels()
        if let start = track.first, let end = track.last {
            let s = xy(start.latitude, start.longitude), f = xy(end.latitude, end.longitude)
            // A round trip ends where it began: the finish pin stands aside, on a stem to its place.
            let apart = hypot(f.x - s.x, f.y - s.y) >= 44
            let shown = apart ? f : (x: f.x + (f.x > Self.width - 80 ? -44 : 44), y: f.y)
            if !apart { out += "<path class=\"stem\" d=\"M\(pair(f))L\(pair(shown))\"/>" }
            out += pin(shown, label: "F", kind: "finish", title: "Finish")
            out += pin(s, label: "S", kind: "start", title: "Start")
        }
        out += scaleBar() + northArrow()
        return out + "</svg>"
    }

    func routePath() -> String {
        var d = ""
        d.reserveCapacity(track.count * 13)
        for (i, p) in track.enumerated() {
            d += (i == 0 ? "M" : "L") + pair(xy(p.latitude, p.longitude))
        }
        return d
    }

    /// The gates as lines, the areas as outlines (a course's gates in its colour).
    func fenceShapes() -> String {
        var out = ""
        for fence in fences {
            switch fence.shape {
            case .gate(let line, _):
                let d = line.enumerated().map { ($0.offset == 0 ? "M" : "L") + pair(xy($0.element.latitude, $0.element.longitude)) }
                out += "<path class=\"gate\" d=\"\(d.joined())\"/>"
            case .circle(let centre, let radius):
                let c = xy(centre.latitude, centre.longitude)
                out += "<circle class=\"area\" cx=\"\(Self.number(c.x))\" cy=\"\(Self.number(c.y))\" r=\"\(Self.number(radius * scale))\"/>"
            case .polygon(let outer, _):
                let points = outer.map { pair(xy($0.latitude, $0.longitude)).replacingOccurrences(of: " ", with: ",") }
                out += "<polygon class=\"area\" points=\"\(points.joined(separator: " "))\"/>"
            }
        }
        return out
    }

    /// Each gate's name beside its middle, each area's beside its centre (a circle) or first corner.
    func gateLabels() -> String {
        var out = ""
        for fence in fences {
            let place: GeoPoint
            switch fence.shape {
            case .gate(let line, _) where !line.isEmpty: place = FenceFile.midpoint(of: line)
            case .circle(let centre, _): place = centre
            case .polygon(let outer, _) where !outer.isEmpty: place = outer[0]
            default: continue
            }
            let p = xy(place.latitude, place.longitude)
            out += "<text class=\"\(fence.isArea ? "area-label" : "gate-label")\" x=\"\(Self.number(p.x + 8))\" y=\"\(Self.number(p.y - 8))\">"
                + HTMLText.escape(fence.id.name) + "</text>"
        }
        return out
    }

    func pin(_ p: (x: Double, y: Double), label: String, kind: String, title: String) -> String {
        "<g class=\"pin \(kind)\"><title>\(title)</title><circle cx=\"\(Self.number(p.x))\" cy=\"\(Self.number(p.y))\" r=\"20\"/>"
            + "<text x=\"\(Self.number(p.x))\" y=\"\(Self.number(p.y + 8))\">\(label)</text></g>"
    }

    /// A bar of a round length (10, 20, 50, 100 … m) about a fifth of the drawing wide.
    func scaleBar() -> String {
        let target = Self.width / 5 / scale
        let magnitude = pow(10, floor(log10(max(target, 1))))
        let length = [1.0, 2, 5, 10].map { $0 * magnitude }.last { $0 <= target } ?? magnitude
        let x0 = Self.margin / 2, y = height - Self.margin / 2, x1 = x0 + length * scale
        let text = length >= 1_000 ? RowingFormat.decimal(length / 1_000, places: length < 10_000 ? 1 : 0) + " km"
            : DecimalText.fixed(length, places: 0, nonFinite: "0") + " m"
        return "<g class=\"scale\"><path d=\"M\(Self.number(x0)) \(Self.number(y - 8))V\(Self.number(y))H\(Self.number(x1))V\(Self.number(y - 8))\"/>"
            + "<text x=\"\(Self.number(x0 + 4))\" y=\"\(Self.number(y - 12))\">\(text)</text></g>"
    }

    func northArrow() -> String {
        let x = Self.width - Self.margin / 2 - 10, y = Self.margin / 2 + 4
        return "<g class=\"north\"><path d=\"M\(Self.number(x)) \(Self.number(y))l-10 28h20z\"/>"
            + "<text x=\"\(Self.number(x))\" y=\"\(Self.number(y + 56))\">N</text></g>"
    }
}
