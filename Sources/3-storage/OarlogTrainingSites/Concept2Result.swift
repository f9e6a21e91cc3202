import Foundation
import OarlogUpload

/// A session as the Concept2 logbook's result (Logbook API v1, see Concept2Site): whole metres,
/// tenths of a second, and its strokes in the logbook's units.
public enum Concept2Result {
    /// Metres rounded to the whole metre.
    public static func wholeMetres(_ distance_m: Double) -> Int { distance_m.isFinite ? Int(distance_m.rounded()) : 0 }
    /// Seconds as whole tenths of a second.
    public static func tenths(_ seconds: Double) -> Int { seconds.isFinite ? Int((seconds * 10).rounded()) : 0 }

    /// `YYYY-MM-DD HH:MM:SS` in `timeZone`.
    public static func localDate(_ date: Date, _ timeZone: TimeZone) -> String {
        SiteDates.format(date, "yyyy-MM-dd HH:mm:ss", timeZone: timeZone)
    }

    /// The result as a dictionary (what `json` encodes).
    public static func fields(_ item: UploadItem, timeZone: TimeZone, weightClass: String) -> [String: Any] {
        var result: [String: Any] = [
            "type": "water",
            "date": localDate(item.startUTC, timeZone),
            "timezone": timeZone.identifier,
            "distance": wholeMetres(item.distance_m),
            "time": tenths(item.elapsed_s),
            "weight_class": weightClass,
            "comments": item.notes.isEmpty ? item.name : item.name + "\n" + item.notes,
        ]
        if let rate = item.averageRate_spm, rate.isFinite, rate > 0 { result["stroke_rate"] = Int(rate.rounded()) }
        if let hr = item.averageHeartRate_bpm, hr.isFinite, hr > 0 { result["heart_rate"] = ["average": Int(hr.rounded())] }
        let strokes = item.strokes.filter { $0.time_s.isFinite && $0.distance_m.isFinite }
        if !strokes.isEmpty { result["stroke_data"] = strokes.map(stroke) }
        return result
    }

    /// One stroke: `t` tenths of a second, `d` decimetres, `p` tenths of a second per 500 m,
    /// `spm`, `hr` (when known).
    static func stroke(_ s: UploadStroke) -> [String: Any] {
        var out: [String: Any] = ["t": tenths(s.time_s), "d": Int((s.distance_m * 10).rounded()), "spm": s.rate_spm.isFinite ? Int(s.rate_spm.rounded()) : 0]
        if let split = s.split_s_per_500m, split.isFinite, split > 0 { out["p"] = tenths(split) }
        if let hr = s.heartRate_bpm, hr.isFinite, hr > 0 { out["hr"] = Int(hr.rounded()) }
        return out
    }

    /// The result's JSON body.
    public static func json(_ item: UploadItem, timeZone: TimeZone, weightClass: String) -> [UInt8] {
        let object = fields(item, timeZone: timeZone, weightClass: weightClass)
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return Array(data)
    }
}
