import OarlogCore

/// What makes a fence file fit to keep as a club's course (`oarlog courses add`): a start and a
/// finish (and any markers) whose lines do not cross one another, between `shortest` and
/// `longest` long. Also the course's geometry key and the test of two courses being the same
/// course (every gate's ends within `sameGateTolerance` of the other's, in the same order).
public enum CourseCheck {
    public static let shortest: Metres = 100
    public static let longest: Metres = 50_000
    /// Two gates whose ends are this close are the same gate.
    public static let sameGateTolerance: Metres = 10

    /// Why `file` cannot be kept as a course, in words; nil when it can.
    public static func problem(_ file: FenceFile) -> String? {
        guard let course = file.course else { return "it defines no course (no gate has a \"role\": start, marker or finish)" }
        let length = course.length
        if length < shortest {
            return "the course is \(DecimalText.fixed(length, places: 1, nonFinite: "nan")) m long: a course is at least \(Int(shortest)) m"
        }
        if length > longest {
            return "the course is \(DecimalText.fixed(length / 1000, places: 1, nonFinite: "nan")) km long: a course is at most \(Int(longest / 1000)) km"
        }
        let lines = gateLines(file)
        guard lines.count == course.gates.count else { return "a course gate is not a line" }
        let plane = LocalTangentPlane(origin: lines[0][0])
        let projected = lines.map { $0.map { p -> PlanePoint in let q = plane.project(p); return PlanePoint(east: q.east, north: q.north) } }
        for a in 0..<projected.count {
            for b in (a + 1)..<projected.count where touch(projected[a], projected[b]) {
                return "the gates \(course.gates[a].name) and \(course.gates[b].name) cross each other"
            }
        }
        return nil
    }

    /// Whether any segment of one polyline meets any segment of the other.
    static func touch(_ a: [PlanePoint], _ b: [PlanePoint]) -> Bool {
        for i in 1..<a.count {
            for j in 1..<b.count where PlaneGeometry.segmentsTouch(a[i - 1], a[i], b[j - 1], b[j]) { return true }
        }
        return false
    }

    /// The course's gate lines in course order (start, markers, finish): the one lookup of a
    /// course's gates by id (every course gate is a line of two points or more).
    public static func gateLines(_ file: FenceFile) -> [[GeoPoint]] {
        guard let course = file.course else { return [] }
        return course.gates.compactMap { id in
            guard let fence = file.fences.first(where: { $0.id == id }), case .gate(let line, _) = fence.shape, line.count >= 2 else { return nil }
            return line
        }
    }

    /// The middle of each course gate, in course order.
    public static func gateCentres(_ file: FenceFile) -> [GeoPoint] {
        gateLines(file).map(FenceFile.midpoint(of:))
    }

    /// The course's gates as fences, in the file's order: what a monitor of the course alone
    /// watches (areas and other gates cost it nothing).
    public static func gateFences(_ file: FenceFile) -> [Fence] {
        guard let course = file.course else { return [] }
        return file.fences.filter { course.gates.contains($0.id) }
    }

    /// True when both are the same course on the water: as many gates, each gate's ends within
    /// `sameGateTolerance` of the other's (either way round), in the same order.
    public static func sameGeometry(_ a: FenceFile, _ b: FenceFile) -> Bool {
        let la = gateLines(a), lb = gateLines(b)
        guard !la.isEmpty, la.count == lb.count else { return false }
        for (x, y) in zip(la, lb) {
            guard let x0 = x.first, let x1 = x.last, let y0 = y.first, let y1 = y.last else { return false }
            let straight = Geodesy.distance(from: x0, to: y0) <= sameGateTolerance && Geodesy.distance(from: x1, to: y1) <= sameGateTolerance
            let crossed = Geodesy.distance(from: x0, to: y1) <= sameGateTolerance && Geodesy.distance(from: x1, to: y0) <= sameGateTolerance
            if !straight && !crossed { return false }
        }
        return true
    }

    /// A key of the course's exact geometry and rules (gate ends, directions, distances): the
    /// archive keeps which sessions were searched for which course by it, so a course changed in
    /// any way is searched for again. FNV-1a over the gates' text, 16 hex digits.
    public static func key(_ file: FenceFile) -> String {
        guard let course = file.course else { return "" }
        var text = ""
        for (k, id) in course.gates.enumerated() {
            guard let fence = file.fences.first(where: { $0.id == id }), case .gate(let line, let direction) = fence.shape else { continue }
            for p in line { text += DecimalText.fixed(p.latitude, places: 7, nonFinite: "nan") + "," + DecimalText.fixed(p.longitude, places: 7, nonFinite: "nan") + ";" }
            if case .bearing(let b) = direction { text += "b" + DecimalText.fixed(b, places: 2, nonFinite: "nan") }
            text += "d" + DecimalText.fixed(course.distances[k], places: 1, nonFinite: "nan") + "|"
        }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
