import XCTest
@testable import OarlogSession

/// The hardware CRC-32C (SSE4.2 + PCLMULQDQ, three interleaved streams) against the published
/// check value and against the plain-Swift slicing-by-8 on every length and alignment the
/// interleaving can split differently.
final class CRC32CHardwareTests: XCTestCase {
    /// The same pseudo-random bytes every run (xorshift64*).
    private func randomBytes(_ count: Int, seed: UInt64) -> [UInt8] {
        var s = seed | 1
        return (0..<count).map { _ in
            s ^= s >> 12; s ^= s << 25; s ^= s >> 27
            return UInt8(truncatingIfNeeded: (s &* 0x2545_F491_4F6C_DD1D) >> 56)
        }
    }

    func testCheckValues() {
        let check = Array("123456789".utf8)
        // The CRC-32C check value (RFC 3720 / the CRC catalogue).
        XCTAssertEqual(check.withUnsafeBytes { CRC32C.softwareChecksum($0) }, 0xE306_9283)
        XCTAssertEqual(CRC32C.checksum(check), 0xE306_9283)
        // RFC 3720 B.4: 32 bytes of zeros → 0x8A9136AA, 32 bytes of 0xFF → 0x62A8AB43.
        XCTAssertEqual(CRC32C.checksum([UInt8](repeating: 0, count: 32)), 0x8A91_36AA)
        XCTAssertEqual(CRC32C.checksum([UInt8](repeating: 0xFF, count: 32)), 0x62A8_AB43)
        XCTAssertEqual(CRC32C.checksum([]), 0)
        if CRC32C.hardwareAvailable {
            XCTAssertEqual(check.withUnsafeBytes { CRC32C.hardwareChecksum($0) }, 0xE306_9283)
        }
    }

    func testHardwareEqualsSoftwareOnEveryLengthAndAlignment() throws {
        #if arch(x86_64)
        XCTAssertTrue(CRC32C.hardwareAvailable, "an x86-64 CPU without SSE4.2/PCLMULQDQ: the fast path is off")
        #endif
        try XCTSkipUnless(CRC32C.hardwareAvailable, "no hardware CRC32C on this CPU")
        let bytes = randomBytes(1024 + 16, seed: 0x0A41_0C06)
        var mismatches = 0
        bytes.withUnsafeBytes { all in
            for offset in [0, 1, 3, 5, 7] {
                for length in 0...1024 {
                    let slice = UnsafeRawBufferPointer(rebasing: all[offset..<(offset + length)])
                    let crcIn: UInt32 = length % 3 == 0 ? 0 : 0xDEAD_BEEF
                    if CRC32C.hardwareChecksum(slice, continuing: crcIn) != CRC32C.softwareChecksum(slice, continuing: crcIn) {
                        mismatches += 1
                    }
                }
            }
        }
        XCTAssertEqual(mismatches, 0)
    }

    /// Lengths that use the 4096- and 512-byte blocks, and their boundaries.
    func testHardwareEqualsSoftwareOnLongBuffers() throws {
        try XCTSkipUnless(CRC32C.hardwareAvailable, "no hardware CRC32C on this CPU")
        let bytes = randomBytes(70_000, seed: 42)
        let lengths = [1535, 1536, 1537, 12_287, 12_288, 12_289, 12_288 + 1536 + 384 + 96 + 7, 65_536, 69_999]
        bytes.withUnsafeBytes { all in
            for length in lengths {
                for offset in [0, 1] {
                    let slice = UnsafeRawBufferPointer(rebasing: all[offset..<(offset + length)])
                    XCTAssertEqual(CRC32C.hardwareChecksum(slice), CRC32C.softwareChecksum(slice), "length \(length) offset \(offset)")
                }
            }
        }
    }

    /// Continuing a CRC over a split buffer gives the CRC of the whole, on both paths.
    func testContinuationAcrossSplits() {
        let bytes = randomBytes(5000, seed: 7)
        let whole = CRC32C.checksum(bytes)
        bytes.withUnsafeBytes { all in
            for cut in [0, 1, 95, 96, 97, 1536, 4999, 5000] {
                let a = CRC32C.checksum(UnsafeRawBufferPointer(rebasing: all[..<cut]))
                XCTAssertEqual(CRC32C.checksum(UnsafeRawBufferPointer(rebasing: all[cut...]), continuing: a), whole, "cut \(cut)")
                let s = CRC32C.softwareChecksum(UnsafeRawBufferPointer(rebasing: all[..<cut]))
                XCTAssertEqual(CRC32C.softwareChecksum(UnsafeRawBufferPointer(rebasing: all[cut...]), continuing: s), whole, "cut \(cut)")
            }
        }
    }
}
