import OarlogCore
import OarlogDSP
import OarlogPipeline

/// Writes one CSV row per stroke, in one of two column layouts:
/// - `.oarlog` (default): plain names with units, empty cells for no data —
///   `Stroke,Time (s),Elapsed (s),UTC,Lap,Distance (m),Split (s/500m),Stroke Rate (spm),`
///   `Smoothed Rate (spm),Distance/Stroke (m),Drive (s),Recovery (s),Peak Accel (m/s2),Latitude,Longitude`,
///   then the stroke quality (`qualityHeader`): `Drive/Recovery,Check (m/s2),Drive Peak Accel (m/s2),`
///   `Drive Mean Accel (m/s2),Speed Min (m/s),Speed Max (m/s),Speed Fluctuation (m/s),Speed Fluctuation (%)`,
///   then heart rate, power and the oarlock's figures (`figureHeader`);
/// - `.rowingdata`: the column names rowingdata / rowsandall.com read (Painsled heritage, leading
///   spaces and the `stokes` typo included), unknown values as 0 as those tools expect; then
///   rowingdata's ` AverageBoatSpeed (m/s)` (the stroke's mean fused speed, else its mean GPS speed) and, as rowingdata has
///   no columns for them (it keeps columns it does not know), the quality columns and the figure
///   columns by the names above; its ` HRCur (bpm)`, ` Power (watts)`, ` AverageDriveForce (lbs)`
///   and ` PeakDriveForce (lbs)` carry the stroke's heart rate, power and oarlock forces (0 without).
///
/// The split (both layouts) is the stroke's mean fused speed's when the pipeline gave the fused
/// speed over the stroke (`ExportStroke.split`), else the analyzer's.
///
/// The figure columns, last so that readers by position still work: `heart_rate_bpm` (the latest
/// heart rate at or before the catch, at most 5 s old), `power_w` (the oarlock's, else the
/// device's stroke's), and the oarlock stroke nearest the catch within half a stroke (EmPower):
/// `catch_angle_deg`, `finish_angle_deg`, `slip_deg`, `wash_deg`, `effective_length_deg`,
/// `avg_force_n`, `max_force_n`, `max_force_angle_deg`, `work_j`. Empty cells where there is none.
public final class StrokeCSVExporter: AssembledExporter {
    public enum Columns: String, Sendable, CaseIterable {
        case oarlog, rowingdata
    }

    public static let oarlogHeader = ["Stroke", "Time (s)", "Elapsed (s)", "UTC", "Lap", "Distance (m)", "Split (s/500m)",
                                      "Stroke Rate (spm)", "Smoothed Rate (spm)", "Distance/Stroke (m)", "Drive (s)",
                                      "Recovery (s)", "Peak Accel (m/s2)", "Latitude", "Longitude"] + qualityHeader + figureHeader
    /// The stroke quality columns (`StrokeQuality`), last in both layouts.
    public static let qualityHeader = ["Drive/Recovery", "Check (m/s2)", "Drive Peak Accel (m/s2)", "Drive Mean Accel (m/s2)",
                                       "Speed Min (m/s)", "Speed Max (m/s)", "Speed Fluctuation (m/s)", "Speed Fluctuation (%)"]
    /// Heart rate, power and the oarlock's figures, last in both layouts.
    public static let figureHeader = ["heart_rate_bpm", "power_w", "catch_angle_deg", "finish_angle_deg", "slip_deg", "wash_deg",
                                      "effective_length_deg", "avg_force_n", "max_force_n", "max_force_angle_deg", "work_j"]
    public static let rowingdataHeader = ["TimeStamp (sec)", " ElapsedTime (sec)", " Horizontal (meters)",
                                          " Cadence (stokes/min)", " Stroke500mPace (sec/500m)", " StrokeDistance (meters)",
                                          " DriveTime (ms)", " StrokeRecoveryTime (ms)", " DriveLength (meters)",
                                          " HRCur (bpm)", " Power (watts)", " AverageDriveForce (lbs)", " PeakDriveForce (lbs)",
                                          " lapIdx", " latitude", " longitude", "cum_dist", " AverageBoatSpeed (m/s)"] + qualityHeader
                                          + figureHeader

    public let columns: Columns
    let output: ExportOutput

    public init(path: String, columns: Columns = .oarlog, configuration: ExportConfiguration = ExportConfiguration()) throws {
        self.columns = columns
        output = try ExportOutput(path: path, configuration: configuration)
    }

