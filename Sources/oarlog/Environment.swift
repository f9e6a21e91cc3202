#if canImport(Glibc)
import Glibc
#endif

/// The value of an environment variable, if set and not empty.
func environment(_ name: String) -> String? {
    guard let value = getenv(name) else { return nil }
    let s = String(cString: value)
    return s.isEmpty ? nil : s
}
