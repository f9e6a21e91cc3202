#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A WebSocket client on a bare socket (RFC 6455), for what a well-behaved client library will
/// not do: send any headers, keep a tiny receive buffer and never read, read the close frame's
/// code. Blocking; one thread at a time.
final class RawWebSocket {
    let fd: Int32
    /// The server's answer to the upgrade: its status line and headers.
    private(set) var response = ""

    init(port: Int, path: String, headers: [String] = [], receiveBuffer: Int32? = nil) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        if var size = receiveBuffer { setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size)) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { close(fd); throw ServerTestError("connect failed") }
        var timeout = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
            + headers.map { $0 + "\r\n" }.joined() + "\r\n"
        try write(Array(request.utf8))
        var head: [UInt8] = []
        while !head.suffix(4).elementsEqual(Array("\r\n\r\n".utf8)) {
            guard let byte = try? read(1).first else { break }
            head.append(byte)
        }
        response = String(decoding: head, as: UTF8.self)
    }

    deinit { close(fd) }

    var upgraded: Bool { response.hasPrefix("HTTP/1.1 101") }

    private func write(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw ServerTestError("send failed") }
            sent += n
        }
    }

    private func read(_ count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var got = 0
        while got < count {
            let n = bytes[got...].withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { throw ServerTestError("the socket ended") }
            got += n
        }
        return bytes
    }

    /// A masked text frame, as a client must send.
    func send(_ text: String) throws {
        let payload = Array(text.utf8)
        let mask: [UInt8] = [0x12, 0x34, 0x56, 0x78]
        var frame: [UInt8] = [0x81]
        if payload.count < 126 { frame.append(0x80 | UInt8(payload.count)) } else {
            frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xff)]
        }
        frame += mask
        frame += payload.enumerated().map { $1 ^ mask[$0 % 4] }
        try write(frame)
    }

    /// The next frame: its opcode (1 text, 8 close) and payload.
    func frame() throws -> (opcode: UInt8, payload: [UInt8]) {
        let head = try read(2)
        var length = Int(head[1] & 0x7f)
        if length == 126 { length = try read(2).reduce(0) { $0 << 8 | Int($1) } }
        else if length == 127 { length = try read(8).reduce(0) { $0 << 8 | Int($1) } }
        guard length < 1 << 24 else { throw ServerTestError("not a frame: \(head) length \(length)") }
        return (head[0] & 0x0f, try read(length))
    }

    /// Text frames until a close frame: the texts, and the close's code and reason.
    func readUntilClose(limit: Int = 1_000_000) throws -> (texts: [String], code: Int, reason: String) {
        var texts: [String] = []
        for _ in 0..<limit {
            let f = try frame()
            if f.opcode == 8 {
                let code = f.payload.count >= 2 ? Int(f.payload[0]) << 8 | Int(f.payload[1]) : 1005
                return (texts, code, String(decoding: f.payload.dropFirst(2), as: UTF8.self))
            }
            if f.opcode == 1 { texts.append(String(decoding: f.payload, as: UTF8.self)) }
        }
        throw ServerTestError("no close frame")
    }
}
