#if canImport(Glibc)
import Glibc
#endif
import Foundation
import XCTest

/// A private system-type dbus-daemon with `Tests/Standins/bluez_standin.py` (a stand-in of
/// org.bluez written from BlueZ 5.66's API documents) on it, for one test. Commands go to the
/// stand-in through a FIFO; what it did is read from its output file.
public final class BlueZStandin {
    public static let bluezVersion = "5.66"
    public let directory: String
    public let busAddress: String
    private let daemon: ChildProcess
    private var standin: ChildProcess
    private let outputPath: String
    private let fifo: String
    private let script: String
    private var control: Int32

    /// Skips the test (with why) when dbus-daemon or python3-dbus is missing; CI installs both.
    public static func skipUnlessAvailable() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/dbus-daemon") else {
            throw XCTSkip("dbus-daemon is not installed (apt-get install dbus-daemon)")
        }
        let probe = try ChildProcess.run("/usr/bin/python3", ["-c", "import dbus, dbus.service, dbus.mainloop.glib; from gi.repository import GLib"])
        guard probe.status == 0 else { throw XCTSkip("python3-dbus or python3-gi is missing (apt-get install python3-dbus python3-gi)") }
    }

    public init() throws {
        try Self.skipUnlessAvailable()
        directory = NSTemporaryDirectory() + "oarlog-bluez-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let socket = directory + "/bus.sock"
        busAddress = "unix:path=" + socket
        try Self.config(socket: socket).write(toFile: directory + "/bus.conf", atomically: true, encoding: .utf8)
        daemon = try ChildProcess("/usr/bin/dbus-daemon", ["--config-file=\(directory)/bus.conf", "--nofork"],
                                  output: directory + "/daemon.log", errors: directory + "/daemon.log")
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: socket) && Date() < deadline { usleep(10_000) }
        fifo = directory + "/control"
        guard mkfifo(fifo, 0o600) == 0 else { throw XCTSkip("cannot make a FIFO in \(directory)") }
        outputPath = directory + "/standin.log"
        script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Standins/bluez_standin.py").path
        standin = try ChildProcess("/usr/bin/python3", [script, busAddress, fifo], output: outputPath, errors: outputPath)
        control = -1
        try waitFor("ready bluez \(Self.bluezVersion) org.bluez")
        control = open(fifo, O_WRONLY)
        if control < 0 { throw XCTSkip("cannot open the stand-in's FIFO") }
    }

    deinit { stop() }

    /// bluetoothd restarting: the stand-in is stopped (org.bluez leaves the bus) and started
    /// again, knowing no strap (the test adds them again).
    public func restart() throws {
        close(control)
        control = -1
        standin.stop(SIGTERM, grace: 5)
        let readyLines = lines(startingWith: "ready bluez").count
        standin = try ChildProcess("/usr/bin/python3", [script, busAddress, fifo], output: outputPath, errors: outputPath)
        try waitFor("ready bluez \(Self.bluezVersion) org.bluez", count: readyLines + 1)
        control = open(fifo, O_WRONLY)
        if control < 0 { throw XCTSkip("cannot open the stand-in's FIFO") }
    }

    private var stopped = false
    public func stop() {
        guard !stopped else { return }
        stopped = true
        if control >= 0 { close(control) }
        standin.stop(SIGTERM, grace: 5)
        daemon.stop(SIGTERM, grace: 5)
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Sends one control line ("add AA:… Polar", "stream AA:… 600 100 8", "vanish AA:…").
    public func send(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(control, $0.baseAddress, $0.count) }
    }

    /// What the stand-in printed so far.
    public var output: String { ChildProcess.text(outputPath) }

    /// Lines the stand-in printed that start with `prefix`.
    public func lines(startingWith prefix: String) -> [String] {
        output.split(separator: "\n").map(String.init).filter { $0.hasPrefix(prefix) }
    }

    /// Waits until the stand-in printed `line` `count` times (or fails after `timeout` s).
    public func waitFor(_ line: String, count: Int = 1, timeout: Double = 15, file: StaticString = #filePath, lineNumber: UInt = #line) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if lines(startingWith: line).count >= count { return }
            usleep(20_000)
        }
        XCTFail("the stand-in never printed \(count) × \"\(line)\"; it printed:\n\(output.suffix(2000))", file: file, line: lineNumber)
        throw XCTSkip("gave up waiting")
    }

    private static func config(socket: String) -> String {
        """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>system</type>
          <listen>unix:path=\(socket)</listen>
          <auth>EXTERNAL</auth>
          <policy context="default">
            <allow user="*"/><allow own="*"/><allow send_type="method_call"/><allow send_type="signal"/>
            <allow send_requested_reply="true" send_type="method_return"/>
            <allow send_requested_reply="true" send_type="error"/>
            <allow receive_type="method_call"/><allow receive_type="method_return"/>
            <allow receive_type="error"/><allow receive_type="signal"/>
            <allow send_destination="*" eavesdrop="false"/>
          </policy>
        </busconfig>
        """
    }
}
