import ArgumentParser
import OarlogApp

/// The analysis settings a user can set on any command that analyses a session (replay, record,
/// export, course), as `AnalysisSettings`.
struct AnalysisOptions: ParsableArguments {
    @Option(help: "The sensor's bow direction: auto (estimated from the motion), +x, -y, … or a vector such as 0.7,-0.7,0.")
    var axis: String = AnalysisSettings.defaults.axis

    @Option(name: .customLong("split-averaging"),
            help: "Live split averaging, as on a SpeedCoach: auto (per stroke for the fused split, 5s for the receiver's), seconds (5s, 10s) or strokes (1stroke, 4strokes).")
    var splitAveraging: String = AnalysisSettings.defaults.splitAveraging

    @Option(name: .customLong("strokes-from"), help: "Where strokes come from: auto (the accelerometer if the trace has one, else the device's strokes), accelerometer, device.")
    var strokesFrom: String = AnalysisSettings.defaults.strokesFrom

    @Option(name: .customLong("split-source"),
            help: "Where the split comes from: fused (the accelerometer's surge held to the GPS: answers within a stroke) or receiver (the GPS receiver's speed alone, as a SpeedCoach shows it).")
    var splitSource: String = AnalysisSettings.defaults.splitSource

    var settings: AnalysisSettings {
        AnalysisSettings(axis: axis, splitAveraging: splitAveraging, strokesFrom: strokesFrom, splitSource: splitSource)
    }

    func validate() throws {
        do { _ = try settings.analyzerConfiguration() } catch { throw ValidationError(error.description) }
    }
}
