import OarlogCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes the native CSV trace format (docs/TRACE_FORMAT.md), buffered (256 KiB per `write(2)`).
///
/// Numbers are written in the shortest form that reads back to the same value (Swift's
/// `description`), so `NativeTraceReader` returns bit-identical Floats and Doubles. The file
/// starts with `# oarlog-trace: 1`, the metadata, and a `t,kind,values` header line.
/// Unknown optional values are empty fields; a NaN or infinite optional GPS/reference value is
/// written as unknown. Note and gap texts have line breaks replaced by spaces, and are quoted
/// when they contain `,` or `"`. Call `close()` to flush; a writer dropped without `close()`
/// flushes on a best-effort basis and cannot report errors.
public struct TraceWriter {
    public let path: String
    private let sink: BufferedFileSink

    /// Creates (or truncates) `path` and writes the format line, `metadata` in order, and the
    /// header. A metadata key must be `[A-Za-z0-9_.-]+`.
    public init(path: String, metadata: [(key: String, value: String)]) throws {
        self.path = path
        sink = try BufferedFileSink(path: path)
        if !metadata.contains(where: { $0.key == "oarlog-trace" }) {
            try writeMetadata(key: "oarlog-trace", value: NativeTraceReader.formatVersion)
        }
        for (key, value) in metadata { try writeMetadata(key: key, value: value) }
        sink.append("t,kind,values\n")
        try sink.flushIfFull()
    }

    /// Appends one record. Metadata goes in place as a `# key: value` line.
    public mutating func write(_ record: TraceRecord) throws {
        let s = sink
        switch record {
        case .accel(let a):
            appendAccel(a)
        case .fix(let f):
            s.append(f.time); s.append(",gps,")
            s.field(f.latitude); s.field(f.longitude)
            s.optionalField(f.speed); s.optionalField(f.course)
            s.appendOptional(f.horizontalAccuracy)
            if f.altitude != nil || f.utc != nil {
                s.byte(ASCII.comma); s.appendOptional(f.altitude)
                if f.utc != nil { s.byte(ASCII.comma); s.appendOptional(f.utc) }
            }
            s.byte(ASCII.newline)
        case .note(let n):
            s.append(n.time); s.append(",note,")
            s.appendText(n.text)
            s.byte(ASCII.newline)
        case .gap(let g):
            s.append(g.start); s.append(",gap,")
            s.append(g.sensor.rawValue); s.byte(ASCII.comma)
            s.field(g.end)
            s.appendText(g.reason)
            s.byte(ASCII.newline)
        case .reference(let r):
            s.append(r.time); s.append(",ref,")
            s.optionalField(r.distance); s.optionalField(r.split)
            s.optionalField(r.strokeRate); s.optionalField(r.speed)
            if let c = r.strokeCount { s.append(String(c)) }
            if r.distancePerStroke != nil || r.power != nil { s.byte(ASCII.comma); s.appendOptional(r.distancePerStroke) }
            if r.power != nil { s.byte(ASCII.comma); s.appendOptional(r.power) }
            s.byte(ASCII.newline)
        case .heartRate(let h):
            s.append(h.time); s.append(",hr,")
            s.append(h.bpm)
            if let sensor = h.sensor { s.byte(ASCII.comma); s.appendText(sensor) }
            s.byte(ASCII.newline)
        case .oarlock(let o):
            // t,oar,POWER_W,CATCH_DEG,FINISH_DEG,SLIP_DEG,WASH_DEG,EFFECTIVE_DEG,AVG_FORCE_N,MAX_FORCE_N,
            // MAX_FORCE_ANGLE_DEG,WORK_J[,SEAT]: an empty field is a figure the oarlock did not give.
            s.append(o.time); s.append(",oar,")
            for v in [o.power, o.catchAngle, o.finishAngle, o.slip, o.wash, o.effectiveLength,
                      o.averageForce, o.maxForce, o.maxForceAngle] { s.optionalField(v) }
            s.appendOptional(o.work)
            if let seat = o.seat { s.byte(ASCII.comma); s.appendText(seat) }
            s.byte(ASCII.newline)
        case .metadata(let key, let value):
            try writeMetadata(key: key, value: value)
        }
        try s.flushIfFull()
    }

    /// Appends accelerometer samples in a batch.
    public mutating func write(accel samples: UnsafeBufferPointer<AccelSample>) throws {
        for a in samples {
            appendAccel(a)
            try sink.flushIfFull()
        }
    }

    @inline(__always)
    private func appendAccel(_ a: AccelSample) {
        let s = sink
        s.append(a.time); s.append(",accel,")
        s.append(a.x); s.byte(ASCII.comma)
        s.append(a.y); s.byte(ASCII.comma)
        s.append(a.z); s.byte(ASCII.newline)
    }

    private func writeMetadata(key: String, value: String) throws {
        guard !key.isEmpty, key.utf8.allSatisfy(NativeTraceReader.isKeyByte) else {
            throw TraceError(.malformed, file: path, "metadata key \(key.debugDescription) must be letters, digits, '_', '-' or '.'")
        }
        sink.append("# "); sink.append(key); sink.append(": ")
        sink.append(BufferedFileSink.singleLine(value))
        sink.byte(ASCII.newline)
        try sink.flushIfFull()
    }

