import XCTest
import OarlogIIO

/// The kernel's scan-element type strings, parsed and decoded without libiio.
final class ScanFormatTests: XCTestCase {
    func testParsesWhatDriversWrite() throws {
        let mpu = try IIOScanFormat(parsing: "le:s16/16>>0\n")
        XCTAssertEqual(mpu, try IIOScanFormat(bigEndian: false, signed: true, bits: 16, storageBits: 16, shift: 0))
        let bmc150 = try IIOScanFormat(parsing: "le:s12/16>>4")
        XCTAssertEqual([bmc150.bits, bmc150.storageBits, bmc150.shift], [12, 16, 4])
        let big = try IIOScanFormat(parsing: "be:u14/16>>2")
        XCTAssertTrue(big.bigEndian); XCTAssertFalse(big.signed)
        // libiio prints "fully defined" types in capitals; the kernel's repeat syntax.
        XCTAssertEqual(try IIOScanFormat(parsing: "le:S16/16>>0"), mpu)
        XCTAssertEqual(try IIOScanFormat(parsing: "le:s12/16X2>>4").repeatCount, 2)
        XCTAssertEqual(try IIOScanFormat(parsing: "le:s64/64>>0").storageBytes, 8)
        for text in ["le:s16/16>>0", "be:u12/16>>4", "le:s13/16>>0", "le:s64/64>>0", "le:s12/16X2>>4"] {
            XCTAssertEqual(try IIOScanFormat(parsing: text).description, text)
        }
    }

    func testRejectsUnreadableTypesNamingTheText() {
        for text in ["", "garbage", "le:q16/16>>0", "xx:s16/16>>0", "le:s16/12>>0", "le:s16/16>>4", "le:s16/24>>0", "le:s16/16", "le:s16/16>>0 junk"] {
            XCTAssertThrowsError(try IIOScanFormat(parsing: text), text) { error in
                guard case IIOError.unreadableScanType(_, let shown) = error else { return XCTFail("\(error)") }
                XCTAssertEqual(shown, text.isEmpty ? "(empty)" : text)
            }
        }
    }

    /// Decoding by hand-made bytes: sign extension, shift, masking, byte order.
    func testDecodesKnownBytes() throws {
        let le16 = try IIOScanFormat(parsing: "le:s16/16>>0")
        XCTAssertEqual(decode(le16, [0x00, 0x40]), 16384)
        XCTAssertEqual(decode(le16, [0xFF, 0xFF]), -1)
        XCTAssertEqual(decode(le16, [0x00, 0x80]), -32768)
        let be16 = try IIOScanFormat(parsing: "be:s16/16>>0")
        XCTAssertEqual(decode(be16, [0x40, 0x00]), 16384)
        XCTAssertEqual(decode(be16, [0xFE, 0x0C]), -500)
        // 12 bits in the top of 16, little-endian: 0x7FF0 → 2047, 0x8000 → -2048; low nibble is noise.
        let s12 = try IIOScanFormat(parsing: "le:s12/16>>4")
        XCTAssertEqual(decode(s12, [0xF0, 0x7F]), 2047)
        XCTAssertEqual(decode(s12, [0x0F, 0x80]), -2048)
        XCTAssertEqual(decode(s12, [0xFA, 0xFF]), -1)
        let u12 = try IIOScanFormat(parsing: "le:u12/16>>4")
        XCTAssertEqual(decode(u12, [0xF0, 0xFF]), 4095)
        let s13 = try IIOScanFormat(parsing: "le:s13/16>>0")
        XCTAssertEqual(decode(s13, [0xFF, 0x1F]), -1)     // 13 ones; bits above 13 are ignored
        XCTAssertEqual(decode(s13, [0xFF, 0xEF]), 4095)   // 0xEFFF & 0x1FFF = 0x0FFF
        XCTAssertEqual(decode(s13, [0x00, 0x10]), -4096)   // bit 12 set: the sign
        XCTAssertEqual(decode(s13, [0xFF, 0x0F]), 4095)
        let ts = try IIOScanFormat(parsing: "le:s64/64>>0")
        XCTAssertEqual(decode(ts, [0x00, 0x10, 0xA5, 0xD4, 0xE8, 0x00, 0x00, 0x00]), 1_000_000_000_000)
    }

    /// encode is decode's inverse over each type's whole range edges.
    func testEncodeDecodeRoundTrip() throws {
        for text in ["le:s16/16>>0", "be:s16/16>>0", "le:s12/16>>4", "be:u12/16>>4", "le:s13/16>>0", "le:s32/32>>0", "be:s24/32>>8", "le:s64/64>>0"] {
            let f = try IIOScanFormat(parsing: text)
            let lo: Int64 = f.signed ? (f.bits == 64 ? .min : -(Int64(1) << (f.bits - 1))) : 0
            let hi: Int64 = f.bits == 64 ? .max : (f.signed ? (Int64(1) << (f.bits - 1)) - 1 : (Int64(1) << f.bits) - 1)
            for v in [lo, lo + 1, -1, 0, 1, hi - 1, hi] where v >= lo && v <= hi {
                XCTAssertEqual(decode(f, f.encode(v)), v, "\(text) \(v)")
            }
        }
    }

    private func decode(_ f: IIOScanFormat, _ bytes: [UInt8]) -> Int64 {
        bytes.withUnsafeBytes { f.decode($0.baseAddress!) }
    }
}
