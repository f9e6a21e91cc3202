#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Set by SIGINT/SIGTERM so a long replay or a live session stops cleanly between records.
public enum SignalFlag {
    private static let flag = Atomic<Bool>(false)

    public static var interrupted: Bool { flag.load(ordering: .relaxed) }

    public static func raise() { flag.store(true, ordering: .relaxed) }

    /// Installs the handlers once (the second Ctrl-C still kills the process the usual way).
    public static func install() {
        signal(SIGINT) { _ in
            SignalFlag.raise()
            Glibc.signal(SIGINT, SIG_DFL)
        }
        signal(SIGTERM) { _ in SignalFlag.raise() }
    }
}
