import Foundation
import XCTest
import OarlogCore
import OarlogIIO
import OarlogLive

/// libiio's real `local:` backend reading a fake sysfs tree (see `MountNamespace`): known raw
/// scans in, exact m/s² and times out, and the files say what the reader enabled.
final class IIOBufferedReadTests: XCTestCase {
    /// MPU-6050 style: le:s16/16>>0, shared scale, timestamp channel; gyro and temperature present
    /// but left off. Asks for 100 Hz on a device at 50.
    func testLittleEndian16WithTimestampSharedScale() throws {
        try inFakeSysfs {
            var fake = FakeIIODevice()
            fake.samplingFrequency = "50"
            try fake.write()
            let scans = knownScans(count: 200, format: fake.formats![0])
            try fake.writeDataFile(bytes(of: scans, device: fake))
            var configuration = IIOAccelerometerConfiguration(uri: "local:", device: .name("mpu6050"), samplingFrequency: 100)
            configuration.bufferSamples = 20
            var reader: IIOAccelerometerReader? = try IIOAccelerometerReader(configuration: configuration, clock: testOrigin)
            let setup = reader!.setup
            note(setup.description)
            XCTAssertEqual(setup.mode, .buffered)
            XCTAssertEqual(setup.samplingFrequency, 100)
            XCTAssertEqual(setup.bufferSamples, 20)
            XCTAssertEqual(setup.timing, .deviceTimestamps(clock: "monotonic"))
            XCTAssertEqual(setup.device, "mpu6050 (iio:device0)")
            // What the reader told the driver, as the files now say.
            for a in ["x", "y", "z"] { XCTAssertEqual(fake.read("scan_elements/in_accel_\(a)_en"), "1", a) }
            XCTAssertEqual(fake.read("scan_elements/in_timestamp_en"), "1")
            for id in ["anglvel_x", "anglvel_y", "anglvel_z", "temp"] { XCTAssertEqual(fake.read("scan_elements/in_\(id)_en"), "0", id) }
            XCTAssertEqual(fake.read("buffer/enable"), "1")
            XCTAssertEqual(fake.read("buffer/length"), "80")        // libiio 0.24: 4 kernel blocks of 20 scans
            XCTAssertEqual(fake.read("current_timestamp_clock"), "monotonic")
            XCTAssertEqual(fake.read("sampling_frequency"), "100")

            let got = try read(reader!, count: 200)
            XCTAssertEqual(got.gaps, [:])
            assertSamples(got.samples, equal: scans, conversions: setup.conversions)
            // One value by hand: raw 16384 (1 g on a ±2 g MPU-6050) × 0.000598205 = 9.80099 m/s².
            XCTAssertEqual(got.samples.first.map { Double($0.x) } ?? 0, 32767 * 0.000598205, accuracy: 1e-5)
            XCTAssertEqual(got.samples.first?.time ?? 0, 1.0 + (0 - 3) * 1e-6, accuracy: 1e-9)
            reader = nil
            XCTAssertEqual(fake.read("buffer/enable"), "0", "the buffer is disabled when the reader goes")
        }
    }

    /// A big-endian type, per-channel scales (ADXL345-like), no timestamp channel: times come
    /// from refills.
    func testBigEndianPerChannelScaleWithoutTimestamp() throws {
        try inFakeSysfs {
            var fake = FakeIIODevice()
            fake.name = "adxl345"
            fake.withGyro = false
            fake.withTimestamp = false
            fake.timestampClock = nil
            fake.formats = try Array(repeating: IIOScanFormat(parsing: "be:s16/16>>0"), count: 3)
            fake.sharedScale = nil
            fake.perChannelScale = [0.038344, 0.038246, 0.039227]
            try fake.write()
            let scans = knownScans(count: 120, format: fake.formats![0], withTimestamp: false)
            try fake.writeDataFile(bytes(of: scans, device: fake))
            var configuration = IIOAccelerometerConfiguration(uri: "local:", device: .index(0))
            configuration.bufferSamples = 12
            let before = MonotonicClock().now() - testOrigin.monotonicOrigin
            let reader = try IIOAccelerometerReader(configuration: configuration, clock: testOrigin)
            XCTAssertEqual(reader.setup.timing, .refillTimes)
            XCTAssertEqual(reader.setup.conversions.map(\.scale), [0.038344, 0.038246, 0.039227])
            XCTAssertEqual(reader.setup.formats.map(\.description), ["be:s16/16>>0", "be:s16/16>>0", "be:s16/16>>0"])
            for a in ["x", "y", "z"] { XCTAssertEqual(fake.read("scan_elements/in_accel_\(a)_en"), "1") }
            XCTAssertEqual(fake.read("buffer/length"), "48")
            let got = try read(reader, count: 120)
            let after = MonotonicClock().now() - testOrigin.monotonicOrigin
            assertSamples(got.samples, equal: scans, conversions: reader.setup.conversions)
            // Refill times: in order, inside the read's span on the monotonic clock.
            XCTAssertTrue(zip(got.samples, got.samples.dropFirst()).allSatisfy { $0.time <= $1.time })
            XCTAssertGreaterThanOrEqual(got.samples.first?.time ?? -1, before)
            XCTAssertLessThanOrEqual(got.samples.last?.time ?? .infinity, after)
        }
    }

