/// A trace could not be read or written. The description names the file, the line and the
/// column (1-based; the column counts bytes, which is the character column for ASCII) and says
/// what was expected, like a compiler: `trace.csv:1042:17: expected a number for ay, found "1.2.3"`.
public struct TraceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, for callers that branch on it.
    public enum Kind: String, Sendable, Equatable {
        /// The file could not be opened, read or written.
        case io
        /// The file is not text (NUL bytes, invalid UTF-8, a compressed file).
        case notText
        /// The file holds no records at all.
        case empty
        /// A line is longer than the reader's limit.
        case lineTooLong
        /// The file (or its count of records or samples) is beyond what the reader holds
        /// (`TraceLimits`); only the readers that must read a whole file have such a bound.
        case tooLarge
        /// A value beyond what any boat or sensor can produce, where the row cannot simply be
        /// skipped (`TraceLimits`).
        case implausibleValue
        /// A row or field is not what the format says.
        case malformed
        /// The file names a format version this reader does not know.
        case unsupportedVersion
        /// The format is unknown or not available in this build.
        case unsupportedFormat
    }

    public var kind: Kind
    /// The path as the caller gave it.
    public var file: String
    /// 1-based line number, when the error concerns a line.
    public var line: Int?
    /// 1-based byte column within the line, when the error concerns a field.
    public var column: Int?
    /// What was expected and what was found.
    public var message: String

    public init(_ kind: Kind, file: String, line: Int? = nil, column: Int? = nil, _ message: String) {
        self.kind = kind
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    public var description: String {
        var s = file
        if let line { s += ":\(line)" }
        if let column { s += ":\(column)" }
        return s + ": " + message
    }
}

extension TraceError {
    /// Quotes a piece of input for an error message: at most 40 bytes, control and non-ASCII
    /// bytes escaped, so a message never carries binary junk.
    static func quoted(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        var s = "\""
        for (n, b) in bytes.enumerated() {
            if n == 40 { s += "…"; break }
            switch b {
            case 0x22: s += "\\\""
            case 0x5C: s += "\\\\"
            case 0x20...0x7E: s.unicodeScalars.append(Unicode.Scalar(b))
            default:
                let hex = String(b, radix: 16, uppercase: true)
                s += "\\x" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return s + "\""
    }
}
