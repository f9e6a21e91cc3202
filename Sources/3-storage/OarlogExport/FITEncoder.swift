/// The bytes of a FIT file (Garmin's Flexible and Interoperable Data Transfer protocol), written
/// from the published protocol description: a 14-byte header, definition messages (which fields
/// a local message type carries) and data messages, and a CRC-16 over the whole file.
///
/// Streaming: data messages go straight to the file; the header's data size and CRC and the
/// file CRC are patched in at `finish` (the file is read back once in 64 KiB chunks for the CRC).
/// Multi-byte values are little-endian (architecture byte 0).
final class FITEncoder {
    /// FIT base types used here, with their sizes and "invalid" (no data) values.
    enum BaseType: UInt8 {
        case enumeration = 0x00, uint8 = 0x02, string = 0x07, uint16 = 0x84, sint32 = 0x85, uint32 = 0x86, byte = 0x0D

        /// Bytes of one value (a string field's size is its own: `Field.size`).
        var size: Int {
            switch self {
            case .enumeration, .uint8, .string, .byte: return 1
            case .uint16: return 2
            case .sint32, .uint32: return 4
            }
        }

        var invalid: UInt32 {
            switch self {
            case .enumeration, .uint8, .byte: return 0xFF
            case .string: return 0
            case .uint16: return 0xFFFF
            case .sint32: return 0x7FFF_FFFF
            case .uint32: return 0xFFFF_FFFF
            }
        }
    }

    struct Field {
        var number: UInt8
        var type: BaseType
        /// Bytes in a message: the type's size; a string's own (UTF-8, null-terminated, ≤ 255).
        var size: Int
        init(_ number: UInt8, _ type: BaseType, size: Int? = nil) {
            self.number = number
            self.type = type
            self.size = min(255, max(1, size ?? type.size))
        }
    }

    /// A message layout: its global number (the FIT profile's message) bound to a local type,
    /// and the developer fields it carries after its own (each described first by a
    /// `field_description` of developer data index 0: `FITExporter+Rowing.swift`).
    struct Definition {
        var localType: UInt8
        var globalNumber: UInt16
        var fields: [Field]
        var developerFields: [Field] = []
    }

    /// Fills one data message's fields in definition order.
    struct MessageBuilder {
        fileprivate var bytes: [UInt8]
        fileprivate let fields: [Field]
        fileprivate var next = 0

        /// Appends the next field's value (`nil` = the type's invalid value). Values out of the
        /// type's range are written as invalid rather than wrapped.
        mutating func put(_ value: Int64?) {
            precondition(next < fields.count, "more values than fields")
            let type = fields[next].type
            precondition(type != .string, "a number for a string field")
            next += 1
            var raw = type.invalid
            if let v = value {
                switch type {
                case .string: break
                case .enumeration, .uint8, .byte: if v >= 0 && v < 0xFF { raw = UInt32(v) }
                case .uint16: if v >= 0 && v < 0xFFFF { raw = UInt32(v) }
                case .uint32: if v >= 0 && v < 0xFFFF_FFFF { raw = UInt32(v) }
                case .sint32: if v > -0x8000_0000 && v < 0x7FFF_FFFF { raw = UInt32(bitPattern: Int32(v)) }
                }
            }
            for i in 0..<type.size { bytes.append(UInt8(truncatingIfNeeded: raw >> (8 * UInt32(i)))) }
        }

        /// Appends the next field's text: UTF-8, cut at a character boundary to leave room for
        /// the terminating null, padded with nulls to the field's size (`nil` or "" = invalid).
        mutating func put(text: String?) {
            precondition(next < fields.count, "more values than fields")
            let field = fields[next]
            precondition(field.type == .string, "text for a number field")
            next += 1
            var utf8: [UInt8] = []
            for scalar in (text ?? "").unicodeScalars {
                let encoded = Array(String(scalar).utf8)
                guard scalar.value != 0, utf8.count + encoded.count <= field.size - 1 else { break }
                utf8 += encoded
            }
            bytes += utf8
            bytes += [UInt8](repeating: 0, count: field.size - utf8.count)
        }

        /// Appends the next field's bytes (a `byte` array field), cut or padded with 0xFF to its size.
        mutating func put(bytes value: [UInt8]) {
            precondition(next < fields.count, "more values than fields")
            let field = fields[next]
            precondition(field.type == .byte, "bytes for a field that is not a byte array")
            next += 1
            let kept = value.prefix(field.size)
            bytes += kept
            bytes += [UInt8](repeating: 0xFF, count: field.size - kept.count)
        }
    }

    /// A string field's size for `text`: its UTF-8 and the null, at most 255.
    static func stringSize(_ text: String) -> Int { min(255, text.utf8.count + 1) }

