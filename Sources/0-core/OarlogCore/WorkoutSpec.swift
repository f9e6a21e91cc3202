/// A plan written the way rowers write it on a whiteboard, a Concept2 monitor or intervals.icu:
///
///     3x4:00/2:00r                    three 4-minute pieces, 2 minutes' rest between
///     8x500m/1:30r  2x2000m/5:00r     distance pieces
///     4:00,3:00,2:00,1:00/1:00r       a list of pieces, one rest between each
///     1x1000m   20:00                 one piece
///     3x10:00@20spm,22spm,24spm/2:00r a target per piece (a list of one applies to all)
///     8x500m@1:48-1:52@34-36spm/2:00r a split band and a rate band for every piece
///     4:00@24spm,3:00@26spm/1:00r     in a list, each piece has its own single targets
///
/// Times are `m:ss`, `h:mm:ss`, `90s` or `10min`; distances `500m` or `1.5km`; a rate target
/// ends in `spm`, a split target (per 500 m) is a time. Errors name the column (1-based) of the
/// character at fault, or of the last character of what lacks something.
public enum WorkoutSpec {
    public struct ParseError: Error, Equatable, CustomStringConvertible, Sendable {
        public var spec: String
        public var column: Int
        public var message: String
        public var description: String { "\(message) at column \(column)" }
        /// The spec with a caret under the column, for a terminal.
        public var pointer: String { spec + "\n" + String(repeating: " ", count: max(0, column - 1)) + "^" }
    }

    /// Reads a plan; its name is the spec as written (spaces removed).
    public static func parse(_ text: String) throws -> WorkoutPlan {
        var reader = Reader(Array(text.unicodeScalars.filter { $0 != " " && $0 != "\t" }))
        guard !reader.atEnd else { throw reader.error("a workout needs at least one piece, e.g. 3x4:00/2:00r", at: 0) }
        let pieces = try reader.pieces()
        var rest: Seconds?
        if reader.peek == "/" {
            reader.index += 1
            rest = try reader.rest()
        }
        if !reader.atEnd {
            throw reader.error("unexpected '\(reader.peek!)'", at: reader.index)
        }
        if pieces.count > 1 && rest == nil {
            throw reader.error("pieces need a rest between them, e.g. /2:00r", at: reader.chars.count)
        }
        var steps: [WorkoutStep] = []
        for (i, piece) in pieces.enumerated() {
            if i > 0, let rest { steps.append(WorkoutStep(kind: .rest, length: .time(rest))) }
            steps.append(WorkoutStep(kind: .work, length: piece.length, target: piece.target))
        }
        return WorkoutPlan(name: String(String.UnicodeScalarView(reader.chars)), steps: steps)
    }

    struct Piece { var length: WorkoutLength; var target: WorkoutTarget }

    struct Reader {
        let chars: [Unicode.Scalar]
        var index = 0
        init(_ chars: [Unicode.Scalar]) { self.chars = chars }

        var atEnd: Bool { index >= chars.count }
        var peek: Unicode.Scalar? { atEnd ? nil : chars[index] }
        var spec: String { String(String.UnicodeScalarView(chars)) }

        func error(_ message: String, at offset: Int) -> ParseError {
            ParseError(spec: spec, column: min(offset, max(chars.count - 1, 0)) + 1, message: message)
        }

