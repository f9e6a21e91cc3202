import Foundation
import OarlogCore
import OarlogDSP
import OarlogPipeline
@testable import OarlogSession
import XCTest

/// Notes added to a closed session (`oarlog note`): the records and figures are untouched, the
/// note reads back at its time, and a cut at any byte of the append leaves a readable,
/// recoverable file.
final class SessionAppendTests: XCTestCase {
    var directory = ""
    override func setUpWithError() throws { directory = try makeTemporaryDirectory("oarlog-append") }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: directory) }

    func testNotesAppendedKeepRecordsAndSummaryAndReadBackInTimeOrder() throws {
        let records = try simulatorRecords(minutes: 2)
        let path = directory + "/a.oarlog"
        let concluded = try recordSession(records, to: path)
        let before = try SessionReader(path: path)
        let summaryBefore = try XCTUnwrap(before.summary)
        let sizeBefore = before.fileSize

        try SessionAppend.append(notes: [Note(time: 60, text: "bow pair only")], to: path, sync: false)
        try SessionAppend.append(notes: [Note(time: 30.5, text: "rate up ✓"), Note(time: 100, text: "easy")], to: path, sync: false)

        let after = try SessionReader(path: path)
        XCTAssertTrue(after.isComplete)
        XCTAssertGreaterThan(after.fileSize, sizeBefore)
        let summary = try XCTUnwrap(after.summary)
        XCTAssertEqual(summary.analysis, concluded.summary, "the analyzer's totals are kept")
        XCTAssertEqual(summary.analysis, summaryBefore.analysis)
        XCTAssertEqual(summary.statistics.notes, summaryBefore.statistics.notes + 3)
        XCTAssertEqual(summary.statistics.chunks, summaryBefore.statistics.chunks + 2)
        XCTAssertEqual(summary.statistics.accelerometerSamples, summaryBefore.statistics.accelerometerSamples)
        XCTAssertEqual(summary.statistics.lastTime, summaryBefore.statistics.lastTime)
        XCTAssertEqual(after.chunkIndex, before.chunkIndex, "the note chunks are not indexed: seeking stays in time order")
        XCTAssertEqual(try after.strokes(), concluded.strokes)

        // Raw order: every original record, then the notes at the end.
        let raw = try readAll(path)
        XCTAssertEqual(raw.count, records.count + 3)
        XCTAssertEqual(Array(raw.prefix(records.count)).map(bits), records.map(bits))
        XCTAssertEqual(try after.notes().map(\.text), ["rate up ✓", "bow pair only", "easy"])

        // Time order: each note just before the first record later than it.
        var ordered: [TraceRecord] = []
        var source = try after.recordsInTimeOrder()
        while let r = try source.next() { ordered.append(r) }
        XCTAssertEqual(ordered.count, records.count + 3)
        for (text, time) in [("rate up ✓", 30.5), ("bow pair only", 60.0), ("easy", 100.0)] {
            let i = try XCTUnwrap(ordered.firstIndex { if case .note(let n) = $0 { return n.text == text }; return false })
            XCTAssertEqual(ordered[i].time, time)
            XCTAssertLessThanOrEqual(try XCTUnwrap(ordered[i - 1].time), time)
            XCTAssertGreaterThan(try XCTUnwrap(ordered[i + 1].time), time)
        }
        XCTAssertEqual(ordered.filter { if case .note = $0 { return false }; return true }.map(bits), records.map(bits))

        // From a time: notes before it are left out, later ones kept.
        var fromSeventy = try after.recordsInTimeOrder(from: 70)
        var notesFrom: [String] = []
        var first: Seconds?
        while let r = try fromSeventy.next() {
            if first == nil { first = r.time }
            if case .note(let n) = r { notesFrom.append(n.text) }
        }
        XCTAssertEqual(notesFrom, ["easy"])
        XCTAssertEqual(try XCTUnwrap(first), 70, accuracy: 0.011)
    }

    /// The append is cut at every few bytes (what a power cut could leave): the reader still
    /// delivers every original record, recovery keeps them all, and the note once its chunk is whole.
    func testCutAnywhereDuringTheAppendLeavesARecoverableFile() throws {
        let records = try simulatorRecords(minutes: 0.25)
        let path = directory + "/b.oarlog"
        try recordSession(records, to: path)
        let before = try SessionReader(path: path)
        let dataEnd = before.dataEnd
        let original = try readAll(path)
        try SessionAppend.append(notes: [Note(time: 5, text: "cut me")], to: path, sync: false)
        let full = try Data(contentsOf: URL(fileURLWithPath: path))
        let noteChunkEnd = try SessionReader(path: path).dataEnd
        XCTAssertGreaterThan(noteChunkEnd, dataEnd)

        let copy = directory + "/cut.oarlog"
        try full.write(to: URL(fileURLWithPath: copy))
        var cuts = 0
        var cut = full.count - 1
        while cut >= dataEnd {
            XCTAssertEqual(truncate(copy, off_t(cut)), 0)
            let reader = try SessionReader(path: copy)
            XCTAssertFalse(reader.isComplete, "cut at \(cut)")
            let back = try readAll(copy, onDamage: .skipDamagedChunks)
            let kept = back.filter { if case .note = $0 { return false }; return true }
            XCTAssertEqual(kept.map(bits), original.map(bits), "cut at \(cut)")
            let hasNote = back.contains { if case .note(let n) = $0 { return n.text == "cut me" }; return false }
            XCTAssertEqual(hasNote, cut >= noteChunkEnd, "cut at \(cut)")
            let report = try SessionRecovery.recover(copy)
            XCTAssertEqual(report.kept.accelerometerSamples, before.summary?.statistics.accelerometerSamples)
            XCTAssertNotEqual(report.outcome, .unrecoverable)
            cuts += 1
            cut -= cut > noteChunkEnd + 64 ? 13 : 1
        }
        XCTAssertGreaterThan(cuts, 100)
    }

    func testAFileThatWasNotClosedIsRefusedUnchanged() throws {
        let path = directory + "/open.oarlog"
        do {
            let writer = try SessionWriter(path: path, metadata: testMetadata(), options: .init(durability: .never))
            for i in 0..<300 { try writer.append(.accel(AccelSample(time: Double(i) / 100, x: 0, y: 0, z: 9.8))) }
            try writer.flush()
        }
        let size = try SessionReader(path: path).fileSize
        XCTAssertThrowsError(try SessionAppend.append(notes: [Note(time: 1, text: "x")], to: path, sync: false)) { error in
            XCTAssertEqual(error as? SessionAppendError, .notClosed(path: path))
        }
        XCTAssertEqual(try SessionReader(path: path).fileSize, size)
    }
}

