#if canImport(Glibc)
import Glibc
#endif

/// Unbuffered writes to the standard streams (safe from any thread, no shared `FILE*`).
public enum StandardStreams {
    public static func write(_ text: String, to fd: Int32 = STDOUT_FILENO) {
        var text = text
        text.withUTF8 { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += n
            }
        }
    }

    public static func error(_ text: String) { write(text, to: STDERR_FILENO) }

    public static var stdoutIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }
    public static var stderrIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }
}
