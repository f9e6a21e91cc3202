import CIIO
import OarlogCore
#if canImport(Glibc)
import Glibc
#endif

/// An open libiio context: `local:` (this board's sysfs) or `ip:HOST[:PORT]` (an iiod on the
/// network). Owns the C context; devices and channels taken from it keep it alive.
public final class IIOContext: @unchecked Sendable {
    public let uri: String
    let pointer: OpaquePointer

    /// Opens the context at `uri`. Throws `IIOError.contextUnavailable` with libiio's reason.
    public init(uri: String) throws {
        var error: Int32 = 0
        guard let ctx = oarlog_iio_context_open(uri, &error) else {
            throw IIOError.contextUnavailable(uri: uri, reason: IIOError.text(ofErrno: error))
        }
        self.uri = uri
        self.pointer = ctx
    }

    deinit { iio_context_destroy(pointer) }

    /// How long a buffer refill or a network request may block before failing with a timeout.
    public func setTimeout(_ timeout: Seconds) throws {
        let ms = UInt32(max(1, min(3_600_000, (timeout * 1000).rounded())))
        let status = oarlog_iio_context_set_timeout_ms(pointer, ms)
        if status != 0 { throw IIOError.contextUnavailable(uri: uri, reason: "cannot set the timeout: " + IIOError.text(ofErrno: status)) }
    }

    /// Every device of the context, in libiio's order (the index `--device N` refers to).
    public var devices: [IIODevice] {
        (0..<iio_context_get_devices_count(pointer)).compactMap { i in
            iio_context_get_device(pointer, i).map { IIODevice(context: self, pointer: $0) }
        }
    }

    /// The device a selector names. Throws `IIOError.deviceNotFound` listing what there is.
    public func device(_ selector: IIODeviceSelector) throws -> IIODevice {
        let all = devices
        let found: IIODevice?
        switch selector {
        case .firstAccelerometer:
            found = all.first { $0.hasAccelerometerChannels }
        case .index(let n):
            found = all.indices.contains(n) ? all[n] : nil
        case .name(let name):
            found = all.first { $0.name == name || $0.label == name || $0.id == name }
        }
        guard let found else {
            throw IIOError.deviceNotFound(selector: selector.description, uri: uri, available: all.map(\.displayName))
        }
        return found
    }

    /// libiio's version (major.minor), for diagnostics.
    public static var libraryVersion: String {
        var major: UInt32 = 0, minor: UInt32 = 0
        oarlog_iio_library_version(&major, &minor)
        return "\(major).\(minor)"
    }
}

/// Which device to read: by name (`mpu6050`, or its id `iio:device0`), by index in the context,
/// or the first one with x/y/z acceleration channels.
public enum IIODeviceSelector: Sendable, Equatable, CustomStringConvertible {
    case firstAccelerometer
    case name(String)
    case index(Int)

    /// `"2"` is an index, anything else a name or id; `nil`/empty picks the first accelerometer.
    public init(_ text: String?) {
        guard let text, !text.isEmpty else { self = .firstAccelerometer; return }
        if let n = Int(text), n >= 0 { self = .index(n) } else { self = .name(text) }
    }

    public var description: String {
        switch self {
        case .firstAccelerometer: return "with accel_x/y/z channels"
        case .name(let name): return "named \(name)"
        case .index(let n): return "number \(n)"
        }
    }
}
