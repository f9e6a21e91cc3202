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
/// Times are `m:ss`, `h:mm:ss` (two digits after each colon, tenths allowed: `1:48.5`), `90s` or
/// `10min`; distances `500m` or `1.5km`; a rate target ends in `spm`, a split target (per 500 m)
/// is a time. Spaces are ignored. A rest after a single piece (`1x1000m/5:00r`) rests before
/// nothing and is left out. Errors name the column (1-based, in the text as given) of the
/// character at fault, or of the last character of what lacks something. docs/WORKOUTS.md.
public enum WorkoutSpec {
    /// Longest plan read in this form (characters without spaces): 100 pieces with two bands each
    /// fit; anything longer belongs in the JSON form.
    public static let maximumLength = 4000

    public struct ParseError: Error, Equatable, CustomStringConvertible, Sendable {
        /// The plan as it was given.
        public var spec: String
        /// 1-based column in `spec` (Unicode scalars).
        public var column: Int
        public var message: String
        public var description: String { "\(message) at column \(column)" }
        /// The spec with a caret under the column, for a terminal (control characters escaped).
        public var pointer: String {
            let shown = String(String.UnicodeScalarView(spec.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : $0 }))
            return StoredText.escapedForTerminal(shown) + "\n" + String(repeating: " ", count: max(0, column - 1)) + "^"
        }
    }

    /// Reads a plan; its name is the spec as written (spaces removed).
    public static func parse(_ text: String) throws(ParseError) -> WorkoutPlan {
        var reader = Reader(text)
        guard !reader.atEnd else { throw reader.error("a workout needs at least one piece, e.g. 3x4:00/2:00r", at: 0) }
        guard reader.chars.count <= maximumLength else {
            throw reader.error("a plan of more than \(maximumLength) characters: write it in the JSON form", at: maximumLength)
        }
        let pieces = try reader.pieces()
        var rest: Seconds?
        if reader.peek == "/" {
            reader.index += 1
            rest = try reader.rest()
            if reader.peek == "," {
                throw reader.error("one rest serves every piece: write the pieces, then /REST r (4:00,3:00/1:00r)", at: reader.index)
            }
        }
        if let c = reader.peek {
            if reader.digit(c) != nil || c == ":" {
                throw reader.error("unexpected '\(c)': pieces are separated by ',' and the rest follows '/'", at: reader.index)
            }
            throw reader.error("unexpected \(Reader.shown(c))", at: reader.index)
        }
        if pieces.count > 1 && rest == nil {
            throw reader.error("pieces need a rest between them, e.g. /2:00r", at: reader.chars.count)
        }
        var steps: [WorkoutStep] = []
        for (i, piece) in pieces.enumerated() {
            if i > 0, let rest { steps.append(WorkoutStep(kind: .rest, length: .time(rest))) }
            steps.append(WorkoutStep(kind: .work, length: piece.length, target: piece.target))
        }
        return WorkoutPlan(name: reader.spec, steps: steps)
    }

    struct Piece { var length: WorkoutLength; var target: WorkoutTarget }

    struct Reader {
        /// The text without spaces, and each character's column in the text as given.
        let chars: [Unicode.Scalar]
        let columns: [Int]
        let original: String
        var index = 0

        init(_ text: String) {
            original = text
            var chars: [Unicode.Scalar] = [], columns: [Int] = []
            for (offset, c) in text.unicodeScalars.enumerated() where c != " " && c != "\t" {
                chars.append(c)
                columns.append(offset + 1)
            }
            self.chars = chars
            self.columns = columns
        }

        var atEnd: Bool { index >= chars.count }
        var peek: Unicode.Scalar? { atEnd ? nil : chars[index] }
        var spec: String { String(String.UnicodeScalarView(chars)) }

        /// The error at the character `offset` (of the text without spaces; past the end, the last).
        func error(_ message: String, at offset: Int) -> ParseError {
            let column = chars.isEmpty ? 1 : columns[min(max(offset, 0), chars.count - 1)]
            return ParseError(spec: original, column: column, message: message)
        }

        /// A character as a message quotes it: `'!'`, or `U+0007` for one that does not print.
        static func shown(_ c: Unicode.Scalar) -> String {
            switch c.properties.generalCategory {
            case .control, .format, .spaceSeparator, .lineSeparator, .paragraphSeparator, .unassigned, .privateUse, .surrogate,
                 .nonspacingMark, .enclosingMark, .spacingMark:
                var hex = String(c.value, radix: 16, uppercase: true)
                while hex.count < 4 { hex = "0" + hex }
                return "U+" + hex
            default:
                return "'\(c)'"
            }
        }

        /// `N x LEN [@targets]*` or `LEN[@target]*(,LEN[@target]*)*`.
        mutating func pieces() throws(ParseError) -> [Piece] {
            if let count = try repeatCount() {
                let length = try pieceLength()
                var targets = [WorkoutTarget](repeating: .none, count: count)
                while peek == "@" {
                    index += 1
                    let listStart = index
                    var list = [(try targetItem(), listStart)]
                    while peek == "," {
                        index += 1
                        let itemStart = index
                        list.append((try targetItem(), itemStart))
                    }
                    guard list.count == 1 || list.count == count else {
                        throw error("\(list.count) targets for \(count) pieces: give 1 or \(count)", at: listStart)
                    }
                    for i in 0..<count {
                        let (item, start) = list[list.count == 1 ? 0 : i]
                        try merge(item, into: &targets[i], at: start)
                    }
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
                    let start = index
                    try merge(try targetItem(), into: &target, at: start)
                }
                pieces.append(Piece(length: length, target: target))
                guard pieces.count <= WorkoutLimits.maximumPieces else {
                    throw error("more than \(WorkoutLimits.maximumPieces) pieces: a workout has at most \(WorkoutLimits.maximumPieces)", at: index - 1)
                }
            } while peek == ","
            return pieces
        }

        /// Adds an item's band to a piece's target; a second band of one kind is a mistake.
        func merge(_ item: WorkoutTarget, into target: inout WorkoutTarget, at start: Int) throws(ParseError) {
            if item.strokeRate != nil && target.strokeRate != nil { throw error("a second rate target for one piece", at: start) }
            if item.split != nil && target.split != nil { throw error("a second split target for one piece", at: start) }
            target.strokeRate = item.strokeRate ?? target.strokeRate
            target.split = item.split ?? target.split
        }

        /// `N x` at the start (x, X or ×), checked against the limits; else nil with nothing consumed.
        mutating func repeatCount() throws(ParseError) -> Int? {
            var i = index
            while i < chars.count, digit(chars[i]) != nil { i += 1 }
            guard i > index, i < chars.count, ["x", "X", "×"].contains(chars[i]) else { return nil }
            let digits = String(String.UnicodeScalarView(chars[index..<i].drop { $0 == "0" }))
            let start = index
            index = i + 1
            let count = digits.count > 6 ? Int.max : Int(digits) ?? 0
            guard count >= 1 else { throw error("0 pieces: a workout has at least 1", at: start) }
            guard count <= WorkoutLimits.maximumPieces else {
                let shown = digits.count > 12 ? "\(digits.prefix(12))…" : digits
                throw error("\(shown) pieces: a workout has at most \(WorkoutLimits.maximumPieces)", at: start)
            }
            return count
        }

        /// A piece's time or distance.
        mutating func pieceLength() throws(ParseError) -> WorkoutLength {
            let start = index
            guard let (value, unit) = try quantity() else {
                throw error("expected a piece's time (4:00) or distance (500m)", at: start)
            }
            switch unit {
            case .metres:
                guard value >= WorkoutLimits.minimumStepDistance else {
                    throw error("a piece of \(WorkoutText.number(value)) m: at least \(WorkoutText.number(WorkoutLimits.minimumStepDistance)) m", at: start)
                }
                guard value <= WorkoutLimits.maximumStepDistance else {
                    throw error("a piece of \(WorkoutText.number(value)) m: at most \(WorkoutText.number(WorkoutLimits.maximumStepDistance)) m", at: start)
                }
                return .distance(value)
            case .seconds:
                try checkTime(value, what: "a piece", at: start)
                return .time(value)
            case .strokesPerMinute:
                throw error("a piece is a time or a distance; put a rate after @", at: start)
            }
        }

        mutating func rest() throws(ParseError) -> Seconds {
            let start = index
            guard let (value, unit) = try quantity(), unit == .seconds else {
                throw error("expected the rest's time, e.g. 2:00r", at: start)
            }
            guard peek == "r" || peek == "R" else { throw error("rest needs a trailing r", at: index - 1) }
            index += 1
            try checkTime(value, what: "a rest", at: start)
            return value
        }

        func checkTime(_ value: Seconds, what: String, at start: Int) throws(ParseError) {
            guard value >= WorkoutLimits.minimumStepTime else {
                throw error("\(what) of \(WorkoutText.clock(value)): at least \(WorkoutText.number(WorkoutLimits.minimumStepTime)) s", at: start)
            }
            guard value <= WorkoutLimits.maximumStepTime else {
                throw error("\(what) of \(WorkoutText.clock(value)): at most \(WorkoutText.clock(WorkoutLimits.maximumStepTime))", at: start)
            }
        }

        /// `24spm`, `22-24spm`, `1:50`, `1:48-1:52`.
        mutating func targetItem() throws(ParseError) -> WorkoutTarget {
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
            guard low <= high else { throw error("a band runs from low to high", at: start) }
            switch unit {
            case .strokesPerMinute:
                let limits = WorkoutLimits.strokeRateRange
                guard limits.contains(low), limits.contains(high) else {
                    throw error("a rate target between \(WorkoutText.number(limits.lowerBound)) and \(WorkoutText.number(limits.upperBound)) spm", at: start)
                }
                return WorkoutTarget(strokeRate: low...high)
            case .seconds:
                let limits = WorkoutLimits.splitRange
                guard limits.contains(low), limits.contains(high) else {
                    throw error("a split target between \(WorkoutText.clock(limits.lowerBound)) and \(WorkoutText.clock(limits.upperBound)) per 500 m", at: start)
                }
                return WorkoutTarget(split: low...high)
            case .metres:
                throw error("a target is a rate (24spm) or a split (1:50)", at: start)
            }
        }

        enum Unit { case seconds, metres, strokesPerMinute }

        /// A number with its unit: `4:00`, `1:00:00`, `90s`, `10min`, `500m`, `1.5km`, `24spm`, or a
        /// bare number (taken as spm only when `spm` follows a band: `22-24spm` reads 22 first).
        mutating func quantity() throws(ParseError) -> (Double, Unit)? {
            let start = index
            guard let first = number() else { return nil }
            if peek == ":" {
                var parts = [first]
                while peek == ":" {
                    index += 1
                    parts.append(try clockField())
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
            if let c = peek, c.properties.isAlphabetic {
                let unitStart = index
                var word = ""
                while let c = peek, c.properties.isAlphabetic, word.unicodeScalars.count < 12 {
                    word.unicodeScalars.append(c)
                    index += 1
                }
                throw error("unknown unit '\(word)': use m, km, s, min or spm, or write a time as m:ss", at: unitStart)
            }
            throw error("\(WorkoutText.number(first)) needs a unit: m, km, s, min, spm, or write a time as m:ss", at: index - 1)
        }

        /// The minutes or seconds after a colon: two digits (tenths and beyond allowed), under 60.
        /// A digit after a space starts something else (`4:00 2:00r` lacks its `/`).
        mutating func clockField() throws(ParseError) -> Double {
            let start = index
            guard index + 1 < chars.count, let tens = digit(chars[index]), let units = digit(chars[index + 1]), adjacent(index) else {
                throw error("expected two digits after ':' (4:05, 1:00:00)", at: start)
            }
            index += 2
            if let c = peek, digit(c) != nil, adjacent(index - 1) { throw error("expected two digits after ':' (4:05, 1:00:00)", at: start) }
            let value = Double(tens * 10 + units)
            guard value < 60 else { throw error("\(tens)\(units) is not a count of seconds or minutes under 60", at: start) }
            return value + fraction()
        }

        /// Whether the character after `offset` followed it with no space between.
        func adjacent(_ offset: Int) -> Bool { offset + 1 < columns.count && columns[offset + 1] == columns[offset] + 1 }

        mutating func consume(_ word: String) -> Bool {
            let scalars = Array(word.unicodeScalars)
            guard index + scalars.count <= chars.count else { return false }
            for (k, s) in scalars.enumerated() where chars[index + k].properties.lowercaseMapping != String(s) { return false }
            index += scalars.count
            return true
        }

        /// The decimals of a number (`.5` of `1:48.5`, of `1.5km`), 0 when none follow.
        mutating func fraction() -> Double {
            guard peek == ".", index + 1 < chars.count, digit(chars[index + 1]) != nil else { return 0 }
            index += 1
            var value = 0.0, scale = 0.1
            while let c = peek, let d = digit(c) {
                value += Double(d) * scale
                scale /= 10
                index += 1
            }
            return value
        }

        mutating func number() -> Double? {
            let start = index
            var value = 0.0
            while let c = peek, let d = digit(c) {
                value = min(value * 10 + Double(d), 1e9)
                index += 1
            }
            guard index > start else { return nil }
            return value + fraction()
        }

        func digit(_ c: Unicode.Scalar) -> Int? {
            c.value >= 48 && c.value <= 57 ? Int(c.value - 48) : nil
        }
    }
}
