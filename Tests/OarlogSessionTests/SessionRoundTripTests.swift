import Foundation
import OarlogCore
import OarlogDSP
import OarlogPipeline
@testable import OarlogSession
import XCTest

final class SessionRoundTripTests: XCTestCase {
    var directory = ""
    override func setUpWithError() throws { directory = try makeTemporaryDirectory() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: directory) }

    func testCRC32CCheckValueAndContinuation() {
        let text = Array("123456789".utf8)
        XCTAssertEqual(CRC32C.checksum(text), 0xE306_9283)
        XCTAssertEqual(CRC32C.checksum(Array(text[4...]), continuing: CRC32C.checksum(Array(text[..<4]))), 0xE306_9283)
        // 32 zero bytes: the iSCSI test vector (RFC 3720 B.4).
        XCTAssertEqual(CRC32C.checksum([UInt8](repeating: 0, count: 32)), 0x8A91_36AA)
        XCTAssertEqual(CRC32C.checksum([UInt8](repeating: 0xFF, count: 32)), 0x62A8_AB43)
        XCTAssertEqual(CRC32C.checksum(Array(0..<32)), 0x46DD_794E)
    }

    /// Everything the pipeline saw and concluded reads back bit-exact: records in order, strokes,
    /// summary and metadata.
    func testSimulatedSessionRoundTripsBitExact() throws {
        let records = try simulatorRecords(minutes: 3)
        let path = directory + "/a.oarlog"
        let truth = try recordSession(records, to: path)
        let reader = try SessionReader(path: path)
        XCTAssertTrue(reader.isComplete)
        XCTAssertEqual(reader.metadata, testMetadata())
        let back = try readAll(path)
        XCTAssertEqual(back.count, records.count)
        XCTAssertEqual(back.map(bits), records.map(bits))
        XCTAssertGreaterThan(truth.strokes.count, 60)  // 3 min at 26 spm
        XCTAssertEqual(try reader.strokes(), truth.strokes)
        XCTAssertEqual(reader.summary?.analysis, truth.summary)
        let stats = try XCTUnwrap(reader.summary?.statistics)
        XCTAssertEqual(stats.accelerometerSamples, records.filter { if case .accel = $0 { return true }; return false }.count)
        XCTAssertEqual(stats.fixes, records.filter { if case .fix = $0 { return true }; return false }.count)
        XCTAssertEqual(stats.strokes, truth.strokes.count)
        // 180 s of data in chunks of under 1 s each: at least 180 chunks.
        XCTAssertGreaterThanOrEqual(stats.chunks, 180)
    }

    /// Every record kind, optional fields absent and present, NaN, -0, infinities, non-nanosecond
    /// times (raw float64 block), jitter, int16 counts, events and unknown sensor text.
    func testEveryRecordKindAndAwkwardValuesRoundTrip() throws {
        var records: [TraceRecord] = [.metadata(key: "start_utc", value: "2026-05-02T07:00:00Z"), .metadata(key: "ünïcödé", value: "🚣 ok")]
        var t = 0.0
        for i in 0..<1_000 {
            // Jittered, not nanosecond-exact times for the first 300, then exact 100 Hz.
            t = i < 300 ? Double(i) * 0.01 + Double(i % 7) * 1.3e-7 + 1e-13 : Double(i) / 100
            let special: [Float] = [.nan, -0.0, .infinity, -.infinity, .leastNonzeroMagnitude, .greatestFiniteMagnitude]
            let x: Float = i % 50 == 0 ? special[(i / 50) % special.count] : Float(i) * 0.001
            records.append(.accel(AccelSample(time: t, x: x, y: -Float(i), z: 9.80665)))
            if i % 100 == 50 {
                records.append(.fix(GPSFix(time: t, utc: 1_777_705_200 + t, latitude: 51.4873 + t * 1e-5, longitude: -0.2241,
                                           speed: i % 200 == 50 ? nil : 4.1, course: .nan, horizontalAccuracy: 2.5, altitude: -0.0,
                                           mode: .threeD, satellitesUsed: i % 300 == 50 ? nil : 11)))
            }
            if i == 420 { records.append(.note(Note(time: t, text: "Firm 10 — \"go\"\n"))) }
            if i == 430 { records.append(.gap(Gap(sensor: .gps, start: t, end: t + 3.5, reason: "gpsd restarted"))) }
            if i == 440 { records.append(.reference(ReferenceStroke(time: t, distance: 123.4, split: 118.2, strokeRate: nil, speed: 4.2, strokeCount: 17))) }
            if i == 450 { records.append(.reference(ReferenceStroke(time: t))) }
            if i == 455 { records.append(.reference(ReferenceStroke(time: t, distance: 130.2, strokeCount: 18, power: 312.5))) }
            if i == 460 { records.append(.heartRate(HeartRateSample(time: t, bpm: 163))) }
            if i == 461 { records.append(.heartRate(HeartRateSample(time: t, bpm: 171.5, sensor: "bow"))) }
        }
        let path = directory + "/kinds.oarlog"
        var options = SessionWriter.Options(durability: .never)
        options.accelerometerCountsScale = 0.001  // only some blocks are exact multiples; the rest fall back to float32
        let writer = try SessionWriter(path: path, metadata: testMetadata(), options: options)
        for r in records { try writer.append(r) }
        let event = SessionEvent(time: 5.5, name: "fence.enter", fields: [.init("fence", "500 m mark"), .init("side", "port")])
        try writer.append(event)
        let stroke = StrokeMetrics(stroke: StrokeEvent(index: 3, catchTime: 2.25, driveDuration: 0.7, recoveryDuration: nil,
                                                       peakAcceleration: 3.5, strokeRate: 24.5), smoothedRate: nil, split: 121.0,
                                   distancePerStroke: 9.5, distance: nil)
        try writer.append(stroke)
        try writer.close()
        XCTAssertEqual(try readAll(path).map(bits), records.map(bits))
        var entries = try SessionReader(path: path).entries()
        var events: [SessionEvent] = [], strokes: [StrokeMetrics] = []
        while let e = try entries.next() {
            if case .event(let ev) = e { events.append(ev) }
            if case .stroke(let s) = e { strokes.append(s) }
        }
        XCTAssertEqual(events, [event])
        XCTAssertEqual(strokes, [stroke])
    }

    /// int16 counts are used when every value is an exact multiple of the scale: 6 bytes of values
    /// per sample instead of 12, still bit-exact.
    func testIntegerCountsAreCompactAndExact() throws {
        let scale: Float = 0.0383  // ADXL345 full resolution, m/s² per count (3.9 mg)
        var records: [TraceRecord] = []
        var rng = SystemRandomNumberGenerator()
        for i in 0..<60_000 {
            let c = (Int16.random(in: -300...300, using: &rng), Int16.random(in: -300...300, using: &rng), Int16.random(in: 200...300, using: &rng))
            records.append(.accel(AccelSample(time: Double(i) / 100, x: Float(c.0) * scale, y: Float(c.1) * scale, z: Float(c.2) * scale)))
        }
        var sizes: [Int] = []
        for countsScale in [nil, scale] as [Float?] {
            let path = directory + "/counts-\(countsScale == nil ? "float" : "int").oarlog"
            var options = SessionWriter.Options(durability: .never)
            options.accelerometerCountsScale = countsScale
            let writer = try SessionWriter(path: path, metadata: testMetadata(), options: options)
            for r in records { try writer.append(r) }
            try writer.close()
            XCTAssertEqual(try readAll(path).map(bits), records.map(bits))
            let reader = try SessionReader(path: path)
            sizes.append(reader.dataEnd - reader.dataStart)  // the chunks only: metadata and index excluded
        }
        let floatBytesPerSample = Double(sizes[0]) / 60_000, intBytesPerSample = Double(sizes[1]) / 60_000
        print("bytes per accelerometer sample in chunks (100 Hz, no GPS): float32 \(floatBytesPerSample), int16 counts \(intBytesPerSample)")
        // 12 (or 6) bytes of values + about 63 (67) bytes of frame, chunk and block headers per 100-sample chunk.
        XCTAssertEqual(floatBytesPerSample, 12.63, accuracy: 0.02)
        XCTAssertEqual(intBytesPerSample, 6.67, accuracy: 0.02)
    }

    func testSeekByTimeWithIndexAndByLinearScan() throws {
        let records = try simulatorRecords(minutes: 2)
        let path = directory + "/seek.oarlog"
        var options = SessionWriter.Options(durability: .never)
        options.indexCapacity = 8  // forces the sparse index to thin out (stride > 1)
        try recordSession(records, to: path, options: options)
        let reader = try SessionReader(path: path)
        let index = try XCTUnwrap(reader.chunkIndex)
        XCTAssertLessThanOrEqual(index.count, 8)
        // Cut the tail off (index, summary, footer): the reader falls back to scanning.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let noTail = directory + "/seek-notail.oarlog"
        try bytes.prefix(reader.dataEnd).write(to: URL(fileURLWithPath: noTail))
        XCTAssertFalse(try SessionReader(path: noTail).isComplete)
        for t in [0.0, 0.005, 17.3, 59.99, 60.0, 119.5, 500] {
            let expected = records.filter { r in r.time.map { $0 >= t } ?? false }.map(bits)
            XCTAssertEqual(try readAll(path, from: t).map(bits), expected, "from \(t) with the index")
            XCTAssertEqual(try readAll(noTail, from: t).map(bits), expected, "from \(t) by scanning")
        }
    }

    func testReadersRejectOtherFilesAndFutureMajorVersions() throws {
        let csv = directory + "/trace.csv"
        try "time,ax,ay,az\n0.00,0.1,0.2,9.8\n".write(toFile: csv, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try SessionReader(path: csv)) { error in
            XCTAssertEqual("\(error)", "\(csv) is not an Oarlog session file (it starts with \"time,ax,ay,a\", which looks like text)")
        }
        let empty = directory + "/empty.oarlog"
        FileManager.default.createFile(atPath: empty, contents: Data())
        XCTAssertThrowsError(try SessionReader(path: empty)) { XCTAssertTrue("\($0)".contains("it is empty"), "\($0)") }
        let mcap = directory + "/x.mcap"
        FileManager.default.createFile(atPath: mcap, contents: Data([0x89, 0x4D, 0x43, 0x41, 0x50, 0x30, 0x0D, 0x0A, 0, 0, 0, 0]))
        XCTAssertThrowsError(try SessionReader(path: mcap)) { XCTAssertTrue("\($0)".contains("it is an MCAP file"), "\($0)") }
        XCTAssertThrowsError(try SessionRecovery.recover(mcap)) { XCTAssertTrue("\($0)".contains("not an Oarlog session"), "\($0)") }

        let path = directory + "/future.oarlog"
        try recordSession(Array(try simulatorRecords(minutes: 0.1)), to: path)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        bytes[8] = 2  // major version 2
        bytes[10] = 1
        try bytes.write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try SessionReader(path: path)) { error in
            XCTAssertEqual(error as? SessionError, .unsupportedVersion(path: path, major: 2, minor: 1))
            XCTAssertTrue("\(error)".contains("format version 2.1; this oarlog reads version 1.x — update oarlog"), "\(error)")
        }
        XCTAssertThrowsError(try SessionRecovery.recover(path)) { XCTAssertEqual($0 as? SessionError, .unsupportedVersion(path: path, major: 2, minor: 1)) }
        XCTAssertThrowsError(try SessionReader(path: directory)) { XCTAssertTrue("\($0)".contains("directory"), "\($0)") }
    }

    /// A newer minor version may add record kinds, frame kinds and trailing fields: this reader
    /// skips what it does not know and reads the rest.
    func testUnknownKindsAndTrailingFieldsAreSkipped() throws {
        var file = ByteWriter()
        file.raw(SessionFormat.magic)
        file.u16(1)
        file.u16(7)  // minor 7: newer than this build
        var f = FrameBuilder()
        f.begin(.metadata)
        var m = testMetadata()
        m.extra = [.init("boat", "Lady Margaret II")]
        m.encode(into: &f.w)
        f.end()
        file.raw(f.w)
        f.begin(.chunk)
        f.w.u32(0); f.w.f64(1.0); f.w.f64(2.0); f.w.u32(4); f.w.u32(0)
        var payload = ByteWriter()
        RecordCoding.encodeFix(GPSFix(time: 1.0, latitude: 51, longitude: -0.2, mode: .twoD), into: &payload)
        payload.u64(0xDEAD_BEEF)  // a field appended by a newer writer
        f.w.u8(RecordKind.fix.rawValue); f.w.varint(UInt64(payload.count)); f.w.raw(payload)
        f.w.u8(0x7E); f.w.varint(5); f.w.raw([1, 2, 3, 4, 5])  // an unknown record kind
        payload.removeAll()
        RecordCoding.encodeGap(Gap(sensor: .accelerometer, start: 1.5, end: 1.6, reason: "x"), into: &payload)
        f.w.u8(RecordKind.gap.rawValue); f.w.varint(UInt64(payload.count)); f.w.raw(payload)
        payload.removeAll()
        payload.f64(2.0); payload.f64(2.5); payload.string("barometer"); payload.string("new sensor")
        f.w.u8(RecordKind.gap.rawValue); f.w.varint(UInt64(payload.count)); f.w.raw(payload)
        f.end()
        file.raw(f.w)
        f.begin(.chunk)
        f.w.bytes[4] = 0x42  // an unknown frame kind (CRC computed over it)
        f.w.raw([9, 9, 9])
        f.end()
        file.raw(f.w)
        let path = directory + "/newer.oarlog"
        try Data(file.bytes).write(to: URL(fileURLWithPath: path))
        let reader = try SessionReader(path: path)
        XCTAssertEqual(reader.minorVersion, 7)
        XCTAssertEqual(reader.metadata.extra, [.init("boat", "Lady Margaret II")])
        XCTAssertFalse(reader.isComplete)
        XCTAssertEqual(try readAll(path), [.fix(GPSFix(time: 1.0, latitude: 51, longitude: -0.2, mode: .twoD)),
                                            .gap(Gap(sensor: .accelerometer, start: 1.5, end: 1.6, reason: "x"))])
        let report = try SessionRecovery.recover(path, to: directory + "/newer-fixed.oarlog", sync: false)
        XCTAssertEqual(report.outcome, .intact, "\(report)")
        XCTAssertTrue(try SessionReader(path: directory + "/newer-fixed.oarlog").isComplete)
        XCTAssertEqual(try readAll(directory + "/newer-fixed.oarlog").count, 2)
    }

    /// Chunks are closed before they span 1 s of data.
    func testChunksHoldLessThanOneSecond() throws {
        let records = try simulatorRecords(minutes: 1)
        let path = directory + "/chunks.oarlog"
        try recordSession(records, to: path)
        let file = try RandomAccessFile(path: path)
        let scanner = FrameScanner(file: file)
        var offset = try SessionReader(path: path).dataStart
        var spans: [Double] = []
        while case .frame(let kind, let payload, let next) = try scanner.frame(at: offset), kind == FrameKind.chunk.rawValue {
            var r = ByteReader(payload)
            let h = try ChunkHeader.decode(&r)
            if !h.firstTime.isNaN { spans.append(h.lastTime - h.firstTime) }
            offset = next
        }
        XCTAssertGreaterThanOrEqual(spans.count, 60)
        XCTAssertLessThan(spans.max() ?? 1, 1.0)
        XCTAssertGreaterThan(spans.max() ?? 0, 0.98)  // and they are not needlessly small
    }
}

