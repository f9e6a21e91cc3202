import Foundation
import OarlogCore
@testable import OarlogSession
import XCTest

/// A recording cut at random byte offsets (a power loss mid-write) and copies with random bytes
/// flipped (a failing SD card): the reader and `recover` never crash, keep every record of every
/// chunk before the damage, and lose at most the chunk being written (under 1 s of data).
final class SessionPowerCutTests: XCTestCase {
    struct ChunkSpan {
        var offset: Int
        var end: Int
        var entries: Int
        var firstTime: Double
        var lastTime: Double
    }

    nonisolated(unsafe) static var directory = ""
    nonisolated(unsafe) static var original = Data()
    nonisolated(unsafe) static var entries: [SessionEntry] = []
    nonisolated(unsafe) static var chunks: [ChunkSpan] = []
    nonisolated(unsafe) static var dataStart = 0
    nonisolated(unsafe) static var dataEnd = 0

    override class func setUp() {
        super.setUp()
        do {
            directory = try makeTemporaryDirectory("oarlog-powercut")
            let path = directory + "/original.oarlog"
            try recordSession(try simulatorRecords(minutes: 0.75, seed: 11), to: path)
            original = try Data(contentsOf: URL(fileURLWithPath: path))
            let reader = try SessionReader(path: path)
            dataStart = reader.dataStart
            dataEnd = reader.dataEnd
            var it = reader.entries()
            while let e = try it.next() { entries.append(e) }
            let scanner = FrameScanner(file: try RandomAccessFile(path: path))
            var offset = dataStart
            while offset < dataEnd, case .frame(_, let payload, let next) = try scanner.frame(at: offset) {
                var r = ByteReader(payload)
                let h = try ChunkHeader.decode(&r)
                // The fused speed's blocks count in the chunk's entries but are read apart
                // (`forEachBoatSpeed`), not as entries.
                var speedBlocks = 0
                while r.remaining > 0 {
                    let kind = try r.u8()
                    let length = try r.length(limit: r.remaining)
                    r.position += length
                    if kind == RecordKind.boatSpeed.rawValue { speedBlocks += 1 }
                }
                chunks.append(ChunkSpan(offset: offset, end: next, entries: Int(h.entryCount) - speedBlocks,
                                        firstTime: h.firstTime, lastTime: h.lastTime))
                offset = next
            }
        } catch {
            XCTFail("setting up the recording failed: \(error)")
        }
    }

    override class func tearDown() {
        try? FileManager.default.removeItem(atPath: directory)
        super.tearDown()
    }

    /// Entries of the chunks that end at or before `offset`.
    func entriesBefore(_ offset: Int) -> Int {
        Self.chunks.filter { $0.end <= offset }.reduce(0) { $0 + $1.entries }
    }

    func testSetUp() {
        XCTAssertGreaterThanOrEqual(Self.chunks.count, 45)
        XCTAssertEqual(Self.chunks.reduce(0) { $0 + $1.entries }, Self.entries.count)
        XCTAssertTrue(Self.chunks.allSatisfy { $0.lastTime - $0.firstTime < 1.0 })
    }

    func testThousandTruncations() throws {
        var rng = SplitMix(seed: 2026)
        let damaged = Self.directory + "/cut.oarlog", fixed = Self.directory + "/cut-fixed.oarlog"
        var outcomes: [RecoveryReport.Outcome: Int] = [:]
        var worstLoss = 0.0
        for trial in 0..<1_000 {
            // A few exact frame boundaries (a kill between two writes) among the random offsets.
            let cut = trial % 50 == 0 ? Self.chunks[Int(rng.next() % UInt64(Self.chunks.count))].end
                                      : Int(rng.next() % UInt64(Self.original.count))
            try Self.original.prefix(cut).write(to: URL(fileURLWithPath: damaged))
            let expected = entriesBefore(cut)
            let straddling = Self.chunks.first { $0.offset < cut && $0.end > cut }

            // The reader: everything before the cut, then a clear error (or a clean end).
            var delivered: [SessionEntry] = []
            var readerError: Error?
            do {
                var it = try SessionReader(path: damaged).entries()
                while let e = try it.next() { delivered.append(e) }
            } catch { readerError = error }
            if cut < Self.dataStart {
                XCTAssertNotNil(readerError, "cut at \(cut) inside the header must be refused")
            } else {
                XCTAssertEqual(delivered.count, cut >= Self.dataEnd ? Self.entries.count : expected, "cut at \(cut)")
                XCTAssertTrue(delivered.elementsEqual(Self.entries.prefix(delivered.count)), "cut at \(cut): not a prefix")
                if let error = readerError {
                    XCTAssertTrue(error is SessionError, "cut at \(cut): \(error)")
                    // A clean end only where the cut falls between chunks (a torn index is reported too).
                    XCTAssertTrue(straddling != nil || cut > Self.dataEnd, "cut at \(cut) on a chunk boundary must end cleanly, not \(error)")
                } else {
                    XCTAssertTrue(straddling == nil, "cut at \(cut) inside a chunk must be reported")
                }
            }

            // Recovery.
            let report: RecoveryReport
            do {
                report = try SessionRecovery.recover(damaged, to: fixed, sync: false)
            } catch {
                XCTAssertLessThan(cut, 8, "cut at \(cut): only a cut inside the magic may be refused, not: \(error)")
                continue
            }
            outcomes[report.outcome, default: 0] += 1
            guard cut >= Self.dataStart || report.kept.chunks > 0 else {
                XCTAssertEqual(report.outcome, .unrecoverable, "cut at \(cut)")
                continue
            }
            let keptChunks = Self.chunks.filter { $0.end <= cut }.count
            XCTAssertEqual(report.kept.chunks, keptChunks, "cut at \(cut)")
            var back: [SessionEntry] = []
            var it = try SessionReader(path: fixed).entries()
            while let e = try it.next() { back.append(e) }
            XCTAssertEqual(back.count, cut >= Self.dataEnd ? Self.entries.count : expected, "cut at \(cut)")
            XCTAssertTrue(back.elementsEqual(Self.entries.prefix(back.count)), "cut at \(cut)")
            XCTAssertTrue(try SessionReader(path: fixed).isComplete)
            if let straddling {
                // Lost: the chunk being written, under 1 s of data.
                let keptUntil = report.kept.lastTime ?? 0
                XCTAssertLessThan(straddling.lastTime - keptUntil, 1.0 + 0.011, "cut at \(cut)")
                worstLoss = max(worstLoss, straddling.lastTime - keptUntil)
                XCTAssertEqual(report.outcome, .lossy, "cut at \(cut)")
            } else if cut <= Self.dataEnd {
                XCTAssertEqual(report.outcome, .intact, "cut at \(cut) on a frame boundary loses nothing")
            }
        }
        print("1,000 truncations: outcomes \(outcomes); worst data lost \(worstLoss) s")
    }

