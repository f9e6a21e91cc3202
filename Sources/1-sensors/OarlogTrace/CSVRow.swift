import OarlogCore
/// One line of a foreign CSV export split into fields (RFC 4180 quoting within a line: a field
/// in `"` may hold commas, `""` is one `"`). For the small device exports, which allocate a
/// String per field; the native trace never goes through here.
struct CSVRow {
    private(set) var fields: [String] = []
    /// 1-based byte column where each field starts, for error messages.
    private(set) var columns: [Int] = []
    let file: String
    private(set) var line = 0

    init(file: String) { self.file = file }

    var count: Int { fields.count }

    subscript(_ index: Int) -> String { index < fields.count ? fields[index] : "" }

    /// Whether every field is empty (the exports pad blank lines with commas).
    var isBlank: Bool { fields.allSatisfy { $0.isEmpty } }

    mutating func parse(_ bytes: UnsafeBufferPointer<UInt8>, line: Int) throws {
        self.line = line
        fields.removeAll(keepingCapacity: true)
        columns.removeAll(keepingCapacity: true)
        let n = bytes.count
        var i = 0
        var scratch: [UInt8] = []
        while true {
            columns.append(i + 1)
            if i < n && bytes[i] == ASCII.quote {
                scratch.removeAll(keepingCapacity: true)
                var j = i + 1
                while true {
                    guard j < n else {
                        throw TraceError(.malformed, file: file, line: line, column: i + 1,
                                         "expected a closing '\"' for the quoted field, found end of line")
                    }
                    if bytes[j] == ASCII.quote {
                        if j + 1 < n && bytes[j + 1] == ASCII.quote { scratch.append(ASCII.quote); j += 2; continue }
                        j += 1
                        break
                    }
                    scratch.append(bytes[j])
                    j += 1
                }
                guard j == n || bytes[j] == ASCII.comma else {
                    throw TraceError(.malformed, file: file, line: line, column: j + 1,
                                     "expected ',' after the quoted field, found \(TraceError.quoted(UnsafeBufferPointer(rebasing: bytes[j...])))")
                }
                fields.append(try scratch.withUnsafeBufferPointer { try text($0, column: i + 1) })
                i = j
            } else {
                var j = i
                while j < n && bytes[j] != ASCII.comma { j += 1 }
                fields.append(try text(UnsafeBufferPointer(rebasing: bytes[i..<j]), column: i + 1))
                i = j
            }
            if i >= n { break }
            i += 1   // the comma
            if i == n { columns.append(i + 1); fields.append(""); break }
        }
    }

    private func text(_ bytes: UnsafeBufferPointer<UInt8>, column: Int) throws -> String {
        guard let s = UTF8Check.string(bytes) else {
            throw TraceError(.notText, file: file, line: line, column: column, "field is not valid UTF-8")
        }
        return s
    }

    func error(field index: Int, _ message: String) -> TraceError {
        TraceError(.malformed, file: file, line: line, column: index < columns.count ? columns[index] : nil, message)
    }

    /// A number in field `index`; nil when empty or marked unknown with `unknownMarker`. Finite
    /// (its physical bounds are the reader's to judge).
    func number(_ index: Int, _ name: String, unknownMarker: String = "---") throws -> Double? {
        let s = self[index]
        if s.isEmpty || s == unknownMarker { return nil }
        guard let v = Double(s), v.isFinite else {
            throw error(field: index, "expected a number for \(name), found \(s.debugDescription)")
        }
        return v
    }
}

/// Clock times in the foreign formats (no Foundation; dates are `UTCTime`'s).
enum CivilTime {
    /// Seconds from `[[HH:]MM:]SS[.f]` (SpeedCoach elapsed times and splits); nil if not that.
    static func seconds(clock s: String) -> Double? {
        let parts = s.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count) else { return nil }
        var total = 0.0
        for (k, part) in parts.enumerated() {
            let isLast = k == parts.count - 1
            guard !part.isEmpty, part.allSatisfy({ $0.isASCII && ($0.isNumber || (isLast && $0 == ".")) }),
                  let v = Double(part), v >= 0 else { return nil }
            if !isLast && v != v.rounded() { return nil }
            total = total * 60 + v
        }
        return total
    }
}
