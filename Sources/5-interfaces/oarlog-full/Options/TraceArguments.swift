import ArgumentParser
import OarlogTrace

/// A trace file and its format, as `replay` and `course` take them (the format detected when
/// not given).
struct TraceArguments: ParsableArguments {
    @Argument(help: "The trace file: Oarlog's CSV, a SpeedCoach, NK LiNK Logbook, BoatCoach, CoxMate, Talos or Quiske export, TCX, GPX or FIT.")
    var trace: String

    @Option(help: "The trace format: \(TraceFormat.allCases.map(\.rawValue).joined(separator: ", ")) (default: detected).")
    var format: TraceFormat?

    @Flag(name: .customLong("any-sport"), help: "Read a TCX, GPX or FIT activity of any sport (default: refuse what is not rowing).")
    var anySport = false

    /// How the trace is opened.
    var options: TraceOpenOptions { TraceOpenOptions(anySport: anySport) }
}