    func testThousandCopiesWithFlippedBytes() throws {
        var rng = SplitMix(seed: 1966)
        let damaged = Self.directory + "/flip.oarlog", fixed = Self.directory + "/flip-fixed.oarlog"
        var outcomes: [String: Int] = [:]
        for trial in 0..<1_000 {
            var copy = Self.original
            let flips = trial % 4 == 3 ? 2 + Int(rng.next() % 3) : 1
            var offsets: [Int] = []
            for _ in 0..<flips {
                let at = Int(rng.next() % UInt64(copy.count))
                copy[at] ^= UInt8(1 + rng.next() % 255)
                offsets.append(at)
            }
            try copy.write(to: URL(fileURLWithPath: damaged))
            let first = offsets.min()!
            let hitChunks = Set(Self.chunks.indices.filter { i in offsets.contains { $0 >= Self.chunks[i].offset && $0 < Self.chunks[i].end } })
            let expectedSurvivors = Self.chunks.indices.filter { !hitChunks.contains($0) }
                .flatMap { i in Array(repeating: i, count: Self.chunks[i].entries) }.count
            let versionHit = offsets.contains { $0 == 8 || $0 == 9 }
            let magicHit = offsets.contains { $0 < 8 }
            let metadataHit = offsets.contains { $0 >= 12 && $0 < Self.dataStart }

            // Strict reader: a prefix, at least every chunk before the first damage.
            var delivered: [SessionEntry] = []
            do {
                var it = try SessionReader(path: damaged).entries()
                while let e = try it.next() { delivered.append(e) }
            } catch {
                XCTAssertTrue(error is SessionError, "\(error)")
            }
            XCTAssertTrue(delivered.elementsEqual(Self.entries.prefix(delivered.count)), "flips at \(offsets)")
            if !versionHit && !magicHit && !metadataHit {
                XCTAssertGreaterThanOrEqual(delivered.count, entriesBefore(first), "flips at \(offsets)")
            }

            // Skipping reader: every intact chunk, before and after the damage.
            if !versionHit && !magicHit && !metadataHit {
                var it = try SessionReader(path: damaged).entries(onDamage: .skipDamagedChunks)
                var n = 0
                while try it.next() != nil { n += 1 }
                XCTAssertEqual(n, expectedSurvivors, "flips at \(offsets)")
                // Damage is reported for chunks and for the index, summary, footer and trailing magic.
                XCTAssertEqual(it.damage.isEmpty, !offsets.contains { $0 >= Self.dataStart }, "flips at \(offsets)")
            }

            // Recovery keeps every chunk the flips did not touch.
            do {
                let report = try SessionRecovery.recover(damaged, to: fixed, sync: false)
                outcomes["\(report.outcome)", default: 0] += 1
                XCTAssertEqual(report.kept.chunks, Self.chunks.count - hitChunks.count, "flips at \(offsets): \(report)")
                XCTAssertEqual(report.metadataLost, metadataHit, "flips at \(offsets)")
                XCTAssertEqual(report.outcome, .lossy, "flips at \(offsets): any damaged byte is reported")
                var it = try SessionReader(path: fixed).entries()
                var back: [SessionEntry] = []
                while let e = try it.next() { back.append(e) }
                XCTAssertEqual(back.count, expectedSurvivors, "flips at \(offsets)")
                // The survivors are the original entries minus the hit chunks, in order.
                var expected: [SessionEntry] = []
                var position = 0
                for (i, c) in Self.chunks.enumerated() {
                    if !hitChunks.contains(i) { expected += Self.entries[position..<(position + c.entries)] }
                    position += c.entries
                }
                XCTAssertTrue(back == expected, "flips at \(offsets)")
            } catch let error as SessionError {
                outcomes["refused", default: 0] += 1
                XCTAssertTrue(versionHit, "flips at \(offsets): only a flipped major version may be refused, not: \(error)")
                if case .unsupportedVersion = error {} else { XCTFail("flips at \(offsets): \(error)") }
            }
        }
        print("1,000 flipped copies: outcomes \(outcomes)")
    }
}

/// A small deterministic generator (SplitMix64), so failures reproduce.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
