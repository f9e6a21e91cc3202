#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import OarlogApp
import OarlogCore
import OarlogTerminal
import OarlogTrace

/// The value of an environment variable, if set and not empty.
func environment(_ name: String) -> String? {
    guard let value = getenv(name) else { return nil }
    let s = String(cString: value)
    return s.isEmpty ? nil : s
}

/// A command that could not do its work: printed as "Error: …" with exit status 1, without the
/// usage text a mistyped option gets.
typealias CommandFailure = AppError

/// `--from` / `--at` times: m:ss, h:mm:ss or seconds.
func sessionTimeOption(_ text: String?, name: String) throws -> Double? {
    guard let text else { return nil }
    guard let t = SessionText.sessionTime(text) else {
        throw ValidationError("--\(name) '\(text)': expected m:ss (12:30), h:mm:ss (1:02:30) or seconds (750)")
    }
    return t
}

/// Prints the reader's skipped-rows note, if any, on standard error.
func reportSkips(_ note: String?) {
    ReplayReport.reportSkips(note)
}

extension TraceFormat: ExpressibleByArgument {}
