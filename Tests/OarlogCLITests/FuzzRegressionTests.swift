import Foundation
import OarlogTestSupport
import XCTest

/// Every input the fuzzers found a crash with (`Fuzz/regressions/TARGET/`, see docs/FUZZING.md),
/// given to the command a person would run on it: it must end with a result or a clear error
/// that names the file, never a trap (exit 132/134) or a signal.
final class FuzzRegressionTests: XCTestCase {
    var dataDirectory: URL!

    override func setUp() {
        dataDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("oarlog-fuzz-regressions-\(UUID().uuidString)")
    }

    override func tearDown() { try? FileManager.default.removeItem(at: dataDirectory) }

    /// The command each fuzz target stands for.
    func arguments(target: String, file: String) -> [String]? {
        switch target {
        case "native", "speedcoach", "nk-logbook", "talos", "quiske", "speedcoach-v1", "boatcoach", "coxmate", "tcx", "gpx", "fit":
            return ["replay", file, "--format", target, "--any-sport", "--json", "--strokes"]
        case "fences": return ["fences", "check", file]
        case "session": return ["show", file, "--json", "--strokes"]
        case "recovery": return ["recover", file]
        default: return nil
        }
    }

    func testEveryFuzzFindingEndsInAResultOrAClearError() throws {
        let root = TestPaths.packageRoot.appendingPathComponent("Fuzz/regressions")
        let fm = FileManager.default
        var checked = 0
        // A broker message has no command that reads it from a file: OarlogFleetTests checks those.
        for target in try fm.contentsOfDirectory(atPath: root.path).sorted() where target != "fleet-message" {
            let directory = root.appendingPathComponent(target)
            for name in try fm.contentsOfDirectory(atPath: directory.path).sorted() {
                let file = directory.appendingPathComponent(name).path
                let args = try XCTUnwrap(arguments(target: target, file: file), "Fuzz/regressions/\(target): no command known for this target")
                let run = try runOarlog(args, dataDirectory: dataDirectory.path)
                // 0: a result; 1: an error; 3: `recover` found damage. Anything else is a crash.
                XCTAssertTrue([0, 1, 3].contains(run.status), "\(target)/\(name): exit \(run.status)\n\(run.err.suffix(2000))")
                if run.status == 1 {
                    XCTAssertTrue(run.err.contains(name), "\(target)/\(name): the error does not name the file: \(run.err)")
                }
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 0, "Fuzz/regressions holds no inputs")
    }

    /// The first finding: a Quiske export whose columns come in another order, with a row that
    /// stops before the last column read (it trapped on an index out of range).
    func testQuiskeRowShorterThanItsColumnsIsRefusedWithItsLine() throws {
        let file = TestPaths.packageRoot.appendingPathComponent("Fuzz/regressions/quiske/columns-out-of-order-short-row.csv").path
        let run = try runOarlog(["replay", file, "--json"], dataDirectory: dataDirectory.path)
        XCTAssertEqual(run.status, 1, run.err)
        XCTAssertTrue(run.err.contains("columns-out-of-order-short-row.csv:4"), run.err)
        XCTAssertTrue(run.err.contains("expected 5 fields, found 2"), run.err)
    }
}
