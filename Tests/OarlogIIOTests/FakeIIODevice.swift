import Foundation
import OarlogIIO

/// A fake IIO accelerometer as files, laid out the way libiio 0.24's `local:` backend reads
/// sysfs: `iio:deviceN/{name, in_accel_*, sampling_frequency, current_timestamp_clock,
/// scan_elements/, buffer/}`. Inside the test's private mount namespace it is written under
/// `/sys/bus/iio/devices` (a temporary directory bound there); its data goes to
/// `/dev/iio:deviceN` (a FIFO or a file in an overlay on /dev).
struct FakeIIODevice {
    var name = "mpu6050"
    var index = 0
    /// Scan types of x, y, z (nil: no scan elements at all — a device without buffer support).
    var formats: [IIOScanFormat]? = try! [IIOScanFormat(parsing: "le:s16/16>>0"), IIOScanFormat(parsing: "le:s16/16>>0"), IIOScanFormat(parsing: "le:s16/16>>0")]
    /// Text written to a `_type` file instead of the format (an unreadable type), by axis.
    var typeText: [String: String] = [:]
    var withTimestamp = true
    /// `in_accel_scale` (shared), or nil.
    var sharedScale: Double? = 0.000598205
    /// `in_accel_{x,y,z}_scale`, or nil.
    var perChannelScale: [Double]? = nil
    /// `in_accel_offset` (shared), or nil.
    var sharedOffset: Double? = nil
    var samplingFrequency: String? = "100"
    var timestampClock: String? = "realtime"
    /// `in_accel_{x,y,z}_raw`.
    var raw: [Int64] = [12, -34, 16384]
    /// Extra channels that must stay disabled (an MPU-6050's gyro and temperature).
    var withGyro = true

    static let devicesRoot = "/sys/bus/iio/devices"
    var directory: String { "\(Self.devicesRoot)/iio:device\(index)" }
    var devicePath: String { "/dev/iio:device\(index)" }

    /// The timestamp's scan type.
    static let timestampFormat = try! IIOScanFormat(parsing: "le:s64/64>>0")

    func write() throws {
        let fm = FileManager.default
        try fm.createDirectory(atPath: directory + "/buffer", withIntermediateDirectories: true)
        func put(_ relative: String, _ text: String) throws {
            try (text + "\n").write(toFile: directory + "/" + relative, atomically: false, encoding: .utf8)
        }
        try put("name", name)
        let axes = ["x", "y", "z"]
        for (i, a) in axes.enumerated() { try put("in_accel_\(a)_raw", String(raw[i])) }
        if let sharedScale { try put("in_accel_scale", String(sharedScale)) }
        if let perChannelScale { for (i, a) in axes.enumerated() { try put("in_accel_\(a)_scale", String(perChannelScale[i])) } }
        if let sharedOffset { try put("in_accel_offset", String(sharedOffset)) }
        if let samplingFrequency { try put("sampling_frequency", samplingFrequency) }
        if let timestampClock { try put("current_timestamp_clock", timestampClock) }
        if withGyro {
            for a in axes { try put("in_anglvel_\(a)_raw", "0") }
            try put("in_anglvel_scale", "0.000133090")
            try put("in_temp_raw", "0")
            try put("in_temp_scale", "2.941176")
        }
        guard let formats else { return }
        try fm.createDirectory(atPath: directory + "/scan_elements", withIntermediateDirectories: true)
        var index = 0
        func element(_ id: String, _ type: String) throws {
            try put("scan_elements/in_\(id)_en", "0")
            try put("scan_elements/in_\(id)_index", String(index))
            try put("scan_elements/in_\(id)_type", type)
            index += 1
        }
        for (i, a) in axes.enumerated() { try element("accel_\(a)", typeText[a] ?? formats[i].description) }
        if withGyro {
            try element("temp", "be:s16/16>>0")
            for a in axes { try element("anglvel_\(a)", "be:s16/16>>0") }
        }
        if withTimestamp { try element("timestamp", Self.timestampFormat.description) }
        try put("buffer/enable", "0")
        try put("buffer/length", "0")
        try put("buffer/watermark", "1")
    }

    /// One scan of the enabled channels (x, y, z, timestamp) as the kernel lays it out: in index
    /// order, each value aligned to its own size, the scan padded to the largest one.
    func scan(_ x: Int64, _ y: Int64, _ z: Int64, timestamp: Int64?) -> [UInt8] {
        var bytes: [UInt8] = []
        var largest = 1
        func append(_ format: IIOScanFormat, _ value: Int64) {
            let size = format.storageBytes
            largest = max(largest, size)
            while bytes.count % size != 0 { bytes.append(0) }
            bytes += format.encode(value)
        }
        let f = formats!
        append(f[0], x); append(f[1], y); append(f[2], z)
        if let timestamp { append(Self.timestampFormat, timestamp) }
        while bytes.count % largest != 0 { bytes.append(0) }
        return bytes
    }

    /// A file of the fake tree, trimmed (what libiio wrote into it; libiio 0.24 writes the
    /// value with its terminating NUL, as sysfs ignores it).
    func read(_ relative: String) -> String {
        ((try? String(contentsOfFile: directory + "/" + relative, encoding: .utf8)) ?? "<missing>")
            .trimmingCharacters(in: CharacterSet.whitespacesAndNewlines.union(CharacterSet(charactersIn: "\0")))
    }

    /// Writes the scans into `/dev/iio:deviceN` as a regular file.
    func writeDataFile(_ bytes: [UInt8]) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: devicePath))
    }

    /// Makes `/dev/iio:deviceN` a FIFO (the stream a test feeds at its own pace).
    func makeFIFO() throws {
        unlink(devicePath)
        guard mkfifo(devicePath, 0o600) == 0 else { throw NSError(domain: "mkfifo", code: Int(errno)) }
    }
}

/// Feeds a FIFO from a thread: opens it (which waits for libiio or iiod to open the buffer),
/// then writes each chunk after its pause.
final class FIFOFeeder: @unchecked Sendable {
    private let thread: Thread
    private let done = DispatchSemaphore(value: 0)

    /// `chunks`: (pause before, bytes). Before a chunk, waits for `gate` if one was given for its
    /// index. The FIFO stays open for `holdOpen` seconds at the end.
    init(path: String, chunks: [(pause: TimeInterval, bytes: [UInt8])], gates: [Int: DispatchSemaphore] = [:], holdOpen: TimeInterval = 0) {
        let done = self.done
        thread = Thread {
            let fd = open(path, O_WRONLY)
            if fd >= 0 {
                for (i, chunk) in chunks.enumerated() {
                    if let gate = gates[i] { _ = gate.wait(timeout: .now() + 30) }
                    if chunk.pause > 0 { Thread.sleep(forTimeInterval: chunk.pause) }
                    var written = 0
                    let ok = chunk.bytes.withUnsafeBytes { raw -> Bool in
                        while written < raw.count {
                            let n = Glibc.write(fd, raw.baseAddress! + written, raw.count - written)
                            if n <= 0 { return false }
                            written += n
                        }
                        return true
                    }
                    if !ok { break }
                }
                if holdOpen > 0 { Thread.sleep(forTimeInterval: holdOpen) }
                close(fd)
            }
            done.signal()
        }
        thread.start()
    }

    /// Waits for the feeder to finish (true if it did within `timeout`).
    @discardableResult
    func wait(timeout: TimeInterval) -> Bool { done.wait(timeout: .now() + timeout) == .success }
}