        /// `N x LEN [@targets]*` or `LEN[@target]*(,LEN[@target]*)*`.
        mutating func pieces() throws -> [Piece] {
            let start = index
            if let count = repeatCount() {
                guard count >= 1 else { throw error("\(count) pieces: a workout has at least 1", at: start) }
                guard count <= WorkoutLimits.maximumPieces else {
                    throw error("\(count) pieces: a workout has at most \(WorkoutLimits.maximumPieces)", at: start)
                }
                let length = try pieceLength()
                var targets = [WorkoutTarget](repeating: .none, count: count)
                while peek == "@" {
                    index += 1
                    let listStart = index
                    var list = [try targetItem()]
                    while peek == "," {
                        index += 1
                        list.append(try targetItem())
                    }
                    guard list.count == 1 || list.count == count else {
                        throw error("\(list.count) targets for \(count) pieces: give 1 or \(count)", at: listStart)
                    }
                    for i in 0..<count { targets[i].merge(list[list.count == 1 ? 0 : i]) }
                }
                return targets.map { Piece(length: length, target: $0) }
            }
            var pieces: [Piece] = []
            repeat {
                if !pieces.isEmpty { index += 1 }
                let length = try pieceLength()
                var target = WorkoutTarget.none
                while peek == "@" {
                    index += 1
                    target.merge(try targetItem())
                }
                pieces.append(Piece(length: length, target: target))
                guard pieces.count <= WorkoutLimits.maximumPieces else {
                    throw error("more than \(WorkoutLimits.maximumPieces) pieces", at: index - 1)
                }
            } while peek == ","
            return pieces
        }

        /// `N x` at the start (x, X or ×), else nil with nothing consumed.
        mutating func repeatCount() -> Int? {
            var i = index
            var value = 0
            while i < chars.count, let d = digit(chars[i]) {
                value = min(value * 10 + d, 1_000_000)
                i += 1
            }
            guard i > index, i < chars.count, ["x", "X", "×"].contains(chars[i]) else { return nil }
            index = i + 1
            return value
        }

        /// A piece's time or distance.
        mutating func pieceLength() throws -> WorkoutLength {
            let start = index
            guard let (value, unit) = try quantity() else {
                throw error("expected a piece's time (4:00) or distance (500m)", at: start)
            }
            switch unit {
            case .metres:
                guard value >= WorkoutLimits.minimumStepDistance else {
                    throw error("a piece of \(format(value)) m: at least \(format(WorkoutLimits.minimumStepDistance)) m", at: start)
                }
                guard value <= WorkoutLimits.maximumStepDistance else {
                    throw error("a piece of \(format(value)) m: at most \(format(WorkoutLimits.maximumStepDistance)) m", at: start)
                }
                return .distance(value)
            case .seconds:
                try checkTime(value, what: "a piece", at: start)
                return .time(value)
            case .strokesPerMinute:
                throw error("a piece is a time or a distance; put a rate after @", at: start)
            }
        }

        mutating func rest() throws -> Seconds {
            let start = index
            guard let (value, unit) = try quantity(), unit == .seconds else {
                throw error("expected the rest's time, e.g. 2:00r", at: start)
            }
            guard peek == "r" || peek == "R" else { throw error("rest needs a trailing r", at: index - 1) }
            index += 1
            try checkTime(value, what: "a rest", at: start)
            return value
        }

        func checkTime(_ value: Seconds, what: String, at start: Int) throws {
            guard value >= WorkoutLimits.minimumStepTime else {
                throw error("\(what) of \(RowingFormat.duration(value)): at least \(format(WorkoutLimits.minimumStepTime)) s", at: start)
            }
            guard value <= WorkoutLimits.maximumStepTime else {
                throw error("\(what) of \(RowingFormat.duration(value)): at most \(RowingFormat.duration(WorkoutLimits.maximumStepTime))", at: start)
            }
        }

        /// `24spm`, `22-24spm`, `1:50`, `1:48-1:52`.
        mutating func targetItem() throws -> WorkoutTarget {
            let start = index
            guard let (low, unit) = try quantity() else { throw error("expected a target: 24spm, 22-24spm, 1:50 or 1:48-1:52", at: start) }
            var high = low
            if peek == "-" {
                index += 1
                let upperStart = index
                guard let (value, upperUnit) = try quantity() else { throw error("expected the band's upper end", at: upperStart) }
                guard upperUnit == unit else { throw error("a band's two ends must be of one kind", at: upperStart) }
                high = value
            }
            switch unit {
            case .strokesPerMinute:
                return try rateBand(low...max(low, high), from: start, to: index, ordered: low <= high)
            case .seconds:
                guard low <= high else { throw error("a band runs from low to high", at: start) }
                guard WorkoutLimits.splitRange.contains(low), WorkoutLimits.splitRange.contains(high) else {
                    throw error("a split target between \(RowingFormat.split(WorkoutLimits.splitRange.lowerBound)) and \(RowingFormat.split(WorkoutLimits.splitRange.upperBound)) per 500 m", at: start)
                }
                return WorkoutTarget(split: low...high)
            case .metres:
                throw error("a target is a rate (24spm) or a split (1:50)", at: start)
            }
        }

