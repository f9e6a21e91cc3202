import Foundation
import OarlogTestSupport
import XCTest

/// A full SD card, as a person meets it: the data directory on a small tmpfs of its own (in a
/// private mount namespace, gone with the test), the real `oarlog` binary saving, noting and
/// recovering on it. Nothing reported as saved may be missing; nothing may be left half-made
/// without saying so; whatever reached the card before it filled is recoverable. Needs root
/// (CI runs as root), like the IIO tests.
final class DiskFullTests: XCTestCase {
    var root: URL!

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("oarlog-disk-full-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("disk"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("kept"), withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(at: root) }

    /// Runs `script` (bash, `set -u`) with `$DISK` a tmpfs of `kibibytes` and `$OARLOG_DATA_DIR`
    /// on it, `$OARLOG` the binary and `$KEPT` a directory outside the tmpfs; the tmpfs's files
    /// are copied to `kept/` when the script ends. Returns what the script printed.
    func onSmallDisk(kibibytes: Int, _ script: String, file: StaticString = #filePath, line: UInt = #line) throws -> CommandRun {
        guard getuid() == 0 else {
            XCTFail("the disk-full tests need root (a tmpfs in a private mount namespace)", file: file, line: line)
            throw XCTSkip("not root")
        }
        let wrapped = """
            set -u
            mount -t tmpfs -o size=\(kibibytes)k oarlog-test "$DISK"
            trap 'cp -a "$DISK"/. "$KEPT"/ 2>/dev/null || true' EXIT
            export OARLOG_DATA_DIR="$DISK/data"
            \(script)
            """
        return try ChildProcess.run("/usr/bin/unshare", ["--mount", "--propagation", "private", "/bin/bash", "-c", wrapped],
                                    in: TestPaths.packageRoot.path,
                                    environment: ["DISK": root.appendingPathComponent("disk").path, "KEPT": root.appendingPathComponent("kept").path,
                                                  "OARLOG": try Binaries.oarlog(file: file, line: line)])
    }

    func oarlog(_ arguments: String...) throws -> CommandRun {
        try runOarlog(arguments, dataDirectory: root.appendingPathComponent("kept/data").path)
    }

    func sessionFiles() throws -> [String] {
        let dir = root.appendingPathComponent("kept/data/sessions").path
        guard FileManager.default.fileExists(atPath: dir) else { return [] }
        return try FileManager.default.contentsOfDirectory(atPath: dir).sorted().map { dir + "/" + $0 }
    }

    /// A 20-minute replay saved to a 256 KiB card: the save fails naming the file and the way to
    /// close it; everything written before the card filled is intact, and `recover` says how
    /// much of the session the file holds. Its strokes are exactly the first strokes of the replay.
    func testSaveCutByAFullDiskKeepsWhatWasWrittenAndSaysHowMuch() throws {
        let run = try onSmallDisk(kibibytes: 256, """
            "$OARLOG" replay samples/sim-workout.csv --save --title "Head race"; echo "exit=$?"
            """)
        XCTAssertTrue(run.out.contains("exit=1"), run.out + run.err)
        XCTAssertTrue(run.err.contains("No space left on device"), run.err)
        let files = try sessionFiles()
        XCTAssertEqual(files.count, 1, "\(files)")
        let file = try XCTUnwrap(files.first)
        XCTAssertTrue(run.err.contains("oarlog recover \(file.replacingOccurrences(of: root.appendingPathComponent("kept").path, with: root.appendingPathComponent("disk").path)) --in-place"), run.err)
        let size = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int)
        XCTAssertGreaterThan(size, 200 << 10, "the card was filled, not the save abandoned early")

        let check = try oarlog("recover", file)
        XCTAssertEqual(check.status, 0, check.out + check.err)
        XCTAssertTrue(check.out.contains("ends early — everything in it is intact"), check.out)
        let holds = try XCTUnwrap(check.out.split(separator: "\n").first { $0.contains("the file holds the session from t = 0.0 s to t = ") },
                                  check.out)
        XCTAssertTrue(holds.contains("never reached the file"), String(holds))

        let fixed = root.appendingPathComponent("kept/fixed.oarlog").path
        XCTAssertEqual(try oarlog("recover", file, "-o", fixed).status, 0)
        let shown = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(try oarlog("show", fixed, "--json", "--strokes").out.utf8)) as? [String: Any])
        let kept = try XCTUnwrap(shown["stroke_list"] as? [[String: Any]])
        let full = try XCTUnwrap(try JSONSerialization.jsonObject(
            with: Data(try oarlog("replay", "samples/sim-workout.csv", "--json", "--strokes").out.utf8)) as? [String: Any])
        let all = try XCTUnwrap(full["stroke_list"] as? [[String: Any]])
        XCTAssertGreaterThan(kept.count, 20)
        XCTAssertLessThan(kept.count, all.count)
        for (a, b) in zip(kept, all) {
            XCTAssertEqual(a["t_s"] as? Double ?? .nan, b["t_s"] as? Double ?? -1, accuracy: 1e-9)
        }
    }

    /// A save onto a card with no space at all: a clear error, and no empty or headless file.
    func testSaveOnAFullDiskLeavesNoFile() throws {
        let run = try onSmallDisk(kibibytes: 64, """
            mkdir -p "$OARLOG_DATA_DIR/sessions"
            dd if=/dev/zero of="$DISK/filler" bs=4k 2>/dev/null; dd if=/dev/zero of="$DISK/filler2" bs=1 2>/dev/null
            "$OARLOG" replay samples/sim-workout.csv --save --title "No room"; echo "exit=$?"
            rm -f "$DISK/filler" "$DISK/filler2"
            """)
        XCTAssertTrue(run.out.contains("exit=1"), run.out + run.err)
        XCTAssertTrue(run.err.contains("No space left on device"), run.err)
        XCTAssertTrue(run.err.contains("no file is left"), run.err)
        XCTAssertEqual(try sessionFiles(), [])
    }

    /// `note` on a full card: a note that fits the file's last page is written (and is there
    /// afterwards); one that does not is refused with the reason, and the session is unchanged.
    func testNoteOnAFullDiskIsWrittenOrRefusedNeverLost() throws {
        let long = String(repeating: "Catch together, ", count: 1250)  // 20,000 bytes
        let run = try onSmallDisk(kibibytes: 256, """
            head -n 3000 samples/sim-workout.csv > "$DISK/short.csv"
            "$OARLOG" replay "$DISK/short.csv" --save --title Short >/dev/null 2>&1; echo "save=$?"
            rm "$DISK/short.csv"
            dd if=/dev/zero of="$DISK/filler" bs=4k 2>/dev/null; dd if=/dev/zero of="$DISK/filler2" bs=1 2>/dev/null
            "$OARLOG" note last "Rate up" --at 0:30; echo "short=$?"
            "$OARLOG" note last "\(long)" --at 0:40; echo "long=$?"
            rm -f "$DISK/filler" "$DISK/filler2"
            """)
        XCTAssertTrue(run.out.contains("save=0"), run.out + run.err)
        XCTAssertTrue(run.out.contains("short=0"), run.out + run.err)
        XCTAssertTrue(run.out.contains("long=1"), run.out + run.err)
        XCTAssertTrue(run.err.contains("No space left on device"), run.err)
        XCTAssertTrue(run.err.contains("the session is unchanged"), run.err)

        let file = try XCTUnwrap(try sessionFiles().first)
        let check = try oarlog("recover", file)
        XCTAssertEqual(check.status, 0, check.out + check.err)
        XCTAssertTrue(check.out.contains("intact — nothing lost"), check.out)
        let shown = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(try oarlog("show", file, "--json").out.utf8)) as? [String: Any])
        let notes = try XCTUnwrap(shown["note_list"] as? [[String: Any]], "\(shown.keys.sorted())")
        XCTAssertEqual(notes.map { $0["text"] as? String }, ["Rate up"])
        XCTAssertEqual(notes.first?["t_s"] as? Double ?? .nan, 30, accuracy: 1e-9)
    }
}
