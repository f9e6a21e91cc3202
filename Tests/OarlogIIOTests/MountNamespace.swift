import Foundation
import OarlogTestSupport
import XCTest

/// Runs a test inside a private mount namespace where a fresh, empty temporary directory is
/// bound over `/sys/bus` and an overlay (upper layer in the same temporary directory) lies over
/// `/dev`, so the test can lay out a fake IIO device that libiio's real `local:` backend (and a
/// real iiod) reads, without touching the machine's own /sys or /dev.
///
/// The test re-executes its own test binary (`rerunInChild`: `Module.Class/test`) under
/// `unshare --mount --propagation private`; the child sees `OARLOG_IIO_NAMESPACE=1`, runs the
/// body, and its XCTest failures make it exit non-zero, which fails the test here with the
/// child's output. The mounts vanish with the child. Needs root (CI runs as root).
enum MountNamespace {
    static let flag = "OARLOG_IIO_NAMESPACE"
    static var isInside: Bool { ProcessInfo.processInfo.environment[flag] == "1" }

    /// The shell run by unshare: mounts, then execs the test binary with the filter.
    static let script = """
        set -e
        root="$OARLOG_IIO_FAKE_ROOT"
        mount --bind "$root/sys-bus" /sys/bus
        mount --bind /dev/shm "$root/shm" 2>/dev/null || true
        mount -t overlay overlay -o "lowerdir=/dev,upperdir=$root/dev-upper,workdir=$root/dev-work" /dev
        mount --move "$root/shm" /dev/shm 2>/dev/null || true
        mkdir -p /sys/bus/iio/devices
        exec "$@"
        """
}

extension XCTestCase {
    /// Runs `body` inside the namespace (see `MountNamespace`). Outside, it starts the child and
    /// asserts it ran exactly this one test and passed.
    func inFakeSysfs(timeout: TimeInterval = 60, function: String = #function, file: StaticString = #filePath, line: UInt = #line,
                     _ body: () throws -> Void) throws {
        if MountNamespace.isInside {
            signal(SIGPIPE, SIG_IGN)
            try body()
            return
        }
        guard getuid() == 0 else {
            XCTFail("the IIO tests need root (a private mount namespace over /sys/bus and /dev)", file: file, line: line)
            return
        }
        let fm = FileManager.default
        let root = fm.temporaryDirectory.appendingPathComponent("oarlog-iio-\(UUID().uuidString)").path
        for sub in ["sys-bus", "dev-upper", "dev-work", "shm"] {
            try fm.createDirectory(atPath: root + "/" + sub, withIntermediateDirectories: true)
        }
        defer { try? fm.removeItem(atPath: root) }
        let output = try rerunInChild(environment: [MountNamespace.flag: "1", "OARLOG_IIO_FAKE_ROOT": root],
                                      wrapper: ["/usr/bin/unshare", "--mount", "--propagation", "private", "/bin/sh", "-c", MountNamespace.script, "sh"],
                                      timeout: timeout, where: "its mount namespace", function: function, file: file, line: line)
        // Pass the child's own log lines on (what the reader set up, gaps), for the record.
        for l in output.split(separator: "\n") where l.hasPrefix("iio-test:") { print(l) }
    }
}
