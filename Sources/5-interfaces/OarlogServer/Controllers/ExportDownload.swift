import Hummingbird
import OarlogApp

/// An export as the web app gets it (its map's track, the downloads, the Share button's report):
/// the bytes `oarlog export` writes, with their media type and, for a download, the file name.
enum ExportDownload {
    /// The media type of each format.
    static func contentType(_ format: SessionStore.ExportFormat) -> String {
        switch format {
        case .gpx: return "application/gpx+xml"
        case .tcx: return "application/vnd.garmin.tcx+xml"
        case .fit: return "application/vnd.ant.fit"
        case .csv: return "text/csv; charset=utf-8"
        case .geojson: return "application/geo+json"
        case .html: return "text/html; charset=utf-8"
        }
    }

    /// The response: `attachment` names the file as `oarlog export` would (ID.EXT).
    static func response(_ bytes: [UInt8], id: String, format: SessionStore.ExportFormat, attachment: Bool) -> Response {
        var headers: HTTPFields = [.contentType: contentType(format), .cacheControl: "no-store"]
        if attachment {
            // A session id is letters, digits, '-', '_' and '.' only (APIRequest), safe in quotes.
            headers[.contentDisposition] = "attachment; filename=\"\(id).\(format.defaultExtension)\""
        }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
