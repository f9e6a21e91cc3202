/// A FIT base type (the protocol's byte 2 of a field definition, low five bits): its size and
/// the value that means "no data" (invalid), which the decoder reads as absent.
public enum FITBaseType: UInt8, Sendable, Equatable {
    case enumeration = 0, sint8 = 1, uint8 = 2, sint16 = 3, uint16 = 4, sint32 = 5, uint32 = 6, string = 7
    case float32 = 8, float64 = 9, uint8z = 10, uint16z = 11, uint32z = 12, byte = 13
    case sint64 = 14, uint64 = 15, uint64z = 16

    /// The base type a definition names (`0x84` is uint16: the top bit only says the type has an
    /// endianness); an unknown number is read as bytes.
    public init(definitionByte: UInt8) {
        self = FITBaseType(rawValue: definitionByte & 0x1F) ?? .byte
    }

    /// Bytes of one value.
    public var size: Int {
        switch self {
        case .enumeration, .sint8, .uint8, .string, .uint8z, .byte: return 1
        case .sint16, .uint16, .uint16z: return 2
        case .sint32, .uint32, .float32, .uint32z: return 4
        case .float64, .sint64, .uint64, .uint64z: return 8
        }
    }

    /// The raw bit pattern (as read, size bytes) that means "no data".
    var invalidPattern: UInt64 {
        switch self {
        case .enumeration, .uint8, .byte: return 0xFF
        case .sint8: return 0x7F
        case .sint16: return 0x7FFF
        case .uint16: return 0xFFFF
        case .sint32: return 0x7FFF_FFFF
        case .uint32, .float32: return 0xFFFF_FFFF
        case .float64, .uint64: return 0xFFFF_FFFF_FFFF_FFFF
        case .sint64: return 0x7FFF_FFFF_FFFF_FFFF
        case .string, .uint8z, .uint16z, .uint32z, .uint64z: return 0
        }
    }

    var isSigned: Bool { self == .sint8 || self == .sint16 || self == .sint32 || self == .sint64 }

    /// The value of `size` raw bits (already assembled in the file's byte order).
    func value(of raw: UInt64) -> FITValue {
        switch self {
        case .float32: return .real(Double(Float(bitPattern: UInt32(truncatingIfNeeded: raw))))
        case .float64: return .real(Double(bitPattern: raw))
        case .sint8: return .integer(Int64(Int8(truncatingIfNeeded: raw)))
        case .sint16: return .integer(Int64(Int16(truncatingIfNeeded: raw)))
        case .sint32: return .integer(Int64(Int32(truncatingIfNeeded: raw)))
        case .sint64: return .integer(Int64(bitPattern: raw))
        default: return raw <= UInt64(Int64.max) ? .integer(Int64(raw)) : .unsigned(raw)
        }
    }
}

/// One value of a FIT field, raw (not scaled: `FITProfile` knows the scales).
public indirect enum FITValue: Sendable, Equatable {
    /// Every integer type (uint64 values beyond `Int64.max` are `.unsigned`).
    case integer(Int64)
    case unsigned(UInt64)
    case real(Double)
    case text(String)
    /// An array field (several values of the base type; kept as written, invalid elements
    /// included, as long as one element is valid).
    case array([FITValue])

    /// The value as a number (nil for text and arrays).
    public var number: Double? {
        switch self {
        case .integer(let v): return Double(v)
        case .unsigned(let v): return Double(v)
        case .real(let v): return v.isFinite ? v : nil
        case .text, .array: return nil
        }
    }

    /// The value as a whole number (nil for text, arrays and reals).
    public var integer: Int64? {
        if case .integer(let v) = self { return v }
        return nil
    }

    /// The value as text (nil for numbers).
    public var text: String? {
        if case .text(let s) = self { return s }
        return nil
    }
}

/// One field of a data message: its field number (the FIT profile's, per message), its base
/// type and its value. Fields whose value is invalid (no data) are not in a message.
public struct FITField: Sendable, Equatable {
    public var number: UInt8
    public var baseType: FITBaseType
    public var value: FITValue
}

/// One developer field (an app's own field, described by a `field_description` message): its
/// developer data index and field number, and its name, scale and offset when described.
public struct FITDeveloperField: Sendable, Equatable {
    public var developerIndex: UInt8
    public var number: UInt8
    /// The `field_name` of its `field_description`, if one came before.
    public var name: String?
    public var value: FITValue
    /// The description's scale and offset (1 and 0 when not given).
    public var scale: Double
    public var offset: Double
}

/// One decoded data message: its global message number (the FIT profile's: 20 is `record`),
/// its valid fields in the order of the definition, and its developer fields.
public struct FITMessage: Sendable, Equatable {
    public var globalNumber: UInt16
    public var fields: [FITField]
    public var developerFields: [FITDeveloperField]
    /// Byte offset of the message's header in the file (for error messages and tools).
    public var offset: Int

    /// The value of field `number`, if present and valid.
    public subscript(number: UInt8) -> FITValue? {
        fields.first { $0.number == number }?.value
    }

    /// Field `number` as a number, divided by `scale` and less `offset` (FIT stores scaled
    /// integers: `distance` is in cm, scale 100); nil when absent or not a number.
    public func value(_ number: UInt8, scale: Double = 1, offset: Double = 0) -> Double? {
        guard let raw = self[number]?.number else { return nil }
        return raw / scale - offset
    }

    /// Field `number` as a whole number; nil when absent or not an integer.
    public func integer(_ number: UInt8) -> Int64? {
        self[number]?.integer
    }
}
