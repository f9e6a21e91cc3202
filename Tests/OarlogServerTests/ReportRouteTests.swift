import Foundation
import Hummingbird
import HummingbirdTesting
import OarlogApp
import OarlogTestSupport
import XCTest
@testable import OarlogServer

/// The session page's Share button's download (`GET /api/sessions/{id}/export/html`) in process:
/// the store's report byte for byte, as an HTML attachment named ID.html; an unknown format
/// names the formats there are.
final class ReportRouteTests: XCTestCase {
    func testTheReportIsDownloadedAsOneHTMLFile() async throws {
        let dataDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("oarlog-report-route-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dataDirectory) }
        let sessions = SessionStore(sessionsPath: dataDirectory.appendingPathComponent("sessions").path)
        var replay = try TraceReplay(path: try samplePath("sim-workout.csv"))
        let kept = try sessions.keeping(replay, title: "Route test", boat: "Eight")
        _ = try replay.run(sinks: [], keeping: kept)
        let id = kept.id
        let station = try LiveStation(source: .replay(path: "samples/none.csv", speed: 1), sessions: sessions, log: { _ in })
        let configuration = ServerConfiguration(host: "127.0.0.1", port: 0, webRoot: ServerConfiguration.defaultWebRoot, sessions: sessions)
        let router = WebServer.makeRouter(configuration, station: station, access: ServerAccess(token: String(repeating: "ab", count: 16), pairingCode: "424242"))
        try await Application(router: router).test(.router) { client in
            let html = try await client.execute(uri: "/api/sessions/\(id)/export/html", method: .get)
            XCTAssertEqual(html.status, .ok)
            XCTAssertEqual(html.headers[.contentType], "text/html; charset=utf-8")
            XCTAssertEqual(html.headers[.contentDisposition], "attachment; filename=\"\(id).html\"")
            let body = Array(buffer: html.body)
            XCTAssertEqual(body, try sessions.exportBytes(id: id, format: .html))
            XCTAssertTrue(String(decoding: body, as: UTF8.self).hasPrefix("<!DOCTYPE html>"))
            XCTAssertTrue(String(decoding: body, as: UTF8.self).contains("<h1 id=\"report-title\">Route test</h1>"))
            let unknown = try await client.execute(uri: "/api/sessions/\(id)/export/pdf", method: .get)
            XCTAssertEqual(unknown.status, .notFound)
            XCTAssertTrue(String(buffer: unknown.body).contains("geojson or html"), String(buffer: unknown.body))
        }
    }
}
