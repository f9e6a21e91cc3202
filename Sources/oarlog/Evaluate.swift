import ArgumentParser
import OarlogEvaluation
import OarlogReport

/// `oarlog evaluate`: the accuracy table on real recordings and simulated sessions.
struct Evaluate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check Oarlog's accuracy on real recordings and simulated sessions; print a table.",
        discussion: """
            Real data: the Talos phone trace (12 strokes), real Quiske boat-acceleration curves chained
            into a trace (stroke boundaries known), the NK LiNK Logbook and SpeedCoach GPS Pro exports
            (the devices' own distance and split). Simulated: rates 16–40 spm at 25–500 Hz in three
            mountings, every stroke known. Exits 1 if any check is out of tolerance.
            """
    )

    @Option(help: "The real-data folder (default: $OARLOG_DATA, else ../shared/data).")
    var data: String?

    @Flag(help: "Skip the simulated sessions (quicker).")
    var noSimulated = false

    func run() throws {
        let directory = data ?? environment("OARLOG_DATA") ?? "../shared/data"
        let rows = Evaluation.all(dataDirectory: directory, simulated: !noSimulated)
        StandardStreams.write(EvaluationRow.table(rows))
        if rows.contains(where: { !$0.passed }) { throw ExitCode(1) }
    }
}
