import Foundation
import OarlogCore
@testable import OarlogTrace
import OarlogTestSupport
import XCTest

/// The reader that parses ahead on a second thread gives exactly what the native reader gives
/// on its own: every record (field for field, bit for bit), the same batches, the same errors
/// at the same lines, the same statistics at every step; and its thread ends when it is dropped.
final class ParseAheadTraceReaderTests: XCTestCase {
    private var dir: TemporaryDirectory!
    override func setUp() { dir = TemporaryDirectory() }
    override func tearDown() { dir.remove() }

    /// What a consumer saw, step by step.
    enum Step: Equatable {
        /// A batch of plain accelerometer samples, as bit patterns (time; x, y; z).
        case samples([UInt64])
        case record(TraceRecord, bits: [UInt64])
        case end
        case failed(String)
    }

    static func bits(_ s: AccelSample) -> [UInt64] {
        [s.time.bitPattern, UInt64(s.x.bitPattern) << 32 | UInt64(s.y.bitPattern), UInt64(s.z.bitPattern)]
    }

    /// Reads `source` as the pipeline does (a batch of up to `batch` samples, else one record;
    /// record by record for 0), with the statistics after every step, up to the end or
    /// `failures` errors. (The native reader's NUL error is not final: asked again, it goes on
    /// with the lines before the NUL. So the comparisons stop at the first error.)
    static func drain<Source: RecordSource & TraceStatisticsReporting>(_ source: inout Source, batch: Int, failures limit: Int = 1)
        -> (steps: [Step], statistics: [TraceReadStatistics]) {
        var steps: [Step] = []
        var statistics: [TraceReadStatistics] = []
        let buffer = UnsafeMutableBufferPointer<AccelSample>.allocate(capacity: max(batch, 1))
        defer { buffer.deallocate() }
        var failures = 0
        while failures < limit {
            do {
                if batch > 0 {
                    let n = try source.nextAccelBatch(into: UnsafeMutableBufferPointer(rebasing: buffer[0..<batch]))
                    if n > 0 {
                        steps.append(.samples(buffer[0..<n].flatMap(bits)))
                        statistics.append(source.statistics)
                        continue
                    }
                }
                guard let record = try source.next() else {
                    steps.append(.end)
                    statistics.append(source.statistics)
                    break
                }
                var recordBits: [UInt64] = []
                if case .accel(let s) = record { recordBits = bits(s) }
                steps.append(.record(record, bits: recordBits))
            } catch {
                steps.append(.failed("\(error)"))
                failures += 1
            }
            statistics.append(source.statistics)
        }
        return (steps, statistics)
    }

    /// A 100 Hz trace of `rows` accelerometer rows with, among them, fixes, notes, comments,
    /// blank lines, rows the fast path declines (an exponent), rows skipped (time going
    /// backward, an unknown kind, an implausible acceleration) and `extra` lines by row index.
    func writeTrace(_ name: String, rows: Int, extra: [Int: String] = [:]) -> String {
        var text = "# oarlog-trace: 1\n# start_utc: 2026-05-02T07:14:03.250Z\nt,kind,a,b,c\n"
        var generator = SeededGenerator(seed: 30)
        for i in 0..<rows {
            let t = Double(i) / 100
            if let line = extra[i] { text += line + "\n" }
            let x = Float(Int(generator.next() % 20001) - 10000) / 1000
            let y = Float(Int(generator.next() % 2001) - 1000) / 1000
            let z = 9.81 + Float(Int(generator.next() % 2001) - 1000) / 1000
            if i % 333 == 17 {
                text += "\(t),accel,\(x)e0,\(y),\(z)\n"
            } else {
                text += "\(t),accel,\(x),\(y),\(z)\n"
            }
            if i % 100 == 50 { text += "\(t),gps,51.4873\(i % 10),-0.22413,3.95,92.5,2.5\n" }
            if i % 997 == 3 { text += "# a comment\n" }
            if i % 1500 == 7 { text += "\n" }
            if i % 2001 == 9 && i > 1000 { text += "\(t - 1),accel,1,2,3\n" }
            if i % 5003 == 11 { text += "\(t),baro,1013.2\n" }
            if i % 4001 == 13 { text += "\(t),accel,1,2,9999\n" }
            if i % 3001 == 21 { text += "\(t),note,push at the \(i)\n" }
        }
        return dir.file(name, text)
    }

    /// Block sizes from tiny (every few rows a new block, one record a block) to the default.
    static let blockSizes: [(count: Int, samples: Int, records: Int)] = [(2, 64, 1), (3, 1000, 7), (4, 8192, 512)]

