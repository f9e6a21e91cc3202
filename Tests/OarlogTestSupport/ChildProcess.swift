#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// What a command printed and how it ended.
public struct CommandRun: Sendable {
    public var status: Int32
    public var out: String
    public var err: String
    /// It outlived its time limit and was killed (SIGKILL).
    public var timedOut = false
}

/// A program a test starts: standard input empty or a file, its output and its errors appended
/// to files or dropped. Files, not pipes: a chatty program cannot block on a full pipe, and one
/// killed at a time limit leaves nothing half read. `run` waits for the end and returns what it
/// printed; a program in the background (a server, a broker, a replay) is kept by the test and
/// ended with `stop`.
public final class ChildProcess: @unchecked Sendable {
    public let process = Process()

    /// Starts `executable` with `arguments` in `directory` (nil: this process's), with this
    /// process's environment plus `environment`.
    /// - Parameters:
    ///   - input: a file for its standard input; nil: /dev/null.
    ///   - output: the file its standard output is appended to (made if missing); nil: /dev/null.
    ///   - errors: the same for its standard error; the same path as `output`: one file, in the
    ///     order written.
    public init(_ executable: String, _ arguments: [String], in directory: String? = nil, environment: [String: String] = [:],
                input: String? = nil, output: String? = nil, errors: String? = nil) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let inHandle = try input.map { try FileHandle(forReadingFrom: URL(fileURLWithPath: $0)) }
        let outHandle = try output.map(Self.appending)
        let errHandle = errors == output ? outHandle : try errors.map(Self.appending)
        process.standardInput = inHandle ?? FileHandle.nullDevice
        process.standardOutput = outHandle ?? FileHandle.nullDevice
        process.standardError = errHandle ?? FileHandle.nullDevice
        defer {
            // The child holds its own copies.
            for handle in [inHandle, outHandle, errHandle] { try? handle?.close() }
        }
        try process.run()
    }

    public var isRunning: Bool { process.isRunning }
    public var processIdentifier: Int32 { process.processIdentifier }
    /// Its exit status (or the signal that ended it), once it has ended.
    public var status: Int32 { process.terminationStatus }

    /// Sends `signal` if it still runs (SIGINT: the Ctrl-C a person stops `oarlog serve` with).
    public func send(_ signal: Int32) {
        if process.isRunning { kill(process.processIdentifier, signal) }
    }

    /// Waits for the end, `timeout` seconds at most (nil: however long it takes), and returns the
    /// exit status; past the limit it is killed (SIGKILL) and reaped, and the answer is nil.
    @discardableResult
    public func wait(timeout: TimeInterval? = nil) -> Int32? {
        if let timeout {
            let deadline = Date().addingTimeInterval(timeout)
            while process.isRunning && Date() < deadline { usleep(10_000) }
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                return nil
            }
        }
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Ends it: `signal`, `grace` seconds to finish (a server closes its files, a broker writes its
    /// database), then SIGKILL; reaped either way.
    public func stop(_ signal: Int32 = SIGTERM, grace: TimeInterval = 10) {
        send(signal)
        wait(timeout: grace)
    }

    /// Runs `executable` to its end (see `init` for the arguments) and returns its exit status,
    /// output and errors. `mergingErrors`: its errors go into `out`, in the order written, and
    /// `err` is empty. `timeout`: seconds it may take before it is killed (`timedOut`).
    public static func run(_ executable: String, _ arguments: [String], in directory: String? = nil,
                           environment: [String: String] = [:], input: String? = nil, mergingErrors: Bool = false,
                           timeout: TimeInterval? = nil) throws -> CommandRun {
        let fm = FileManager.default
        let stem = fm.temporaryDirectory.appendingPathComponent("oarlog-child-\(UUID().uuidString)").path
        let outPath = stem + ".out", errPath = mergingErrors ? outPath : stem + ".err"
        defer {
            try? fm.removeItem(atPath: outPath)
            try? fm.removeItem(atPath: errPath)
        }
        let child = try ChildProcess(executable, arguments, in: directory, environment: environment, input: input,
                                     output: outPath, errors: errPath)
        let status = child.wait(timeout: timeout)
        return CommandRun(status: status ?? child.status, out: text(outPath), err: mergingErrors ? "" : text(errPath),
                          timedOut: status == nil)
    }

    /// What a child wrote to `path` so far ("" if nothing).
    public static func text(_ path: String) -> String {
        String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
    }

    private static func appending(_ path: String) throws -> FileHandle {
        if !FileManager.default.fileExists(atPath: path) { _ = FileManager.default.createFile(atPath: path, contents: nil) }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        handle.seekToEndOfFile()
        return handle
    }
}
