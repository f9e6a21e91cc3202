#if canImport(Glibc)
import Glibc
#endif
import OarlogTerminal

/// `oarlog-full`, the program with every command, in the same folder as this one (or where
/// `OARLOG_FULL_PROGRAM` says, for a system that keeps it in `/usr/libexec`): run in this process
/// (exec), with the same arguments, so its exit status, signals and process id are the ones the
/// caller sees.
enum FullProgram {
    static let name = "oarlog-full"

    static func run(_ arguments: [String]) -> Never {
        let path = location()
        let argv = ([CommandLine.arguments.first ?? "oarlog"] + arguments).map { strdup($0) } + [nil]
        execv(path, argv)
        let reason = String(cString: strerror(errno))
        StandardStreams.error("oarlog: cannot run \(path) (\(reason)): every command but a plain replay is in "
            + "\(name), which belongs beside oarlog; build it with `swift build -c release` (or install both)\n")
        exit(127)
    }

    /// `OARLOG_FULL_PROGRAM` if set, else `oarlog-full` in the folder of the running program (the
    /// link resolved).
    static func location() -> String {
        if let given = getenv("OARLOG_FULL_PROGRAM").map({ String(cString: $0) }), !given.isEmpty { return given }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let own = n > 0 ? String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) : CommandLine.arguments[0]
        guard let slash = own.lastIndex(of: "/") else { return name }
        return String(own[...slash]) + name
    }
}
