import OarlogHeartRate
import OarlogTestSupport
import XCTest

/// `oarlog hr scan`'s discovery against the org.bluez stand-in (BlueZ 5.66's API): the straps in
/// range are found with their names and signal, discovery is filtered on the Heart Rate service
/// over LE and stopped at the end; with no scan time only what bluetoothd knows is listed.
final class StrapScannerTests: XCTestCase {
    func testScanFindsTheStrapsInRange() throws {
        let bluez = try BlueZStandin()
        defer { bluez.stop() }
        XCTAssertEqual(try StrapScanner.scan(duration: 0, busAddress: bluez.busAddress), [], "nothing known before a discovery")
        bluez.send("add C0:FF:EE:00:00:0B Garmin-HRM")
        bluez.send("add C0:FF:EE:00:00:0A Polar-H10")
        let found = try StrapScanner.scan(duration: 0.5, busAddress: bluez.busAddress)
        XCTAssertEqual(found.map(\.address), ["C0:FF:EE:00:00:0A", "C0:FF:EE:00:00:0B"])
        XCTAssertEqual(found.map(\.name), ["Polar-H10", "Garmin-HRM"])
        XCTAssertEqual(found.map(\.rssi), [-60, -60])
        XCTAssertEqual(found.map(\.connected), [false, false])
        XCTAssertEqual(bluez.lines(startingWith: "filter "), ["filter 0000180d-0000-1000-8000-00805f9b34fb le"])
        try bluez.waitFor("discovery-stopped")
        // Once discovered, bluetoothd keeps them: a listing without a scan has them.
        XCTAssertEqual(try StrapScanner.scan(duration: 0, busAddress: bluez.busAddress).count, 2)
    }

    func testNoBluetoothdIsAnErrorNotAHang() throws {
        XCTAssertThrowsError(try StrapScanner.scan(duration: 1, busAddress: "unix:path=/nonexistent/oarlog-bus.sock")) { error in
            XCTAssertTrue("\(error)".contains("cannot open the D-Bus system bus"), "\(error)")
        }
    }
}
