import OarlogCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Decodes a FIT file (Garmin's Flexible and Interoperable Data Transfer protocol) into its data
/// messages, one at a time, written from the published protocol description (the encoder beside
/// it is `OarlogExport.FITEncoder`):
///
/// - the file header: 12 or 14 bytes, `.FIT` at bytes 8–11, protocol major version ≤ 2, the
///   header CRC when the 14-byte header has one (0 means "not computed");
/// - records: normal headers (definition or data message, local message types 0–15) and
///   compressed-timestamp headers (local types 0–3, a 5-bit offset from the last timestamp);
///   definitions in little- or big-endian architecture, with developer field definitions;
/// - base types with their invalid ("no data") values, which are read as absent; arrays (kept
///   whole unless every element is invalid); strings (UTF-8 up to the first NUL);
/// - developer fields: their bytes are always skipped safely; a field described by an earlier
///   `field_description` message is decoded with its base type and named;
/// - the file CRC, and chained FIT files (one after another in a file).
///
/// Damage policy: a file whose CRC does not match, or that ends before its header says (a
/// recording cut off), is refused with an error naming the byte offset; nothing is read from it.
/// The CRC is checked before any message is decoded, so a caller never acts on damaged bytes.
///
/// Bounds: the file is read whole, at most `maxFileBytes`; at most `maxMessages` data messages;
/// a field is at most 255 bytes (the protocol's own limit). No input traps.
public struct FITDecoder {
    /// Largest FIT file read: 64 MiB (a day of 1 Hz records is about 2 MB).
    public static let maxFileBytes = 64 * 1024 * 1024
    /// Most data messages in a file: 4,000,000 (46 days of 1 Hz records).
    public static let maxMessages = 4_000_000
    /// FIT's epoch, 1989-12-31T00:00:00Z, in seconds since 1970.
    public static let epochSeconds1970: Double = 631_065_600

    struct FieldDefinition {
        var number: UInt8
        var size: Int
        var baseType: FITBaseType
    }

    struct Definition {
        var globalNumber: UInt16
        var bigEndian: Bool
        var fields: [FieldDefinition]
        /// Developer fields: (developer data index, field number, size).
        var developerFields: [(index: UInt8, number: UInt8, size: Int)]
    }

    struct DeveloperDescription {
        var baseType: FITBaseType
        var name: String?
        var scale: Double
        var offset: Double
    }

    public let path: String
    let bytes: [UInt8]
    var position = 0
    /// End of the current file's records (where its CRC begins).
    var dataEnd = 0
    var definitions = [Definition?](repeating: nil, count: 16)
    var lastTimestamp: UInt32?
    var descriptions: [UInt16: DeveloperDescription] = [:]
    /// Data messages decoded so far.
    public private(set) var messageCount = 0
    /// FIT files begun so far (more than one in a chained file).
    public private(set) var filesRead = 0

    /// A decoder over the whole of `path` (read at once, at most `maxFileBytes`).
    public init(path: String) throws {
        try self.init(bytes: try Self.readFile(path), path: path)
    }

    /// Whether the CRCs are checked (false only for a fuzzer, whose mutations would otherwise
    /// all stop at the CRC).
    let checksCRC: Bool

    /// A decoder over `bytes` (named `path` in errors). Checks the first file's header and CRC.
    public init(bytes: [UInt8], path: String, checksCRC: Bool = true) throws {
        self.path = path
        self.bytes = bytes
        self.checksCRC = checksCRC
        guard bytes.count <= Self.maxFileBytes else {
            throw TraceError(.tooLarge, file: path, "the file is \(bytes.count) bytes, over the \(Self.maxFileBytes) a FIT file may have here")
        }
        try beginFile()
    }

    func error(_ kind: TraceError.Kind = .malformed, at offset: Int, _ message: String) -> TraceError {
        TraceError(kind, file: path, "at byte \(offset): \(message)")
    }

    /// Reads the header at `position`, checks it and the file's CRC, and moves past the header.
    mutating func beginFile() throws {
        let start = position
        let remaining = bytes.count - start
        guard remaining >= 12 else {
            throw error(at: start, "expected a FIT header (12 or 14 bytes), found \(remaining) bytes")
        }
        let headerSize = Int(bytes[start])
        guard headerSize == 12 || headerSize == 14, remaining >= headerSize,
              bytes[start + 8] == 0x2E, bytes[start + 9] == 0x46, bytes[start + 10] == 0x49, bytes[start + 11] == 0x54
        else { throw error(at: start, "not a FIT file header (a header size of 12 or 14 and \".FIT\" at bytes 8–11)") }
        let major = bytes[start + 1] >> 4
        guard major <= 2 else {
            throw error(.unsupportedVersion, at: start + 1, "FIT protocol version \(major).\(bytes[start + 1] & 0x0F), this reader knows up to 2")
        }
        if headerSize == 14 {
            let stored = UInt16(bytes[start + 12]) | UInt16(bytes[start + 13]) << 8
            let computed = Self.crc(bytes[start..<(start + 12)])
            guard stored == 0 || stored == computed || !checksCRC else {
                throw error(at: start + 12, "header CRC mismatch (stored 0x\(String(stored, radix: 16)), computed 0x\(String(computed, radix: 16))): the file is damaged")
            }
        }
        let dataSize = Int(bytes[start + 4]) | Int(bytes[start + 5]) << 8 | Int(bytes[start + 6]) << 16 | Int(bytes[start + 7]) << 24
        let end = start + headerSize + dataSize
        guard end + 2 <= bytes.count else {
            throw error(at: start + 4, "the header says \(dataSize) bytes of records and a CRC, the file holds \(remaining - headerSize) after the header: it is truncated (a recording cut off?)")
        }
        let stored = UInt16(bytes[end]) | UInt16(bytes[end + 1]) << 8
        let computed = Self.crc(bytes[start..<end])
        guard stored == computed || !checksCRC else {
            throw error(at: end, "file CRC mismatch (stored 0x\(String(stored, radix: 16)), computed 0x\(String(computed, radix: 16))): the file is damaged, nothing was read from it")
        }
        position = start + headerSize
        dataEnd = end
        definitions = [Definition?](repeating: nil, count: 16)
        lastTimestamp = nil
        filesRead += 1
    }

    /// The next data message, or nil at the end of the file (of the last chained file).
    public mutating func next() throws -> FITMessage? {
        while true {
            if position >= dataEnd {
                position = dataEnd + 2
                if position >= bytes.count { return nil }
                try beginFile()
                continue
            }
            let offset = position
            let header = bytes[position]
            position += 1
            if header & 0x80 != 0 {
                return try dataMessage(local: Int((header >> 5) & 0x03), at: offset, compressedTime: header & 0x1F)
            }
            if header & 0x40 != 0 {
                try readDefinition(local: Int(header & 0x0F), developer: header & 0x20 != 0, at: offset)
                continue
            }
            return try dataMessage(local: Int(header & 0x0F), at: offset, compressedTime: nil)
        }
    }

    /// `count` bytes at the current position, or a truncation error.
    mutating func take(_ count: Int, at offset: Int) throws -> Range<Int> {
        guard count >= 0, count <= dataEnd - position else {
            throw error(at: offset, "the message runs past the end of the records (byte \(dataEnd)): the file is malformed")
        }
        defer { position += count }
        return position..<(position + count)
    }

    mutating func readDefinition(local: Int, developer: Bool, at offset: Int) throws {
        let fixed = try take(5, at: offset)
        let architecture = bytes[fixed.lowerBound + 1]
        guard architecture <= 1 else {
            throw error(at: fixed.lowerBound + 1, "expected architecture 0 (little-endian) or 1 (big-endian), found \(architecture)")
        }
        let bigEndian = architecture == 1
        let a = UInt16(bytes[fixed.lowerBound + 2]), b = UInt16(bytes[fixed.lowerBound + 3])
        let global = bigEndian ? a << 8 | b : b << 8 | a
        let fieldCount = Int(bytes[fixed.lowerBound + 4])
        let list = try take(3 * fieldCount, at: offset)
        var fields: [FieldDefinition] = []
        fields.reserveCapacity(fieldCount)
        for i in stride(from: list.lowerBound, to: list.upperBound, by: 3) {
            fields.append(FieldDefinition(number: bytes[i], size: Int(bytes[i + 1]), baseType: FITBaseType(definitionByte: bytes[i + 2])))
        }
        var developerFields: [(index: UInt8, number: UInt8, size: Int)] = []
        if developer {
            let count = Int(bytes[try take(1, at: offset).lowerBound])
            let list = try take(3 * count, at: offset)
            for i in stride(from: list.lowerBound, to: list.upperBound, by: 3) {
                developerFields.append((index: bytes[i + 2], number: bytes[i], size: Int(bytes[i + 1])))
            }
        }
        definitions[local] = Definition(globalNumber: global, bigEndian: bigEndian, fields: fields, developerFields: developerFields)
    }

    mutating func dataMessage(local: Int, at offset: Int, compressedTime: UInt8?) throws -> FITMessage {
        guard let definition = definitions[local] else {
            throw error(at: offset, "a data message of local type \(local) before any definition of it")
        }
        guard messageCount < Self.maxMessages else {
            throw error(.tooLarge, at: offset, "more than \(Self.maxMessages) messages, the most read from one file")
        }
        messageCount += 1
        var message = FITMessage(globalNumber: definition.globalNumber, fields: [], developerFields: [], offset: offset)
        message.fields.reserveCapacity(definition.fields.count + 1)
        for field in definition.fields {
            let range = try take(field.size, at: offset)
            guard let value = Self.decode(bytes[range], field.baseType, bigEndian: definition.bigEndian) else { continue }
            message.fields.append(FITField(number: field.number, baseType: field.baseType, value: value))
        }
        for field in definition.developerFields {
            let range = try take(field.size, at: offset)
            let key = UInt16(field.index) << 8 | UInt16(field.number)
            let description = descriptions[key]
            guard let value = Self.decode(bytes[range], description?.baseType ?? .byte, bigEndian: definition.bigEndian) else { continue }
            message.developerFields.append(FITDeveloperField(
                developerIndex: field.index, number: field.number, name: description?.name, value: value,
                scale: description?.scale ?? 1, offset: description?.offset ?? 0))
        }
        try applyTimestamp(&message, compressedTime: compressedTime, at: offset)
        if message.globalNumber == 206 { describe(message) }
        return message
    }

    /// Keeps the last full timestamp (field 253 of any message); for a compressed-timestamp
    /// header, adds the timestamp it stands for as field 253.
    mutating func applyTimestamp(_ message: inout FITMessage, compressedTime: UInt8?, at offset: Int) throws {
        if let compressedTime {
            guard let last = lastTimestamp else {
                throw error(at: offset, "a compressed timestamp before any full timestamp")
            }
            let delta = UInt32((compressedTime &- UInt8(last & 0x1F)) & 0x1F)
            let time = last &+ delta
            lastTimestamp = time
            if message[253] == nil {
                message.fields.append(FITField(number: 253, baseType: .uint32, value: .integer(Int64(time))))
            }
        } else if let t = message.integer(253), t >= 0, t <= Int64(UInt32.max) {
            lastTimestamp = UInt32(t)
        }
    }

    /// Records a `field_description` (206): developer index (0), field number (1), base type
    /// (2), name (3), scale (6), offset (7).
    mutating func describe(_ message: FITMessage) {
        guard let index = message.integer(0), let number = message.integer(1), let type = message.integer(2),
              (0...255).contains(index), (0...255).contains(number), (0...255).contains(type) else { return }
        let scale = message.value(6).flatMap { $0 > 0 ? $0 : nil } ?? 1
        descriptions[UInt16(index) << 8 | UInt16(number)] = DeveloperDescription(
            baseType: FITBaseType(definitionByte: UInt8(type)), name: message[3]?.text,
            scale: scale, offset: message.value(7) ?? 0)
    }

    /// A field's value from its bytes; nil when invalid (no data). A size that is not a whole
    /// number of values is read as bytes.
    static func decode(_ raw: ArraySlice<UInt8>, _ declared: FITBaseType, bigEndian: Bool) -> FITValue? {
        guard !raw.isEmpty else { return nil }
        if declared == .string { return decodeString(raw) }
        let type = raw.count % declared.size == 0 ? declared : .byte
        let size = type.size
        var values: [FITValue] = []
        var anyValid = false
        var i = raw.startIndex
        while i < raw.endIndex {
            var bits: UInt64 = 0
            for k in 0..<size {
                let byte = UInt64(raw[i + (bigEndian ? k : size - 1 - k)])
                bits = bits << 8 | byte
            }
            if bits != type.invalidPattern { anyValid = true }
            values.append(type.value(of: bits))
            i += size
        }
        guard anyValid else { return nil }
        return values.count == 1 ? values[0] : .array(values)
    }

    /// UTF-8 text up to the first NUL; several NUL-separated strings make an array; empty is nil.
    static func decodeString(_ raw: ArraySlice<UInt8>) -> FITValue? {
        let parts = raw.split(separator: 0).map { FITValue.text(String(decoding: $0, as: UTF8.self)) }
        if parts.isEmpty { return nil }
        return parts.count == 1 ? parts[0] : .array(parts)
    }

    /// FIT's CRC-16 (the reflected polynomial 0xA001, initial value 0), four bits at a time as
    /// the protocol description gives it.
    public static func crc<C: Collection>(_ bytes: C, startingWith initial: UInt16 = 0) -> UInt16 where C.Element == UInt8 {
        let table: [UInt16] = [0x0000, 0xCC01, 0xD801, 0x1400, 0xF001, 0x3C00, 0x2800, 0xE401,
                               0xA001, 0x6C00, 0x7800, 0xB401, 0x5000, 0x9C01, 0x8801, 0x4400]
        var crc = initial
        for byte in bytes {
            var tmp = table[Int(crc & 0xF)]
            crc = (crc >> 4) & 0x0FFF
            crc = crc ^ tmp ^ table[Int(byte & 0xF)]
            tmp = table[Int(crc & 0xF)]
            crc = (crc >> 4) & 0x0FFF
            crc = crc ^ tmp ^ table[Int((byte >> 4) & 0xF)]
        }
        return crc
    }

    /// The whole file, at most `maxFileBytes` (one byte more is read to tell a larger file).
    static func readFile(_ path: String) throws -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 { throw TraceError(.io, file: path, "cannot open: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        let limit = maxFileBytes + 1
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while bytes.count < limit {
            let want = min(chunk.count, limit - bytes.count)
            let got = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, want) }
            if got < 0 {
                if errno == EINTR { continue }
                throw TraceError(.io, file: path, "read failed: \(String(cString: strerror(errno)))")
            }
            if got == 0 { break }
            bytes.append(contentsOf: chunk[0..<got])
        }
        guard bytes.count <= maxFileBytes else {
            throw TraceError(.tooLarge, file: path, "the file is over \(maxFileBytes) bytes, the most a FIT file may have here")
        }
        if bytes.isEmpty { throw TraceError(.empty, file: path, "the file is empty") }
        return bytes
    }
}
