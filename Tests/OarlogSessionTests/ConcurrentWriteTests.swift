import Foundation
import OarlogCore
@testable import OarlogSession
import XCTest

/// Changes to one closed session at the same moment (issue 23): notes, edits, renames and a
/// delete from many threads, with readers opening the file all the while. Each change that
/// reports success is in the file afterwards, a delete stays a delete, no reader ever meets a
/// half-written file, and the file is intact (recovery finds nothing to fix).
final class ConcurrentWriteTests: XCTestCase {
    var directory = ""
    override func setUpWithError() throws { directory = try makeTemporaryDirectory("oarlog-concurrent") }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: directory) }

    /// A short closed session to change.
    func session(_ name: String = "s") throws -> String {
        let path = directory + "/\(name).oarlog"
        try recordSession(try simulatorRecords(minutes: 0.2), to: path)
        return path
    }

    /// Runs `count` copies of `work` at once (each on a thread of its own, released together).
    func together(_ count: Int, _ work: @escaping @Sendable (Int) -> Void) {
        let start = DispatchSemaphore(value: 0)
        let group = DispatchGroup()
        for i in 0..<count {
            let thread = Thread {
                start.wait()
                work(i)
                group.leave()
            }
            group.enter()
            thread.start()
        }
        for _ in 0..<count { start.signal() }
        group.wait()
    }

    /// Files in the directory that are not sessions (temporary copies left behind).
    func leftovers() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).filter { !$0.hasSuffix(".oarlog") }
    }

    /// 60 notes at once while four threads keep opening the file and reading its notes: all 60
    /// are kept with their own times, every reader saw a whole file (closed, notes counted in
    /// order), the summary counts 60 and recovery calls the file intact.
    func testSixtyNotesAtOnceAreAllKeptAndReadersNeverSeeAHalfWrittenFile() throws {
        let path = try session()
        XCTAssertEqual(try SessionReader(path: path).notes(), [])
        let failures = Failures()
        let done = Failures()
        let readers = Thread.detachNewThreadCounting(4) {
            while !done.any {
                do {
                    let reader = try SessionReader(path: path)
                    if !reader.isComplete { failures.add("a reader opened a file without its tail") }
                    let counted = reader.summary?.statistics.notes ?? -1
                    let read = try reader.notes().count
                    if read != counted { failures.add("read \(read) notes, the summary says \(counted)") }
                } catch {
                    failures.add("reading: \(error)")
                }
            }
        }
        together(60) { i in
            do { try SessionAppend.append(notes: [Note(time: Double(i) / 10, text: "note \(i)")], to: path, sync: false) } catch {
                failures.add("note \(i): \(error)")
            }
        }
        done.add("stop")
        readers.wait()
        XCTAssertEqual(failures.all, [])
        let reader = try SessionReader(path: path)
        XCTAssertEqual(reader.summary?.statistics.notes, 60)
        let notes = try reader.notes()
        XCTAssertEqual(Set(notes.map(\.text)), Set((0..<60).map { "note \($0)" }))
        for note in notes { XCTAssertEqual(note.time, Double(note.text.dropFirst(5))! / 10, note.text) }
        XCTAssertEqual(try SessionRecovery.recover(path).outcome, .intact)
        XCTAssertEqual(try leftovers(), [])
    }

    /// 20 renames and 20 notes at once: every one succeeds (no shared temporary name, no clean-up
    /// of another's copy), the title is one of the 20, all 20 notes are in the renamed file, and
    /// no temporary file is left.
    func testTwentyRenamesAndTwentyNotesAtOnceAllSucceed() throws {
        let path = try session()
        let failures = Failures()
        together(40) { i in
            do {
                if i % 2 == 0 {
                    try SessionRetitle.retitle(path, to: "Title \(i / 2)", sync: false)
                } else {
                    try SessionAppend.append(notes: [Note(time: 1, text: "note \(i / 2)")], to: path, sync: false)
                }
            } catch {
                failures.add("\(i): \(error)")
            }
        }
        XCTAssertEqual(failures.all, [])
        let reader = try SessionReader(path: path)
        XCTAssertTrue((0..<20).map { "Title \($0)" }.contains(reader.metadata.title), reader.metadata.title)
        XCTAssertEqual(Set(try reader.notes().map(\.text)), Set((0..<20).map { "note \($0)" }))
        XCTAssertEqual(try SessionRecovery.recover(path).outcome, .intact)
        XCTAssertEqual(try leftovers(), [])
    }

    /// A rename, a note and a delete at once, 12 times: the delete always succeeds and the
    /// session stays deleted; a rename or note that came after it fails as `removed` (never
    /// recreating the file); one that came before succeeded.
    func testADeleteRacingARenameAndANoteStaysDeleted() throws {
        var afterDelete = 0
        for round in 0..<12 {
            let path = try session("race-\(round)")
            let outcomes = Failures()
            together(3) { i in
                do {
                    switch i {
                    case 0: try SessionFileLock.remove(path)
                    case 1: try SessionRetitle.retitle(path, to: "Renamed", sync: false)
                    default: try SessionAppend.append(notes: [Note(time: 1, text: "late")], to: path, sync: false)
                    }
                    outcomes.add("\(i) ok")
                } catch SessionLockError.removed {
                    outcomes.add("\(i) removed")
                } catch {
                    outcomes.add("\(i) failed: \(error)")
                }
            }
            XCTAssertTrue(outcomes.all.contains("0 ok"), "\(outcomes.all)")
            XCTAssertEqual(outcomes.all.filter { $0.contains("failed") }, [])
            afterDelete += outcomes.all.filter { $0.hasSuffix("removed") }.count
            XCTAssertFalse(FileManager.default.fileExists(atPath: path), "round \(round): \(outcomes.all)")
        }
        XCTAssertEqual(try leftovers(), [])
        // Once deleted, a change says so.
        let path = try session("gone")
        try SessionFileLock.remove(path)
        XCTAssertThrowsError(try SessionRetitle.retitle(path, to: "Back", sync: false)) { XCTAssertEqual($0 as? SessionLockError, .removed(path: path)) }
        XCTAssertThrowsError(try SessionAppend.append(notes: [Note(time: 1, text: "x")], to: path, sync: false)) {
            XCTAssertEqual($0 as? SessionLockError, .removed(path: path))
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))
        print("a rename or note after the delete, refused: \(afterDelete) of 24")
    }

    /// The directory finds a session by its file name without opening any file, and never
    /// shows a temporary copy.
    func testSessionFileByIdAndTemporaryFilesAreNotListed() throws {
        let path = try session("2026-05-02T07-00-00Z_a")
        let dir = SessionDirectory(path: directory)
        XCTAssertEqual(dir.sessionFile(id: "2026-05-02T07-00-00Z_a"), path)
        XCTAssertNil(dir.sessionFile(id: "2026-05-02T07-00-00Z"))
        XCTAssertNil(dir.sessionFile(id: "../x"))
        XCTAssertNil(dir.sessionFile(id: ".hidden"))
        let temporary = SessionFileLock.temporaryPath(for: path, purpose: "retitle")
        XCTAssertTrue(temporary.hasPrefix(directory + "/."), temporary)
        XCTAssertNotEqual(temporary, SessionFileLock.temporaryPath(for: path, purpose: "retitle"))
        FileManager.default.createFile(atPath: temporary, contents: Data(try Data(contentsOf: URL(fileURLWithPath: path))))
        XCTAssertEqual(try dir.list().map(\.id), ["2026-05-02T07-00-00Z_a"])
        XCTAssertEqual(try dir.resolve("2026-05-02T07-00-00Z_a"), path)
    }
}

/// Messages gathered from many threads.
final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var messages: [String] = []
    func add(_ message: String) { lock.withLock { messages.append(message) } }
    var all: [String] { lock.withLock { messages } }
    var any: Bool { lock.withLock { !messages.isEmpty } }
}

extension Thread {
    /// Starts `count` threads running `work`; the group they leave when done.
    static func detachNewThreadCounting(_ count: Int, _ work: @escaping @Sendable () -> Void) -> DispatchGroup {
        let group = DispatchGroup()
        for _ in 0..<count {
            group.enter()
            Thread {
                work()
                group.leave()
            }.start()
        }
        return group
    }
}
