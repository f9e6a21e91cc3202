import Foundation
import OarlogTestSupport
import XCTest

/// The small `oarlog` front (Sources/5-interfaces/oarlog): the top-level help and a plain replay
/// answered by itself, everything else by `oarlog-full` in the same process. What a person sees
/// must not depend on which of the two answered: each case runs both and compares them byte for byte.
final class FrontTests: XCTestCase {
    var dataDirectory: URL!

    override func setUp() {
        dataDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("oarlog-front-\(UUID().uuidString)")
    }

    override func tearDown() { try? FileManager.default.removeItem(at: dataDirectory) }

    private func both(_ arguments: [String]) throws -> (front: CommandRun, full: CommandRun) {
        let environment = ["OARLOG_DATA_DIR": dataDirectory.path]
        let root = TestPaths.packageRoot.path
        let front = try ChildProcess.run(try Binaries.oarlog(), arguments, in: root, environment: environment)
        let full = try ChildProcess.run(try Binaries.builtBinary(named: "oarlog-full"), arguments, in: root, environment: environment)
        return (front, full)
    }

    private func assertSame(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        let (front, full) = try both(arguments)
        XCTAssertEqual(front.status, full.status, "\(arguments): \(front.err)", file: file, line: line)
        XCTAssertEqual(front.out, full.out, "\(arguments): standard output differs", file: file, line: line)
        XCTAssertEqual(front.err, full.err, "\(arguments): standard error differs", file: file, line: line)
    }

    func testTheHelpIsTheFullProgramsHelp() throws {
        let (front, full) = try both(["--help"])
        XCTAssertEqual(front.status, 0)
        XCTAssertTrue(front.out.contains("SUBCOMMANDS:") && front.out.contains("replay"), front.out)
        XCTAssertEqual(front.out, full.out, "TopLevelHelp.text is out of date: copy `oarlog-full --help` (piped) into it")
        XCTAssertEqual(try both(["help"]).front.out, full.out)
        XCTAssertEqual(try both(["-h"]).front.out, full.out)
    }

    func testAPlainReplayPrintsWhatTheFullProgramPrints() throws {
        for trace in ["samples/sim-workout.csv", "samples/rowingdata/nk_logbook.csv", "samples/rowingdata/SpeedCoach2Link_interval.csv",
                      "samples/rowingdata/quiske_per_stroke_seat.csv", "Tests/OarlogTraceTests/Fixtures/talos-synthetic.txt"]
        where FileManager.default.fileExists(atPath: TestPaths.packageRoot.appendingPathComponent(trace).path) {
            try assertSame(["replay", trace, "--json", "--strokes"])
            try assertSame(["replay", trace])
            try assertSame(["replay", "--strokes", trace])
        }
        try assertSame(["replay", "samples/sim-workout.csv", "--format=native", "--json"])
    }

    func testWhatTheFrontDoesNotReadGoesToTheFullProgram() throws {
        // Options of the full replay, a second file, a bad format, a missing file, another command.
        try assertSame(["replay", "samples/sim-workout.csv", "--json", "--split-source", "receiver"])
        try assertSame(["replay", "samples/sim-workout.csv", "samples/sim-workout.csv"])
        try assertSame(["replay", "samples/sim-workout.csv", "--format", "nonsense"])
        try assertSame(["replay", "no-such-trace.csv", "--json"])
        try assertSame(["replay", "--help"])
        try assertSame(["sessions", "--json"])
        let bad = try both(["replay", "samples/sim-workout.csv", "--axis", "sideways"])
        XCTAssertEqual(bad.front.status, 64)
        XCTAssertTrue(bad.front.err.contains("--axis 'sideways'"), bad.front.err)
    }

    func testTheFrontReadsItsCommandLineNarrowly() throws {
        // ArgumentParser takes a repeated flag; the front leaves it (and its verdict) to the full program.
        try assertSame(["replay", "samples/sim-workout.csv", "--json", "--json"])
        try assertSame(["replay", "samples/sim-workout.csv", "--json", "--format"])
    }

    /// With the full program out of reach, the plain replay still runs (the front ran it itself)
    /// and prints the same; every other command says what is missing and exits 127.
    func testThePlainReplayNeedsNoFullProgram() throws {
        let root = TestPaths.packageRoot.path
        let away = ["OARLOG_DATA_DIR": dataDirectory.path, "OARLOG_FULL_PROGRAM": "/nonexistent/oarlog-full"]
        let alone = try ChildProcess.run(try Binaries.oarlog(), ["replay", "samples/sim-workout.csv", "--json", "--strokes"],
                                         in: root, environment: away)
        let (_, full) = try both(["replay", "samples/sim-workout.csv", "--json", "--strokes"])
        XCTAssertEqual(alone.status, 0, alone.err)
        XCTAssertEqual(alone.out, full.out)
        let help = try ChildProcess.run(try Binaries.oarlog(), ["--help"], in: root, environment: away.merging(["COLUMNS": "80"]) { $1 })
        let fullHelp = try ChildProcess.run(try Binaries.builtBinary(named: "oarlog-full"), ["--help"], in: root, environment: ["COLUMNS": "80"])
        XCTAssertEqual(help.status, 0, help.err)
        XCTAssertEqual(help.out, fullHelp.out)
        let other = try ChildProcess.run(try Binaries.oarlog(), ["sessions"], in: root, environment: away)
        XCTAssertEqual(other.status, 127)
        XCTAssertTrue(other.err.contains("cannot run /nonexistent/oarlog-full") && other.err.contains("plain replay"), other.err)
    }

    /// The front links none of Foundation, the device libraries, SQLite or the web server: what
    /// makes `oarlog --help` and a replay small (docs/BENCHMARKS.md). `readelf -d` lists what the
    /// dynamic loader maps for it.
    func testTheFrontLoadsNoneOfTheHeavyLibraries() throws {
        let run = try ChildProcess.run("/usr/bin/readelf", ["-d", try Binaries.oarlog()])
        XCTAssertEqual(run.status, 0, run.err)
        let needed = run.out.split(separator: "\n").filter { $0.contains("(NEEDED)") }
        XCTAssertFalse(needed.isEmpty, run.out)
        for heavy in ["Foundation", "libiio", "libgps", "libmosquitto", "libsqlite3", "libdbus", "libz.", "libssl", "libcrypto"] {
            XCTAssertFalse(needed.contains { $0.contains(heavy) }, "the front needs \(heavy): \(needed)")
        }
        let full = try ChildProcess.run("/usr/bin/readelf", ["-d", try Binaries.builtBinary(named: "oarlog-full")])
        XCTAssertTrue(full.out.contains("libiio"), "the check must be able to see a heavy library: \(full.out.prefix(400))")
    }
}
