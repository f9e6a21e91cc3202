import Foundation
import OarlogUpload

/// A `multipart/form-data` body (RFC 7578): text fields and files, with a boundary that is not in
/// any of them.
public struct MultipartForm: Sendable {
    public let boundary: String
    private var parts: [[UInt8]] = []

    public init(boundary: String = "oarlog-" + UUID().uuidString) {
        self.boundary = boundary
    }

    /// The `Content-Type` header's value.
    public var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    public mutating func add(_ name: String, _ value: String) {
        parts.append(Array("Content-Disposition: form-data; name=\"\(Self.quoted(name))\"\r\n\r\n".utf8) + Array(value.utf8))
    }

    public mutating func addFile(_ name: String, filename: String, contentType: String, _ bytes: [UInt8]) {
        let head = "Content-Disposition: form-data; name=\"\(Self.quoted(name))\"; filename=\"\(Self.quoted(filename))\"\r\n"
            + "Content-Type: \(contentType)\r\n\r\n"
        parts.append(Array(head.utf8) + bytes)
    }

    /// The whole body.
    public var body: [UInt8] {
        var out: [UInt8] = []
        for part in parts {
            out += Array("--\(boundary)\r\n".utf8)
            out += part
            out += Array("\r\n".utf8)
        }
        out += Array("--\(boundary)--\r\n".utf8)
        return out
    }

    /// A name or file name with its quotes, backslashes and line ends made harmless.
    private static func quoted(_ s: String) -> String {
        s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "%22")
            .replacingOccurrences(of: "\r", with: " ").replacingOccurrences(of: "\n", with: " ")
    }
}
