import Foundation
import Synchronization
import OarlogCore
@testable import OarlogSession
import XCTest

final class SessionDirectoryTests: XCTestCase {
    var directory = ""
    override func setUpWithError() throws { directory = try makeTemporaryDirectory("oarlog-dir") }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: directory) }

    func testNamesSortByDateAndAreSafe() {
        // 2026-05-02 07:00:00 UTC = 1,777,705,200 s.
        XCTAssertEqual(SessionDirectory.fileName(startUTC: 1_777_705_200.9, title: "Morning outing: 3×2k / Pieces!"),
                       "2026-05-02T07-00-00Z_morning-outing-3-2k-pieces.oarlog")
        XCTAssertEqual(SessionDirectory.fileName(startUTC: 951_782_400, title: "", suffix: 2), "2000-02-29T00-00-00Z_2.oarlog")
        XCTAssertEqual(UTCStamp.iso8601(-1), "1969-12-31T23:59:59Z")
        XCTAssertEqual(SessionDirectory.slugified("Über Thames 🚣"), "ber-thames")
    }

    func testDefaultDirectoryFollowsTheEnvironment() {
        let saved = ["OARLOG_DATA_DIR", "XDG_DATA_HOME", "HOME"].map { ($0, ProcessInfo.processInfo.environment[$0]) }
        defer { for (k, v) in saved { if let v { setenv(k, v, 1) } else { unsetenv(k) } } }
        setenv("OARLOG_DATA_DIR", "/mnt/sd/oarlog/", 1)
        XCTAssertEqual(SessionDirectory.default.path, "/mnt/sd/oarlog/sessions")
        unsetenv("OARLOG_DATA_DIR")
        setenv("XDG_DATA_HOME", "/home/cox/.data", 1)
        XCTAssertEqual(SessionDirectory.default.path, "/home/cox/.data/oarlog/sessions")
        unsetenv("XDG_DATA_HOME")
        setenv("HOME", "/home/cox", 1)
        XCTAssertEqual(SessionDirectory.default.path, "/home/cox/.local/share/oarlog/sessions")
    }

    /// Many sessions with one start and title created at once (threads released together): each
    /// takes the next free name, none fails with "File exists", none is lost.
    func testConcurrentCreatesWithOneNameAllSucceed() throws {
        let dir = SessionDirectory(path: directory + "/data/sessions")
        let threads = 8, rounds = 25
        let failures = Mutex<[String]>([])
        let paths = Mutex<[String]>([])
        for _ in 0..<rounds {
            let start = DispatchSemaphore(value: 0)
            let group = DispatchGroup()
            for _ in 0..<threads {
                group.enter()
                Thread {
                    start.wait()
                    do {
                        let writer = try SessionWriter.create(in: dir, metadata: testMetadata(title: "same"),
                                                              options: SessionWriter.Options(durability: .never))
                        try writer.close()
                        paths.withLock { $0.append(writer.path) }
                    } catch {
                        failures.withLock { $0.append("\(error)") }
                    }
                    group.leave()
                }.start()
            }
            for _ in 0..<threads { start.signal() }
            group.wait()
        }
        XCTAssertEqual(failures.withLock { $0 }, [])
        XCTAssertEqual(Set(paths.withLock { $0 }).count, threads * rounds)
        XCTAssertEqual(try dir.list().count, threads * rounds)
    }

    func testListNewestFirstAndResolve() throws {
        let dir = SessionDirectory(path: directory + "/data/sessions")  // created on first use
        XCTAssertEqual(try dir.list().count, 0)
        XCTAssertThrowsError(try dir.resolve("last")) { XCTAssertTrue("\($0)".contains("there are no sessions"), "\($0)") }
        let starts = [1_777_705_200.0, 1_777_791_600.0, 1_777_720_000.0]  // 2 May 07:00, 3 May 07:00, 2 May 11:06:40
        var paths: [String] = []
        for (i, start) in starts.enumerated() {
            var m = testMetadata(title: "Outing \(i)")
            m.startUTC = start
            let w = try SessionWriter.create(in: dir, metadata: m, options: .init(durability: .never))
            try w.append(.accel(AccelSample(time: 0, x: 0, y: 0, z: 9.8)))
            if i != 2 { try w.close() } else { try w.flush() }  // the third is left open: no footer
            paths.append(w.path)
        }
        // Same second, same title: a suffix.
        var again = testMetadata(title: "Outing 0")
        again.startUTC = starts[0]
        let twin = try SessionWriter.create(in: dir, metadata: again, options: .init(durability: .never))
        try twin.close()
        XCTAssertTrue(twin.path.hasSuffix("/2026-05-02T07-00-00Z_outing-0_2.oarlog"), twin.path)

        let listed = try dir.list()
        XCTAssertEqual(listed.map(\.metadata?.title), ["Outing 1", "Outing 2", "Outing 0", "Outing 0"])
        XCTAssertEqual(listed.map(\.isComplete), [true, false, true, true])
        XCTAssertEqual(listed[0].summary?.statistics.accelerometerSamples, 1)
        XCTAssertNil(listed[1].summary)
        XCTAssertEqual(try dir.resolve("last"), paths[1])
        XCTAssertEqual(try dir.resolve("2026-05-03"), paths[1])  // unique prefix
        XCTAssertEqual(try dir.resolve("2026-05-02T11-06-40Z_outing-2"), paths[2])
        XCTAssertEqual(try dir.resolve("2026-05-02T11-06-40Z_outing-2.oarlog"), paths[2])
        XCTAssertEqual(try dir.resolve(paths[0]), paths[0])
        XCTAssertThrowsError(try dir.resolve("2026-05-02")) { XCTAssertTrue("\($0)".contains("3 sessions match"), "\($0)") }
        XCTAssertThrowsError(try dir.resolve("2027")) { XCTAssertTrue("\($0)".contains("no session id starts with it"), "\($0)") }
        XCTAssertThrowsError(try dir.resolve("/no/such.oarlog")) { XCTAssertTrue("\($0)".contains("no such file"), "\($0)") }
        // A stray non-session file is listed with its error, not a crash.
        try "hello".write(toFile: dir.path + "/zz.oarlog", atomically: true, encoding: .utf8)
        let withStray = try dir.list()
        XCTAssertEqual(withStray.count, 5)
        XCTAssertTrue(withStray.last?.error?.contains("not an Oarlog session") ?? false)
    }
}
