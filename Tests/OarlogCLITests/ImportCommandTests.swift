import Foundation
import OarlogTestSupport
import XCTest

/// `oarlog import` as a club brings its history: 200 files (the bundled device exports and the
/// workout, each repeated with its start moved on by whole days) all imported, each at the start
/// its file now gives; a second run adds nothing; `oarlog bests` names the imported sessions; a
/// zip's entries imported, its hostile ones refused; a broken file refused with its reason while
/// the others import. (CLITests' data directory and `oarlog` runner.)
extension CLITests {
    /// A source file, and how a copy of it is moved on by `days`.
    struct ShiftedSource {
        let path: String
        /// The copy's text and, when the file states it in its header, the start it now gives.
        let shift: (_ text: String, _ days: Int) -> (text: String, start: Date?)
    }

    static var utc: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }

    /// The native trace's `# start_utc:` line, moved on.
    static func shiftNative(_ text: String, _ days: Int) -> (text: String, start: Date?) {
        let original = "# start_utc: 2026-05-02T07:00:00.000Z"
        let start = utc.date(byAdding: .day, value: days, to: ISO8601DateFormatter().date(from: "2026-05-02T07:00:00Z")!)!
        let formatter = ISO8601DateFormatter()
        let line = "# start_utc: " + formatter.string(from: start).replacingOccurrences(of: "Z", with: ".000Z")
        XCTAssertTrue(text.contains(original))
        return (text.replacingOccurrences(of: original, with: line), start)
    }

    /// A SpeedCoach's `Start Time:,MM/DD/YY hh:mm[am|pm]` line, its date moved on.
    static func shiftSpeedCoach(_ text: String, _ days: Int) -> (text: String, start: Date?) {
        let line = text.split(separator: "\n").first { $0.hasPrefix("Start Time:,") }!
        let value = line.split(separator: ",", omittingEmptySubsequences: false)[1]
        let parts = value.split(separator: " ")
        let date = parts[0].split(separator: "/").map { Int($0)! }
        var clock = String(parts[1])
        let pm = clock.hasSuffix("pm")
        clock = clock.replacingOccurrences(of: "am", with: "").replacingOccurrences(of: "pm", with: "")
        let hm = clock.split(separator: ":").map { Int($0)! }
        let year = date[2] < 100 ? 2000 + date[2] : date[2]
        let original = utc.date(from: DateComponents(year: year, month: date[0], day: date[1],
                                                     hour: hm[0] % 12 + (pm ? 12 : (parts[1].hasSuffix("am") ? 0 : hm[0] - hm[0] % 12)),
                                                     minute: hm[1]))!
        let start = utc.date(byAdding: .day, value: days, to: original)!
        let c = utc.dateComponents([.year, .month, .day], from: start)
        let newDate = String(format: "%02d/%02d/", c.month!, c.day!) + (date[2] < 100 ? String(format: "%02d", c.year! % 100) : "\(c.year!)")
        let newLine = line.replacingOccurrences(of: String(parts[0]), with: newDate)
        return (text.replacingOccurrences(of: String(line), with: newLine), start)
    }

    /// Every row's time field (`column`, a number of `unit` seconds since 1970) moved on.
    static func shiftColumn(_ column: Int, unit: Double) -> (String, Int) -> (text: String, start: Date?) {
        { text, days in
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
                var fields = line.split(separator: ",", maxSplits: column + 1, omittingEmptySubsequences: false).map(String.init)
                guard fields.count > column + 1, let t = Double(fields[column]), t > 1e9 / unit else { return String(line) }
                let moved = t + Double(days) * 86_400 / unit
                fields[column] = unit == 1 ? String(moved) : String(Int64(moved))
                return fields.joined(separator: ",")
            }
            return (lines.joined(separator: "\n"), nil)
        }
    }

    static var importSources: [ShiftedSource] { [
        ShiftedSource(path: "samples/sim-workout.csv", shift: shiftNative),
        ShiftedSource(path: "samples/rowingdata/SpeedCoach2Link_interval.csv", shift: shiftSpeedCoach),
        ShiftedSource(path: "samples/rowingdata/SpeedCoach2Linkv1.27.csv", shift: shiftSpeedCoach),
        ShiftedSource(path: "Tests/OarlogTraceTests/Fixtures/devices/SpdCoach2_imp_inconsistent.csv", shift: shiftSpeedCoach),
        ShiftedSource(path: "Tests/OarlogTraceTests/Fixtures/devices/SpeedCoach2v2.12.csv", shift: shiftSpeedCoach),
        ShiftedSource(path: "samples/rowingdata/quiske_per_stroke_seat.csv", shift: shiftColumn(0, unit: 1)),
        ShiftedSource(path: "samples/rowingdata/nk_logbook.csv", shift: shiftColumn(2, unit: 0.001)),
    ] }

    func importJSON(_ run: CommandRun) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any], run.out + run.err)
    }

    func testAClubsHistoryImportsOnce() throws {
        let folder = dataDirectory.appendingPathComponent("history")
        var expected: [String: (source: Int, days: Int, start: Date?)] = [:]
        let root = TestPaths.packageRoot
        for n in 0..<200 {
            let s = n % Self.importSources.count, days = n / Self.importSources.count + 1
            let source = Self.importSources[s]
            let text = try String(contentsOf: root.appendingPathComponent(source.path), encoding: .utf8)
            let copy = source.shift(text, days)
            XCTAssertNotEqual(copy.text, text, "\(source.path) moved on by \(days) days")
            let sub = folder.appendingPathComponent("boat-\(s)")
            try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
            let name = "copy-\(n)-" + (source.path.split(separator: "/").last.map(String.init) ?? "")
            try Data(copy.text.utf8).write(to: sub.appendingPathComponent(name))
            expected["history/boat-\(s)/\(name)"] = (s, days, copy.start)
        }
        // Hidden files are not a person's: passed over without a word.
        try Data("junk".utf8).write(to: folder.appendingPathComponent(".DS_Store"))

        let first = try runOarlog(["import", "history", "--boat", "Nell", "--json"], dataDirectory: dataDirectory.path,
                                  in: dataDirectory.path)
        XCTAssertEqual(first.status, 0, first.err)
        let answer = try importJSON(first)
        let imported = try XCTUnwrap(answer["imported"] as? [[String: Any]])
        XCTAssertEqual(imported.count, 200)
        XCTAssertEqual((answer["refused"] as? [Any])?.count, 0, "\(answer["refused"] ?? "")")
        XCTAssertEqual(Set(imported.compactMap { $0["file"] as? String }), Set(expected.keys))
        // Each at the start its file gives now; the ones without a header's start moved by the days.
        let iso = ISO8601DateFormatter()
        iso.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        var firstStart: [Int: (days: Int, date: Date)] = [:]
        for row in imported {
            let file = row["file"] as? String ?? "", started = try XCTUnwrap(iso.date(from: row["start_utc"] as? String ?? ""))
            let copy = try XCTUnwrap(expected[file])
            if let start = copy.start {
                XCTAssertEqual(started.timeIntervalSince1970, start.timeIntervalSince1970, accuracy: 0.001, file)
            } else if let base = firstStart[copy.source] {
                XCTAssertEqual(started.timeIntervalSince(base.date), Double(copy.days - base.days) * 86_400, accuracy: 0.002, file)
            } else {
                firstStart[copy.source] = (copy.days, started)
            }
        }
        let ids = Set(imported.compactMap { $0["session"] as? String })
        XCTAssertEqual(ids.count, 200)

        // Again: nothing added, every file a duplicate of the session it became.
        let second = try runOarlog(["import", "history"], dataDirectory: dataDirectory.path, in: dataDirectory.path)
        XCTAssertEqual(second.status, 0, second.err)
        XCTAssertEqual(second.out, "imported 0, skipped as duplicates 200, refused 0\n")
        let listed = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(try oarlog("sessions", "--json", "--boat", "Nell").out.utf8))
                                   as? [[String: Any]])
        XCTAssertEqual(Set(listed.compactMap { $0["id"] as? String }), ids)

        // The bests come from the imported history at once.
        let bests = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(try oarlog("bests", "--json", "--boat", "Nell").out.utf8))
                                  as? [[String: Any]])
        let named = bests.compactMap { $0["session"] as? String }
        XCTAssertFalse(named.isEmpty, "\(bests)")
        XCTAssertTrue(Set(named).isSubset(of: ids), "\(named)")
    }

    func testAZipsEntriesImportAndItsHostileOnesAreRefused() throws {
        try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
        let zip = dataDirectory.appendingPathComponent("export.zip").path
        let interval = try samplePath("rowingdata/SpeedCoach2Link_interval.csv")
        let v212 = TestPaths.packageRoot.appendingPathComponent("Tests/OarlogTraceTests/Fixtures/devices/SpeedCoach2v2.12.csv").path
        // Deflated and stored entries, a folder, a Mac's leftovers, a PDF, a name that climbs out,
        // and 12 MiB of one letter in a few KiB (over 200:1).
        let script = """
            import sys, zipfile
            z = zipfile.ZipFile(sys.argv[1], 'w')
            z.write(sys.argv[2], 'NK/interval.csv', compress_type=zipfile.ZIP_DEFLATED)
            z.write(sys.argv[3], 'NK/dist.csv', compress_type=zipfile.ZIP_STORED)
            z.writestr('__MACOSX/NK/._interval.csv', 'mac')
            z.writestr('NK/.hidden.csv', 'hidden')
            z.writestr('manual.pdf', '%PDF-1.4 not a trace')
            z.writestr('../escape.csv', open(sys.argv[2]).read(), compress_type=zipfile.ZIP_DEFLATED)
            z.writestr('bomb.csv', 'a' * (12 << 20), compress_type=zipfile.ZIP_DEFLATED)
            z.close()
            """
        let made = try ChildProcess.run("/usr/bin/python3", ["-c", script, zip, interval, v212], in: dataDirectory.path)
        XCTAssertEqual(made.status, 0, made.err)

        // Its own temporary directory, so another test's import running at the same time is not seen.
        let scratch = dataDirectory.appendingPathComponent("tmp").path
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        let run = try ChildProcess.run(try Binaries.oarlog(), ["import", "export.zip", "--json"], in: dataDirectory.path,
                                       environment: ["OARLOG_DATA_DIR": dataDirectory.path, "TMPDIR": scratch])
        XCTAssertEqual(run.status, 1, "a refused entry makes the exit status 1: \(run.err)")
        let answer = try importJSON(run)
        let imported = try XCTUnwrap(answer["imported"] as? [[String: Any]])
        // The headers' own starts: "11/14/16 07:38am" and "01/19/17 07:38am".
        XCTAssertEqual(imported.map { $0["file"] as? String }, ["export.zip/NK/interval.csv", "export.zip/NK/dist.csv"])
        XCTAssertEqual(imported.map { $0["start_utc"] as? String }, ["2016-11-14T07:38:00.000Z", "2017-01-19T07:38:00.000Z"])
        let refused = try XCTUnwrap(answer["refused"] as? [[String: String]])
        XCTAssertEqual(refused.map { $0["file"] }, ["export.zip/../escape.csv", "export.zip/bomb.csv"])
        XCTAssertTrue(refused.first?["error"]?.contains("outside the archive") == true, "\(refused)")
        XCTAssertTrue(refused.last?["error"]?.contains("zip bomb") == true, "\(refused)")
        XCTAssertEqual(answer["other_files"] as? Int, 1, "the PDF")
        let temporary = try FileManager.default.contentsOfDirectory(atPath: scratch).filter { $0.hasPrefix("oarlog-import-") }
        XCTAssertEqual(temporary, [], "the entries' temporary files are removed")

        // Two directory entries over one deflated block (how the smallest zip bombs multiply):
        // the whole zip refused, nothing imported.
        let overlap = """
            import struct, sys, zlib
            data = b'x' * 1000
            packer = zlib.compressobj(9, zlib.DEFLATED, -15)
            packed = packer.compress(data) + packer.flush()
            crc = zlib.crc32(data)
            local = struct.pack('<IHHHHHIIIHH', 0x04034b50, 20, 0, 8, 0, 0x21, crc, len(packed), len(data), 5, 0) + b'a.csv' + packed
            directory = b''
            for name in [b'a.csv', b'b.csv']:
                directory += struct.pack('<IHHHHHHIIIHHHHHII', 0x02014b50, 20, 20, 0, 8, 0, 0x21, crc, len(packed), len(data),
                                         len(name), 0, 0, 0, 0, 0, 0) + name
            end = struct.pack('<IHHHHIIH', 0x06054b50, 0, 0, 2, 2, len(directory), len(local), 0)
            open(sys.argv[1], 'wb').write(local + directory + end)
            """
        let overlapZip = dataDirectory.appendingPathComponent("overlap.zip").path
        let crafted = try ChildProcess.run("/usr/bin/python3", ["-c", overlap, overlapZip], in: dataDirectory.path)
        XCTAssertEqual(crafted.status, 0, crafted.err)
        let overlapRun = try runOarlog(["import", "overlap.zip"], dataDirectory: dataDirectory.path, in: dataDirectory.path)
        XCTAssertEqual(overlapRun.status, 1)
        XCTAssertEqual(overlapRun.out, "imported 0, skipped as duplicates 0, refused 1\n"
                       + "refused overlap.zip: entries overlap each other or the directory (a zip bomb?): not read\n")
    }

    func testARefusedFileIsNamedWithItsReasonAndTheOthersImport() throws {
        let folder = dataDirectory.appendingPathComponent("mixed")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let text = try String(contentsOfFile: try samplePath("rowingdata/SpeedCoach2Link_interval.csv"), encoding: .utf8)
        // Cut before its per-stroke section: nothing to replay.
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let section = try XCTUnwrap(lines.firstIndex { $0.hasPrefix("Per-Stroke Data:") })
        let cut = lines.prefix(section).joined(separator: "\n")
        try Data(cut.utf8).write(to: folder.appendingPathComponent("cut.csv"))
        try FileManager.default.copyItem(atPath: try samplePath("rowingdata/SpeedCoach2Link_interval.csv"),
                                         toPath: folder.appendingPathComponent("whole.csv").path)
        try Data("rowing is fun\n".utf8).write(to: folder.appendingPathComponent("notes.md"))

        let run = try runOarlog(["import", "mixed"], dataDirectory: dataDirectory.path, in: dataDirectory.path)
        XCTAssertEqual(run.status, 1)
        let printed = run.out.split(separator: "\n").map(String.init)
        XCTAssertEqual(printed.first, "imported 1, skipped as duplicates 0, refused 1 (1 other file passed over: not a trace)")
        XCTAssertEqual(printed.count, 2, run.out)
        // The reason is the reader's own, as `oarlog replay` says it, with its line.
        let replay = try runOarlog(["replay", "mixed/cut.csv"], dataDirectory: dataDirectory.path, in: dataDirectory.path)
        let readerSays = replay.err.trimmingCharacters(in: .whitespacesAndNewlines)
        let prefix = "Error: mixed/cut.csv:\(section + 1): "
        XCTAssertTrue(readerSays.hasPrefix(prefix) && readerSays.contains("Per-Stroke Data:"), readerSays)
        XCTAssertEqual(printed.last, "refused mixed/cut.csv: line \(section + 1): " + readerSays.dropFirst(prefix.count))
        let listed = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(try oarlog("sessions", "--json").out.utf8)) as? [[String: Any]])
        XCTAssertEqual(listed.compactMap { $0["title"] as? String }, ["5x1:00"], "the whole file, titled by its session name")
    }
}