    /// 12 bits shifted by 4 (BMC150/BMA2x0 style) with a shared offset, timestamp channel on.
    func testTwelveBitShiftedWithOffset() throws {
        try inFakeSysfs {
            var fake = FakeIIODevice()
            fake.name = "bmc150_accel"
            fake.withGyro = false
            fake.formats = try Array(repeating: IIOScanFormat(parsing: "le:s12/16>>4"), count: 3)
            fake.sharedScale = 0.009582
            fake.sharedOffset = -3
            fake.samplingFrequency = "100"
            try fake.write()
            let scans = knownScans(count: 96, format: fake.formats![0])
            try fake.writeDataFile(bytes(of: scans, device: fake))
            var configuration = IIOAccelerometerConfiguration(uri: "local:", device: .name("bmc150_accel"))
            configuration.bufferSamples = 8
            let reader = try IIOAccelerometerReader(configuration: configuration, clock: testOrigin)
            XCTAssertEqual(reader.setup.conversions, Array(repeating: IIOAxisConversion(scale: 0.009582, offset: -3), count: 3))
            XCTAssertEqual(reader.setup.timing, .deviceTimestamps(clock: "monotonic"))
            let got = try read(reader, count: 96)
            XCTAssertEqual(got.gaps, [:])
            assertSamples(got.samples, equal: scans, conversions: reader.setup.conversions)
            // By hand: the first scan's x is +2047, the second's -2048.
            XCTAssertEqual(got.samples[0].x, Float((2047 - 3) * 0.009582))
            XCTAssertEqual(got.samples[1].x, Float((-2048 - 3) * 0.009582))
        }
    }

    /// Scans whose timestamps jump by 50 ms (an MPU-6050 FIFO reset drops data silently): one gap,
    /// between exactly the two scans around the jump, and every scan still delivered.
    func testTimestampJumpIsReportedAsAGap() throws {
        try inFakeSysfs {
            let fake = FakeIIODevice()
            try fake.write()
            let scans = knownScans(count: 160, format: fake.formats![0], jumpAt: 100, jump: 40_000_000)
            try fake.writeDataFile(bytes(of: scans, device: fake))
            var configuration = IIOAccelerometerConfiguration(uri: "local:", device: .name("mpu6050"))
            configuration.bufferSamples = 16
            let reader = try IIOAccelerometerReader(configuration: configuration, clock: testOrigin)
            let got = try read(reader, count: 160)
            assertSamples(got.samples, equal: scans, conversions: reader.setup.conversions)
            XCTAssertEqual(Array(got.gaps.keys), [100])
            XCTAssertTrue(got.gaps[100]?.contains("about 4 missing") ?? false, got.gaps[100] ?? "no gap")
            note("jump: \(got.gaps[100] ?? "")")
        }
    }

