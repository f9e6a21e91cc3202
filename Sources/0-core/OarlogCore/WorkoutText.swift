/// How a plan's figures are written: in the whiteboard form (`4:00`, `500m`, `22-24spm`, `1:48.5`)
/// and in the one-line summary a list shows (`3 × 4:00 / 2:00 rest`). Exact to the millisecond
/// and the millimetre, so a plan written out reads back to the same values.
public enum WorkoutText {
    /// `4:00`, `0:45`, `1:48.5`, `1:00:00`, `48:00:00`: minutes and seconds, hours when there are
    /// any; fractions of a second only when there are (to the millisecond).
    public static func clock(_ seconds: Seconds) -> String {
        guard seconds.isFinite, seconds >= 0, seconds < 1e12 else { return RowingFormat.noData }
        let ms = Int((seconds * 1000).rounded())
        let h = ms / 3_600_000, m = ms / 60_000 % 60, s = ms / 1000 % 60
        var text = h > 0 ? "\(h):" + DecimalText.zeroPadded(m, width: 2) : "\(m)"
        text += ":" + DecimalText.zeroPadded(s, width: 2)
        return text + fraction(ms % 1000)
    }

    /// `500`, `1500`, `20.5`: a number without trailing zeros (to three decimals).
    public static func number(_ value: Double) -> String {
        guard value.isFinite, abs(value) < 1e12 else { return RowingFormat.noData }
        let thousandths = Int((abs(value) * 1000).rounded())
        let sign = value < 0 && thousandths > 0 ? "-" : ""
        return sign + "\(thousandths / 1000)" + fraction(thousandths % 1000)
    }

    /// `.5`, `.25`, `.125` for thousandths (nothing for none).
    private static func fraction(_ thousandths: Int) -> String {
        guard thousandths > 0 else { return "" }
        var digits = DecimalText.zeroPadded(thousandths, width: 3)
        while digits.hasSuffix("0") { digits.removeLast() }
        return "." + digits
    }

    /// A step's length as the whiteboard form writes it: `4:00` or `500m`.
    public static func spec(_ length: WorkoutLength) -> String {
        switch length {
        case .time(let s): return clock(s)
        case .distance(let m): return number(m) + "m"
        }
    }

    /// A step's length as a person reads it: `4:00` or `500 m`.
    public static func human(_ length: WorkoutLength) -> String {
        switch length {
        case .time(let s): return clock(s)
        case .distance(let m): return number(m) + " m"
        }
    }

    /// `24spm`, `22-24spm`.
    public static func specRate(_ band: ClosedRange<StrokesPerMinute>) -> String {
        band.lowerBound == band.upperBound ? number(band.lowerBound) + "spm" : number(band.lowerBound) + "-" + number(band.upperBound) + "spm"
    }

    /// `1:50`, `1:48-1:52`.
    public static func specSplit(_ band: ClosedRange<SecondsPer500m>) -> String {
        band.lowerBound == band.upperBound ? clock(band.lowerBound) : clock(band.lowerBound) + "-" + clock(band.upperBound)
    }

    /// `24 spm`, `22–24 spm`.
    public static func humanRate(_ band: ClosedRange<StrokesPerMinute>) -> String {
        (band.lowerBound == band.upperBound ? number(band.lowerBound) : number(band.lowerBound) + "–" + number(band.upperBound)) + " spm"
    }

    /// `1:50 split`, `1:48–1:52 split` (per 500 m).
    public static func humanSplit(_ band: ClosedRange<SecondsPer500m>) -> String {
        (band.lowerBound == band.upperBound ? clock(band.lowerBound) : clock(band.lowerBound) + "–" + clock(band.upperBound)) + " split"
    }

    /// A target as a person reads it: `1:48–1:52 split, 34–36 spm` ("" for none).
    public static func human(_ target: WorkoutTarget) -> String {
        [target.split.map(humanSplit), target.strokeRate.map(humanRate)].compactMap { $0 }.joined(separator: ", ")
    }

    /// The kind of step as a person names it: piece, rest, warm-up, cool-down.
    public static func human(_ kind: WorkoutStep.Kind) -> String {
        switch kind {
        case .warmup: return "warm-up"
        case .work: return "piece"
        case .rest: return "rest"
        case .cooldown: return "cool-down"
        }
    }
}

extension WorkoutPlan {
    /// The plan's pieces and their one rest, when its steps are pieces with the same rest between
    /// each (no warm-up, cool-down or targets on rests; labels only when `labels`): the shape the
    /// whiteboard form writes.
    func regularShape(labels: Bool = false) -> (pieces: [WorkoutStep], rest: Seconds?)? {
        guard steps.first?.kind == .work, steps.last?.kind == .work else { return nil }
        var pieces: [WorkoutStep] = [], rest: Seconds?
        for (i, step) in steps.enumerated() {
            guard labels || step.label == nil else { return nil }
            if i % 2 == 0 {
                guard step.kind == .work else { return nil }
                pieces.append(step)
            } else {
                guard step.kind == .rest, step.target.isEmpty, let s = step.length.seconds, rest == nil || rest == s else { return nil }
                rest = s
            }
        }
        return (pieces, rest)
    }

