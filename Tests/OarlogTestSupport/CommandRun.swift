import Foundation

/// What a command printed and how it ended.
public struct CommandRun: Sendable {
    public var status: Int32
    public var out: String
    public var err: String
}

/// Runs `executable` with `arguments` in `directory`, the environment plus `environment`, stdin
/// empty; returns its exit status and output (standard error is read on a thread of its own, so a
/// chatty command cannot block on a full pipe).
public func runCommand(_ executable: String, _ arguments: [String], in directory: String,
                       environment: [String: String] = [:]) throws -> CommandRun {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.currentDirectoryURL = URL(fileURLWithPath: directory)
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let errData = ErrorText()
    let reader = Thread { errData.set(err.fileHandleForReading.readDataToEndOfFile()) }
    reader.start()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return CommandRun(status: process.terminationStatus, out: String(decoding: outData, as: UTF8.self),
                      err: String(decoding: errData.wait(), as: UTF8.self))
}

/// Standard error's bytes, handed from the reading thread.
private final class ErrorText: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var data = Data()
    func set(_ d: Data) { data = d; done.signal() }
    func wait() -> Data { done.wait(); return data }
}
