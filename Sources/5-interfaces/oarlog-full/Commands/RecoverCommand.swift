import ArgumentParser
import OarlogApp
import OarlogCore
import OarlogTerminal

/// `oarlog recover DAMAGED [-o FIXED]`: keeps every intact chunk of a damaged session (a power cut,
/// a failing card) and writes a fixed file with a fresh index and summary.
struct Recover: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recover",
        abstract: "Check a session file and recover everything intact from a damaged one.",
        discussion: """
            Without -o or --in-place the session is only checked. The fixed file is written to a \
            temporary name and renamed into place, so FIXED may be DAMAGED itself.

            Exit status: 0 nothing lost (the index may have been rebuilt), 3 something was lost \
            (everything intact was kept), 1 unrecoverable (not a session, a newer format, nothing \
            intact, or an I/O error).

            Examples:
              oarlog recover last                      check the newest session
              oarlog recover 2026-05-02T07 -o fixed.oarlog
              oarlog recover damaged.oarlog --in-place
            """
    )

    @Argument(help: SessionArgument.help)
    var session: String

    @Option(name: .shortAndLong, help: "Write the recovered session here.")
    var output: String?

    @Flag(help: "Replace the damaged file with the recovered one.")
    var inPlace = false

    func validate() throws {
        if inPlace && output != nil { throw ValidationError("give either -o FIXED or --in-place, not both") }
    }

    func run() throws {
        let report: RecoveryReport
        do {
            report = try SessionStore.default.recover(session, to: output, inPlace: inPlace)
        } catch {
            StandardStreams.error("oarlog recover: \(error)\n")
            throw ExitCode(1)
        }
        StandardStreams.write("\(report)\n")
        if report.output == nil && report.outcome != .unrecoverable {
            StandardStreams.write("  (checked only: give -o FIXED or --in-place to write the recovered session)\n")
        }
        switch report.outcome {
        case .intact: return
        case .lossy: throw ExitCode(3)
        case .unrecoverable: throw ExitCode(1)
        }
    }
}
