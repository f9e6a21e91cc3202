import Foundation
import OarlogTestSupport
import XCTest

/// A share link through the pages, in one headless Chromium (share_page.py) against `oarlog
/// serve`: the owner's session page makes the link and draws its QR code, which `zbarimg`
/// (zbar-tools) decodes to the very link; the link opened at 390×844 shows that session's
/// summary (the owner's figures, `oarlog show`'s distance), track, plots and pieces, with no
/// control, nothing wider than the phone; from it the list and another session answer 403;
/// revoked on the owner's page, it opens nothing. Screenshots in `.build/screenshots/share-*.png`.
final class SharePageTests: XCTestCase {
    func testALinkMadeOnThePageOpensTheSessionOnAPhone() throws {
        for tool in ["/usr/bin/chromium", "/usr/bin/chromedriver", "/usr/bin/python3", "/usr/bin/zbarimg"] {
            XCTAssertTrue(FileManager.default.isExecutableFile(atPath: tool), "\(tool) is needed (scripts/setup.sh installs it)")
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: "/usr/share/nodejs/qrcode-generator/qrcode.js"), "node-qrcode-generator is needed")
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("oarlog-share-page-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        var ids: [String] = []
        for title in ["Share A", "Share B"] {
            let saved = try oarlogCLI(["replay", "samples/rowingdata/nk_logbook.csv", "--save", "--title", title], dataDirectory: data)
            XCTAssertEqual(saved.status, 0, saved.err)
            let listed = try XCTUnwrap(try jsonObject(try oarlogCLI(["sessions", "--json"], dataDirectory: data).out) as? [[String: Any]])
            ids.append(try XCTUnwrap(listed.compactMap { $0["id"] as? String }.first { !ids.contains($0) }))
        }
        let server = try ServerProcess(arguments: ["--replay", "samples/sim-workout.csv", "--speed", "5"], dataDirectory: data)
        let shown = try XCTUnwrap(try jsonObject(try oarlogCLI(["show", ids[0], "--json"], dataDirectory: data).out) as? [String: Any])
        let pieces = try XCTUnwrap(try jsonObject(try server.request("GET", "/api/sessions/\(ids[0])/pieces").body) as? [String: Any])
        let shots = try BrowserScript.screenshots()
        let result = try BrowserScript.run("share_page.py", [server.base, server.token, ids[0], ids[1], shots.path],
                                           detail: "\n" + server.log.suffix(2000))
        BrowserScript.checkScreenshots(result, minimumBytes: 1000)

        // The link: this server's own address, /share/ and the token the page listed.
        let link = try XCTUnwrap(result["link"] as? String)
        let token = String(link.dropFirst((server.base + "/share/").count))
        XCTAssertTrue(link.hasPrefix(server.base + "/share/"), link)
        XCTAssertEqual(token.count, 22, token)
        XCTAssertEqual(result["listed"] as? [String], [token])
        XCTAssertEqual(result["qr_link"] as? String, link)
        // The QR code as drawn on the screen decodes to the link.
        let qr = try XCTUnwrap(result["qr_png"] as? String)
        let decoded = try ChildProcess.run("/usr/bin/zbarimg", ["--raw", "-q", qr], in: TestPaths.packageRoot.path)
        XCTAssertEqual(decoded.status, 0, decoded.err)
        XCTAssertEqual(decoded.out.trimmingCharacters(in: .whitespacesAndNewlines), link)

        // The phone: the owner's figures, the session's distance, its track, plots and pieces.
        let shared = try XCTUnwrap(result["shared"] as? [String: Any])
        XCTAssertEqual(shared["title"] as? String, "Share A")
        let summary = try XCTUnwrap(result["shared_summary"] as? [[String]])
        XCTAssertEqual(summary, result["owner_summary"] as? [[String]])
        let distance = try XCTUnwrap(summary.first { $0.first == "Distance" })
        XCTAssertEqual(Double(distance[2]) ?? -1, shown["distance_m"] as? Double ?? 0, accuracy: 1e-6)
        XCTAssertEqual(summary.first { $0.first == "Strokes" }?[1], "\(shown["strokes"] as? Int ?? -1)")
        XCTAssertGreaterThan(shared["trail_paths"] as? Int ?? 0, 0, "the track is drawn")
        XCTAssertGreaterThan(shared["split_points"] as? Int ?? 0, 20)
        XCTAssertGreaterThan(shared["rate_points"] as? Int ?? 0, 20)
        XCTAssertEqual(shared["pieces_rows"] as? Int, (pieces["pieces"] as? [Any])?.count)
        XCTAssertEqual(shared["forms"] as? Int, 0, "no control on the shared page")
        XCTAssertEqual(shared["outside"] as? [String], [], "nothing wider than 390 px")
        XCTAssertEqual(shared["width"] as? Int, 390)
        XCTAssertTrue(shared["error"] is NSNull, "\(shared["error"] ?? "")")
        XCTAssertEqual((result["console"] as? [String])?.filter { !$0.contains("favicon") }, [])
        // From the shared page: the list, another session, a DELETE → 403; its own read → 200.
        XCTAssertEqual(result["probe"] as? [Int], [403, 403, 403, 403, 200])

        // Revoked on the owner's page: the link opens nothing, and says so.
        let revoked = try XCTUnwrap(result["revoked"] as? [String: Any])
        XCTAssertEqual(revoked["loaded"] as? String, "refused")
        XCTAssertTrue((revoked["error"] as? String ?? "").contains("no longer opens a session"), "\(revoked)")
        XCTAssertEqual(try server.request("GET", "/api/shared/\(token)").status, 403)
        XCTAssertEqual(try server.request("GET", "/api/sessions/\(ids[0])/shares", token: server.token).body, "[]")
        XCTAssertFalse(server.log.contains(token), "the token is in the server's log")
    }
}
