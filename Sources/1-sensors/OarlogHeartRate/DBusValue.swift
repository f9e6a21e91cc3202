import CDBus

/// A D-Bus value read out of a message, as far as BlueZ's replies and signals need: strings and
/// object paths, numbers and booleans, byte arrays (a characteristic's `Value`), arrays,
/// dictionaries (`a{sv}`, `a{oa{sa{sv}}}`) and variants (unwrapped). Reading is bounded:
/// nesting deeper than 8 and containers longer than `maximumElements` are cut off.
indirect enum DBusValue: Sendable, Equatable {
    case string(String)
    case number(Int64)
    case bool(Bool)
    case bytes([UInt8])
    case array([DBusValue])
    case dictionary([(key: String, value: DBusValue)])
    case other

    static let maximumElements = 4096
    static let maximumDepth = 8

    static func == (a: DBusValue, b: DBusValue) -> Bool {
        switch (a, b) {
        case (.string(let x), .string(let y)): return x == y
        case (.number(let x), .number(let y)): return x == y
        case (.bool(let x), .bool(let y)): return x == y
        case (.bytes(let x), .bytes(let y)): return x == y
        case (.array(let x), .array(let y)): return x == y
        case (.dictionary(let x), .dictionary(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        case (.other, .other): return true
        default: return false
        }
    }

    var string: String? { if case .string(let s) = self { return s } else { return nil } }
    var bool: Bool? { if case .bool(let b) = self { return b } else { return nil } }
    var number: Int64? { if case .number(let n) = self { return n } else { return nil } }
    var bytes: [UInt8]? { if case .bytes(let b) = self { return b } else { return nil } }
    var strings: [String] {
        if case .array(let items) = self { return items.compactMap(\.string) }
        return []
    }

    /// The value under `key` of a dictionary.
    subscript(key: String) -> DBusValue? {
        guard case .dictionary(let entries) = self else { return nil }
        return entries.first { $0.key == key }?.value
    }

    /// A dictionary's entries; empty for anything else.
    var entries: [(key: String, value: DBusValue)] {
        if case .dictionary(let e) = self { return e }
        return []
    }

    /// Every argument of a message, in order.
    static func arguments(of message: OpaquePointer) -> [DBusValue] {
        var iter = DBusMessageIter()
        guard dbus_message_iter_init(message, &iter) != 0 else { return [] }
        var values: [DBusValue] = []
        repeat {
            values.append(read(&iter, depth: 0))
        } while values.count < 16 && dbus_message_iter_next(&iter) != 0
        return values
    }

    /// The value at the iterator.
    static func read(_ iter: inout DBusMessageIter, depth: Int) -> DBusValue {
        let type = dbus_message_iter_get_arg_type(&iter)
        switch type {
        case OARLOG_DBUS_STRING, OARLOG_DBUS_OBJECT_PATH, OARLOG_DBUS_SIGNATURE:
            return .string(String(cString: oarlog_dbus_iter_string(&iter)))
        case OARLOG_DBUS_BOOLEAN:
            return .bool(oarlog_dbus_iter_u64(&iter) != 0)
        case OARLOG_DBUS_BYTE, OARLOG_DBUS_INT16, OARLOG_DBUS_UINT16, OARLOG_DBUS_INT32, OARLOG_DBUS_UINT32, OARLOG_DBUS_INT64, OARLOG_DBUS_UINT64:
            return .number(Int64(bitPattern: oarlog_dbus_iter_u64(&iter)))
        case OARLOG_DBUS_VARIANT:
            guard depth < maximumDepth else { return .other }
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &sub)
            return read(&sub, depth: depth + 1)
        case OARLOG_DBUS_ARRAY:
            guard depth < maximumDepth else { return .other }
            return readArray(&iter, depth: depth)
        default:
            return .other
        }
    }

    private static func readArray(_ iter: inout DBusMessageIter, depth: Int) -> DBusValue {
        let elementType = dbus_message_iter_get_element_type(&iter)
        if elementType == OARLOG_DBUS_BYTE {
            var count: Int32 = 0
            guard let pointer = oarlog_dbus_iter_bytes(&iter, &count), count > 0 else { return .bytes([]) }
            return .bytes(Array(UnsafeBufferPointer(start: pointer, count: Int(min(count, Int32(maximumElements))))))
        }
        var sub = DBusMessageIter()
        dbus_message_iter_recurse(&iter, &sub)
        if elementType == OARLOG_DBUS_DICT_ENTRY {
            var entries: [(key: String, value: DBusValue)] = []
            while dbus_message_iter_get_arg_type(&sub) == OARLOG_DBUS_DICT_ENTRY && entries.count < maximumElements {
                var entry = DBusMessageIter()
                dbus_message_iter_recurse(&sub, &entry)
                let key = read(&entry, depth: depth + 1)
                dbus_message_iter_next(&entry)
                let value = read(&entry, depth: depth + 1)
                entries.append((key: key.string ?? "", value: value))
                dbus_message_iter_next(&sub)
            }
            return .dictionary(entries)
        }
        var items: [DBusValue] = []
        while dbus_message_iter_get_arg_type(&sub) != OARLOG_DBUS_INVALID && items.count < maximumElements {
            items.append(read(&sub, depth: depth + 1))
            dbus_message_iter_next(&sub)
        }
        return .array(items)
    }
}