    func assertSameAsNative(_ path: String, chunkBytes: Int = NativeTraceReader.defaultChunkBytes,
                            maxLineBytes: Int = NativeTraceReader.defaultMaxLineBytes,
                            batches: [Int] = [0, 1, 100, 4096], file: StaticString = #filePath, line: UInt = #line) throws {
        for batch in batches {
            var native = try NativeTraceReader(path: path, chunkBytes: chunkBytes, maxLineBytes: maxLineBytes)
            let expected = Self.drain(&native, batch: batch)
            for size in Self.blockSizes {
                let reader = try NativeTraceReader(path: path, chunkBytes: chunkBytes, maxLineBytes: maxLineBytes)
                var ahead = try ParseAheadTraceReader(reader: reader, blockCount: size.count,
                                                      samplesPerBlock: size.samples, recordsPerBlock: size.records)
                let got = Self.drain(&ahead, batch: batch, failures: 3)
                if case .failed(let message) = got.steps.last {
                    // An error is final: the same error, with the same statistics, every time.
                    XCTAssertEqual(Array(got.steps.suffix(3)), Array(repeating: .failed(message), count: 3), file: file, line: line)
                    let last = got.statistics.suffix(3)
                    XCTAssertTrue(last.allSatisfy { $0 == last.first }, file: file, line: line)
                }
                let failed = expected.steps.last.map { if case .failed = $0 { true } else { false } } ?? false
                XCTAssertEqual(got.steps.count, expected.steps.count + (failed ? 2 : 0), "batch \(batch), blocks \(size)",
                               file: file, line: line)
                if let k = zip(got.steps, expected.steps).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
                    XCTFail("batch \(batch), blocks \(size): step \(k): \(got.steps[k]) ≠ \(expected.steps[k])", file: file, line: line)
                }
                if let k = zip(got.statistics, expected.statistics).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
                    XCTFail("batch \(batch), blocks \(size): statistics at \(k): \(got.statistics[k]) ≠ \(expected.statistics[k])",
                            file: file, line: line)
                }
                XCTAssertEqual(got.statistics.count, expected.statistics.count + (failed ? 2 : 0), file: file, line: line)
            }
        }
    }

    func testSameRecordsBatchesAndStatisticsAsTheNativeReader() throws {
        let path = writeTrace("long.csv", rows: 30_000)
        try assertSameAsNative(path)
        var native = try NativeTraceReader(path: path)
        let steps = Self.drain(&native, batch: 4096)
        // The trace is longer than several default blocks and holds every kind of line above.
        XCTAssertGreaterThan(steps.statistics.last!.accelRows, 3 * ParseAheadTraceReader.defaultSamplesPerBlock)
        for reason in [TraceReadStatistics.SkipReason.timeWentBackward, .unknownKind, .implausibleValue] {
            XCTAssertGreaterThan(steps.statistics.last!.skipped(reason), 0, "\(reason)")
        }
        XCTAssertGreaterThan(steps.statistics.last!.commentLines, 0)
        XCTAssertGreaterThan(steps.statistics.last!.blankLines, 0)
        XCTAssertGreaterThan(steps.statistics.last!.noteRows, 0)
    }

    /// A malformed line far into the trace: the same records before it, then the same error
    /// naming the file and the line, again on every call; the same statistics.
    func testMalformedLineInTheMiddle() throws {
        let path = writeTrace("bad.csv", rows: 20_000, extra: [12_345: "123.455,accel,1.0,x,3"])
        try assertSameAsNative(path)
        var ahead = try ParseAheadTraceReader(path: path)
        let got = Self.drain(&ahead, batch: 4096)
        guard case .failed(let message) = got.steps.last else { return XCTFail("expected an error, got \(got.steps.last!)") }
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        let badLine = lines.firstIndex(where: { $0.hasPrefix("123.455,accel") })! + 1
        XCTAssertTrue(message.hasPrefix(path + ":\(badLine):"), message)
        XCTAssertTrue(message.contains("expected a number for ay"), message)
    }

    /// Errors the batch path meets while refilling (a NUL byte, a line too long) far into the
    /// trace, with small chunks: thrown at the same step as the native reader throws them.
    func testRefillErrorsInTheMiddle() throws {
        let nul = writeTrace("nul.csv", rows: 12_000, extra: [9_000: "90.005,accel,1,2,\u{0}3"])
        try assertSameAsNative(nul, chunkBytes: 4096, maxLineBytes: 200)
        let long = writeTrace("long-line.csv", rows: 12_000, extra: [7_000: "70.005,note," + String(repeating: "a", count: 300)])
        try assertSameAsNative(long, chunkBytes: 4096, maxLineBytes: 200)
    }

    /// Dropping the reader before the end stops its thread and closes the file.
    func testDroppingTheReaderEndsItsThread() throws {
        let path = writeTrace("stop.csv", rows: 20_000)
        let threadsBefore = Self.threadCount()
        do {
            var ahead = try ParseAheadTraceReader(path: path, blockCount: 2, samplesPerBlock: 64, recordsPerBlock: 4)
            for _ in 0..<100 { XCTAssertNotNil(try ahead.next()) }
            XCTAssertEqual(Self.threadCount(), threadsBefore + 1)
            XCTAssertTrue(Self.isOpen(path))
        }
        XCTAssertEqual(Self.threadCount(), threadsBefore)
        XCTAssertFalse(Self.isOpen(path))
    }

    /// A long native trace is parsed ahead; a short one read on the caller's thread.
    func testOpenerParsesLongNativeTracesAhead() throws {
        let long = writeTrace("opener-long.csv", rows: 40_000)
        XCTAssertGreaterThanOrEqual(try FileManager.default.attributesOfItem(atPath: long)[.size] as! Int,
                                    TraceOpener.parseAheadMinimumBytes)
        let source = try TraceOpener.open(path: long)
        XCTAssertTrue(source is ParseAheadTraceReader)
        XCTAssertTrue(try TraceOpener.open(path: writeTrace("opener-short.csv", rows: 100)) is NativeTraceReader)
        var opened = source
        while try opened.next() != nil {}
        var native = try NativeTraceReader(path: long)
        while try native.next() != nil {}
        XCTAssertEqual(TraceOpener.statistics(of: opened), native.statistics)
    }

    static func threadCount() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? 0
    }

    static func isOpen(_ path: String) -> Bool {
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return fds.contains { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + $0)) == path }
    }
}
