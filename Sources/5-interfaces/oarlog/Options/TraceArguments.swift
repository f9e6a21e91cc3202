import ArgumentParser
import OarlogTrace

/// A trace file and its format, as `replay` and `course` take them (the format detected when
/// not given).
struct TraceArguments: ParsableArguments {
    @Argument(help: "The trace file (native CSV, SpeedCoach CSV, NK LiNK Logbook CSV, Talos log, Quiske CSV).")
    var trace: String

    @Option(help: "The trace format: \(TraceFormat.allCases.map(\.rawValue).joined(separator: ", ")) (default: detected).")
    var format: TraceFormat?
}
