/// Reads the fields of one complete line of the native trace, left to right, throwing a
/// `TraceError` that names the line, the column and what was expected. Used for every row but
/// the accelerometer fast path; nothing here allocates except text fields and error messages.
struct RowScanner {
    let p: UnsafeMutablePointer<UInt8>
    let lineStart: Int
    /// End of the line's content (before `\r\n` or `\n`).
    let lineEnd: Int
    var i: Int
    let file: String
    let line: Int

    var atLineEnd: Bool { i >= lineEnd }

    func error(at index: Int, _ message: String) -> TraceError {
        TraceError(.malformed, file: file, line: line, column: index - lineStart + 1, message)
    }

    /// The field starting at `index`, quoted for an error message.
    func found(at index: Int) -> String {
        if index >= lineEnd { return "end of line" }
        var j = index
        if p[j] == ASCII.comma { j += 1 }   // an unexpected extra field: show it with its comma
        while j < lineEnd && p[j] != ASCII.comma { j += 1 }
        return TraceError.quoted(UnsafeBufferPointer(start: p + index, count: j - index))
    }

    /// Expects the `,` before the field `name`.
    mutating func comma(before name: String) throws {
        guard i < lineEnd, p[i] == ASCII.comma else {
            throw error(at: i, "expected ',' and a value for \(name), found \(found(at: i))")
        }
        i += 1
    }

    /// Expects the line to end after the field `name`.
    func endOfLine(after name: String) throws {
        guard i >= lineEnd else {
            throw error(at: i, "expected end of line after \(name), found \(found(at: i))")
        }
    }

    /// A required number; `nonFinite` is reported, not thrown (the caller skips the row).
    mutating func double(_ name: String) throws -> (value: Double, finite: Bool) {
        let start = i
        let (v, status) = DecimalParsing.scanDouble(p, &i)
        switch status {
        case .number: return (v, true)
        case .nonFinite: return (v, false)
        case .empty, .invalid:
            throw error(at: start, "expected a number for \(name), found \(found(at: start))")
        }
    }

    /// A required Float number; `nonFinite` is reported, not thrown.
    mutating func float(_ name: String) throws -> (value: Float, finite: Bool) {
        let start = i
        let (v, status) = DecimalParsing.scanFloat(p, &i)
        switch status {
        case .number: return (v, true)
        case .nonFinite: return (v, false)
        case .empty, .invalid:
            throw error(at: start, "expected a number for \(name), found \(found(at: start))")
        }
    }

    /// The next field `name`, a required Float: its `,` and the number.
    @inline(__always)
    mutating func nextFloat(_ name: String) throws -> (value: Float, finite: Bool) {
        try comma(before: name)
        return try float(name)
    }

    /// The next field `name`, an optional number: its `,` and the number or nothing.
    @inline(__always)
    mutating func nextOptionalDouble(_ name: String) throws -> Double? {
        try comma(before: name)
        return try optionalDouble(name)
    }

    /// An optional number: empty, NaN or infinite is unknown (nil).
    mutating func optionalDouble(_ name: String) throws -> Double? {
        let start = i
        let (v, status) = DecimalParsing.scanDouble(p, &i)
        switch status {
        case .number: return v
        case .empty, .nonFinite: return nil
        case .invalid:
            throw error(at: start, "expected a number or an empty field for \(name), found \(found(at: start))")
        }
    }

    /// An optional whole number ≥ 0 (a count); empty is unknown.
    mutating func optionalCount(_ name: String) throws -> Int? {
        let start = i
        let (v, status) = DecimalParsing.scanDouble(p, &i)
        switch status {
        case .empty: return nil
        case .number where v >= 0 && v <= 1e15 && v == v.rounded(.towardZero): return Int(v)
        default:
            throw error(at: start, "expected a whole number ≥ 0 or an empty field for \(name), found \(found(at: start))")
        }
    }

    /// A bare word up to the next `,` or the line end.
    mutating func word() -> UnsafeBufferPointer<UInt8> {
        let start = i
        while i < lineEnd && p[i] != ASCII.comma { i += 1 }
        return UnsafeBufferPointer(start: p + start, count: i - start)
    }

    /// The rest of the line as text; a field that starts with `"` is a CSV quoted field (`""`
    /// inside is one `"`) and must be the whole rest of the line.
    mutating func restOfLineText(_ name: String) throws -> String {
        let start = i
        i = lineEnd
        if start < lineEnd && p[start] == ASCII.quote {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(lineEnd - start)
            var j = start + 1
            while true {
                guard j < lineEnd else {
                    throw error(at: start, "expected a closing '\"' for \(name), found end of line")
                }
                let c = p[j]
                if c == ASCII.quote {
                    if j + 1 < lineEnd && p[j + 1] == ASCII.quote {
                        bytes.append(ASCII.quote)
                        j += 2
                        continue
                    }
                    j += 1
                    break
                }
                bytes.append(c)
                j += 1
            }
            guard j == lineEnd else {
                throw error(at: j, "expected end of line after the quoted \(name), found \(found(at: j))")
            }
            return try bytes.withUnsafeBufferPointer { try text($0, start, name) }
        }
        return try text(UnsafeBufferPointer(start: p + start, count: lineEnd - start), start, name)
    }

    private func text(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ name: String) throws -> String {
        if let bad = UTF8Check.firstInvalidByte(bytes, allowTruncatedEnd: false) {
            throw TraceError(.notText, file: file, line: line, column: start - lineStart + 1,
                             "\(name) is not valid UTF-8 (bad byte at offset \(bad) of the field)")
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
