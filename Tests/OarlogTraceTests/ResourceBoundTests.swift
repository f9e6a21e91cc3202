import Foundation
import OarlogCore
import OarlogTestSupport
import OarlogTrace
import XCTest

/// 200 MB single-line inputs of every trace format (and, where a reader holds a whole file, one
/// just under its file bound so that the line bound itself is what stops it): each is refused
/// with peak RSS growth under 64 MB and in under 5 s.
final class TraceResourceBoundTests: XCTestCase {
    private static let big = 200_000_000

    private func run(_ format: TraceFormat, head: String, fill: String, bytes: Int = big, expect fragment: String,
                     function: String = #function) throws {
        try measureInChild(function: function,
                           make: { try ResourceProbe.writeInput($0, head: head, fill: fill, bytes: bytes) },
                           read: { path in
                               do {
                                   var source = try TraceOpener.open(path: path, format: format)
                                   while try source.next() != nil {}
                                   XCTFail("expected an error for a \(bytes)-byte line")
                               } catch {
                                   XCTAssertTrue("\(error)".contains(fragment), "expected \(fragment) in \(error)")
                                   throw error
                               }
                           })
    }

    func testNative200MBLine() throws {
        try run(.native, head: "# oarlog-trace: 1\nt,kind,values\n0,note,", fill: "x", expect: "line is longer than 65536 bytes")
    }

    func testNative200MBNumber() throws {
        try run(.native, head: "0,accel,", fill: "9", expect: "line is longer than 65536 bytes")
    }

    func testSpeedCoach200MBLine() throws {
        try run(.speedcoach, head: "Session Information:,", fill: "x,", expect: "line is longer than 65536 bytes")
    }

    func testNKLogbook200MBLine() throws {
        try run(.nkLogbook, head: "type,elapsedTime,latitude,longitude,sessionStrokeIndex,", fill: "x", expect: "larger than 64 MiB")
    }

    func testNKLogbookLineJustUnderTheFileBound() throws {
        try run(.nkLogbook, head: "type,elapsedTime,latitude,longitude,sessionStrokeIndex,", fill: "x",
                bytes: 60_000_000, expect: "line is longer than 65536 bytes")
    }

    func testTalos200MBLine() throws {
        try run(.talos, head: "1700000000010 ACCEL 5000000000000 ", fill: "1,", expect: "larger than 128 MiB")
    }

    func testTalosLineJustUnderTheFileBound() throws {
        try run(.talos, head: "1700000000010 ACCEL 5000000000000 ", fill: "1,", bytes: 120_000_000,
                expect: "line is longer than 65536 bytes")
    }

    private static let quiskeHead = "Quiske,x\ntimestamp(s),distance(m),SPM (strokes per minute),speed (m/s),boat accelerator curve\n"
        + "1495347480.2,2,20,3,\""

    func testQuiske200MBCurve() throws {
        try run(.quiske, head: Self.quiskeHead, fill: "0.1,", expect: "larger than 64 MiB")
    }

    func testQuiskeCurveJustUnderTheFileBound() throws {
        try run(.quiske, head: Self.quiskeHead, fill: "0.1,", bytes: 60_000_000, expect: "line is longer than 1048576 bytes")
    }
}
