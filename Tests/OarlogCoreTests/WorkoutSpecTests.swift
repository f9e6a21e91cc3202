import OarlogCore
import XCTest

/// The whiteboard form (issue 25): every form the issue lists reads to the steps a coach means,
/// written out by hand here; each rejection names its limit and the column of the character at
/// fault; a plan written back (`spec`) reads to the same steps; the one-line summary.
final class WorkoutSpecTests: XCTestCase {
    private func work(_ length: WorkoutLength, rate: ClosedRange<Double>? = nil, split: ClosedRange<Double>? = nil) -> WorkoutStep {
        WorkoutStep(kind: .work, length: length, target: WorkoutTarget(strokeRate: rate, split: split))
    }

    private func rest(_ seconds: Double) -> WorkoutStep { WorkoutStep(kind: .rest, length: .time(seconds)) }

    private func steps(_ spec: String, file: StaticString = #filePath, line: UInt = #line) -> [WorkoutStep] {
        do { return try WorkoutSpec.parse(spec).steps } catch {
            XCTFail("\(spec): \(error)", file: file, line: line)
            return []
        }
    }

    /// The error `spec` gets (fails when it reads).
    private func rejection(_ spec: String, file: StaticString = #filePath, line: UInt = #line) -> WorkoutSpec.ParseError? {
        do {
            let plan = try WorkoutSpec.parse(spec)
            XCTFail("\(spec) read as \(plan.steps)", file: file, line: line)
            return nil
        } catch { return error }
    }

    // MARK: The forms of the issue

    func testRepeatsOfTimeAndDistance() {
        XCTAssertEqual(steps("3x4:00/2:00r"), [work(.time(240)), rest(120), work(.time(240)), rest(120), work(.time(240))])
        XCTAssertEqual(steps("8x500m/1:30r"), Array([work(.distance(500)), rest(90)].repeated(8).dropLast()))
        XCTAssertEqual(steps("2x2000m/5:00r"), [work(.distance(2000)), rest(300), work(.distance(2000))])
        let plan = try? WorkoutSpec.parse("8x500m/1:30r")
        XCTAssertEqual(plan?.pieceCount, 8)
        XCTAssertEqual(plan?.name, "8x500m/1:30r")
        XCTAssertEqual(plan?.pieceNumber(ofStep: 2), 2)
        XCTAssertNil(plan?.pieceNumber(ofStep: 1), "a rest is no piece")
    }

    func testAListOfPiecesWithOneRest() {
        XCTAssertEqual(steps("4:00,3:00,2:00,1:00/1:00r"),
                       [work(.time(240)), rest(60), work(.time(180)), rest(60), work(.time(120)), rest(60), work(.time(60))])
        XCTAssertEqual(steps("500m,1000m,500m/3:00r"), [work(.distance(500)), rest(180), work(.distance(1000)), rest(180), work(.distance(500))])
    }

    func testOnePiece() {
        XCTAssertEqual(steps("1x1000m"), [work(.distance(1000))])
        XCTAssertEqual(steps("20:00"), [work(.time(1200))])
        XCTAssertEqual(steps("1:00:00"), [work(.time(3600))])
        XCTAssertEqual(steps("1x1000m/5:00r"), [work(.distance(1000))], "a rest after a single piece rests before nothing")
    }

