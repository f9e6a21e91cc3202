import OarlogCore
import OarlogDSP

/// The analysis settings a person chooses (on the command line, in the web app) and a session
/// records in its metadata: which sensor axis points to the bow, how the live split is averaged,
/// where strokes come from. Text as the person wrote it, so a session shows what was asked for.
public struct AnalysisSettings: Sendable, Equatable {
    /// `auto`, `+x`, `-y`, … or a vector such as `0.7,-0.7,0`.
    public var axis: String
    /// `auto` (per stroke for the fused split, 5 s for the receiver's), `5s`, `10s`, `1stroke`, `4strokes`.
    public var splitAveraging: String
    /// `auto`, `accelerometer` or `device`.
    public var strokesFrom: String
    /// `fused` (the accelerometer held to the GPS) or `receiver` (the GPS receiver's speed alone).
    public var splitSource: String

    public static let defaults = AnalysisSettings()

    public init(axis: String = "auto", splitAveraging: String = "auto", strokesFrom: String = "auto", splitSource: String = "fused") {
        self.axis = axis
        self.splitAveraging = splitAveraging
        self.strokesFrom = strokesFrom
        self.splitSource = splitSource
    }

    /// The DSP configuration, or an error naming the setting and what it accepts.
    public func analyzerConfiguration() throws(AnalysisSettingsError) -> AnalyzerConfiguration {
        var configuration = AnalyzerConfiguration()
        guard let mounting = MountingAxis(axis) else {
            throw AnalysisSettingsError(setting: "axis", value: axis,
                                        expected: "auto, +x, -x, +y, -y, +z, -z or three numbers like 0.7,-0.7,0")
        }
        configuration.mounting = MountingEstimatorConfiguration(axis: mounting)
        // Replay and export measure the smoothed track (live turns it off: `RowingPipeline.make`).
        configuration.distance.smoothing = DistanceConfiguration.replaySmoothing
        if splitAveraging.lowercased() != "auto" {
            let averaging = try Self.splitAveraging(splitAveraging)
            configuration.splitAveraging = averaging
            configuration.fusedSplitAveraging = averaging
        }
        switch splitSource.lowercased() {
        case "fused": configuration.splitSource = .fused
        case "receiver", "gps": configuration.splitSource = .receiver
        default: throw AnalysisSettingsError(setting: "split-source", value: splitSource, expected: "fused or receiver")
        }
        switch strokesFrom.lowercased() {
        case "auto": configuration.strokeSource = .automatic
        case "accelerometer", "accel": configuration.strokeSource = .accelerometer
        case "device", "reference": configuration.strokeSource = .reference
        default: throw AnalysisSettingsError(setting: "strokes-from", value: strokesFrom, expected: "auto, accelerometer or device")
        }
        return configuration
    }

    /// `5s`, `5`, `10 s` → seconds (1–120); `1stroke`, `4strokes` → strokes (1–60).
    public static func splitAveraging(_ text: String) throws(AnalysisSettingsError) -> SplitAveraging {
        let t = text.lowercased().filter { !$0.isWhitespace }
        for suffix in ["strokes", "stroke"] where t.hasSuffix(suffix) {
            if let n = Int(t.dropLast(suffix.count)), n >= 1, n <= 60 { return .strokes(n) }
        }
        let number = t.hasSuffix("s") ? String(t.dropLast()) : t
        if let seconds = Double(number), seconds > 0, seconds <= 120 { return .seconds(seconds) }
        throw AnalysisSettingsError(setting: "split-averaging", value: text,
                                    expected: "seconds (e.g. 5s, 1–120) or strokes (e.g. 4strokes)")
    }

    /// These settings where they differ from the defaults, else `recorded`'s: what a person asked
    /// for wins over what a session was recorded with.
    public func overriding(_ recorded: AnalysisSettings) -> AnalysisSettings {
        let d = AnalysisSettings.defaults
        return AnalysisSettings(axis: axis != d.axis ? axis : recorded.axis,
                                splitAveraging: splitAveraging != d.splitAveraging ? splitAveraging : recorded.splitAveraging,
                                strokesFrom: strokesFrom != d.strokesFrom ? strokesFrom : recorded.strokesFrom,
                                splitSource: splitSource != d.splitSource ? splitSource : recorded.splitSource)
    }
}

/// A setting that cannot be used: `--axis 'q': expected auto, +x, …`.
public struct AnalysisSettingsError: Error, CustomStringConvertible, Equatable {
    public var setting: String
    public var value: String
    public var expected: String
    public var description: String { "--\(setting) '\(value)': expected \(expected)" }
}
