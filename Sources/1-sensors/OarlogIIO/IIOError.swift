#if canImport(Glibc)
import Glibc
#endif

/// What went wrong with an IIO device, worded for the person mounting the sensor: every case
/// names what is missing or where.
public enum IIOError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The context could not be opened (`local:` without IIO, iiod not reachable).
    case contextUnavailable(uri: String, reason: String)
    /// No device matched; `available` lists what the context has.
    case deviceNotFound(selector: String, uri: String, available: [String])
    /// The device lacks a channel the reader needs (e.g. `accel_x`).
    case missingChannel(device: String, channel: String)
    /// A channel has no `scale` attribute (neither `in_accel_scale` nor `in_accel_x_scale`).
    case missingScale(device: String, channel: String)
    /// A scan element's `_type` could not be understood.
    case unreadableScanType(channel: String?, text: String)
    /// An attribute could not be read or written.
    case attribute(device: String, name: String, reason: String)
    /// The buffer could not be created or read.
    case buffer(device: String, reason: String)

    public var description: String {
        switch self {
        case .contextUnavailable(let uri, let reason):
            return "cannot open IIO context \(uri): \(reason)"
        case .deviceNotFound(let selector, let uri, let available):
            let list = available.isEmpty ? "it has no IIO devices" : "it has " + available.joined(separator: ", ")
            return "no IIO device \(selector) at \(uri) (\(list))"
        case .missingChannel(let device, let channel):
            return "IIO device \(device) has no channel \(channel) (in_\(channel)_raw or scan_elements/in_\(channel)_*)"
        case .missingScale(let device, let channel):
            let type = channel.split(separator: "_").first.map(String.init) ?? channel
            return "IIO device \(device) has no scale for \(channel) (neither in_\(type)_scale nor in_\(channel)_scale)"
        case .unreadableScanType(let channel, let text):
            return "unreadable scan element type" + (channel.map { " for \($0) (scan_elements/in_\($0)_type)" } ?? "")
                + ": \(text)"
        case .attribute(let device, let name, let reason):
            return "IIO device \(device): attribute \(name): \(reason)"
        case .buffer(let device, let reason):
            return "IIO device \(device): buffer: \(reason)"
        }
    }

    /// libiio's (strerror's) text for a positive errno value.
    static func text(ofErrno code: Int32) -> String {
        String(cString: strerror(code))
    }
}