    func testTargets() {
        XCTAssertEqual(steps("20:00@24spm"), [work(.time(1200), rate: 24...24)])
        XCTAssertEqual(steps("20:00@22-24spm"), [work(.time(1200), rate: 22...24)])
        XCTAssertEqual(steps("1x2000m@1:50"), [work(.distance(2000), split: 110...110)])
        XCTAssertEqual(steps("1x2000m@1:48-1:52"), [work(.distance(2000), split: 108...112)])
        XCTAssertEqual(steps("3x10:00@20spm,22spm,24spm/2:00r"),
                       [work(.time(600), rate: 20...20), rest(120), work(.time(600), rate: 22...22), rest(120), work(.time(600), rate: 24...24)])
        let both = work(.distance(500), rate: 34...36, split: 108...112)
        XCTAssertEqual(steps("8x500m@1:48-1:52@34-36spm/2:00r"), Array([both, rest(120)].repeated(8).dropLast()))
        XCTAssertEqual(steps("4:00@24spm,3:00@26spm@1:45/1:00r"),
                       [work(.time(240), rate: 24...24), rest(60), work(.time(180), rate: 26...26, split: 105...105)])
        XCTAssertEqual(steps("2x5:00@1:50.5@20.5spm/1:00r").first, work(.time(300), rate: 20.5...20.5, split: 110.5...110.5))
        // A list of one kind and a single band of the other, mixed in one list.
        XCTAssertEqual(steps("2x5:00@24spm,1:50/1:00r"), [work(.time(300), rate: 24...24), rest(60), work(.time(300), split: 110...110)])
    }

    func testUnitsSpacesAndCase() {
        XCTAssertEqual(steps("3 x 4:00 / 2:00 r"), steps("3x4:00/2:00r"))
        XCTAssertEqual(steps("3X4:00/2:00R"), steps("3x4:00/2:00r"))
        XCTAssertEqual(steps("3×4:00/2:00r"), steps("3x4:00/2:00r"))
        XCTAssertEqual(steps("2x1.5km/90sr"), [work(.distance(1500)), rest(90), work(.distance(1500))])
        XCTAssertEqual(steps("2x10min/120sr"), [work(.time(600)), rest(120), work(.time(600))])
        XCTAssertEqual(steps("20:00@24SPM"), [work(.time(1200), rate: 24...24)])
        XCTAssertEqual((try? WorkoutSpec.parse(" 3 x 4:00 / 2:00r "))?.name, "3x4:00/2:00r", "the name is the spec without spaces")
    }

    // MARK: Rejections, each with its message and column

    func testARestWithoutItsR() {
        XCTAssertEqual(rejection("3x4:00/2:00")?.description, "rest needs a trailing r at column 11")
        // With spaces the column is still the one in the text as given: the last 0.
        XCTAssertEqual(rejection("3 x 4:00 / 2:00")?.column, 15)
        XCTAssertEqual(rejection("3x4:00/2:00")?.pointer, "3x4:00/2:00\n          ^")
    }

    func testPieceCountsOutsideTheLimits() {
        XCTAssertEqual(rejection("0x500m/1:00r")?.description, "0 pieces: a workout has at least 1 at column 1")
        XCTAssertEqual(rejection("10000x500m/1:30r")?.description, "10000 pieces: a workout has at most \(WorkoutLimits.maximumPieces) at column 1")
        XCTAssertEqual(rejection("101x500m/1:30r")?.description, "101 pieces: a workout has at most 100 at column 1")
        XCTAssertEqual(rejection("99999999999999999999x500m/1:30r")?.message, "999999999999… pieces: a workout has at most 100")
        XCTAssertNoThrow(try WorkoutSpec.parse("100x100m/0:30r"))
        let list = Array(repeating: "1:00", count: 101).joined(separator: ",") + "/1:00r"
        let tooLong = rejection(list)
        XCTAssertEqual(tooLong?.message, "more than 100 pieces: a workout has at most 100")
        XCTAssertEqual(tooLong?.column, 100 * 5 + 4, "the 101st piece's last character")
    }

