import CIIO
import OarlogCore
#if canImport(Glibc)
import Glibc
#endif

/// One IIO device of a context (an accelerometer chip, a trigger, an ADC).
public struct IIODevice: @unchecked Sendable {
    public let context: IIOContext
    let pointer: OpaquePointer

    init(context: IIOContext, pointer: OpaquePointer) {
        self.context = context
        self.pointer = pointer
    }

    /// The kernel's id, `iio:deviceN` (or `triggerN`).
    public var id: String { String(cString: iio_device_get_id(pointer)) }
    /// The driver's name (`mpu6050`, `adxl345`), if it has one.
    public var name: String? { iio_device_get_name(pointer).map { String(cString: $0) } }
    /// The device-tree label, if any.
    public var label: String? { iio_device_get_label(pointer).map { String(cString: $0) } }
    /// `mpu6050 (iio:device0)`.
    public var displayName: String { name.map { "\($0) (\(id))" } ?? id }
    public var isTrigger: Bool { iio_device_is_trigger(pointer) }

    public var channels: [IIOChannel] {
        (0..<iio_device_get_channels_count(pointer)).compactMap { i in
            iio_device_get_channel(pointer, i).map { IIOChannel(device: self, pointer: $0) }
        }
    }

    /// The input channel with this id (`accel_x`, `timestamp`).
    public func channel(_ id: String) -> IIOChannel? {
        iio_device_find_channel(pointer, id, false).map { IIOChannel(device: self, pointer: $0) }
    }

    /// Whether it has input channels accel_x, accel_y and accel_z.
    public var hasAccelerometerChannels: Bool {
        channel("accel_x") != nil && channel("accel_y") != nil && channel("accel_z") != nil
    }

    /// Whether libiio can stream it through a buffer (it has scan elements).
    public var isBufferCapable: Bool { channels.contains { $0.isScanElement } }

    /// Names of the device attributes.
    public var attributeNames: [String] {
        (0..<iio_device_get_attrs_count(pointer)).compactMap { i in iio_device_get_attr(pointer, i).map { String(cString: $0) } }
    }

    public func hasAttribute(_ name: String) -> Bool { iio_device_find_attr(pointer, name) != nil }

    /// The attribute's text (trailing line end removed).
    public func read(_ attribute: String) throws -> String {
        var buffer = [CChar](repeating: 0, count: 1024)
        let n = iio_device_attr_read(pointer, attribute, &buffer, buffer.count)
        if n < 0 { throw IIOError.attribute(device: displayName, name: attribute, reason: IIOError.text(ofErrno: Int32(-n))) }
        return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }.trimmingWhitespace()
    }

    /// The attribute as a number.
    public func readDouble(_ attribute: String) throws -> Double {
        let text = try read(attribute)
        guard let value = Double(text) else {
            throw IIOError.attribute(device: displayName, name: attribute, reason: "not a number: \(text.debugDescription)")
        }
        return value
    }

    public func write(_ attribute: String, _ value: String) throws {
        let n = iio_device_attr_write(pointer, attribute, value)
        if n < 0 { throw IIOError.attribute(device: displayName, name: attribute, reason: IIOError.text(ofErrno: Int32(-n))) }
    }
}

/// One channel of a device (`accel_x`, `timestamp`).
public struct IIOChannel: @unchecked Sendable {
    public let device: IIODevice
    let pointer: OpaquePointer

    init(device: IIODevice, pointer: OpaquePointer) {
        self.device = device
        self.pointer = pointer
    }

    public var id: String { String(cString: iio_channel_get_id(pointer)) }
    public var isOutput: Bool { iio_channel_is_output(pointer) }
    /// Whether it can be streamed through a buffer (it has `scan_elements/` files).
    public var isScanElement: Bool { iio_channel_is_scan_element(pointer) }
    /// The scan format libiio read; throws naming the channel when its `_type` was unreadable.
    public func scanFormat() throws -> IIOScanFormat {
        var length: UInt32 = 0, bits: UInt32 = 0, shift: UInt32 = 0, repeatCount: UInt32 = 0
        var signed = false, bigEndian = false
        oarlog_iio_channel_format(pointer, &length, &bits, &shift, &signed, &bigEndian, &repeatCount)
        do {
            return try IIOScanFormat(bigEndian: bigEndian, signed: signed, bits: Int(bits), storageBits: Int(length),
                                     shift: Int(shift), repeatCount: Int(max(1, repeatCount)))
        } catch {
            throw IIOError.unreadableScanType(
                channel: id, text: "libiio read \(bigEndian ? "be" : "le"):\(signed ? "s" : "u")\(bits)/\(length)>>\(shift) on \(device.displayName)")
        }
    }

    public var attributeNames: [String] {
        (0..<iio_channel_get_attrs_count(pointer)).compactMap { i in iio_channel_get_attr(pointer, i).map { String(cString: $0) } }
    }

    public func hasAttribute(_ name: String) -> Bool { iio_channel_find_attr(pointer, name) != nil }

    public func read(_ attribute: String) throws -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        let n = iio_channel_attr_read(pointer, attribute, &buffer, buffer.count)
        if n < 0 {
            throw IIOError.attribute(device: device.displayName, name: "\(id) \(attribute)", reason: IIOError.text(ofErrno: Int32(-n)))
        }
        return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }.trimmingWhitespace()
    }

    public func readDouble(_ attribute: String) throws -> Double {
        let text = try read(attribute)
        guard let value = Double(text) else {
            throw IIOError.attribute(device: device.displayName, name: "\(id) \(attribute)", reason: "not a number: \(text.debugDescription)")
        }
        return value
    }

    /// Reads an integer attribute (`raw`) into `value` without allocating; a positive errno on failure.
    func readInteger(_ attribute: UnsafePointer<CChar>, into value: inout Int64) -> Int32 {
        var v: Int64 = 0
        let status = iio_channel_attr_read_longlong(pointer, attribute, &v)
        if status < 0 { return -status }
        value = v
        return 0
    }

    public func write(_ attribute: String, _ value: String) throws {
        let n = iio_channel_attr_write(pointer, attribute, value)
        if n < 0 {
            throw IIOError.attribute(device: device.displayName, name: "\(id) \(attribute)", reason: IIOError.text(ofErrno: Int32(-n)))
        }
    }

    public func enable() { iio_channel_enable(pointer) }
    public func disable() { iio_channel_disable(pointer) }
}
