import OarlogMQTT
import XCTest

final class BrokerAddressTests: XCTestCase {
    func testAddresses() throws {
        XCTAssertEqual(try BrokerAddress(parsing: "mqtt://launch.local"), BrokerAddress(host: "launch.local", port: 1883))
        XCTAssertEqual(try BrokerAddress(parsing: "mqtts://club.example:9883"), BrokerAddress(host: "club.example", port: 9883, usesTLS: true))
        XCTAssertEqual(try BrokerAddress(parsing: "mqtts://h"), BrokerAddress(host: "h", port: 8883, usesTLS: true))
        XCTAssertEqual(try BrokerAddress(parsing: "mqtt://alpha:s%40cret@127.0.0.1:1884/"),
                       BrokerAddress(host: "127.0.0.1", port: 1884, username: "alpha", password: "s@cret"))
        XCTAssertEqual(try BrokerAddress(parsing: "mqtt://[::1]:1885"), BrokerAddress(host: "::1", port: 1885))
        XCTAssertEqual(try BrokerAddress(parsing: "mqtt://alpha:pw@h:2").description, "mqtt://alpha@h:2")
        for bad in ["http://h", "mqtt://", "mqtt://h:0", "mqtt://h:70000", "mqtt://h:x", "mqtt://@h", "mqtt://h/topic"] {
            XCTAssertThrowsError(try BrokerAddress(parsing: bad), bad)
        }
    }
}