    func testTimesAndDistancesOutsideTheLimits() {
        XCTAssertEqual(rejection("48:00:00")?.description, "a piece of 48:00:00: at most 4:00:00 at column 1")
        XCTAssertEqual(rejection("3x4:00/5:00:00r")?.description, "a rest of 5:00:00: at most 4:00:00 at column 8")
        XCTAssertNoThrow(try WorkoutSpec.parse("4:00:00"))
        XCTAssertEqual(rejection("2x0:00/1:00r")?.description, "a piece of 0:00: at least 1 s at column 3")
        XCTAssertEqual(rejection("2x4:00/0:00r")?.description, "a rest of 0:00: at least 1 s at column 8")
        XCTAssertEqual(rejection("2x5m/1:00r")?.description, "a piece of 5 m: at least 10 m at column 3")
        XCTAssertEqual(rejection("60km")?.description, "a piece of 60000 m: at most 50000 m at column 1")
        XCTAssertEqual(rejection("4:60")?.description, "60 is not a count of seconds or minutes under 60 at column 3")
        XCTAssertEqual(rejection("4:5")?.description, "expected two digits after ':' (4:05, 1:00:00) at column 3")
        XCTAssertEqual(rejection("1:00:00:00")?.description, "a time is m:ss or h:mm:ss at column 1")
    }

    func testUnknownUnitsAndNumbersWithoutOne() {
        XCTAssertEqual(rejection("8x500yd/1:30r")?.description, "unknown unit 'yd': use m, km, s, min or spm, or write a time as m:ss at column 6")
        XCTAssertEqual(rejection("20:00@24bpm")?.description, "unknown unit 'bpm': use m, km, s, min or spm, or write a time as m:ss at column 9")
        XCTAssertEqual(rejection("3x500/1:00r")?.description, "500 needs a unit: m, km, s, min, spm, or write a time as m:ss at column 5")
        XCTAssertEqual(rejection("20:00@24")?.description, "24 needs a unit: m, km, s, min, spm, or write a time as m:ss at column 8")
        XCTAssertEqual(rejection("3x24spm/1:00r")?.description, "a piece is a time or a distance; put a rate after @ at column 3")
        XCTAssertEqual(rejection("20:00@500m")?.description, "a target is a rate (24spm) or a split (1:50) at column 7")
    }

    func testBadBands() {
        XCTAssertEqual(rejection("20:00@24-22spm")?.description, "a band runs from low to high at column 7")
        XCTAssertEqual(rejection("20:00@1:52-1:48")?.description, "a band runs from low to high at column 7")
        XCTAssertEqual(rejection("20:00@22-1:50")?.description, "a band's two ends must be of one kind at column 10")
        XCTAssertEqual(rejection("20:00@22-spm")?.description, "expected the band's upper end at column 10")
        XCTAssertEqual(rejection("20:00@5spm")?.description, "a rate target between 10 and 60 spm at column 7")
        XCTAssertEqual(rejection("20:00@58-65spm")?.description, "a rate target between 10 and 60 spm at column 7")
        XCTAssertEqual(rejection("20:00@0:50")?.description, "a split target between 1:00 and 10:00 per 500 m at column 7")
        XCTAssertEqual(rejection("20:00@24spm@26spm")?.description, "a second rate target for one piece at column 13")
        XCTAssertEqual(rejection("20:00@1:50@1:52")?.description, "a second split target for one piece at column 12")
        XCTAssertEqual(rejection("20:00@")?.description, "expected a target: 24spm, 22-24spm, 1:50 or 1:48-1:52 at column 6")
    }

    func testTheWrongNumberOfTargets() {
        XCTAssertEqual(rejection("3x10:00@20spm,22spm/2:00r")?.description, "2 targets for 3 pieces: give 1 or 3 at column 9")
        XCTAssertEqual(rejection("2x10:00@20spm,22spm,24spm/2:00r")?.description, "3 targets for 2 pieces: give 1 or 2 at column 9")
    }

