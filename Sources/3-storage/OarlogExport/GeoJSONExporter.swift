import OarlogCore
import OarlogDSP
import OarlogPipeline

/// Writes the session's trail as GeoJSON (RFC 7946): a FeatureCollection of the trail as a
/// LineString (properties: the session totals) and the start and end as Points (properties: kind,
/// time, distance). Coordinates are `[longitude, latitude]`, 7 decimals (about 1 cm). Streams the
/// coordinates as they come; the totals follow the geometry, which JSON allows.
public final class GeoJSONExporter: AssembledExporter {
    let output: ExportOutput
    private var firstPoint: ExportPoint?
    private var coordinates = 0

    public init(path: String, configuration: ExportConfiguration = ExportConfiguration()) throws {
        output = try ExportOutput(path: path, configuration: configuration)
    }

    private static func position(_ p: ExportPoint) -> String {
        "[\(ExportText.jsonNumber(p.longitude, 7)),\(ExportText.jsonNumber(p.latitude, 7))]"
    }

    func write(_ item: ExportItem) throws {
        switch item {
        case .start:
            try file.write("{\"type\":\"FeatureCollection\",\"features\":[\n{\"type\":\"Feature\",\"geometry\":")
        case .point(let p):
            // A LineString needs two positions: the first waits for the second.
            guard let first = firstPoint else {
                firstPoint = p
                return
            }
            if coordinates == 0 {
                try file.write("{\"type\":\"LineString\",\"coordinates\":[\n" + Self.position(first))
                coordinates = 1
            }
            try file.write(",\n" + Self.position(p))
            coordinates += 1
        case .lapStart, .stroke, .lapEnd:
            break
        case .end(let totals):
            try file.write(coordinates >= 2 ? "\n]}" : "null")
            let s = totals.summary
            var properties = "\"kind\":\"trail\""
            if let t = totals.start.title { properties += ",\"name\":" + JSONString.quoted(t) }
            properties += ",\"start_utc\":\"\(ExportText.iso8601(totals.start.startUTC))\""
            properties += ",\"end_utc\":\"\(ExportText.iso8601(totals.endUTC))\""
            properties += ",\"elapsed_s\":" + ExportText.jsonNumber(totals.elapsed, 3)
            properties += ",\"distance_m\":" + ExportText.jsonNumber(totals.distance, 2)
            properties += ",\"strokes\":\(s.strokes),\"laps\":\(totals.laps),\"points\":\(totals.points)"
            if let r = s.averageStrokeRate { properties += ",\"avg_stroke_rate_spm\":" + ExportText.jsonNumber(r, 2) }
            if let v = s.averageSplit { properties += ",\"avg_split_s_per_500m\":" + ExportText.jsonNumber(v, 2) }
            try file.write(",\"properties\":{\(properties)}}")
            for (kind, point) in [("start", totals.firstPoint), ("end", totals.lastPoint)] {
                guard let p = point else { continue }
                try file.write(",\n{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":\(Self.position(p))},"
                    + "\"properties\":{\"kind\":\"\(kind)\",\"time\":\"\(ExportText.iso8601(p.utc))\","
                    + "\"t_s\":\(ExportText.jsonNumber(p.time, 3)),\"distance_m\":\(ExportText.jsonNumber(p.distance, 2))}}")
            }
            try file.write("\n]}\n")
        }
    }
}
