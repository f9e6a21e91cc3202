import OarlogHeartRate
import OarlogTestSupport
import XCTest

/// The Heart Rate Measurement (0x2A37) parser against byte arrays laid out by hand from the
/// Heart Rate Service 1.0 specification: flags bit 0 16-bit rate, bits 1–2 contact, bit 3
/// energy (uint16, kJ), bit 4 RR intervals (uint16, 1/1024 s), little-endian.
final class HeartRateMeasurementTests: XCTestCase {
    private func parsed(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line) -> HeartRateMeasurement? {
        switch HeartRateMeasurement.parse(bytes) {
        case .success(let m): return m
        case .failure(let r): XCTFail("rejected \(bytes): \(r)", file: file, line: line); return nil
        }
    }

    private func rejection(_ bytes: [UInt8]) -> HeartRateMeasurementRejection? {
        if case .failure(let r) = HeartRateMeasurement.parse(bytes) { return r }
        return nil
    }

    func testEightBitRateWithoutContact() {
        let m = parsed([0x00, 72])
        XCTAssertEqual(m, HeartRateMeasurement(beatsPerMinute: 72, rateIsSixteenBits: false, sensorContact: .notSupported))
    }

    func testSixteenBitRateIsLittleEndian() {
        // 0x00B4 = 180 bpm, low byte first; a value above 255 (but believable) only fits in 16 bits.
        XCTAssertEqual(parsed([0x01, 0xB4, 0x00])?.beatsPerMinute, 180)
        XCTAssertEqual(parsed([0x01, 0xB4, 0x00])?.rateIsSixteenBits, true)
        XCTAssertEqual(parsed([0x01, 0xFA, 0x00])?.beatsPerMinute, 250)
    }

    func testSensorContactStates() {
        XCTAssertEqual(parsed([0x00, 60])?.sensorContact, .notSupported)
        XCTAssertEqual(parsed([0x02, 60])?.sensorContact, .notSupported, "bit 1 alone: contact not supported")
        XCTAssertEqual(parsed([0x04, 60])?.sensorContact, .notDetected)
        XCTAssertEqual(parsed([0x06, 60])?.sensorContact, .detected)
    }

    func testEnergyAndRRIntervals() {
        // flags 0x18: energy 0x0123 = 291 kJ, then RR 0x0400 = 1024 (1.0 s) and 0x0300 = 768 (0.75 s).
        let m = parsed([0x18, 61, 0x23, 0x01, 0x00, 0x04, 0x00, 0x03])
        XCTAssertEqual(m?.beatsPerMinute, 61)
        XCTAssertEqual(m?.energyExpended_kJ, 291)
        XCTAssertEqual(m?.rrIntervals_1024ths, [1024, 768])
        XCTAssertEqual(m?.rrIntervals_s ?? [], [1.0, 0.75])
    }

    func testSixteenBitRateWithRRIntervalsOnly() {
        let m = parsed([0x11, 0x96, 0x00, 0x9A, 0x01])
        XCTAssertEqual(m?.beatsPerMinute, 150)
        XCTAssertNil(m?.energyExpended_kJ)
        XCTAssertEqual(m?.rrIntervals_1024ths, [410])
    }

    func testReservedFlagBitsAreIgnored() {
        XCTAssertEqual(parsed([0xE0, 88])?.beatsPerMinute, 88)
    }

    func testTooShort() {
        XCTAssertEqual(rejection([]), .tooShort(length: 0, needed: 2))
        XCTAssertEqual(rejection([0x00]), .tooShort(length: 1, needed: 2))
        XCTAssertEqual(rejection([0x01, 0x50]), .tooShort(length: 2, needed: 3))
        XCTAssertEqual(rejection([0x08, 70, 0x01]), .tooShort(length: 3, needed: 4), "energy needs two bytes")
        XCTAssertEqual(rejection([0x10, 70, 0x01]), .tooShort(length: 3, needed: 4), "an RR interval needs two bytes")
        XCTAssertEqual(rejection([0x19, 70, 0, 1, 0]), .tooShort(length: 5, needed: 7))
    }

    func testWrongLengthForFlags() {
        XCTAssertEqual(rejection([0x00, 70, 0x01]), .wrongLength(length: 3, flags: 0x00), "a byte the flags do not announce")
        XCTAssertEqual(rejection([0x10, 70, 0x00, 0x04, 0x01]), .wrongLength(length: 5, flags: 0x10), "half an RR interval")
        XCTAssertEqual(rejection([0x08, 70, 0x01, 0x00, 0x07]), .wrongLength(length: 5, flags: 0x08))
    }

    func testRateZeroAndUnbelievableRates() {
        XCTAssertEqual(rejection([0x06, 0]), .noRate)
        XCTAssertEqual(rejection([0x01, 0x00, 0x00]), .noRate)
        XCTAssertEqual(rejection([0x00, 251]), .implausibleRate(bpm: 251))
        XCTAssertEqual(rejection([0x01, 0x2C, 0x01]), .implausibleRate(bpm: 300), "300 bpm is counted and skipped")
        XCTAssertEqual(rejection([0x01, 0xFF, 0xFF]), .implausibleRate(bpm: 65535))
    }

    func testTooLong() {
        var bytes: [UInt8] = [0x10, 70]
        bytes += [UInt8](repeating: 0x01, count: 512)
        XCTAssertEqual(rejection(bytes), .tooLong(length: 514))
    }

    func testEveryTwoByteInputGivesAValueOrARejection() {
        // No input traps: every flags byte with every rate byte.
        var accepted = 0
        for flags in 0...255 {
            for rate in 0...255 {
                if case .success(let m) = HeartRateMeasurement.parse([UInt8(flags), UInt8(rate)]) {
                    XCTAssertEqual(m.beatsPerMinute, rate)
                    accepted += 1
                }
            }
        }
        // Only flags without 16-bit, energy or RR (bits 0, 3, 4 clear: 32 of 256) and rates 1…250.
        XCTAssertEqual(accepted, 32 * 250)
    }

    func testRandomNotificationsNeverTrapAndAcceptedOnesAddUp() {
        // 200,000 seeded random payloads of 0–40 bytes: each is a value or a rejection, and every
        // value accounts for each byte: flags, rate (1 or 2), energy (0 or 2), 2 per RR interval.
        var random = SplitMix64(state: 0x2A37_180D)
        var accepted = 0
        for _ in 0..<200_000 {
            let count = Int(random.next() % 41)
            let bytes = (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            guard case .success(let m) = HeartRateMeasurement.parse(bytes) else { continue }
            accepted += 1
            let length = 1 + (m.rateIsSixteenBits ? 2 : 1) + (m.energyExpended_kJ == nil ? 0 : 2) + 2 * m.rrIntervals_1024ths.count
            XCTAssertEqual(length, bytes.count, "\(bytes)")
            XCTAssertTrue((1...250).contains(m.beatsPerMinute))
            XCTAssertEqual(m.rateIsSixteenBits, bytes[0] & 1 != 0)
        }
        XCTAssertGreaterThan(accepted, 1000, "the random payloads should include many valid ones")
    }
}
