import OarlogCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One attribute of an element: its qualified name (with any namespace prefix) and its value
/// with the entities and character references replaced.
struct XMLAttribute: Equatable, Sendable {
    var name: String
    var value: String
}

/// What the scanner found next in a document.
enum XMLEvent: Equatable, Sendable {
    /// A start tag (an empty-element tag `<a/>` gives a start and an end). `name` is qualified
    /// (`gpxtpx:hr`): namespaces are not resolved, readers match the local name.
    case start(name: String, attributes: [XMLAttribute])
    case end(name: String)
    /// Character data (entities replaced) or a CDATA section (as is). Text that is only white
    /// space is not reported.
    case text(String)
}

extension String {
    /// The name after any namespace prefix: `hr` of `gpxtpx:hr`.
    var xmlLocalName: Substring {
        guard let colon = lastIndex(of: ":") else { return self[...] }
        return self[index(after: colon)...]
    }
}

/// A streaming XML pull scanner for the documents devices export (TCX, GPX), without Foundation:
/// elements with their namespace prefixes, attributes in `'` or `"`, text with the five
/// predefined entities and numeric character references, comments, CDATA sections; processing
/// instructions (the `<?xml …?>` declaration) and a DOCTYPE (with any internal subset) are
/// skipped, its entity declarations are not read.
///
/// It reads the file in chunks (`ChunkedLineBuffer`'s buffer, which also refuses a gzip file,
/// NUL bytes and a start that is not UTF-8, and skips a byte-order mark), so memory stays at a
/// chunk plus the longest token. It holds the document to well-formedness where a reader would
/// otherwise go wrong: end tags must match, one root element, no stray `&` or `<`. Bounded
/// (`Limits`): nesting depth, the bytes of one token (a tag, a text run, a comment), the
/// attributes of an element, the file's size. Every error is a `TraceError` naming the file, the
/// line and the (byte) column where the offending token starts or the fault is.
struct XMLScanner {
    /// The bounds a document is held to.
    struct Limits: Sendable {
        /// Deepest nesting of elements: 64 (a TCX trackpoint's extension sits 9 deep).
        var maxDepth = 64
        /// Longest token (a tag with its attributes, a text run, a comment, a CDATA section, a
        /// DOCTYPE): 1 MiB.
        var maxTokenBytes = 1 << 20
        /// Most attributes on one element: 256.
        var maxAttributes = 256
        /// Largest file: 256 MiB (a TCX holds about 500 bytes a second of recording: 256 MiB is
        /// a week at one point a second).
        var maxFileBytes = 256 << 20
    }

    let path: String
    let limits: Limits
    var input: ChunkedLineBuffer
    /// Line and byte column of `input.pos`.
    private(set) var line = 1
    private(set) var column = 1
    /// Line and column where the last event's token started.
    private(set) var eventLine = 1
    private(set) var eventColumn = 1
    /// The open elements, outermost first, with where each was opened.
    private(set) var openElements: [(name: String, line: Int, column: Int)] = []
    private var pendingEnd: String?
    private var rootClosed = false
    private var sawRoot = false

    /// `chunkBytes`: how much of the file is read at a time (tests make it tiny, so that tokens
    /// straddle the chunks).
    init(path: String, limits: Limits = Limits(), chunkBytes: Int = 256 * 1024) throws {
        self.path = path
        self.limits = limits
        input = try ChunkedLineBuffer(path: path, chunkBytes: chunkBytes, maxLineBytes: limits.maxTokenBytes + 64,
                                      maxFileBytes: limits.maxFileBytes)
    }

    /// The lines read so far.
    var linesRead: Int { line }

    /// The next event, or nil at the end of a well-formed document.
    mutating func next() throws -> XMLEvent? {
        if let name = pendingEnd {
            pendingEnd = nil
            closeTop()
            return .end(name: name)
        }
        while true {
            eventLine = line
            eventColumn = column
            guard let first = try byte(0) else { return try endOfDocument() }
            if first != UInt8(ascii: "<") {
                if let text = try textRun() { return .text(text) }
                continue
            }
            guard let second = try byte(1) else { throw error(at: 0, "expected a tag after \"<\", found the end of the file") }
            switch second {
            case UInt8(ascii: "/"): return try endTag()
            case UInt8(ascii: "?"): try skip(past: Array("?>".utf8), from: 2, what: "processing instruction")
            case UInt8(ascii: "!"): if let text = try markupDeclaration() { return .text(text) }
            default: return try startTag()
            }
        }
    }

    // MARK: Bytes

