import Foundation
import OarlogCore
@testable import OarlogTrace
import OarlogTestSupport
import XCTest

/// A FIT file put together byte by byte, as the protocol description lays it out, with its own
/// CRC (bit by bit, not the decoder's table).
struct FITBytes {
    var body: [UInt8] = []

    /// A definition message: fields are (number, size, base type byte); developer fields are
    /// (number, size, developer data index).
    mutating func define(local: UInt8, global: UInt16, bigEndian: Bool = false, _ fields: [(UInt8, UInt8, UInt8)],
                         developer: [(UInt8, UInt8, UInt8)] = []) {
        body.append(0x40 | (developer.isEmpty ? 0 : 0x20) | local)
        body += [0, bigEndian ? 1 : 0]
        body += bigEndian ? [UInt8(global >> 8), UInt8(global & 0xFF)] : [UInt8(global & 0xFF), UInt8(global >> 8)]
        body.append(UInt8(fields.count))
        for f in fields { body += [f.0, f.1, f.2] }
        if !developer.isEmpty {
            body.append(UInt8(developer.count))
            for f in developer { body += [f.0, f.1, f.2] }
        }
    }

    mutating func data(local: UInt8, _ bytes: [UInt8]) { body += [local] + bytes }

    /// A data message with a compressed-timestamp header (local type 0–3, 5-bit time offset).
    mutating func compressed(local: UInt8, timeOffset: UInt8, _ bytes: [UInt8]) {
        body += [0x80 | local << 5 | (timeOffset & 0x1F)] + bytes
    }

    static func crc(_ bytes: [UInt8]) -> UInt16 {
        var crc: UInt16 = 0
        for byte in bytes {
            crc ^= UInt16(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xA001 : crc >> 1 }
        }
        return crc
    }

    /// The file: header (14 bytes with its CRC, or 12), the body, the file CRC.
    func file(headerSize: Int = 14) -> [UInt8] {
        let size = UInt32(body.count)
        var h: [UInt8] = [UInt8(headerSize), 0x20, 0x34, 0x08, UInt8(size & 0xFF), UInt8(size >> 8 & 0xFF),
                          UInt8(size >> 16 & 0xFF), UInt8(size >> 24)] + Array(".FIT".utf8)
        if headerSize == 14 {
            let c = Self.crc(h)
            h += [UInt8(c & 0xFF), UInt8(c >> 8)]
        }
        let all = h + body
        let c = Self.crc(all)
        return all + [UInt8(c & 0xFF), UInt8(c >> 8)]
    }
}

func le32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * UInt32($0))) } }
func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }

/// The FIT decoder on files made by hand: header and CRC checks, truncation, byte orders,
/// invalid values, compressed timestamps, developer fields, chained files, hostile bytes.
final class FITDecoderTests: XCTestCase {
    func decodeAll(_ bytes: [UInt8]) throws -> [FITMessage] {
        var decoder = try FITDecoder(bytes: bytes, path: "t.fit")
        var out: [FITMessage] = []
        while let m = try decoder.next() { out.append(m) }
        return out
    }

