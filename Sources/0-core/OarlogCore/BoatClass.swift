/// A boat class as regattas name it — `1x`, `2x`, `2-`, `4x`, `4-`, `4+`, `8+` — with the
/// handicap factor that lets different boats share one leaderboard (docs/CHALLENGES.md).
///
/// **The factors** come from World Rowing's men's world best times over 2,000 m, the fastest each
/// class has been rowed on a recognised regatta course (as listed in Wikipedia's "List of world
/// best times in rowing", https://en.wikipedia.org/wiki/List_of_world_best_times_in_rowing, which
/// cites World Rowing; the eight's from World Rowing's report of the race,
/// https://worldrowing.com/2017/06/18/men-eight-final-127820):
///
/// | class | world best | set by, where, when | factor = 5:18.68 ÷ time |
/// |---|---|---|---|
/// | 1x | 6:30.74 | Robbie Manson (NZL), Poznań 2017 | 0.8156 |
/// | 2x | 5:59.72 | Martin and Valent Sinković (CRO), Amsterdam 2014 | 0.8859 |
/// | 2- | 6:08.50 | Hamish Bond, Eric Murray (NZL), Eton Dorney 2012 | 0.8648 |
/// | 4x | 5:32.03 | Netherlands, Tokyo 2021 | 0.9598 |
/// | 4- | 5:37.86 | Great Britain, Lucerne 2012 | 0.9432 |
/// | 4+ | 5:58.96 | Germany, Vienna 1991 | 0.8878 |
/// | 8+ | 5:18.68 | Germany, Poznań 2017 | 1 |
///
/// **Handicapped time = time × factor**: the time an eight would take rowing at the same share of
/// its class's world best (a single at 80 % of world-best speed and an eight at 80 % are equal).
/// The factor is a ratio of the best speeds, so a time is scaled onto the eight's clock by
/// multiplying; a challenge's target with a handicap is an eight's time. Each factor is worked out
/// here from the times (not typed in), so the table is the source.
public enum BoatClass: String, Sendable, CaseIterable, Equatable {
    case single = "1x"
    case double = "2x"
    case pair = "2-"
    case quad = "4x"
    case four = "4-"
    case coxedFour = "4+"
    case eight = "8+"

    /// The class every handicapped time is scaled to (factor 1): the eight, the fastest boat.
    public static let reference = BoatClass.eight

    /// The men's world best time over 2,000 m, seconds (the table above).
    public var worldBestSeconds: Seconds {
        switch self {
        case .single: return 6 * 60 + 30.74
        case .double: return 5 * 60 + 59.72
        case .pair: return 6 * 60 + 8.50
        case .quad: return 5 * 60 + 32.03
        case .four: return 5 * 60 + 37.86
        case .coxedFour: return 5 * 60 + 58.96
        case .eight: return 5 * 60 + 18.68
        }
    }

    /// The handicap factor: the reference's world best ÷ this class's (≤ 1).
    public var factor: Double { BoatClass.reference.worldBestSeconds / worldBestSeconds }

    /// A time in this class scaled onto the eight's clock: `time × factor`.
    public func handicapped(_ time: Seconds) -> Seconds { time * factor }

    /// The class a person wrote: `1x`, `2x`, `2-`, `4x`, `4-`, `4+`, `8+` (also with a leading
    /// category such as `M8+`, `W4x`, `LM2x`, `J18 1x` is two words), or a word: single, double,
    /// pair, quad, four (coxed four: 4+), eight. Nil for anything else.
    public init?(parsing text: String) {
        let words = BoatClass.words(text)
        if let found = BoatClass.find(in: words) { self = found } else { return nil }
    }

    /// The class a boat's name holds (`"M8+ Thames"` → 8+, `"W4x"` → 4x, `"Eight"` → 8+,
    /// `"Tom's single"` → 1x, `"coxed four"` → 4+); nil when the name holds none or two
    /// different ones. A class token is a word of letters then one of the seven codes
    /// (`M8+`, `LW2x`); a class word is one of single, sculler, double, pair, quad, four, eight,
    /// with `coxed` before four making it 4+ and `coxless` or `straight` 4-.
    public static func of(boatName name: String) -> BoatClass? {
        find(in: words(name))
    }

    private static func find(in words: [String]) -> BoatClass? {
        var found: BoatClass?
        for (k, word) in words.enumerated() {
            var c = code(word) ?? named(word)
            if c == .four, k > 0, words[k - 1] == "coxed" { c = .coxedFour }
            guard let c else { continue }
            if let found, found != c { return nil }
            found = c
        }
        return found
    }

    /// Lower-case words split at spaces and punctuation other than `+` and `-`.
    private static func words(_ text: String) -> [String] {
        text.lowercased().split(whereSeparator: { ch in
            !(ch.isLetter || ch.isNumber || ch == "+" || ch == "-")
        }).map(String.init)
    }

    private static func code(_ word: String) -> BoatClass? {
        // Letters first (a category: M, W, LM, J…), then the code itself.
        let code = String(word.drop(while: { $0.isLetter }))
        return BoatClass(rawValue: code)
    }

    private static func named(_ word: String) -> BoatClass? {
        switch word {
        case "single", "singles", "sculler": return .single
        case "double", "doubles": return .double
        case "pair", "pairs": return .pair
        case "quad", "quads": return .quad
        case "four", "fours": return .four
        case "eight", "eights": return .eight
        default: return nil
        }
    }
}
