import OarlogCore
import OarlogDSP
import OarlogPipeline

/// Writes the session as GPX 1.1: one track, one track segment per lap, a track point per GPS
/// fix with its time, elevation (when known) and, in Garmin's TrackPointExtension v2, the heart
/// rate (whole bpm, `hr` before `cad` as its schema orders them), the stroke rate as cadence and
/// the speed. GPX has no power field Strava or Garmin read: power is not written. Streams to the file as points are released.
public final class GPXExporter: AssembledExporter {
    let output: ExportOutput

    public init(path: String, configuration: ExportConfiguration = ExportConfiguration()) throws {
        output = try ExportOutput(path: path, configuration: configuration)
    }

    func write(_ item: ExportItem) throws {
        switch item {
        case .start(let start):
            let name = ExportText.xmlEscaped(start.title ?? "Rowing " + ExportText.iso8601(start.startUTC))
            try file.write("""
                <?xml version="1.0" encoding="UTF-8"?>
                <gpx version="1.1" creator="oarlog" xmlns="http://www.topografix.com/GPX/1/1" \
                xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" \
                xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v2" \
                xsi:schemaLocation="http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd \
                http://www.garmin.com/xmlschemas/TrackPointExtension/v2 http://www.garmin.com/xmlschemas/TrackPointExtensionv2.xsd">
                 <metadata>
                  <name>\(name)</name>
                  <time>\(ExportText.iso8601(start.startUTC))</time>
                 </metadata>
                 <trk>
                  <name>\(name)</name>
                  <type>rowing</type>

                """)
        case .lapStart:
            try file.write("  <trkseg>\n")
        case .point(let p):
            var s = "   <trkpt lat=\"\(ExportText.fixed(p.latitude, 7))\" lon=\"\(ExportText.fixed(p.longitude, 7))\">"
            if let a = p.altitude { s += "<ele>\(ExportText.fixed(a, 1))</ele>" }
            s += "<time>\(ExportText.iso8601(p.utc))</time>"
            let hr = TCXExporter.beats(p.heartRate)
            if hr != nil || p.strokeRate != nil || p.speed != nil {
                s += "<extensions><gpxtpx:TrackPointExtension>"
                if let b = hr { s += "<gpxtpx:hr>\(b)</gpxtpx:hr>" }
                if let r = p.strokeRate { s += "<gpxtpx:cad>\(Int(min(254, max(0, r.rounded()))))</gpxtpx:cad>" }
                if let v = p.speed { s += "<gpxtpx:speed>\(ExportText.fixed(v, 3))</gpxtpx:speed>" }
                s += "</gpxtpx:TrackPointExtension></extensions>"
            }
            try file.write(s + "</trkpt>\n")
        case .stroke:
            break
        case .lapEnd:
            try file.write("  </trkseg>\n")
        case .end:
            try file.write(" </trk>\n</gpx>\n")
        }
    }
}