    func assertError(_ bytes: [UInt8], contains text: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try decodeAll(bytes), file: file, line: line) { error in
            XCTAssertTrue("\(error)".contains(text), "\(error)", file: file, line: line)
        }
    }

    /// A record definition (timestamp, latitude, heart rate, distance) and one message of it.
    func recordFile(bigEndian: Bool = false, heartRate: UInt8 = 0xFF) -> [UInt8] {
        var b = FITBytes()
        b.define(local: 3, global: 20, bigEndian: bigEndian, [(253, 4, 0x86), (0, 4, 0x85), (3, 1, 0x02), (5, 4, 0x86)])
        let lat = UInt32(bitPattern: -575_480_966)
        let values: [UInt32] = [838_632_929, lat]
        var bytes = values.flatMap { bigEndian ? le32($0).reversed() : le32($0) }
        bytes.append(heartRate)
        bytes += bigEndian ? le32(322).reversed() : le32(322)
        b.data(local: 3, bytes)
        return b.file()
    }

    func testRecordFieldsAndInvalidValueAbsent() throws {
        let messages = try decodeAll(recordFile())
        XCTAssertEqual(messages.count, 1)
        let m = try XCTUnwrap(messages.first)
        XCTAssertEqual(m.globalNumber, 20)
        XCTAssertEqual(m.integer(253), 838_632_929)
        XCTAssertEqual(m.integer(0), -575_480_966)
        XCTAssertNil(m[3], "heart rate 0xFF is FIT's invalid value: absent")
        XCTAssertEqual(try XCTUnwrap(m.value(5, scale: 100)), 3.22, accuracy: 1e-12)
        XCTAssertEqual(FITProfile.json(m),
                       #"{"message":"record","fields":{"timestamp":838632929,"position_lat":-575480966,"distance":3.22}}"#)
    }

    func testBigEndianDefinitionReadsTheSameValues() throws {
        let little = try decodeAll(recordFile(heartRate: 120))
        let big = try decodeAll(recordFile(bigEndian: true, heartRate: 120))
        XCTAssertEqual(big.map(\.fields), little.map(\.fields))
        XCTAssertEqual(big.first?.integer(3), 120)
    }

    func testTwelveByteHeaderWithoutCRC() throws {
        var b = FITBytes()
        b.define(local: 0, global: 0, [(0, 1, 0x00)])
        b.data(local: 0, [4])
        XCTAssertEqual(try decodeAll(b.file(headerSize: 12)).first?.integer(0), 4)
    }

    func testCompressedTimestampsCountFromTheLastTimestamp() throws {
        var b = FITBytes()
        b.define(local: 0, global: 21, [(253, 4, 0x86), (0, 1, 0x00)])
        b.define(local: 1, global: 20, [(3, 1, 0x02)])
        b.data(local: 0, le32(1000) + [0])  // 1000 = 0b1111101000: low five bits 8
        b.compressed(local: 1, timeOffset: 10, [130])  // 8 → 10: +2
        b.compressed(local: 1, timeOffset: 3, [131])  // 10 → 3 wraps: +25
        let m = try decodeAll(b.file())
        XCTAssertEqual(m.map { $0.integer(253) }, [1000, 1002, 1027])
        XCTAssertEqual(m.map { $0.integer(3) }, [nil, 130, 131])
    }

    func testCompressedTimestampWithoutAFullOneIsAnError() {
        var b = FITBytes()
        b.define(local: 1, global: 20, [(3, 1, 0x02)])
        b.compressed(local: 1, timeOffset: 3, [131])
        assertError(b.file(), contains: "compressed timestamp before any full timestamp")
    }

    func testHeaderCRCMismatchIsRefused() {
        var bytes = recordFile()
        bytes[12] ^= 0x01
        assertError(bytes, contains: "at byte 12: header CRC mismatch")
    }

    func testFileCRCMismatchIsRefusedNamingTheByte() {
        var bytes = recordFile()
        bytes[20] ^= 0x40
        assertError(bytes, contains: "at byte \(bytes.count - 2): file CRC mismatch")
        var unchecked = try? FITDecoder(bytes: bytes, path: "t.fit", checksCRC: false)
        XCTAssertEqual(try unchecked?.next()?.globalNumber, 20, "a fuzzer's decoder reads past the CRC")
    }

    func testTruncatedFileIsRefused() {
        let bytes = recordFile()
        for cut in [1, 2, 5, bytes.count - 14] {
            assertError(Array(bytes.dropLast(cut)), contains: "it is truncated")
        }
        assertError(Array(bytes.prefix(10)), contains: "expected a FIT header (12 or 14 bytes), found 10 bytes")
    }

    func testMessageRunningPastTheRecordsIsAnError() {
        var b = FITBytes()
        b.define(local: 0, global: 20, [(253, 4, 0x86)])
        b.data(local: 0, [1, 2])  // two of four bytes: the record area ends inside the field
        assertError(b.file(), contains: "the message runs past the end of the records")
    }

    func testNotFITAndUnknownVersionAndMissingDefinition() {
        var bytes = recordFile()
        bytes[9] = UInt8(ascii: "X")
        assertError(bytes, contains: "not a FIT file header")
        var b = FITBytes()
        b.data(local: 5, [1])
        assertError(b.file(), contains: "local type 5 before any definition")
        var v = recordFile()
        v[1] = 0x30
        v[12] = 0
        v[13] = 0  // header CRC "not computed"
        assertError(v, contains: "FIT protocol version 3.0")
    }

    func testStringsArraysAndSizesThatAreNotWholeValues() throws {
        var b = FITBytes()
        b.define(local: 0, global: 0, [(8, 6, 0x07), (9, 4, 0x84), (10, 4, 0x84), (11, 3, 0x84)])
        b.data(local: 0, Array("abc".utf8) + [0, 0, 0] + le16(7) + le16(0xFFFF) + le16(0xFFFF) + le16(0xFFFF) + [1, 2, 3])
        let m = try XCTUnwrap(try decodeAll(b.file()).first)
        XCTAssertEqual(m[8], .text("abc"))
        XCTAssertEqual(m[9], .array([.integer(7), .integer(0xFFFF)]), "an array with one valid element is kept whole")
        XCTAssertNil(m[10], "an array of invalid values only is absent")
        XCTAssertEqual(m[11], .array([.integer(1), .integer(2), .integer(3)]), "3 bytes of uint16: read as bytes")
    }

    func testDeveloperFieldsAreSkippedAndNamedWhenDescribed() throws {
        var b = FITBytes()
        // field_description: developer 0, field 0, uint16, "stroke_force", scale 10.
        b.define(local: 0, global: 206, [(0, 1, 0x02), (1, 1, 0x02), (2, 1, 0x02), (3, 16, 0x07), (6, 1, 0x02)])
        var name = Array("stroke_force".utf8)
        name += [UInt8](repeating: 0, count: 16 - name.count)
        b.data(local: 0, [0, 0, 0x84] + name + [10])
        b.define(local: 1, global: 20, [(253, 4, 0x86)], developer: [(0, 2, 0), (1, 3, 0)])
        b.data(local: 1, le32(500) + le16(1234) + [9, 9, 9])
        b.data(local: 1, le32(501) + le16(0xFFFF) + [0xFF, 0xFF, 0xFF])
        let m = try decodeAll(b.file())
        XCTAssertEqual(m.count, 3)
        XCTAssertEqual(m[1].integer(253), 500)
        XCTAssertEqual(m[1].developerFields.map(\.name), ["stroke_force", nil])
        XCTAssertEqual(m[1].developerFields.first?.value, .integer(1234))
        XCTAssertEqual(m[1].developerFields.last?.value, .array([.integer(9), .integer(9), .integer(9)]))
        XCTAssertEqual(m[2].integer(253), 501, "the bytes of the developer fields were skipped")
        XCTAssertTrue(m[2].developerFields.isEmpty)
        XCTAssertTrue(FITProfile.json(m[1]).contains(#""stroke_force":123.4,"developer_0_1":[9,9,9]"#), FITProfile.json(m[1]))
    }

    func testChainedFilesAreReadOneAfterTheOther() throws {
        var first = FITBytes()
        first.define(local: 0, global: 0, [(0, 1, 0x00)])
        first.data(local: 0, [4])
        var decoder = try FITDecoder(bytes: first.file() + recordFile(heartRate: 99), path: "t.fit")
        var messages: [FITMessage] = []
        while let m = try decoder.next() { messages.append(m) }
        XCTAssertEqual(messages.map(\.globalNumber), [0, 20])
        XCTAssertEqual(messages.last?.integer(3), 99)
        XCTAssertEqual(decoder.filesRead, 2)
        assertError(first.file() + [1, 2, 3], contains: "expected a FIT header (12 or 14 bytes), found 3 bytes")
    }

    /// Valid bodies with random bytes changed, cut or inserted, with a matching CRC (so they are
    /// decoded): every outcome is messages or an error, never a trap or a hang.
    func testHostileBytesNeverTrap() throws {
        var random = SplitMix64(state: 31)
        var base = FITBytes()
        base.define(local: 0, global: 21, [(253, 4, 0x86), (0, 1, 0x00), (3, 8, 0x07)])
        base.define(local: 1, global: 20, bigEndian: true, [(3, 1, 0x02), (5, 4, 0x86), (9, 6, 0x84)], developer: [(0, 3, 0)])
        for k in 0..<6 {
            base.data(local: 0, le32(1000 + UInt32(k)) + [0] + Array("abcdefgh".utf8))
            base.compressed(local: 1, timeOffset: UInt8(k), [130] + le32(7) + [1, 2, 3, 4, 5, 6] + [8, 9, 10])
        }
        var decoded = 0, refused = 0, finished = 0
        for _ in 0..<400 {
            var b = base
            for _ in 0..<(1 + random.next() % 4) {
                let at = Int(random.next() % UInt64(b.body.count))
                switch random.next() % 3 {
                case 0: b.body[at] = UInt8(truncatingIfNeeded: random.next())
                case 1: b.body.insert(UInt8(truncatingIfNeeded: random.next()), at: at)
                default: b.body.removeSubrange(at...)
                }
                if b.body.isEmpty { break }
            }
            do {
                var decoder = try FITDecoder(bytes: b.file(), path: "h.fit")
                while try decoder.next() != nil { decoded += 1 }
                finished += 1
            } catch is TraceError {
                refused += 1
            }
        }
        XCTAssertEqual(finished + refused, 400)
        XCTAssertGreaterThan(refused, 0)
        XCTAssertGreaterThan(decoded, 0)
    }
}

/// The FIT activity reader: NK's 3×250 m outing against the device's own figures and its own
/// TCX export of the same outing; the sport and file-type refusals on files made by hand.
final class FITReaderTests: XCTestCase {
    let directory = TemporaryDirectory()
    override func tearDown() { directory.remove() }

    func metadata(_ records: [TraceRecord]) -> [String: String] {
        var out: [String: String] = [:]
        for case .metadata(let key, let value) in records { out[key] = value }
        return out
    }

    func testNK3x250mReadsToTheDevicesDistanceInThreeLaps() throws {
        let records = try readAll(try FITReader(path: TestPaths.fixture("devices/3x250m.fit")))
        let meta = metadata(records)
        // PROVENANCE.md: 751.65 m in 3 laps.
        XCTAssertEqual(meta["device_total_distance_m"], "751.65")
        XCTAssertEqual(meta["device_intervals"], "3")
        let laps = try (1...3).map { try XCTUnwrap(Double(meta["device_interval_\($0)_distance_m"] ?? "")) }
        XCTAssertEqual(laps.reduce(0, +), 751.65, accuracy: 0.005)
        // No lap or session gives total_cycles: the records' running count (a record a stroke,
        // the count restarting at each lap) ends at 32, 31 and 31 — the TCX's 94 trackpoints.
        XCTAssertEqual(meta["device_total_strokes"], "94")
        XCTAssertEqual((1...3).map { meta["device_interval_\($0)_strokes"] }, ["32", "31", "31"])
        XCTAssertEqual(meta["source_format"], "FIT")
        XCTAssertEqual(meta["device"], "Nielsen-Kellerman")
        XCTAssertEqual(meta["device_serial"], "2136923")
        XCTAssertEqual(meta["device_firmware"], "1.26")
        // The session's start_time, 838632928 s after 1989-12-31 (the timer-start event's time);
        // the first record is a second later (the TCX's first trackpoint, 09:35:29).
        XCTAssertEqual(meta["start_utc"], "2016-07-28T09:35:28.000Z")
        let notes = records.compactMap { if case .note(let n) = $0 { return n } else { return nil } }
        XCTAssertEqual(notes.map(\.text), ["FIT lap 1", "FIT lap 2", "FIT lap 3"])
        // The device's strokes as references, one a record (its count advances by one each).
        let references = records.compactMap { if case .reference(let r) = $0 { return r } else { return nil } }
        XCTAssertEqual(references.map(\.strokeCount), (1...94).map { $0 })
        XCTAssertEqual(references.last?.distance ?? 0, 750.29, accuracy: 0.005, "the last record's own distance (the TCX's last DistanceMeters)")
    }

    /// The laps' start and end times (UTC) of a FIT file, from `FITDecoder` directly.
    static func lapEnds(_ path: String) throws -> [Double] {
        var decoder = try FITDecoder(path: path)
        var ends: [Double] = []
        while let m = try decoder.next() {
            guard m.globalNumber == 19 else { continue }
            for field: UInt8 in [2, 253] { if let v = m.integer(field) { ends.append(Double(v) + 631_065_600) } }
        }
        return ends
    }

    /// NK's TCX of the same outing: the same 94 points, times, positions and heart rates.
    func testFixesAreTheDevicesTCXTrackpoints() throws {
        let tcx = try String(contentsOfFile: TestPaths.fixture("devices/3x250m.tcx"), encoding: .utf8)
        let trackpoints = tcx.components(separatedBy: "<Trackpoint>").dropFirst()
        func values(_ tag: String) -> [String] {
            trackpoints.compactMap { $0.components(separatedBy: "<\(tag)>").dropFirst().first.map { String($0.prefix { $0 != "<" }) } }
        }
        let times = values("Time").compactMap { ISO8601DateFormatter().date(from: $0)?.timeIntervalSince1970 }
        let latitudes = values("LatitudeDegrees").compactMap(Double.init)
        let longitudes = values("LongitudeDegrees").compactMap(Double.init)
        let heartRates = values("Value").compactMap(Double.init)
        XCTAssertEqual(times.count, 94)
        var reader = try FITReader(path: TestPaths.fixture("devices/3x250m.fit"))
        let records = try readAll(&reader)
        let all = records.compactMap { if case .fix(let f) = $0 { return f } else { return nil } }
        let beats = records.compactMap { if case .heartRate(let h) = $0 { return h } else { return nil } }
        // The laps' own start and end positions come as fixes too, where no record has them.
        let lapEnds = try Self.lapEnds(TestPaths.fixture("devices/3x250m.fit"))
        let fixes = all.filter { f in !lapEnds.contains { abs($0 - (f.utc ?? 0)) < 0.001 } || times.contains { abs($0 - (f.utc ?? 0)) < 0.001 } }
        XCTAssertEqual(all.count - fixes.count, lapEnds.filter { t in !times.contains { abs($0 - t) <= 0.5 } }.count)
        XCTAssertGreaterThanOrEqual(all.count - fixes.count, 3, "each lap's start, a second before its first record")
        XCTAssertEqual(fixes.count, times.count)
        for (k, fix) in fixes.enumerated() where k < times.count {
            XCTAssertEqual(fix.utc ?? 0, times[k], accuracy: 0.001)
            XCTAssertEqual(fix.latitude, latitudes[k], accuracy: 1e-9)
            XCTAssertEqual(fix.longitude, longitudes[k], accuracy: 1e-9)
        }
        XCTAssertEqual(beats.map(\.bpm), heartRates)
        XCTAssertEqual(beats.map(\.time), fixes.map(\.time))
        XCTAssertEqual(records.filter { if case .reference = $0 { return true } else { return false } }.count, 94,
                       "one device stroke per record: the running count (total_cycles) advances by one each")
        // The pauses between laps (no records) are cut from the trace time: the trace lasts as
        // long as the device's three laps (56.6 + 59.2 + 55.6 s), to the records' whole seconds.
        XCTAssertEqual(fixes.first?.time, 1)
        XCTAssertEqual(all.first?.time, 0, "the first lap's start")
        // One second of each of the two pauses is kept, so that a lap's end and the next one's start
        // are two moments.
        XCTAssertEqual(fixes.last?.time ?? 0, 56.6 + 59.2 + 55.6 + 2, accuracy: 3)
        XCTAssertTrue(zip(fixes, fixes.dropFirst()).allSatisfy { $1.time - $0.time <= 5 })
        XCTAssertEqual(reader.statistics.fixRows, all.count)
        XCTAssertEqual(reader.statistics.totalSkipped, 0)
    }

    /// A small activity: file_id (type), a session of `sport`, two records (the second without
    /// a position).
    func activity(type: UInt8 = 4, sport: UInt8) -> String {
        var b = FITBytes()
        b.define(local: 0, global: 0, [(0, 1, 0x00), (1, 2, 0x84)])
        b.data(local: 0, [type] + le16(1))
        b.define(local: 1, global: 20, [(253, 4, 0x86), (0, 4, 0x85), (1, 4, 0x85), (3, 1, 0x02), (6, 2, 0x84)])
        let lat = le32(UInt32(bitPattern: 600_000_000)), lon = le32(UInt32(bitPattern: -10_000_000))
        b.data(local: 1, le32(1_000_000_000) + lat + lon + [140] + le16(4100))
        b.data(local: 1, le32(1_000_000_001) + le32(0x7FFF_FFFF) + le32(0x7FFF_FFFF) + [141] + le16(4200))
        b.define(local: 2, global: 18, [(253, 4, 0x86), (5, 1, 0x00), (9, 4, 0x86)])
        b.data(local: 2, le32(1_000_000_001) + [sport] + le32(420))
        return directory.file("a\(type)-\(sport).fit", bytes: b.file())
    }

    func testARideIsRefusedInOneLineUnlessAnySport() throws {
        XCTAssertThrowsError(try FITReader(path: activity(sport: 2))) { error in
            XCTAssertEqual((error as? TraceError)?.message,
                           "not a rowing activity (sport cycling); pass --any-sport to read it anyway")
        }
        let records = try readAll(try FITReader(path: activity(sport: 2), options: TraceOpenOptions(anySport: true)))
        let fix = try XCTUnwrap(records.compactMap { if case .fix(let f) = $0 { return f } else { return nil } }.first)
        XCTAssertEqual(fix.latitude, 600_000_000 * 180 / 2_147_483_648.0, accuracy: 1e-12)
        XCTAssertEqual(fix.longitude, -10_000_000 * 180 / 2_147_483_648.0, accuracy: 1e-12)
        XCTAssertEqual(fix.speed ?? 0, 4.1, accuracy: 1e-12)
        XCTAssertEqual(fix.utc ?? 0, 1_000_000_000 + 631_065_600)
        XCTAssertEqual(metadata(records)["device_total_distance_m"], "4.2")
    }

    func testRowingReadsAndARecordWithoutPositionGivesItsHeartRateOnly() throws {
        var reader = try FITReader(path: activity(sport: 15))
        let records = try readAll(&reader)
        let data = records.filter { $0.time != nil }
        XCTAssertEqual(data.count, 3)
        XCTAssertEqual(data.last, .heartRate(HeartRateSample(time: 1, bpm: 141)))
        XCTAssertEqual(reader.statistics.skipped(.noPosition), 1)
        XCTAssertNoThrow(try FITReader(path: activity(sport: 0)), "generic, as NK writes")
    }

    func testACourseIsNotAnActivity() {
        XCTAssertThrowsError(try FITReader(path: activity(type: 6, sport: 15))) { error in
            XCTAssertTrue("\(error)".contains("this FIT file is a course file, not an activity"), "\(error)")
        }
    }

    func testTheOpenerDetectsFIT() throws {
        XCTAssertEqual(try TraceOpener.detectFormat(path: TestPaths.fixture("devices/3x250m.fit")), .fit)
    }
}
