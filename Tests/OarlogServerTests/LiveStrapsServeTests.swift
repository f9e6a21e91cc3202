import Foundation
import OarlogTestSupport
import XCTest

/// The crew's straps through `oarlog serve` as a cox's phone meets it: two straps on a stand-in
/// of bluetoothd (BlueZ 5.66's D-Bus API, Tests/Standins/bluez_standin.py, on a private bus), each
/// given a seat with `oarlog hr assign`; their rates reach the live status by seat, and a
/// recording started from the phone keeps each seat's heart rates.
final class LiveStrapsServeTests: XCTestCase {
    func testTwoSeatsStrapsReachTheLiveScreenAndTheRecording() throws {
        let bluez = try BlueZStandin()
        defer { bluez.stop() }
        bluez.send("add C0:FF:EE:00:00:01 Polar H10")
        bluez.send("add C0:FF:EE:00:00:02 Wahoo TICKR")
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("oarlog-straps-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        for (seat, address) in [("stroke", "C0:FF:EE:00:00:01"), ("bow", "C0:FF:EE:00:00:02")] {
            let run = try oarlogCLI(["hr", "assign", seat, address], dataDirectory: data)
            XCTAssertEqual(run.status, 0, run.err)
        }
        let server = try ServerProcess(arguments: [], dataDirectory: data, environment: ["DBUS_SYSTEM_BUS_ADDRESS": bluez.busAddress])
        defer { server.stop() }
        try bluez.waitFor("notify C0:FF:EE:00:00:01", timeout: 30)
        try bluez.waitFor("notify C0:FF:EE:00:00:02", timeout: 30)
        XCTAssertEqual(try server.request("POST", "/api/record/start", body: "{\"title\": \"Straps\"}", token: server.token).status, 201)

        // 20 notifications each at 4 Hz: the k-th is 40 + k bpm; the stroke's 8-bit, the bow's 16-bit.
        bluez.send("stream C0:FF:EE:00:00:01 20 4 8")
        bluez.send("stream C0:FF:EE:00:00:02 20 4 16")
        try bluez.waitFor("streamed C0:FF:EE:00:00:01 20", timeout: 30)
        try bluez.waitFor("streamed C0:FF:EE:00:00:02 20", timeout: 30)
        var seats: [String: Double] = [:]
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            let status = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(try server.request("GET", "/api/status").body.utf8)) as? [String: Any])
            let rates = status["heart_rates"] as? [[String: Any]] ?? []
            seats = Dictionary(uniqueKeysWithValues: rates.compactMap { r in (r["sensor"] as? String).map { ($0, r["bpm"] as? Double ?? -1) } })
            if seats["stroke"] == 59 && seats["bow"] == 59 { break }
            usleep(200_000)
        }
        XCTAssertEqual(seats, ["stroke": 59, "bow": 59], "each seat's last rate (40 + 19)")
        let straps = try server.request("GET", "/api/heart-rate/straps")
        XCTAssertTrue(straps.body.contains("\"connected\":true"), straps.body)

        let stopped = try server.request("POST", "/api/record/stop", token: server.token)
        XCTAssertEqual(stopped.status, 200, stopped.body)
        server.stop()
        let shown = try oarlogCLI(["show", "last", "--json"], dataDirectory: data)
        XCTAssertEqual(shown.status, 0, shown.err)
        let summary = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(shown.out.utf8)) as? [String: Any])
        let sensors = try XCTUnwrap(summary["heart_rate_sensors"] as? [[String: Any]], shown.out)
        let bySeat = Dictionary(uniqueKeysWithValues: sensors.compactMap { s in (s["sensor"] as? String).map { ($0, s) } })
        XCTAssertEqual(Set(bySeat.keys), ["stroke", "bow"])
        for seat in ["stroke", "bow"] {
            // The session holds the rates streamed while it recorded (some of 40…59, ending at 59).
            XCTAssertEqual(bySeat[seat]?["max_bpm"] as? Double, 59, seat)
            let average = try XCTUnwrap(bySeat[seat]?["avg_bpm"] as? Double, seat)
            XCTAssertGreaterThanOrEqual(average, 40)
            XCTAssertLessThan(average, 59)
        }
    }
}