    /// Flushes and closes the file.
    public mutating func close() throws {
        try sink.close()
    }
}

/// A file descriptor with a byte buffer, flushed when nearly full. A class so the buffer is
/// flushed and the file closed when the writer goes away without `close()`.
final class BufferedFileSink {
    let path: String
    private var fd: Int32
    private let buffer: UnsafeMutablePointer<UInt8>
    private let capacity = 256 * 1024
    /// Flush once this much is buffered. After any `append` at most this much is buffered
    /// (longer texts are written through), and the bytes a record adds between appends
    /// (separators) are far fewer than the 64 KiB of headroom.
    private let flushThreshold = 192 * 1024
    private var count = 0

    init(path: String) throws {
        self.path = path
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        if fd < 0 {
            throw TraceError(.io, file: path, "cannot create: \(String(cString: strerror(errno)))")
        }
        buffer = .allocate(capacity: capacity)
    }

    deinit {
        if fd >= 0 {
            writeBuffer()
            Glibc.close(fd)
        }
        buffer.deallocate()
    }

    @inline(__always)
    func byte(_ b: UInt8) {
        buffer[count] = b
        count &+= 1
    }

    func append(_ s: String) {
        var s = s
        s.withUTF8 { bytes in
            if count + bytes.count > flushThreshold {
                writeBuffer()
                if bytes.count > flushThreshold { writeThrough(bytes); return }
            }
            (buffer + count).update(from: bytes.baseAddress!, count: bytes.count)
            count += bytes.count
        }
    }

    @inline(__always)
    func append(_ v: Double) { append(v.description) }

    @inline(__always)
    func append(_ v: Float) { append(v.description) }

    /// An optional value: empty when unknown, NaN or infinite.
    @inline(__always)
    func appendOptional(_ v: Double?) {
        if let v, v.isFinite { append(v.description) }
    }

    /// A value and the `,` after it: a field that is not the row's last.
    @inline(__always)
    func field(_ v: Double) {
        append(v)
        byte(ASCII.comma)
    }

    /// An optional value (empty when unknown, NaN or infinite) and the `,` after it.
    @inline(__always)
    func optionalField(_ v: Double?) {
        appendOptional(v)
        byte(ASCII.comma)
    }

    /// Free text on one line; quoted (CSV style) when it holds `,` or `"`.
    func appendText(_ text: String) {
        let line = Self.singleLine(text)
        if line.utf8.contains(ASCII.comma) || line.utf8.contains(ASCII.quote) {
            byte(ASCII.quote)
            var quoted = ""
            for ch in line.unicodeScalars {
                if ch == "\"" { quoted += "\"\"" } else { quoted.unicodeScalars.append(ch) }
            }
            append(quoted)
            byte(ASCII.quote)
        } else {
            append(line)
        }
    }

    /// Replaces line breaks by spaces: a trace row is one line.
    static func singleLine(_ s: String) -> String {
        guard s.utf8.contains(where: { $0 == ASCII.newline || $0 == ASCII.carriageReturn }) else { return s }
        return String(s.unicodeScalars.map { $0 == "\n" || $0 == "\r" ? " " : Character($0) })
    }

    @inline(__always)
    func flushIfFull() throws {
        if count >= flushThreshold { try flush() }
    }

    private var pendingError: TraceError?

    private func writeThrough(_ bytes: UnsafeBufferPointer<UInt8>) {
        if let error = writeAll(bytes.baseAddress!, bytes.count) { pendingError = pendingError ?? error }
    }

    /// Writes out the buffer, then reports the first write error since the last flush.
    func flush() throws {
        guard fd >= 0 else {
            throw TraceError(.io, file: path, "write after close")
        }
        writeBuffer()
        if let error = pendingError { pendingError = nil; throw error }
    }

    /// Writes out the buffer; an error is kept for the next `flush()` (the buffer is emptied
    /// either way, so the writer never overruns it).
    private func writeBuffer() {
        guard count > 0, fd >= 0 else { return }
        let n = count
        count = 0
        if let error = writeAll(buffer, n) { pendingError = pendingError ?? error }
    }

    private func writeAll(_ p: UnsafePointer<UInt8>, _ n: Int) -> TraceError? {
        var done = 0
        while done < n {
            let w = write(fd, p + done, n - done)
            if w < 0 {
                if errno == EINTR { continue }
                return TraceError(.io, file: path, "write failed: \(String(cString: strerror(errno)))")
            }
            done += w
        }
        return nil
    }

    func close() throws {
        guard fd >= 0 else { return }
        defer { fd = -1 }
        do { try flush() } catch { Glibc.close(fd); throw error }
        if Glibc.close(fd) != 0 {
            throw TraceError(.io, file: path, "close failed: \(String(cString: strerror(errno)))")
        }
    }
}