    func testEmptyAndGarbage() {
        XCTAssertEqual(rejection("")?.description, "a workout needs at least one piece, e.g. 3x4:00/2:00r at column 1")
        XCTAssertEqual(rejection("   ")?.description, "a workout needs at least one piece, e.g. 3x4:00/2:00r at column 1")
        XCTAssertEqual(rejection("hello")?.description, "expected a piece's time (4:00) or distance (500m) at column 1")
        XCTAssertEqual(rejection("3x4:00/2:00r!!")?.description, "unexpected '!' at column 13")
        XCTAssertEqual(rejection("3x4:00/2:00r\u{1B}[2J")?.description, "unexpected U+001B at column 13", "a control character is named, not printed")
        XCTAssertEqual(rejection("3x4:00/2:00r\u{202E}")?.description, "unexpected U+202E at column 13")
        XCTAssertEqual(rejection("3x4:00 2:00r")?.description, "unexpected '2': pieces are separated by ',' and the rest follows '/' at column 8")
        XCTAssertEqual(rejection("4:00,3:00")?.description, "pieces need a rest between them, e.g. /2:00r at column 9")
        XCTAssertEqual(rejection("4:00/1:00r,3:00/1:00r")?.description,
                       "one rest serves every piece: write the pieces, then /REST r (4:00,3:00/1:00r) at column 11")
        XCTAssertEqual(rejection("3x/2:00r")?.description, "expected a piece's time (4:00) or distance (500m) at column 3")
        XCTAssertEqual(rejection("3x4:00/r")?.description, "expected the rest's time, e.g. 2:00r at column 8")
        XCTAssertEqual(rejection("3x4:00/500mr")?.description, "expected the rest's time, e.g. 2:00r at column 8")
        let long = String(repeating: "4:00,", count: 900)
        XCTAssertEqual(rejection(long)?.description, "a plan of more than \(WorkoutSpec.maximumLength) characters: write it in the JSON form at column 4001")
    }

