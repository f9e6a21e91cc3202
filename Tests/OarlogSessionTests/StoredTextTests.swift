import Foundation
import OarlogCore
@testable import OarlogSession
import OarlogTestSupport
import XCTest

/// Control characters in notes and titles (issue 23): stored clean whatever wrote them, and
/// shown escaped by `oarlog show` and `oarlog sessions` when an older file still holds them.
final class StoredTextTests: XCTestCase {
    var directory = ""
    override func setUpWithError() throws { directory = try makeTemporaryDirectory("oarlog-stored-text") }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: directory) }

    static let hostile = "Rate\u{1B}[2J up\u{07}\u{0}\u{202E}tsal\u{2066}\tnow\r\nok\u{9B}31m\u{7F}"

    func testCleanedDropsControlsAndOverridesAndKeepsText() {
        XCTAssertEqual(StoredText.cleaned(Self.hostile), "Rate[2J uptsal now  ok31m")
        XCTAssertEqual(StoredText.cleaned("  Café 🚣 — محمد\u{2028}x "), "Café 🚣 — محمد x")
        XCTAssertEqual(StoredText.cleaned("\u{1B}\u{07}\u{0}"), "")
        XCTAssertEqual(StoredText.escapedForTerminal("a\u{1B}[31mb\u{202E}c\nd"), "a\\u{1B}[31mb\\u{202E}c\\u{A}d")
        XCTAssertEqual(StoredText.escapedForTerminal("a\u{1B}b\nc", keepingNewlines: true), "a\\u{1B}b\nc")
        XCTAssertEqual(StoredText.escapedForTerminal("plain — ✓"), "plain — ✓")
    }

    /// A title through the writer, a note appended (`oarlog note`, the API) and a rename: what
    /// reads back has no control character. (A note recorded from a trace is kept as the trace
    /// has it — the format round-trips any text — and escaped when printed.)
    func testNotesAndTitlesAreStoredClean() throws {
        let path = directory + "/clean.oarlog"
        try recordSession(try simulatorRecords(minutes: 0.1), to: path, metadata: testMetadata(title: "Title\u{1B}]0;pwned\u{07}"))
        try SessionAppend.append(notes: [Note(time: 2, text: "after " + Self.hostile)], to: path, sync: false)
        var reader = try SessionReader(path: path)
        XCTAssertEqual(reader.metadata.title, "Title]0;pwned")
        XCTAssertEqual(try reader.notes().map(\.text), ["after Rate[2J uptsal now  ok31m"])
        reader = try SessionRetitle.retitle(path, to: "\u{202E}Head\u{1B}c race", sync: false)
        XCTAssertEqual(reader.metadata.title, "Headc race")
    }

    /// A file an older version wrote, with raw ESC, BEL and a bidi override in its title and a
    /// note: `show` and `sessions` print them as \u{1B}, never as the bytes themselves.
    func testShowAndSessionsEscapeControlCharactersOfOlderFiles() throws {
        let sessions = directory + "/data/sessions"
        try FileManager.default.createDirectory(atPath: sessions, withIntermediateDirectories: true)
        let path = sessions + "/2026-05-02T07-00-00Z_old.oarlog"
        var records = try simulatorRecords(minutes: 0.1)
        records.insert(.note(Note(time: 1, text: "NOTE_PLACEHOLDER")), at: records.firstIndex { ($0.time ?? 0) >= 1 } ?? records.count)
        try recordSession(records, to: path, metadata: testMetadata(title: "TITLE_PLACEHOLDER"))
        try Self.patch(path, "NOTE_PLACEHOLDER", with: "bell\u{07}\u{1B}[31mred!!!")  // 16 bytes each
        try Self.patch(path, "TITLE_PLACEHOLDER", with: "\u{202E}old\u{1B}]0;x\u{07}title")
        XCTAssertEqual(try SessionReader(path: path).metadata.title, "\u{202E}old\u{1B}]0;x\u{07}title", "the file holds the raw text")

        let show = try runOarlog(["show", path], dataDirectory: directory + "/data", in: directory)
        XCTAssertEqual(show.status, 0, show.err)
        XCTAssertTrue(show.out.contains("\\u{202E}old\\u{1B}]0;x\\u{7}title"), show.out)
        XCTAssertTrue(show.out.contains("bell\\u{7}\\u{1B}[31mred!!!"), show.out)
        let list = try runOarlog(["sessions"], dataDirectory: directory + "/data", in: directory)
        XCTAssertEqual(list.status, 0, list.err)
        XCTAssertTrue(list.out.contains("\\u{202E}old\\u{1B}]0;x\\u{7}title"), list.out)
        for output in [show.out, list.out] {
            let raw = output.unicodeScalars.filter { ($0.value < 0x20 && $0 != "\n") || $0.value == 0x202E }
            XCTAssertEqual(raw.map(\.value), [], "raw control characters printed")
        }
    }

    /// Replaces `placeholder` (in one frame) with `text` of the same length in bytes, and puts the
    /// frame's CRC right: a file as a version without the cleaning wrote it.
    static func patch(_ path: String, _ placeholder: String, with text: String) throws {
        XCTAssertEqual(placeholder.utf8.count, text.utf8.count)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let needle = Array(placeholder.utf8)
        let at = try XCTUnwrap((0...(bytes.count - needle.count)).first { bytes[$0..<($0 + needle.count)].elementsEqual(needle) })
        bytes.replaceSubrange(at..<(at + needle.count), with: Array(text.utf8))
        let sync = SessionFormat.frameSync
        let start = try XCTUnwrap((0...at).reversed().first { bytes[$0..<($0 + sync.count)].elementsEqual(sync) })
        let length = Int(bytes[start + 5]) | Int(bytes[start + 6]) << 8 | Int(bytes[start + 7]) << 16 | Int(bytes[start + 8]) << 24
        let end = start + SessionFormat.frameHeaderSize + length
        let crc = bytes.withUnsafeBytes { CRC32C.checksum(UnsafeRawBufferPointer(rebasing: $0[(start + 4)..<end])) }
        withUnsafeBytes(of: crc.littleEndian) { bytes.replaceSubrange(end..<(end + 4), with: $0) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }
}
