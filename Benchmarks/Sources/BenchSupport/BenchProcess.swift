#if canImport(Glibc)
import Glibc
#endif

/// What the whole-process benchmarks measure about themselves: a monotonic clock and the peak
/// resident memory (`VmHWM`), which `resetPeakRSS` starts again.
public enum BenchProcess {
    /// Seconds on the monotonic clock.
    public static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// The peak resident set size so far, MB (-1 when /proc cannot say).
    public static func peakRSSMegabytes() -> Double {
        guard let f = fopen("/proc/self/status", "r") else { return -1 }
        defer { fclose(f) }
        var line = [CChar](repeating: 0, count: 256)
        while fgets(&line, 256, f) != nil {
            let s = String(cString: line)
            if s.hasPrefix("VmHWM:") { return Double(s.split(separator: " ")[1]).map { $0 / 1024 } ?? -1 }
        }
        return -1
    }

    /// Starts the peak resident set size again from the current size.
    public static func resetPeakRSS() {
        if let f = fopen("/proc/self/clear_refs", "w") { fputs("5", f); fclose(f) }
    }
}
