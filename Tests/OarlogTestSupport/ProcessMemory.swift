#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// What Linux says of a process's memory and threads (`/proc`), for the tests that hold a long
/// session or a hostile input to a bound.
public enum ProcessMemory {
    /// This process's resident set, bytes (`/proc/self/statm`: resident pages × page size); 0 if
    /// unreadable.
    public static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1 else { return 0 }
        return (Int(fields[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// The number of a field of `/proc/PID/status` (VmRSS and VmHWM in kB, Threads) of process
    /// `pid` (nil: this one); -1 if unreadable.
    public static func status(_ key: String, of pid: Int32? = nil) -> Int {
        let path = "/proc/\(pid.map(String.init) ?? "self")/status"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return -1 }
        for line in text.split(separator: "\n") where line.hasPrefix(key + ":") {
            return Int(line.dropFirst(key.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "") ?? -1
        }
        return -1
    }

    /// Resets this process's peak resident set (VmHWM) to the current one (Linux: `5` to
    /// `/proc/self/clear_refs`).
    public static func resetPeak() {
        let fd = open("/proc/self/clear_refs", O_WRONLY)
        if fd >= 0 { _ = write(fd, "5", 1); close(fd) }
    }
}
