import Foundation
import OarlogFences
import OarlogTestSupport
import XCTest

/// Peak memory and time of loading a hostile GeoJSON file, measured in a child process (the test
/// binary re-executes itself for the one test; VmHWM is process-wide). The parent writes the
/// file; the child resets its peak (`/proc/self/clear_refs`), loads the file and asserts the
/// growth of its peak (under 64 MB) and the time (under 5 s).
final class FenceResourceTests: XCTestCase {
    private func measure(bytes: Int, expect fragment: String, function: String = #function) throws {
        let head = "{\"type\":\"FeatureCollection\",\"features\":[{\"type\":\"Feature\",\"properties\":{},"
            + "\"geometry\":{\"type\":\"Polygon\",\"coordinates\":[["
        try measureInChild(function: function,
                           make: { try ResourceProbe.writeInput($0, head: head, fill: "[4.8312,52.3511],", bytes: bytes) },
                           read: { path in
                               do {
                                   _ = try FenceFile.load(path: path)
                                   XCTFail("expected \(fragment), the file loaded")
                               } catch {
                                   XCTAssertTrue("\(error)".contains(fragment), "expected \(fragment) in \(error)")
                                   throw error
                               }
                           })
    }

    /// A 200 MB single-line polygon: refused before it is read.
    func testGeoJSON200MBLine() throws {
        try measure(bytes: 200_000_000, expect: "larger than 16 MiB")
    }

    /// A 15 MB single-line polygon (just under the file bound, about 880,000 positions): read,
    /// and refused by the JSON value bound before its tree grows large.
    func testGeoJSONJustUnderTheFileBound() throws {
        try measure(bytes: 15_000_000, expect: "more than 500000 JSON values")
    }
}