        func rateBand(_ band: ClosedRange<Double>, from start: Int, to end: Int, ordered: Bool) throws -> WorkoutTarget {
            guard ordered else { throw error("a band runs from low to high", at: start) }
            guard WorkoutLimits.strokeRateRange.contains(band.lowerBound), WorkoutLimits.strokeRateRange.contains(band.upperBound) else {
                throw error("a rate target between \(format(WorkoutLimits.strokeRateRange.lowerBound)) and \(format(WorkoutLimits.strokeRateRange.upperBound)) spm", at: start)
            }
            return WorkoutTarget(strokeRate: band)
        }

        enum Unit { case seconds, metres, strokesPerMinute }

        /// A number with its unit: `4:00`, `1:00:00`, `90s`, `10min`, `500m`, `1.5km`, `24spm`, or a
        /// bare number (taken as spm only when `spm` follows a band: `22-24spm` reads 22 first).
        mutating func quantity() throws -> (Double, Unit)? {
            let start = index
            guard let first = number() else { return nil }
            if peek == ":" {
                var parts = [first]
                while peek == ":" {
                    index += 1
                    guard let next = number() else { throw error("expected digits after ':'", at: index) }
                    guard next < 60 else { throw error("\(format(next)) is not a count of seconds or minutes under 60", at: index - 1) }
                    parts.append(next)
                }
                guard parts.count <= 3 else { throw error("a time is m:ss or h:mm:ss", at: start) }
                return (parts.reduce(0) { $0 * 60 + $1 }, .seconds)
            }
            if consume("spm") { return (first, .strokesPerMinute) }
            if consume("km") { return (first * 1000, .metres) }
            if consume("min") { return (first * 60, .seconds) }
            if consume("m") { return (first, .metres) }
            if consume("s") { return (first, .seconds) }
            if peek == "-" { return (first, .strokesPerMinute) }  // the low end of 22-24spm
            throw error("\(format(first)) needs a unit: m, km, s, min, spm, or write a time as m:ss", at: index - 1)
        }

        mutating func consume(_ word: String) -> Bool {
            let scalars = Array(word.unicodeScalars)
            guard index + scalars.count <= chars.count else { return false }
            for (k, s) in scalars.enumerated() where chars[index + k].properties.lowercaseMapping != String(s) { return false }
            index += scalars.count
            return true
        }

        mutating func number() -> Double? {
            let start = index
            var value = 0.0
            while let c = peek, let d = digit(c) {
                value = min(value * 10 + Double(d), 1e9)
                index += 1
            }
            if peek == ".", index + 1 < chars.count, digit(chars[index + 1]) != nil {
                index += 1
                var scale = 0.1
                while let c = peek, let d = digit(c) {
                    value += Double(d) * scale
                    scale /= 10
                    index += 1
                }
            }
            return index > start ? value : nil
        }

        func digit(_ c: Unicode.Scalar) -> Int? {
            c.value >= 48 && c.value <= 57 ? Int(c.value - 48) : nil
        }

        func format(_ value: Double) -> String {
            value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
        }
    }
}

extension WorkoutTarget {
    /// Adds another target's bands (a later `@` of the same kind replaces the earlier).
    mutating func merge(_ other: WorkoutTarget) {
        if let r = other.strokeRate { strokeRate = r }
        if let s = other.split { split = s }
    }
}