    /// The byte `k` bytes after the current token's start, reading more of the file as needed;
    /// nil at the end of the file. A token longer than `maxTokenBytes` is an error.
    @inline(__always)
    mutating func byte(_ k: Int) throws -> UInt8? {
        if k >= limits.maxTokenBytes { throw tokenTooLong() }
        while input.pos + k >= input.end {
            if input.atEOF { return nil }
            input.lineNumber = line
            try input.refill()
        }
        return input.base[input.pos + k]
    }

    func tokenTooLong() -> TraceError {
        TraceError(.tooLarge, file: path, line: line, column: column,
                   "an XML token (a tag, a text, a comment) longer than \(limits.maxTokenBytes) bytes, the most this reader holds")
    }

    /// The bytes [from, to) of the current token (valid until the next read).
    func bytes(_ from: Int, _ to: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: input.base + input.pos + from, count: to - from)
    }

    /// Consumes the first `k` bytes of the current token, counting lines and columns.
    mutating func consume(_ k: Int) {
        let p = input.base + input.pos
        for i in 0..<k {
            if p[i] == ASCII.newline {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        input.pos += k
        input.lineNumber = line
    }

    /// Line and column of the byte `k` bytes into the current token.
    func position(at k: Int) -> (line: Int, column: Int) {
        var l = line, c = column
        let p = input.base + input.pos
        for i in 0..<max(0, min(k, input.end - input.pos)) {
            if p[i] == ASCII.newline { l += 1; c = 1 } else { c += 1 }
        }
        return (l, c)
    }

    /// A malformed-document error at the byte `k` bytes into the current token.
    func error(at k: Int, _ message: String) -> TraceError {
        let (l, c) = position(at: k)
        return TraceError(.malformed, file: path, line: l, column: c, message)
    }

    static func isSpace(_ b: UInt8) -> Bool {
        b == ASCII.space || b == ASCII.newline || b == ASCII.tab || b == ASCII.carriageReturn
    }

    /// Offset of the first byte at or after `k` that is `target`, reading on as needed; nil at
    /// the end of the file.
    mutating func find(_ target: UInt8, from k: Int) throws -> Int? {
        var i = k
        while true {
            guard try byte(i) != nil else { return nil }
            let available = input.end - input.pos - i
            let start = input.base + input.pos + i
            if let hit = memchr(start, Int32(target), available) {
                let at = i + start.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                if at >= limits.maxTokenBytes { throw tokenTooLong() }
                return at
            }
            i += available
        }
    }

    /// Skips to just past `terminator` (found at or after `k`); the end of the file first is an error.
    mutating func skip(past terminator: [UInt8], from k: Int, what: String) throws {
        guard let at = try find(terminator, from: k) else {
            throw error(at: 0, "a \(what) that never ends: expected \"\(String(decoding: terminator, as: UTF8.self))\" before the end of the file")
        }
        consume(at + terminator.count)
    }

    /// Offset of the first occurrence of `pattern` at or after `k`, or nil.
    mutating func find(_ pattern: [UInt8], from k: Int) throws -> Int? {
        var i = k
        while let at = try find(pattern[0], from: i) {
            var matches = true
            for (n, b) in pattern.enumerated().dropFirst() where try byte(at + n) != b {
                matches = false
                break
            }
            if matches { return at }
            i = at + 1
        }
        return nil
    }

    // MARK: Structure

    private mutating func closeTop() {
        openElements.removeLast()
        if openElements.isEmpty { rootClosed = true }
    }

    /// At the end of the file: fine after the root element closed, else an error.
    private func endOfDocument() throws -> XMLEvent? {
        if let open = openElements.last {
            throw TraceError(.malformed, file: path, line: line, column: column,
                             "the file ends inside <\(open.name)> (opened at line \(open.line)): expected </\(open.name)>; is it cut off?")
        }
        if !sawRoot {
            throw TraceError(.malformed, file: path, line: line, column: column, "no XML element in the file")
        }
        return nil
    }

    /// Character data up to the next `<` (or the end of the file), entities replaced; nil when it
    /// is only white space.
    private mutating func textRun() throws -> String? {
        let end = try find(UInt8(ascii: "<"), from: 0) ?? (input.end - input.pos)
        let raw = bytes(0, end)
        if raw.allSatisfy(Self.isSpace) {
            consume(end)
            return nil
        }
        if openElements.isEmpty {
            let k = raw.firstIndex { !Self.isSpace($0) } ?? 0
            throw error(at: k, rootClosed || sawRoot ? "expected nothing after the root element's end, found text"
                                                     : "expected an XML element, found text")
        }
        let text = try decodeEntities(0, end)
        consume(end)
        return text
    }

    /// `</name>`, which must close the innermost open element.
    private mutating func endTag() throws -> XMLEvent {
        var k = 2
        while let b = try byte(k), b != UInt8(ascii: ">"), !Self.isSpace(b) { k += 1 }
        guard k > 2 else { throw error(at: 2, "expected an end tag name after \"</\", found \(quoted(2))") }
        let name = String(decoding: bytes(2, k), as: UTF8.self)
        while let b = try byte(k), Self.isSpace(b) { k += 1 }
        guard try byte(k) == UInt8(ascii: ">") else { throw error(at: k, "expected \">\" to end the end tag </\(name)>") }
        guard let open = openElements.last else {
            throw error(at: 0, "found the end tag </\(name)> with no element open")
        }
        guard open.name == name else {
            throw error(at: 0, "expected </\(open.name)> (opened at line \(open.line)), found </\(name)>")
        }
        consume(k + 1)
        closeTop()
        return .end(name: name)
    }

    /// `<name attr="value" …>` or `<name …/>`.
    private mutating func startTag() throws -> XMLEvent {
        if rootClosed { throw error(at: 0, "expected nothing after the root element's end, found a second element") }
        let nameEnd = try scanName(from: 1, what: "an element name")
        let name = String(decoding: bytes(1, nameEnd), as: UTF8.self)
        var attributes: [XMLAttribute] = []
        var k = nameEnd
        while true {
            let spaced = try skipSpace(&k)
            guard let b = try byte(k) else { throw error(at: 0, "the tag <\(name) never ends: expected \">\"") }
            if b == UInt8(ascii: ">") { k += 1; break }
            if b == UInt8(ascii: "/") {
                guard try byte(k + 1) == UInt8(ascii: ">") else { throw error(at: k, "expected \"/>\" in the tag <\(name)>") }
                k += 2
                pendingEnd = name
                break
            }
            guard spaced else { throw error(at: k, "expected a space, \">\" or \"/>\" in the tag <\(name)>, found \(quoted(k))") }
            guard attributes.count < limits.maxAttributes else {
                throw TraceError(.tooLarge, file: path, line: eventLine, column: eventColumn,
                                 "more than \(limits.maxAttributes) attributes on <\(name)>")
            }
            attributes.append(try attribute(&k, element: name))
        }
        guard openElements.count < limits.maxDepth else {
            throw TraceError(.tooLarge, file: path, line: eventLine, column: eventColumn,
                             "elements nested deeper than \(limits.maxDepth) (at <\(name)>)")
        }
        openElements.append((name, eventLine, eventColumn))
        sawRoot = true
        consume(k)
        return .start(name: name, attributes: attributes)
    }

    /// `name="value"` or `name='value'` starting at `k`; `k` ends past the closing quote.
    private mutating func attribute(_ k: inout Int, element: String) throws -> XMLAttribute {
        let nameEnd = try scanName(from: k, what: "an attribute name")
        let name = String(decoding: bytes(k, nameEnd), as: UTF8.self)
        k = nameEnd
        _ = try skipSpace(&k)
        guard try byte(k) == UInt8(ascii: "=") else { throw error(at: k, "expected \"=\" after the attribute \(name) of <\(element)>, found \(quoted(k))") }
        k += 1
        _ = try skipSpace(&k)
        guard let quote = try byte(k), quote == ASCII.quote || quote == UInt8(ascii: "'") else {
            throw error(at: k, "expected a quoted value for the attribute \(name) of <\(element)>, found \(quoted(k))")
        }
        guard let close = try find(quote, from: k + 1) else {
            throw error(at: k, "the value of the attribute \(name) of <\(element)> never ends")
        }
        if let lt = bytes(k + 1, close).firstIndex(of: UInt8(ascii: "<")) {
            throw error(at: k + 1 + lt, "\"<\" in the value of the attribute \(name) of <\(element)>: expected &lt;")
        }
        let value = try decodeEntities(k + 1, close)
        k = close + 1
        return XMLAttribute(name: name, value: value)
    }

    /// The end of a name starting at `k` (letters, digits, `_`, `-`, `.`, `:`, any non-ASCII).
    private mutating func scanName(from k: Int, what: String) throws -> Int {
        var i = k
        while let b = try byte(i), Self.isNameByte(b, first: i == k) { i += 1 }
        guard i > k else { throw error(at: k, "expected \(what), found \(quoted(k))") }
        return i
    }

    static func isNameByte(_ b: UInt8, first: Bool) -> Bool {
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "_"), UInt8(ascii: ":"), 0x80...0xFF: return true
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."): return !first
        default: return false
        }
    }

    /// Skips white space from `k`; whether there was any.
    private mutating func skipSpace(_ k: inout Int) throws -> Bool {
        let start = k
        while let b = try byte(k), Self.isSpace(b) { k += 1 }
        return k > start
    }

    /// The byte at `k` quoted for a message (or "the end of the file").
    func quoted(_ k: Int) -> String {
        guard input.pos + k < input.end else { return "the end of the file" }
        return TraceError.quoted(bytes(k, k + 1))
    }
}
