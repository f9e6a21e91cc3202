#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import OarlogEvaluation
import OarlogCore
import OarlogTerminal

/// `oarlog evaluate`: the accuracy table on real recordings and simulated sessions.
struct Evaluate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check Oarlog's accuracy on real recordings and simulated sessions; print a table.",
        discussion: """
            Real data: real Quiske boat-acceleration curves chained into a trace (stroke boundaries \
            known), the NK LiNK Logbook and SpeedCoach GPS Pro exports (the devices' own distance and \
            split), all bundled in samples/rowingdata; and, with --data, the Talos phone trace (12 \
            strokes; GPL, not bundled). Simulated: rates 16–40 spm at 25–500 Hz in three mountings, \
            every stroke known. Exits 1 if any check is out of tolerance or, with --data, if any \
            dataset is missing from DIR.
            With --open-goals it prints instead the checks whose goals are not met everywhere \
            yet (the 1 Hz steady split, the 500 m standing starts of the device exports): \
            reported, they do not set the exit status.
            Examples:
              oarlog evaluate                          the bundled recordings (Talos skipped)
              oarlog evaluate --data ../shared/data    every dataset, the Talos trace included
              oarlog evaluate --open-goals             the open goals' rows
            """
    )

    @Option(help: "A real-data folder holding rowingdata/ and talos/ (e.g. ../shared/data); every dataset must be there. Default: $OARLOG_DATA, else the bundled samples/ without Talos.")
    var data: String?

    @Flag(help: "Skip the simulated sessions (quicker).")
    var noSimulated = false

    @Flag(help: "Print the checks whose goals are not met everywhere yet instead; they do not set the exit status.")
    var openGoals = false

    func run() throws {
        let explicit = data ?? environment("OARLOG_DATA")
        let directory: String
        if let explicit {
            directory = explicit
        } else if let bundled = Self.bundledSamples() {
            directory = bundled
            StandardStreams.error("evaluate: using the bundled recordings in \(bundled); the Talos phone trace (GPL, not bundled) "
                + "is checked with --data DIR (a folder with talos/100m-12-strokes-dataInput.txt)\n")
        } else {
            throw CommandFailure("no real data: run from the checkout (samples/), or give --data DIR")
        }
        if openGoals {
            StandardStreams.write("Goals not met everywhere yet (reported; they do not set the exit status):\n"
                + EvaluationRow.table(Evaluation.openGoals(dataDirectory: directory)))
            return
        }
        let rows = Evaluation.all(dataDirectory: directory, talos: explicit != nil, simulated: !noSimulated)
        StandardStreams.write(EvaluationRow.table(rows))
        if rows.contains(where: { !$0.passed }) { throw ExitCode(1) }
    }

    /// The project's `samples/`: in the current directory, or beside the checkout the binary was
    /// built in (`.build/release/oarlog` → `samples/`).
    static func bundledSamples() -> String? {
        var candidates = ["samples"]
        if let exe = try? String(contentsOfSymlink: "/proc/self/exe") {
            var parts = exe.split(separator: "/").map(String.init)
            for _ in 0..<3 where !parts.isEmpty {
                parts.removeLast()
                candidates.append("/" + (parts + ["samples"]).joined(separator: "/"))
            }
        }
        return candidates.first { access($0 + "/rowingdata/nk_logbook.csv", R_OK) == 0 }
    }
}

extension String {
    /// The target of a symbolic link.
    fileprivate init(contentsOfSymlink path: String) throws {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink(path, &buffer, buffer.count - 1)
        guard n > 0 else { throw CommandFailure("cannot read \(path)") }
        self = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
