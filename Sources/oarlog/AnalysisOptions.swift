import ArgumentParser
import OarlogCore
import OarlogDSP

/// The DSP settings a user can set on any command that analyses a session (replay, record).
struct AnalysisOptions: ParsableArguments {
    @Option(help: "The sensor's bow direction: auto (estimated from the motion), +x, -y, … or a vector such as 0.7,-0.7,0.")
    var axis: String = "auto"

    @Option(name: .customLong("split-averaging"),
            help: "Live split averaging, as on a SpeedCoach: seconds (5s, 10s) or strokes (1stroke, 4strokes).")
    var splitAveraging: String = "5s"

    @Option(name: .customLong("strokes-from"), help: "Where strokes come from: auto (the accelerometer if the trace has one, else the device's strokes), accelerometer, device.")
    var strokesFrom: String = "auto"

    func analyzerConfiguration() throws -> AnalyzerConfiguration {
        var configuration = AnalyzerConfiguration()
        guard let axis = MountingAxis(axis) else {
            throw ValidationError("--axis '\(axis)': expected auto, +x, -x, +y, -y, +z, -z or three numbers like 0.7,-0.7,0")
        }
        configuration.mounting = MountingEstimatorConfiguration(axis: axis)
        configuration.splitAveraging = try Self.parseSplitAveraging(splitAveraging)
        switch strokesFrom.lowercased() {
        case "auto": configuration.strokeSource = .automatic
        case "accelerometer", "accel": configuration.strokeSource = .accelerometer
        case "device", "reference": configuration.strokeSource = .reference
        default: throw ValidationError("--strokes-from '\(strokesFrom)': expected auto, accelerometer or device")
        }
        return configuration
    }

    /// `5s`, `5`, `10 s` → seconds; `1stroke`, `4strokes` → strokes.
    static func parseSplitAveraging(_ text: String) throws -> SplitAveraging {
        let t = text.lowercased().filter { !$0.isWhitespace }
        for suffix in ["strokes", "stroke"] where t.hasSuffix(suffix) {
            if let n = Int(t.dropLast(suffix.count)), n >= 1, n <= 60 { return .strokes(n) }
        }
        let number = t.hasSuffix("s") ? String(t.dropLast()) : t
        if let seconds = Double(number), seconds > 0, seconds <= 120 { return .seconds(seconds) }
        throw ValidationError("--split-averaging '\(text)': expected seconds (e.g. 5s, 1–120) or strokes (e.g. 4strokes)")
    }
}