/// Notes edited after the fact: the edit is one more record; notes() gives each note as last edited.
final class SessionNoteEditTests: XCTestCase {
    var directory = ""
    override func setUpWithError() throws { directory = try makeTemporaryDirectory("oarlog-note-edit") }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: directory) }

    func testEditsApplyInOrderToTheNoteAsItStands() throws {
        let path = directory + "/e.oarlog"
        _ = try recordSession(try simulatorRecords(minutes: 1), to: path)
        try SessionAppend.append(notes: [Note(time: 10, text: "Push"), Note(time: 20, text: "Push")], to: path, sync: false)
        let first = Note(time: 10, text: "Push")
        let moved = Note(time: 12.5, text: "Push at the bridge")
        try SessionAppend.append(notes: [], events: [SessionNoteEdit(before: first, after: moved).event], to: path, sync: false)
        XCTAssertEqual(try SessionReader(path: path).notes(), [moved, Note(time: 20, text: "Push")], "only the first equal note changes")
        // Edited again (from its new form), and an edit of a note that is not there changes nothing.
        let again = Note(time: 25, text: "Push for 10")
        try SessionAppend.append(notes: [], events: [SessionNoteEdit(before: moved, after: again).event,
                                                      SessionNoteEdit(before: Note(time: 99, text: "x"), after: Note(time: 1, text: "y")).event],
                                 to: path, sync: false)
        let reader = try SessionReader(path: path)
        XCTAssertEqual(try reader.notes(), [Note(time: 20, text: "Push"), again], "in time order")
        XCTAssertEqual(reader.summary?.statistics.notes, 2)
        XCTAssertTrue(reader.isComplete)
        // A replay meets the note as edited, at its new time.
        var source = try reader.recordsInTimeOrder()
        var seen: [Note] = []
        while let r = try source.next() { if case .note(let n) = r { seen.append(n) } }
        XCTAssertEqual(seen, [Note(time: 20, text: "Push"), again])
    }
}
