import Foundation
import OarlogCore
import OarlogTrace
import OarlogTestSupport
import XCTest

/// Format detection and opening by name.
final class TraceOpenerTests: XCTestCase {
    let dir = TemporaryDirectory()
    override func tearDown() { dir.remove() }

    func testDetectsEveryFormatFromRealFiles() throws {
        XCTAssertEqual(try TraceOpener.detectFormat(path: TestPaths.fixture("sample-trace.csv")), .native)
        XCTAssertEqual(try TraceOpener.detectFormat(path: TestPaths.sample("rowingdata/SpeedCoach2Linkv1.27.csv")), .speedcoach)
        XCTAssertEqual(try TraceOpener.detectFormat(path: TestPaths.sample("rowingdata/SpeedCoach2Link_interval.csv")), .speedcoach)
        XCTAssertEqual(try TraceOpener.detectFormat(path: TestPaths.sample("rowingdata/nk_logbook.csv")), .nkLogbook)
        XCTAssertEqual(try TraceOpener.detectFormat(path: TestPaths.sample("rowingdata/quiske_per_stroke_seat.csv")), .quiske)
        XCTAssertEqual(try TraceOpener.detectFormat(path: TestPaths.fixture("talos-synthetic.txt")), .talos)
    }

    func testDetectsNativeVariants() throws {
        XCTAssertEqual(try TraceOpener.detectFormat(path: dir.file("a.csv", "t,kind,values\n0,accel,1,2,3\n")), .native)
        XCTAssertEqual(try TraceOpener.detectFormat(path: dir.file("b.csv", "\n\r\n0.25,gps,1,2,,,\n")), .native)
        XCTAssertEqual(try TraceOpener.detectFormat(path: dir.file("c.csv", bytes: [0xEF, 0xBB, 0xBF] + Array("# x: y\n".utf8))), .native)
    }

    func testOpensAndReportsStatistics() throws {
        var source = try TraceOpener.open(path: TestPaths.sample("rowingdata/nk_logbook.csv"))
        var n = 0
        while try source.next() != nil { n += 1 }
        let stats = try XCTUnwrap(TraceOpener.statistics(of: source))
        XCTAssertEqual(stats.totalRecords, n)
        XCTAssertEqual(stats.referenceRows, 1237)

        var native = try TraceOpener.open(path: TestPaths.fixture("sample-trace.csv"), format: .native)
        while try native.next() != nil {}
        XCTAssertEqual(TraceOpener.statistics(of: native)?.accelRows, 2)
    }

    func testUnknownAndUnavailableFormatsAreClearErrors() {
        assertTraceError(kind: .unsupportedFormat, location: nil, contains: "native, speedcoach, nk-logbook, talos, quiske") {
            _ = try TraceOpener.open(path: self.dir.file("what.txt", "just some text\nnothing more\n"))
        }
        assertTraceError(kind: .unsupportedFormat, location: nil, contains: "native, speedcoach, nk-logbook, talos, quiske, speedcoach-v1, boatcoach, coxmate, tcx, gpx, fit") {
            _ = try TraceFormat(name: "kml")
        }
        XCTAssertEqual(try TraceFormat(name: "FIT"), .fit)
        XCTAssertEqual(try TraceFormat(name: "NK-Logbook"), .nkLogbook)
        assertTraceError(kind: .notText, location: nil, contains: "gzip") {
            _ = try TraceOpener.open(path: self.dir.file("x.gz", bytes: [0x1F, 0x8B, 8, 0, 0, 0]))
        }
        assertTraceError(kind: .empty, location: nil, contains: "empty") {
            _ = try TraceOpener.open(path: self.dir.file("empty.csv", ""))
        }
        assertTraceError(kind: .io, location: nil, contains: "cannot open") {
            _ = try TraceOpener.open(path: self.dir.path("missing.csv"))
        }
    }
}