    /// Every text of a few characters from the grammar's alphabet reads or is refused with a
    /// column inside the text: nothing traps.
    func testEveryShortTextReadsOrIsRefusedInside() {
        let alphabet: [Character] = ["3", "x", "4", ":", "0", "/", "r", "m", "@", "-", ",", "s", "p", ".", " "]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let text = String((0..<Int.random(in: 1...12, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
            do {
                let plan = try WorkoutSpec.parse(text)
                XCTAssertFalse(plan.steps.isEmpty, text)
                XCTAssertLessThanOrEqual(plan.steps.count, WorkoutLimits.maximumSteps, text)
            } catch {
                XCTAssertTrue((1...text.unicodeScalars.count).contains(error.column), "\(text): \(error)")
            }
        }
    }

    // MARK: Written back

    func testTheWhiteboardFormWrittenBack() throws {
        let canonical = ["3x4:00/2:00r", "8x500m/1:30r", "2x2000m/5:00r", "4:00,3:00,2:00,1:00/1:00r", "1000m", "20:00",
                         "20:00@24spm", "20:00@22-24spm", "2000m@1:50", "2000m@1:48-1:52", "3x10:00@20spm,22spm,24spm/2:00r",
                         "8x500m@34-36spm@1:48-1:52/2:00r", "4:00@24spm,3:00@26spm@1:45/1:00r", "2x5:00@20.5spm@1:50.5/0:45r",
                         "1:00:00", "2x1500m/1:30r"]
        for spec in canonical {
            let plan = try WorkoutSpec.parse(spec)
            XCTAssertEqual(plan.spec, spec, "\(spec) is already in the canonical form")
        }
        // Other ways of writing a plan come back canonical, to the same steps.
        let written = ["1x1000m": "1000m", "3 X 4:00 / 2:00 R": "3x4:00/2:00r", "2x1.5km/90sr": "2x1500m/1:30r",
                       "8x500m@1:48-1:52@34-36spm/2:00r": "8x500m@34-36spm@1:48-1:52/2:00r", "2x10min/120sr": "2x10:00/2:00r",
                       "2x5:00@24spm,1:50/1:00r": "5:00@24spm,5:00@1:50/1:00r"]
        for (given, canonical) in written {
            XCTAssertEqual(try WorkoutSpec.parse(given).spec, canonical, given)
        }
    }

    func testPlansTheWhiteboardCannotWrite() {
        let warm = WorkoutStep(kind: .warmup, length: .time(600))
        XCTAssertNil(WorkoutPlan(name: "w", steps: [warm, work(.time(240))]).spec)
        XCTAssertNil(WorkoutPlan(name: "r", steps: [work(.time(240)), rest(60), work(.time(240)), rest(90), work(.time(240))]).spec)
        XCTAssertNil(WorkoutPlan(name: "l", steps: [WorkoutStep(kind: .work, length: .time(240), label: "race pace")]).spec)
        XCTAssertNil(WorkoutPlan(name: "end", steps: [work(.time(240)), rest(60)]).spec)
        XCTAssertNil(WorkoutPlan(name: "long", steps: [work(.time(5 * 3600))]).spec, "out of the limits: it would not read back")
    }

    func testSummaries() throws {
        XCTAssertEqual(try WorkoutSpec.parse("3x4:00/2:00r").summary, "3 × 4:00 / 2:00 rest")
        XCTAssertEqual(try WorkoutSpec.parse("8x500m/1:30r").summary, "8 × 500 m / 1:30 rest")
        XCTAssertEqual(try WorkoutSpec.parse("4:00,3:00,2:00,1:00/1:00r").summary, "4:00, 3:00, 2:00, 1:00 / 1:00 rest")
        XCTAssertEqual(try WorkoutSpec.parse("1x1000m").summary, "1000 m")
        XCTAssertEqual(try WorkoutSpec.parse("20:00@22-24spm").summary, "20:00 at 22–24 spm")
        XCTAssertEqual(try WorkoutSpec.parse("3x10:00@20spm,22spm,24spm/2:00r").summary, "3 × 10:00 at 20, 22, 24 spm / 2:00 rest")
        XCTAssertEqual(try WorkoutSpec.parse("8x500m@1:48-1:52@34-36spm/2:00r").summary, "8 × 500 m at 1:48–1:52 split, 34–36 spm / 2:00 rest")
        XCTAssertEqual(try WorkoutSpec.parse("2x5:00@24spm,1:50/1:00r").summary, "2 × 5:00 at targets per piece / 1:00 rest")
        let pyramid = WorkoutPlan(name: "Saturday pyramid", steps: [WorkoutStep(kind: .warmup, length: .time(600))]
            + Array([work(.distance(500), rate: 22...24), rest(90)].repeated(3)) + [WorkoutStep(kind: .cooldown, length: .time(600))])
        XCTAssertEqual(pyramid.summary, "10:00 warm-up + 3 × 500 m at 22–24 spm / 1:30 rest + 10:00 cool-down")
        var labelled = pyramid
        labelled.steps[1].label = "race pace"
        XCTAssertEqual(labelled.summary, pyramid.summary, "a label does not change the shape")
        let odd = WorkoutPlan(name: "odd", steps: [work(.time(60)), rest(30), work(.time(60)), rest(60), work(.time(60))])
        XCTAssertEqual(odd.summary, "3 pieces in 5 steps")
    }

    func testTextOfFigures() {
        XCTAssertEqual(WorkoutText.clock(45), "0:45")
        XCTAssertEqual(WorkoutText.clock(108.5), "1:48.5")
        XCTAssertEqual(WorkoutText.clock(108.1), "1:48.1")
        XCTAssertEqual(WorkoutText.clock(3600), "1:00:00")
        XCTAssertEqual(WorkoutText.clock(172_800), "48:00:00")
        XCTAssertEqual(WorkoutText.number(1500), "1500")
        XCTAssertEqual(WorkoutText.number(20.25), "20.25")
        XCTAssertEqual(WorkoutText.number(.nan), "—")
    }
}

extension Array {
    /// The elements `count` times over.
    fileprivate func repeated(_ count: Int) -> [Element] { (0..<count).flatMap { _ in self } }
}