    /// The plan in the whiteboard form (`3x4:00/2:00r`, `4:00@24spm,3:00@26spm/1:00r`), when it
    /// can be written so and reads back to the same steps; nil for one that needs the JSON form
    /// (warm-up, cool-down, labels, rests of different lengths).
    public var spec: String? {
        guard let (pieces, rest) = regularShape() else { return nil }
        let restText = rest.map { "/" + WorkoutText.clock($0) + "r" } ?? ""
        var text = Self.repeatSpec(pieces) ?? pieces.map { piece in
            WorkoutText.spec(piece.length) + (piece.target.strokeRate.map { "@" + WorkoutText.specRate($0) } ?? "")
                + (piece.target.split.map { "@" + WorkoutText.specSplit($0) } ?? "")
        }.joined(separator: ",")
        text += restText
        guard let read = try? WorkoutSpec.parse(text), read.steps == steps else { return nil }
        return text
    }

    /// `3x10:00@20spm,22spm,24spm`: pieces of one length whose rates (and splits) are all the same
    /// or all given; nil otherwise (and for a single piece, written as its length alone).
    private static func repeatSpec(_ pieces: [WorkoutStep]) -> String? {
        guard pieces.count > 1, pieces.allSatisfy({ $0.length == pieces[0].length }) else { return nil }
        /// `@24spm`, `@20spm,22spm,24spm`, "" for none; nil when only some pieces have one.
        func list<T: Equatable>(_ bands: [T?], _ text: (T) -> String) -> String? {
            if bands.allSatisfy({ $0 == bands[0] }) { return bands[0].map { "@" + text($0) } ?? "" }
            let given = bands.compactMap { $0 }
            guard given.count == bands.count else { return nil }
            return "@" + given.map(text).joined(separator: ",")
        }
        guard let rates = list(pieces.map(\.target.strokeRate), WorkoutText.specRate),
              let splits = list(pieces.map(\.target.split), WorkoutText.specSplit) else { return nil }
        return "\(pieces.count)x" + WorkoutText.spec(pieces[0].length) + rates + splits
    }

    /// One line for a list of plans: `3 × 4:00 / 2:00 rest`, `8 × 500 m at 1:50 split / 1:30 rest`,
    /// `3 × 10:00 at 20, 22, 24 spm / 2:00 rest`, `10:00 warm-up + 3 × 500 m / 1:30 rest + 10:00
    /// cool-down`, or `7 pieces in 15 steps` for a plan of no regular shape.
    public var summary: String {
        var core = steps[...]
        var before: [String] = [], after: [String] = []
        while let first = core.first, first.kind == .warmup {
            before.append(WorkoutText.human(first.length) + " warm-up")
            core = core.dropFirst()
        }
        while let last = core.last, last.kind == .cooldown {
            after.insert(WorkoutText.human(last.length) + " cool-down", at: 0)
            core = core.dropLast()
        }
        // A repeat of piece and rest ends with a rest: the same rest again says nothing new.
        if core.count >= 2, let last = core.last, last.kind == .rest, last.label == nil, last.target.isEmpty,
           core.count == 2 || core[core.index(core.endIndex, offsetBy: -3)] == last {
            core = core.dropLast()
        }
        let middle: String
        if let (pieces, rest) = WorkoutPlan(name: name, steps: Array(core)).regularShape(labels: true) {
            middle = Self.piecesSummary(pieces) + (rest.map { " / " + WorkoutText.clock($0) + " rest" } ?? "")
        } else {
            let pieces = core.filter { $0.kind == .work }.count
            middle = core.isEmpty ? "" : "\(pieces) \(pieces == 1 ? "piece" : "pieces") in \(core.count) steps"
        }
        return (before + (middle.isEmpty ? [] : [middle]) + after).joined(separator: " + ")
    }

    /// `3 × 4:00 at 24 spm`, `4:00, 3:00, 2:00`, `3 × 10:00 at 20, 22, 24 spm`.
    private static func piecesSummary(_ pieces: [WorkoutStep]) -> String {
        let sameLength = pieces.allSatisfy { $0.length == pieces[0].length }
        var text: String
        if pieces.count == 1 {
            text = WorkoutText.human(pieces[0].length)
        } else if sameLength {
            text = "\(pieces.count) × " + WorkoutText.human(pieces[0].length)
        } else if pieces.count <= 8 {
            text = pieces.map { WorkoutText.human($0.length) }.joined(separator: ", ")
        } else {
            text = "\(pieces.count) pieces"
        }
        let targets = pieces.map(\.target)
        if targets.allSatisfy({ $0 == targets[0] }) {
            if !targets[0].isEmpty { text += " at " + WorkoutText.human(targets[0]) }
        } else if targets.allSatisfy({ $0.split == nil && $0.strokeRate != nil }), pieces.count <= 8 {
            let rates = targets.map { $0.strokeRate! }
            let numbers = rates.map { WorkoutText.humanRate($0).replacingSuffix(" spm") }
            text += " at " + numbers.joined(separator: ", ") + " spm"
        } else {
            text += " at targets per piece"
        }
        return text
    }
}

extension String {
    /// The string without `suffix` at its end (unchanged when it does not end so).
    fileprivate func replacingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