    static let headerSize = 14
    private let file: ExportFile
    private var defined: [Bool] = Array(repeating: false, count: 16)
    /// Each local type's fields, its own then the developer's (made once, when defined).
    private var layouts: [[Field]] = Array(repeating: [], count: 16)
    private var scratch: [UInt8] = []

    init(file: ExportFile) throws {
        self.file = file
        // Header with a zero data size and CRC; both are patched in `finish`.
        try file.write(Self.header(dataSize: 0))
    }

    /// Writes one data message (and, the first time, its definition). `fill` must put every field.
    func write(_ definition: Definition, _ fill: (inout MessageBuilder) -> Void) throws {
        let local = Int(definition.localType)
        if !defined[local] {
            let developer = definition.developerFields
            var d: [UInt8] = [0x40 | (developer.isEmpty ? 0 : 0x20) | definition.localType, 0, 0,
                              UInt8(definition.globalNumber & 0xFF), UInt8(definition.globalNumber >> 8),
                              UInt8(definition.fields.count)]
            for f in definition.fields { d += [f.number, UInt8(f.size), f.type.rawValue] }
            if !developer.isEmpty {
                // Developer fields: number, size, developer data index (always 0: Oarlog's).
                d.append(UInt8(developer.count))
                for f in developer { d += [f.number, UInt8(f.size), 0] }
            }
            try file.write(d)
            defined[local] = true
            layouts[local] = definition.fields + developer
        }
        scratch.removeAll(keepingCapacity: true)
        scratch.append(definition.localType)
        var builder = MessageBuilder(bytes: scratch, fields: layouts[local])
        scratch = []
        fill(&builder)
        precondition(builder.next == builder.fields.count, "message \(definition.globalNumber): \(builder.next) of \(builder.fields.count) fields given")
        try file.write(builder.bytes)
        scratch = builder.bytes
    }

    /// Patches the header and appends the file CRC.
    func finish() throws {
        let dataSize = file.offset - Self.headerSize
        try file.patch(at: 0, Self.header(dataSize: UInt32(dataSize)))
        var crc: UInt16 = 0
        var chunk: [UInt8] = []
        var position = 0
        while position < file.offset {
            let n = min(1 << 16, file.offset - position)
            try file.read(at: position, count: n, into: &chunk)
            crc = Self.crc(chunk, startingWith: crc)
            position += n
        }
        try file.write([UInt8(crc & 0xFF), UInt8(crc >> 8)])
    }

    /// The 14-byte header: size, protocol 2.0, profile 21.00, data size, ".FIT", header CRC.
    static func header(dataSize: UInt32) -> [UInt8] {
        let profile: UInt16 = 2100
        var h: [UInt8] = [UInt8(headerSize), 0x20, UInt8(profile & 0xFF), UInt8(profile >> 8)]
        for i in 0..<4 { h.append(UInt8(truncatingIfNeeded: dataSize >> (8 * UInt32(i)))) }
        h += Array(".FIT".utf8)
        let c = crc(h, startingWith: 0)
        h += [UInt8(c & 0xFF), UInt8(c >> 8)]
        return h
    }

    /// FIT's CRC-16: the reflected polynomial 0xA001 (CRC-16/ARC), initial value 0, bit by bit.
    static func crc(_ bytes: [UInt8], startingWith initial: UInt16) -> UInt16 {
        var crc = initial
        for byte in bytes {
            crc ^= UInt16(byte)
            for _ in 0..<8 {
                crc = (crc & 1) != 0 ? (crc >> 1) ^ 0xA001 : crc >> 1
            }
        }
        return crc
    }

    /// Seconds since 1970 → FIT `date_time` (whole seconds since 1989-12-31T00:00:00Z); `nil`
    /// (written as FIT's invalid value) for a time that is not a number or far out of range.
    static func timestamp(_ utc: Double) -> Int64? {
        let seconds = (utc - ExportText.fitEpochOffset).rounded(.down)
        guard seconds.isFinite, abs(seconds) < 9e18 else { return nil }
        return Int64(seconds)
    }

    /// Degrees → semicircles (2³¹ semicircles = 180°).
    static func semicircles(_ degrees: Double?) -> Int64? {
        guard let d = degrees, d.isFinite else { return nil }
        return Int64((d * 2_147_483_648.0 / 180.0).rounded())
    }

    /// A value × scale, rounded (FIT stores scaled integers).
    static func scaled(_ value: Double?, _ scale: Double, offset: Double = 0) -> Int64? {
        guard let v = value, v.isFinite else { return nil }
        let s = ((v + offset) * scale).rounded()
        guard abs(s) < 9e18 else { return nil }
        return Int64(s)
    }
}
