import Foundation
import Hummingbird
import OarlogApp
import OarlogExport
import OarlogSession

/// A session's export for the web app (its track on the map, the downloads): exactly what
/// `oarlog export ID --format F` writes — the same `SessionExport`, with the same defaults — made
/// in a private temporary file on the exports' own threads (`WorkPool.exports`: two at once, four
/// waiting, niced), read back and removed.
enum SessionDownload {
    /// The media type of each format.
    static func contentType(_ format: ExportFormat) -> String {
        switch format {
        case .gpx: return "application/gpx+xml"
        case .tcx: return "application/vnd.garmin.tcx+xml"
        case .fit: return "application/vnd.ant.fit"
        case .csv: return "text/csv; charset=utf-8"
        case .geojson: return "application/geo+json"
        }
    }

    /// The export's bytes, made on the exports' pool: throws `WorkPool.Busy` when as many
    /// exports as it takes already run and wait (a 3-hour session's FIT is seconds of replay;
    /// 32 at once made every session page wait).
    static func bytes(sessionPath: String, format: ExportFormat) async throws -> [UInt8] {
        try await WorkPool.exports.run { try exportNow(sessionPath: sessionPath, format: format) }
    }

    private static func exportNow(sessionPath: String, format: ExportFormat) throws -> [UInt8] {
        let temporary = FileManager.default.temporaryDirectory
            .appendingPathComponent("oarlog-export-\(UUID().uuidString).\(format.defaultExtension)").path
        defer { try? FileManager.default.removeItem(atPath: temporary) }
        let export = SessionExport(input: .session(try SessionReader(path: sessionPath)), format: format)
        _ = try export.run(to: temporary)
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: temporary)))
    }

    /// The response: `attachment` names the file as `oarlog export` would (ID.EXT).
    static func response(_ bytes: [UInt8], id: String, format: ExportFormat, attachment: Bool) -> Response {
        var headers: HTTPFields = [.contentType: contentType(format), .cacheControl: "no-store"]
        if attachment {
            // A session id is letters, digits, '-', '_' and '.' only (APIRequest), safe in quotes.
            headers[.contentDisposition] = "attachment; filename=\"\(id).\(format.defaultExtension)\""
        }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