    /// What `oarlog devices` shows, read from the fake tree: an MPU-6050 with a buffer and a
    /// timestamp, and an ADXL345 without a buffer.
    func testDeviceSummaries() throws {
        try inFakeSysfs {
            var mpu = FakeIIODevice()
            mpu.samplingFrequency = "50"
            try mpu.write()
            var adxl = FakeIIODevice()
            adxl.index = 1
            adxl.name = "adxl345"
            adxl.formats = nil
            adxl.withGyro = false
            adxl.withTimestamp = false
            adxl.timestampClock = nil
            adxl.sharedScale = 0.038344
            try adxl.write()
            let list = try IIODeviceSummary.list(uri: "local:")
            XCTAssertEqual(list.map(\.id), ["iio:device0", "iio:device1"])
            let m = list[0], a = list[1]
            XCTAssertEqual(m.name, "mpu6050")
            XCTAssertTrue(m.isAccelerometer); XCTAssertTrue(m.isBufferCapable); XCTAssertTrue(m.hasTimestampChannel)
            XCTAssertEqual(m.timestampClock, "realtime")
            XCTAssertEqual(m.samplingFrequency, "50")
            XCTAssertEqual(m.accelerationScale, 0.000598205)
            XCTAssertEqual(m.accelerationTypes, ["le:s16/16>>0", "le:s16/16>>0", "le:s16/16>>0"])
            XCTAssertEqual(Set(m.channels), ["accel_x", "accel_y", "accel_z", "anglvel_x", "anglvel_y", "anglvel_z", "temp", "timestamp"])
            XCTAssertEqual(a.name, "adxl345")
            XCTAssertTrue(a.isAccelerometer); XCTAssertFalse(a.isBufferCapable); XCTAssertFalse(a.hasTimestampChannel)
            XCTAssertTrue(a.lines.contains("  buffered reads: no (no scan elements: Oarlog polls in_accel_*_raw)"), "\(a.lines)")
            // Listing changed nothing.
            XCTAssertEqual(mpu.read("scan_elements/in_accel_x_en"), "0")
            XCTAssertEqual(mpu.read("current_timestamp_clock"), "realtime")
            for l in m.lines + a.lines { note(l) }
        }
    }

    // MARK: Clear errors

    func testMissingScaleNamesTheFiles() throws {
        try inFakeSysfs {
            var fake = FakeIIODevice()
            fake.sharedScale = nil
            try fake.write()
            XCTAssertThrowsError(try IIOAccelerometerReader(configuration: .init(uri: "local:"), clock: testOrigin)) { error in
                XCTAssertEqual(error as? IIOError, .missingScale(device: "mpu6050 (iio:device0)", channel: "accel_x"))
                XCTAssertEqual("\(error)", "IIO device mpu6050 (iio:device0) has no scale for accel_x (neither in_accel_scale nor in_accel_x_scale)")
            }
        }
    }

    func testMissingDeviceListsWhatThereIs() throws {
        try inFakeSysfs {
            try FakeIIODevice().write()
            XCTAssertThrowsError(try IIOAccelerometerReader(configuration: .init(uri: "local:", device: .name("adxl345")), clock: testOrigin)) { error in
                XCTAssertEqual("\(error)", "no IIO device named adxl345 at local: (it has mpu6050 (iio:device0))")
            }
            XCTAssertThrowsError(try IIOAccelerometerReader(configuration: .init(uri: "local:", device: .index(3)), clock: testOrigin)) { error in
                XCTAssertEqual("\(error)", "no IIO device number 3 at local: (it has mpu6050 (iio:device0))")
            }
        }
    }

    func testNoDeviceAtAll() throws {
        try inFakeSysfs {
            XCTAssertThrowsError(try IIOAccelerometerReader(configuration: .init(uri: "local:"), clock: testOrigin)) { error in
                let text = "\(error)"
                note("empty tree: \(text)")
                XCTAssertTrue(text.contains("no IIO device with accel_x/y/z channels at local:") || text.hasPrefix("cannot open IIO context local:"), text)
            }
        }
    }

    func testUnreadableTypeNamesTheChannel() throws {
        try inFakeSysfs {
            var fake = FakeIIODevice()
            fake.typeText = ["y": "le:q16"]
            try fake.write()
            XCTAssertThrowsError(try IIOAccelerometerReader(configuration: .init(uri: "local:"), clock: testOrigin)) { error in
                guard case IIOError.unreadableScanType(let channel, _) = error else { return XCTFail("\(error)") }
                XCTAssertEqual(channel, "accel_y")
                XCTAssertTrue("\(error)".contains("scan_elements/in_accel_y_type"), "\(error)")
                note("bad type: \(error)")
            }
        }
    }

    func testMissingAxisNamesTheChannel() throws {
        try inFakeSysfs {
            var fake = FakeIIODevice()
            try fake.write()
            for f in ["in_accel_z_raw", "scan_elements/in_accel_z_en", "scan_elements/in_accel_z_index", "scan_elements/in_accel_z_type"] {
                unlink(fake.directory + "/" + f)
            }
            fake.name = "mpu6050"
            XCTAssertThrowsError(try IIOAccelerometerReader(configuration: .init(uri: "local:", device: .name("mpu6050")), clock: testOrigin)) { error in
                XCTAssertEqual(error as? IIOError, .missingChannel(device: "mpu6050 (iio:device0)", channel: "accel_z"))
            }
        }
    }
}