    func write(_ item: ExportItem) throws {
        switch item {
        case .start:
            let header = columns == .oarlog ? Self.oarlogHeader : Self.rowingdataHeader
            try file.write(header.map(ExportText.csvCell).joined(separator: ",") + "\n")
        case .stroke(let s):
            try file.write((columns == .oarlog ? Self.oarlogRow(s) : Self.rowingdataRow(s)).joined(separator: ",") + "\n")
        case .lapStart, .point, .lapEnd, .end:
            break
        }
    }

    static func oarlogRow(_ s: ExportStroke) -> [String] {
        let m = s.metrics, e = m.stroke
        func cell(_ v: Double?, _ decimals: Int) -> String { v.map { ExportText.fixed($0, decimals) } ?? "" }
        return [String(e.index), ExportText.fixed(e.catchTime, 3), ExportText.fixed(s.elapsed, 3), ExportText.iso8601(s.utc),
                String(s.lap + 1), cell(m.distance, 2), cell(s.split, 2), cell(e.strokeRate, 2), cell(m.smoothedRate, 2),
                cell(m.distancePerStroke, 2), e.driveDuration > 0 ? ExportText.fixed(e.driveDuration, 3) : "",
                cell(e.recoveryDuration, 3), e.peakAcceleration > 0 ? ExportText.fixed(Double(e.peakAcceleration), 3) : "",
                cell(s.latitude, 7), cell(s.longitude, 7)] + qualityCells(m, cell) + figureCells(s)
    }

    /// The figure columns' cells (empty for no data in both layouts).
    static func figureCells(_ s: ExportStroke) -> [String] {
        func cell(_ v: Double?, _ decimals: Int) -> String { v.flatMap { $0.isFinite ? ExportText.fixed($0, decimals) : nil } ?? "" }
        let o = s.oarlock
        return [cell(s.heartRate, 0), cell(s.power, 1), cell(o?.catchAngle, 1), cell(o?.finishAngle, 1), cell(o?.slip, 1),
                cell(o?.wash, 1), cell(o?.effectiveLength, 1), cell(o?.averageForce, 1), cell(o?.maxForce, 1),
                cell(o?.maxForceAngle, 1), cell(o?.work, 1)]
    }

    /// Newtons to pounds-force (rowingdata's drive-force columns).
    static let poundsPerNewton = 1 / 4.448_221_615_260_5

    /// The quality columns' cells, through `cell` (empty or 0 for no data, as the layout wants).
    static func qualityCells(_ m: StrokeMetrics, _ cell: (Double?, Int) -> String) -> [String] {
        let q = m.quality
        return [cell(m.stroke.driveRecoveryRatio, 3), cell(q.map { Double($0.check) }, 3),
                cell(q.map { Double($0.peakDriveAcceleration) }, 3), cell(q.map { Double($0.meanDriveAcceleration) }, 3),
                cell(q?.minimumSpeed, 3), cell(q?.maximumSpeed, 3), cell(q?.speedFluctuation, 3), cell(q?.speedFluctuationPercent, 2)]
    }

    static func rowingdataRow(_ s: ExportStroke) -> [String] {
        let m = s.metrics, e = m.stroke
        func cell(_ v: Double?, _ decimals: Int) -> String { ExportText.fixed(v ?? 0, decimals) }
        func known(_ v: Double?, _ decimals: Int) -> String { v.flatMap { $0.isFinite ? ExportText.fixed($0, decimals) : nil } ?? "0" }
        let distance = cell(m.distance, 2)
        return [ExportText.fixed(s.utc, 3), ExportText.fixed(s.elapsed, 3), distance, cell(e.strokeRate, 2),
                cell(s.split, 2), cell(m.distancePerStroke, 2), ExportText.fixed(e.driveDuration * 1000, 0),
                cell(e.recoveryDuration.map { $0 * 1000 }, 0), "0", known(s.heartRate, 0), known(s.power, 1),
                known(s.oarlock?.averageForce.map { $0 * poundsPerNewton }, 1), known(s.oarlock?.maxForce.map { $0 * poundsPerNewton }, 1),
                String(s.lap), cell(s.latitude, 7), cell(s.longitude, 7), distance, cell(s.meanSpeed, 3)]
            + qualityCells(m, cell) + figureCells(s)
    }
}
