import OarlogCore
import XCTest

/// The handicap table (docs/CHALLENGES.md): each factor is the eight's world best over the
/// class's, checked against the times as World Rowing lists them (typed here from the source,
/// not from the code), and the class read from boat names.
final class BoatClassTests: XCTestCase {
    /// World Rowing's men's world best times over 2,000 m, "m:ss.hh" as the source writes them.
    static let worldBests = ["1x": "6:30.74", "2x": "5:59.72", "2-": "6:08.50", "4x": "5:32.03", "4-": "5:37.86", "4+": "5:58.96", "8+": "5:18.68"]

    static func seconds(_ clock: String) -> Double {
        let parts = clock.split(separator: ":")
        return Double(parts[0])! * 60 + Double(parts[1])!
    }

    func testFactorsAreTheEightsWorldBestOverTheClasss() {
        XCTAssertEqual(BoatClass.allCases.map(\.rawValue), ["1x", "2x", "2-", "4x", "4-", "4+", "8+"])
        let eight = Self.seconds(Self.worldBests["8+"]!)
        for c in BoatClass.allCases {
            let best = Self.seconds(Self.worldBests[c.rawValue]!)
            XCTAssertEqual(c.worldBestSeconds, best, accuracy: 0.001, c.rawValue)
            XCTAssertEqual(c.factor, eight / best, accuracy: 1e-9, c.rawValue)
            // The world best of every class, handicapped, is the eight's: one leaderboard.
            XCTAssertEqual(c.handicapped(best), eight, accuracy: 1e-9, c.rawValue)
        }
        // The table's rounded factors (docs/CHALLENGES.md), to 4 places.
        let printed = ["1x": 0.8156, "2x": 0.8859, "2-": 0.8648, "4x": 0.9598, "4-": 0.9432, "4+": 0.8878, "8+": 1.0]
        for c in BoatClass.allCases { XCTAssertEqual(c.factor, printed[c.rawValue]!, accuracy: 0.00005, c.rawValue) }
        // A single's 10:08.3 on the eight's clock: 608.3 × 318.68 / 390.74.
        XCTAssertEqual(BoatClass.single.handicapped(608.3), 496.11, accuracy: 0.01)
    }

    func testTheClassIsReadFromTheBoatsName() {
        let cases: [(String, BoatClass?)] = [
            ("M8+ Thames", .eight), ("W4x", .quad), ("Eight", .eight), ("single", .single), ("Tom's single", .single),
            ("LM2x A", .double), ("2-", .pair), ("Women's coxed four", .coxedFour), ("straight four", .four), ("W4- Blue", .four),
            ("J18 1x", .single), ("the quad", .quad), ("Alpha", nil), ("4x+", nil), ("M2+", nil), ("8+ and 1x", nil), ("Pair of 2-", .pair),
            ("", nil), ("Old-Boys", nil), ("Eights", .eight),
        ]
        for (name, want) in cases { XCTAssertEqual(BoatClass.of(boatName: name), want, name) }
        XCTAssertEqual(BoatClass(parsing: "8+"), .eight)
        XCTAssertEqual(BoatClass(parsing: "quad"), .quad)
        XCTAssertNil(BoatClass(parsing: "canoe"))
    }
}
