import OarlogCore

/// Comments, CDATA sections, the DOCTYPE, and the entities in text and attribute values.
extension XMLScanner {
    /// `<!-- … -->` (skipped), `<![CDATA[ … ]]>` (its text, as is) or `<!DOCTYPE …>` (skipped,
    /// with any internal subset); anything else after `<!` is an error.
    mutating func markupDeclaration() throws -> String? {
        if try starts(with: "<!--") {
            try skip(past: Array("-->".utf8), from: 4, what: "comment")
            return nil
        }
        if try starts(with: "<![CDATA[") {
            guard !openElements.isEmpty else { throw error(at: 0, "expected an XML element, found a CDATA section") }
            guard let end = try find(Array("]]>".utf8), from: 9) else {
                throw error(at: 0, "a CDATA section that never ends: expected \"]]>\" before the end of the file")
            }
            let text = String(decoding: bytes(9, end), as: UTF8.self)
            consume(end + 3)
            return text.isEmpty ? nil : text
        }
        if try starts(with: "<!DOCTYPE") {
            try skipDoctype()
            return nil
        }
        throw error(at: 0, "expected a comment, CDATA section or DOCTYPE after \"<!\", found \(quoted(2))")
    }

    /// Whether the current token starts with `prefix`.
    private mutating func starts(with prefix: StaticString) throws -> Bool {
        let p = prefix.utf8Start
        for k in 0..<prefix.utf8CodeUnitCount where try byte(k) != p[k] { return false }
        return true
    }

    /// Skips `<!DOCTYPE name … [internal subset] >`: to the `>` outside quotes, comments and
    /// brackets.
    private mutating func skipDoctype() throws {
        var k = 9
        var depth = 0
        var quote: UInt8?
        while let b = try byte(k) {
            if let q = quote {
                if b == q { quote = nil }
            } else if b == ASCII.quote || b == UInt8(ascii: "'") {
                quote = b
            } else if b == UInt8(ascii: "<"), try byte(k + 1) == UInt8(ascii: "!"), try byte(k + 2) == ASCII.minus,
                      try byte(k + 3) == ASCII.minus {
                // A comment in the internal subset may hold quotes, brackets and ">".
                guard let end = try find(Array("-->".utf8), from: k + 4) else { break }
                k = end + 3
                continue
            } else if b == UInt8(ascii: "[") {
                depth += 1
            } else if b == UInt8(ascii: "]") {
                depth -= 1
            } else if b == UInt8(ascii: ">") && depth <= 0 {
                consume(k + 1)
                return
            }
            k += 1
        }
        throw error(at: 0, "a DOCTYPE that never ends: expected \">\" before the end of the file")
    }

    /// The bytes [from, to) of the current token as text, with `&lt;` `&gt;` `&amp;` `&quot;`
    /// `&apos;`, `&#NNN;` and `&#xHHH;` replaced. Any other `&` is an error naming where it is.
    func decodeEntities(_ from: Int, _ to: Int) throws -> String {
        let raw = bytes(from, to)
        guard let firstAmpersand = raw.firstIndex(of: UInt8(ascii: "&")) else {
            return String(decoding: raw, as: UTF8.self)
        }
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        out.append(contentsOf: raw[..<firstAmpersand])
        var i = firstAmpersand
        while i < raw.count {
            let b = raw[i]
            guard b == UInt8(ascii: "&") else {
                out.append(b)
                i += 1
                continue
            }
            guard let semicolon = raw[i..<min(raw.count, i + 12)].firstIndex(of: UInt8(ascii: ";")) else {
                throw error(at: from + i, "expected an entity such as &amp; after \"&\", found \(TraceError.quoted(UnsafeBufferPointer(rebasing: raw[i..<min(raw.count, i + 12)])))")
            }
            let name = UnsafeBufferPointer(rebasing: raw[(i + 1)..<semicolon])
            guard let scalar = Self.entity(name) else {
                throw error(at: from + i, "unknown entity &\(String(decoding: name, as: UTF8.self));: expected &lt; &gt; &amp; &quot; &apos; or a character reference such as &#38;")
            }
            out.append(contentsOf: Array(String(Character(scalar)).utf8))
            i = semicolon + 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The character an entity name (between `&` and `;`) stands for, or nil.
    static func entity(_ name: UnsafeBufferPointer<UInt8>) -> Unicode.Scalar? {
        switch String(decoding: name, as: UTF8.self) {
        case "lt": return "<"
        case "gt": return ">"
        case "amp": return "&"
        case "quot": return "\""
        case "apos": return "'"
        default: break
        }
        guard name.count >= 2, name[0] == ASCII.hash else { return nil }
        var value: UInt32 = 0
        let hex = name[1] == UInt8(ascii: "x")
        let digits = name[(hex ? 2 : 1)...]
        guard !digits.isEmpty, digits.count <= 8 else { return nil }
        for d in digits {
            let v: UInt32
            switch d {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): v = UInt32(d - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f") where hex: v = UInt32(d - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F") where hex: v = UInt32(d - UInt8(ascii: "A") + 10)
            default: return nil
            }
            value = value * (hex ? 16 : 10) + v
        }
        // XML 1.0 allows no NUL and no other C0 control but tab, newline and carriage return.
        guard value >= 0x20 || value == 0x9 || value == 0xA || value == 0xD else { return nil }
        return Unicode.Scalar(value)
    }
}
