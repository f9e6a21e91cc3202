import CDBus

/// A D-Bus failure (opening the bus, a call refused), with libdbus's name and text.
public struct BlueZBusError: Error, Sendable, CustomStringConvertible, Equatable {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// One message read from the bus: a signal, or the reply (or error) to a call sent earlier.
struct BusMessage: Sendable {
    enum Kind: Sendable, Equatable { case signal, reply, error, other }
    var kind: Kind
    var path: String
    var interface: String
    var member: String
    /// For a reply or an error: the serial of the call it answers.
    var replySerial: UInt32
    /// For an error: its name (`org.bluez.Error.Failed`) and text.
    var errorName: String
    var arguments: [DBusValue]
}

/// A private connection to the system bus (or to `address`) through libdbus, used by one thread
/// at a time: blocking calls for set-up, calls sent without waiting (their replies come back
/// through `receive`), signals by match rule. libdbus holds at most 1 MiB unread.
final class BlueZBus: @unchecked Sendable {
    static let service = "org.bluez"
    private let connection: OpaquePointer

    /// Opens the bus at `address` (`unix:path=…`), or the system bus (`DBUS_SYSTEM_BUS_ADDRESS`
    /// when set) when `nil`.
    init(address: String?) throws {
        var error = [CChar](repeating: 0, count: 512)
        guard let c = oarlog_dbus_open(address, &error, error.count) else {
            throw BlueZBusError("cannot open the D-Bus system bus: \(Self.text(error))")
        }
        connection = c
    }

    deinit { oarlog_dbus_close(connection) }

    /// Subscribes to signals matching `rule`.
    func addMatch(_ rule: String) throws {
        var error = [CChar](repeating: 0, count: 512)
        guard oarlog_dbus_add_match(connection, rule, &error, error.count) == 0 else {
            throw BlueZBusError("cannot subscribe to \(rule): \(Self.text(error))")
        }
    }

    /// Calls `interface.method` on `path` of org.bluez and waits at most `timeout_s` for its reply's arguments.
    func call(_ path: String, _ interface: String, _ method: String, timeout_s: Double = 5,
              append: (OpaquePointer) -> Int32 = { _ in 0 }) throws -> [DBusValue] {
        guard let message = oarlog_dbus_method_call(Self.service, path, interface, method), append(message) == 0 else {
            throw BlueZBusError("out of memory building \(method)")
        }
        var error = [CChar](repeating: 0, count: 512)
        guard let reply = oarlog_dbus_call(connection, message, Int32(timeout_s * 1000), &error, error.count) else {
            throw BlueZBusError("\(method) on \(path): \(Self.text(error))")
        }
        defer { dbus_message_unref(reply) }
        return DBusValue.arguments(of: reply)
    }

    /// Sends `interface.method` to `path` of org.bluez without waiting; its serial (0: not sent).
    func send(_ path: String, _ interface: String, _ method: String, append: (OpaquePointer) -> Int32 = { _ in 0 }) -> UInt32 {
        guard let message = oarlog_dbus_method_call(Self.service, path, interface, method) else { return 0 }
        guard append(message) == 0 else { dbus_message_unref(message); return 0 }
        return oarlog_dbus_send(connection, message)
    }

    /// Waits at most `timeout_s` for the socket; false once the bus is gone.
    func pump(timeout_s: Double) -> Bool {
        oarlog_dbus_read_write(connection, Int32(max(0, timeout_s) * 1000)) == 0
    }

    /// The next message already read, if any.
    func receive() -> BusMessage? {
        guard let m = oarlog_dbus_pop(connection) else { return nil }
        defer { dbus_message_unref(m) }
        let type = dbus_message_get_type(m)
        let kind: BusMessage.Kind = switch type {
        case OARLOG_DBUS_MESSAGE_SIGNAL: .signal
        case OARLOG_DBUS_MESSAGE_METHOD_RETURN: .reply
        case OARLOG_DBUS_MESSAGE_ERROR: .error
        default: .other
        }
        func text(_ p: UnsafePointer<CChar>?) -> String { p.map { String(cString: $0) } ?? "" }
        let isError = kind == .error
        return BusMessage(kind: kind, path: text(dbus_message_get_path(m)), interface: text(dbus_message_get_interface(m)),
                          member: text(dbus_message_get_member(m)), replySerial: dbus_message_get_reply_serial(m),
                          errorName: isError ? text(dbus_message_get_error_name(m)) : "",
                          arguments: kind == .other ? [] : DBusValue.arguments(of: m))
    }

    /// A C error buffer as text.
    private static func text(_ buffer: [CChar]) -> String {
        buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }
}
