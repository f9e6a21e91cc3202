import Foundation
import OarlogTestSupport
import XCTest

/// The fleet through a real mosquitto on a loopback port: boats replaying as if live with
/// `--publish`, the coach's `serve --coach`, the club's `oarlog archive`. Every stroke arrives
/// once and in order, the coach's figures are each boat's own, the club keeps what the boat
/// kept, and a broker that goes away for 20 s loses nothing.
final class FleetTests: XCTestCase {
    var work: URL!

    override func setUp() {
        work = FileManager.default.temporaryDirectory.appendingPathComponent("oarlog-fleet-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(at: work) }

    /// A simulated boat: its trace (lane `k`, 15 m apart), and what `oarlog replay --json --strokes` says of it.
    struct Boat {
        var name: String
        var id: String
        var trace: String
        var dataDirectory: URL
        var reference: [String: Any]
    }

    func boats(_ count: Int, minutes: Int) throws -> [Boat] {
        try (0..<count).map { k in
            let trace = work.appendingPathComponent("boat\(k).csv").path
            let north = 51.4873 + Double(k) * 15 / 111_200
            let simulated = try oarlogCLI(["simulate", "--minutes", "\(minutes)", "--rate", "\(20 + 3 * k)", "--seed", "\(k + 1)",
                                           "--start", "\(north),-0.2241", "--heading", "90", "--start-utc", "2026-06-06T09:00:00Z",
                                           "-o", trace], dataDirectory: work)
            XCTAssertEqual(simulated.status, 0, simulated.err)
            let replay = try oarlogCLI(["replay", trace, "--json", "--strokes"], dataDirectory: work)
            XCTAssertEqual(replay.status, 0, replay.err)
            let reference = try XCTUnwrap(try jsonObject(replay.out) as? [String: Any])
            return Boat(name: "Boat \(k) \(["A", "B", "C", "D", "E"][k % 5])", id: "boat-\(k)-\(["a", "b", "c", "d", "e"][k % 5])",
                        trace: trace, dataDirectory: work.appendingPathComponent("boat\(k)"), reference: reference)
        }
    }

    /// `oarlog ARGS` running in the background, its output in a file.
    final class Background {
        let process: ChildProcess
        let output: URL
        init(_ arguments: [String], dataDirectory: URL, output: URL) throws {
            self.output = output
            _ = FileManager.default.createFile(atPath: output.path, contents: nil)
            process = try ChildProcess(try Binaries.oarlog(), arguments, in: TestPaths.packageRoot.path,
                                       environment: ["OARLOG_DATA_DIR": dataDirectory.path], output: output.path, errors: output.path)
        }
        var text: String { ChildProcess.text(output.path) }
        /// Its exit status; nil if it was still running after `timeout` seconds (it is killed).
        func wait(timeout: Double) -> Int32? { process.wait(timeout: timeout) }
        func interrupt() { process.send(SIGINT) }
    }

    func waitFor(_ what: String, timeout: Double, _ condition: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if try condition() { return }
            usleep(100_000)
        }
        XCTFail("timed out after \(timeout) s waiting for \(what)")
        throw ServerTestError("timed out waiting for \(what)")
    }

    func fleet(_ coach: ServerProcess) throws -> [String: Any] {
        let answer = try coach.request("GET", "/api/fleet")
        XCTAssertEqual(answer.status, 200, answer.body)
        return try XCTUnwrap(try jsonObject(answer.body) as? [String: Any])
    }

    func fleetBoats(_ coach: ServerProcess) throws -> [String: [String: Any]] {
        let boats = try fleet(coach)["boats"] as? [[String: Any]] ?? []
        return Dictionary(uniqueKeysWithValues: boats.map { ($0["id"] as? String ?? "", $0) })
    }

    /// The coach's strokes for a boat equal the boat's own replay, and its figures its summary.
    func checkCoach(_ coach: ServerProcess, has boat: Boat, file: StaticString = #filePath, line: UInt = #line) throws {
        let answer = try coach.request("GET", "/api/fleet/boats/\(boat.id)/strokes")
        XCTAssertEqual(answer.status, 200, answer.body, file: file, line: line)
        let strokes = try XCTUnwrap(try jsonObject(answer.body) as? [String: Any])
        let theirs = strokes["stroke_list"] as? [[String: Any]] ?? []
        let own = boat.reference["stroke_list"] as? [[String: Any]] ?? []
        XCTAssertGreaterThan(own.count, 30, file: file, line: line)
        XCTAssertEqual(theirs.count, own.count, "\(boat.name): every stroke, once", file: file, line: line)
        XCTAssertEqual(theirs as NSArray, own as NSArray, "\(boat.name): the coach's strokes are the boat's", file: file, line: line)
        XCTAssertEqual(strokes["strokes_in_order"] as? Bool, true, file: file, line: line)
        let figures = try XCTUnwrap(try fleetBoats(coach)[boat.id], file: file, line: line)
        XCTAssertEqual(figures["name"] as? String, boat.name, file: file, line: line)
        XCTAssertEqual(figures["state"] as? String, "ended", file: file, line: line)
        XCTAssertEqual(figures["strokes"] as? Int, boat.reference["strokes"] as? Int, file: file, line: line)
        XCTAssertEqual(figures["distance_m"] as? Double, boat.reference["distance_m"] as? Double, file: file, line: line)
        let summary = try XCTUnwrap(figures["summary"] as? [String: Any], file: file, line: line)
        XCTAssertEqual(summary["strokes"] as? Int, boat.reference["strokes"] as? Int, file: file, line: line)
        XCTAssertEqual(summary["avg_rate_spm"] as? Double, boat.reference["avg_stroke_rate_spm"] as? Double, file: file, line: line)
        XCTAssertEqual(summary["avg_split_s_per_500m"] as? Double, boat.reference["avg_split_s_per_500m"] as? Double, file: file, line: line)
        XCTAssertEqual(summary["elapsed_s"] as? Double, boat.reference["elapsed_s"] as? Double, file: file, line: line)
    }

    /// The club's archived session of a boat equals the boat's own saved one: the same strokes,
    /// the distance within 0.1 %.
    func checkArchive(_ club: URL, has boat: Boat, file: StaticString = #filePath, line: UInt = #line) throws {
        let listed = try oarlogCLI(["sessions", "--json", "--boat", boat.name], dataDirectory: club)
        XCTAssertEqual(listed.status, 0, listed.err, file: file, line: line)
        let sessions = try XCTUnwrap(try jsonObject(listed.out) as? [[String: Any]], file: file, line: line)
        XCTAssertEqual(sessions.count, 1, "\(boat.name): one archived session: \(listed.out)", file: file, line: line)
        let id = try XCTUnwrap(sessions.first?["id"] as? String, file: file, line: line)
        let archived = try oarlogCLI(["show", id, "--json", "--strokes"], dataDirectory: club)
        XCTAssertEqual(archived.status, 0, archived.err, file: file, line: line)
        let own = try oarlogCLI(["show", "last", "--json", "--strokes"], dataDirectory: boat.dataDirectory)
        XCTAssertEqual(own.status, 0, own.err, file: file, line: line)
        let a = try XCTUnwrap(try jsonObject(archived.out) as? [String: Any], file: file, line: line)
        let b = try XCTUnwrap(try jsonObject(own.out) as? [String: Any], file: file, line: line)
        XCTAssertEqual((a["stroke_list"] as? NSArray), (b["stroke_list"] as? NSArray), "\(boat.name): the same strokes", file: file, line: line)
        XCTAssertEqual(a["strokes"] as? Int, b["strokes"] as? Int, file: file, line: line)
        let da = a["distance_m"] as? Double ?? 0, db = b["distance_m"] as? Double ?? 1
        XCTAssertEqual(da, db, accuracy: db * 0.001, "\(boat.name): distance within 0.1 %", file: file, line: line)
        // Every command reads it: an export of the archived session.
        let gpx = try oarlogCLI(["export", id, "--format", "gpx", "-o", work.appendingPathComponent("\(boat.id).gpx").path], dataDirectory: club)
        XCTAssertEqual(gpx.status, 0, gpx.err, file: file, line: line)
    }

    func startArchive(_ url: String, club: URL) throws -> Background {
        let archive = try Background(["archive", "--subscribe", url, "--data-dir", club.appendingPathComponent("sessions").path,
                                      "--client-id", "test-archive"],
                                     dataDirectory: club, output: work.appendingPathComponent("archive.log"))
        try waitFor("the archive's subscription", timeout: 30) { archive.text.contains("subscribed to oarlog/+/+") }
        return archive
    }

    func startCoach(_ url: String) throws -> ServerProcess {
        let coach = try ServerProcess(arguments: ["--coach", "--subscribe", url])
        try waitFor("the coach's subscription", timeout: 30) { ((try fleet(coach))["broker"] as? [String: Any])?["subscribed"] as? Bool == true }
        return coach
    }

    func testFiveBoatsAtTenTimesReachTheCoachOnceInOrderAndTheClubKeepsThem() throws {
        let broker = try MosquittoBroker(persistence: true)
        try broker.start()
        defer { broker.stop() }
        let url = "mqtt://127.0.0.1:\(broker.port)"
        let fleetBoats = try boats(5, minutes: 3)
        let club = work.appendingPathComponent("club")
        let archive = try startArchive(url, club: club)
        let coach = try startCoach(url)
        defer { coach.stop() }

        let replays = try fleetBoats.map { boat in
            try Background(["replay", boat.trace, "--publish", url, "--boat", boat.name, "--speed", "10", "--save", "--title", boat.name],
                           dataDirectory: boat.dataDirectory, output: work.appendingPathComponent("\(boat.id).log"))
        }
        for (boat, replay) in zip(fleetBoats, replays) {
            XCTAssertEqual(replay.wait(timeout: 120), 0, "\(boat.name): \(replay.text)")
            XCTAssertTrue(replay.text.contains("published to \(url) as \(boat.id)"), replay.text)
        }
        try waitFor("every boat's end at the coach", timeout: 30) {
            try fleetBoats.allSatisfy { (try self.fleetBoats(coach)[$0.id]?["state"] as? String) == "ended" }
        }
        for boat in fleetBoats { try checkCoach(coach, has: boat) }
        let status = try fleet(coach)["broker"] as? [String: Any]
        XCTAssertEqual(status?["unreadable"] as? Int, 0)

        archive.interrupt()
        XCTAssertEqual(archive.wait(timeout: 30), 0, archive.text)
        XCTAssertTrue(archive.text.contains("5 session(s) written"), archive.text)
        for boat in fleetBoats { try checkArchive(club, has: boat) }
    }

    func testTheBrokerGoneForTwentySecondsLosesNothing() throws {
        let broker = try MosquittoBroker(persistence: true)
        try broker.start()
        defer { broker.stop() }
        let url = "mqtt://127.0.0.1:\(broker.port)"
        let boat = try boats(1, minutes: 6)[0]
        let club = work.appendingPathComponent("club")
        let archive = try startArchive(url, club: club)
        let coach = try startCoach(url)
        defer { coach.stop() }
        let replay = try Background(["replay", boat.trace, "--publish", url, "--boat", boat.name, "--speed", "10", "--save",
                                     "--title", boat.name, "--publish-wait", "90"],
                                    dataDirectory: boat.dataDirectory, output: work.appendingPathComponent("replay.log"))
        // A minute into the outing, the broker goes away for 20 s while the boat rows on.
        try waitFor("a minute of strokes at the coach", timeout: 60) {
            (try self.fleetBoats(coach)[boat.id]?["strokes"] as? Int ?? 0) >= 20
        }
        broker.stop()
        let down = Date()
        Thread.sleep(forTimeInterval: 20)
        XCTAssertTrue(replay.process.isRunning, "the outing goes on while the broker is away")
        try broker.restart()
        print("fleet: broker away \(Date().timeIntervalSince(down)) s")
        XCTAssertEqual(replay.wait(timeout: 150), 0, replay.text)
        try waitFor("the boat's end at the coach", timeout: 60) { (try self.fleetBoats(coach)[boat.id]?["state"] as? String) == "ended" }
        try checkCoach(coach, has: boat)
        let figures = try XCTUnwrap(try fleetBoats(coach)[boat.id])
        print("fleet: after the outage the coach dropped \(figures["duplicates"] ?? "?") duplicate(s), missed \(figures["missed"] ?? "?")")
        XCTAssertEqual(figures["missed"] as? Int, 0)
        archive.interrupt()
        XCTAssertEqual(archive.wait(timeout: 30), 0, archive.text)
        try checkArchive(club, has: boat)
        // The boat's own file is as a replay without the broker would have made it.
        let own = try oarlogCLI(["show", "last", "--json", "--strokes"], dataDirectory: boat.dataDirectory)
        let shown = try XCTUnwrap(try jsonObject(own.out) as? [String: Any])
        XCTAssertEqual(shown["stroke_list"] as? NSArray, boat.reference["stroke_list"] as? NSArray)
        XCTAssertEqual(shown["distance_m"] as? Double, boat.reference["distance_m"] as? Double)
    }

    func testTheBoatsWebAppPublishesWhatItShows() throws {
        let broker = try MosquittoBroker()
        try broker.start()
        defer { broker.stop() }
        let url = "mqtt://127.0.0.1:\(broker.port)"
        let boat = try boats(1, minutes: 2)[0]
        let coach = try startCoach(url)
        defer { coach.stop() }
        // The boat's own `oarlog serve`, its trace replayed as if live at 20×, publishing.
        let server = try ServerProcess(arguments: ["--replay", boat.trace, "--speed", "20", "--publish", url, "--boat", boat.name])
        defer { server.stop() }
        try waitFor("the boat's end at the coach", timeout: 60) { (try self.fleetBoats(coach)[boat.id]?["state"] as? String) == "ended" }
        try checkCoach(coach, has: boat)
    }

    /// `oarlog record --publish`, with a real gpsd that has no receiver yet and no accelerometer:
    /// the session starts and ends at the coach, under its title, named by the recorder's clock.
    func testARecordingPublishesItsSession() throws {
        let broker = try MosquittoBroker()
        try broker.start()
        defer { broker.stop() }
        let url = "mqtt://127.0.0.1:\(broker.port)"
        let coach = try startCoach(url)
        defer { coach.stop() }
        let gpsdPort = freeLoopbackPort()
        let gpsd = try ChildProcess(try findExecutable("gpsd", also: ["/usr/sbin/gpsd"]),
                                    ["-N", "-n", "-F", work.appendingPathComponent("gpsd.sock").path, "-S", "\(gpsdPort)"])
        defer { gpsd.stop() }
        try waitFor("gpsd", timeout: 10) { isListening(port: gpsdPort) }
        let before = Date()
        let record = try oarlogCLI(["record", "--no-accel", "--gps", "127.0.0.1:\(gpsdPort)", "--countdown", "0", "--duration", "3",
                                    "--title", "Dock test", "--boat", "Delta", "--publish", url], dataDirectory: work)
        XCTAssertEqual(record.status, 0, record.err)
        XCTAssertTrue(record.err.contains("published to \(url) as delta"), record.err)
        try waitFor("the recording at the coach", timeout: 20) { (try self.fleetBoats(coach)["delta"]?["state"] as? String) == "ended" }
        let delta = try XCTUnwrap(try fleetBoats(coach)["delta"])
        XCTAssertEqual(delta["name"] as? String, "Delta")
        XCTAssertEqual(delta["title"] as? String, "Dock test")
        XCTAssertEqual(delta["strokes"] as? Int, 0)
        // The session is named by its start on the recorder's clock: now, not a trace's date.
        let session = try XCTUnwrap(delta["session"] as? String)
        let started = try XCTUnwrap(ISO8601DateFormatter.withFractions.date(from: session))
        XCTAssertEqual(started.timeIntervalSince(before), 0, accuracy: 10, session)
    }

    /// TLS with the club's own CA, as hardware/mosquitto sets it up: the boat and the coach with
    /// `mqtts://` and `--mqtt-ca`; a boat given another CA does not connect, and says so.
    func testTheClubsCAOverTLS() throws {
        let club = try TestCertificateAuthority(directory: work.appendingPathComponent("club-ca"), name: "Test rowing club CA")
        let other = try TestCertificateAuthority(directory: work.appendingPathComponent("other-ca"), name: "Some other CA")
        let broker = try MosquittoBroker(tls: MosquittoBroker.TLS(club))
        try broker.start()
        defer { broker.stop() }
        let url = "mqtts://localhost:\(try XCTUnwrap(broker.tlsPort))"
        let coach = try ServerProcess(arguments: ["--coach", "--subscribe", url, "--mqtt-ca", club.caFile])
        defer { coach.stop() }
        try waitFor("the coach's subscription over TLS", timeout: 30) {
            ((try fleet(coach))["broker"] as? [String: Any])?["subscribed"] as? Bool == true
        }
        let trace = work.appendingPathComponent("short.csv").path
        XCTAssertEqual(try oarlogCLI(["simulate", "--minutes", "1", "-o", trace], dataDirectory: work).status, 0)
        let stranger = try oarlogCLI(["replay", trace, "--publish", url, "--mqtt-ca", other.caFile, "--boat", "stranger", "--publish-wait", "3"],
                                     dataDirectory: work)
        XCTAssertNotEqual(stranger.status, 0)
        XCTAssertTrue(stranger.err.contains("not delivered"), stranger.err)
        let boat = try oarlogCLI(["replay", trace, "--publish", url, "--mqtt-ca", club.caFile, "--boat", "alpha"], dataDirectory: work)
        XCTAssertEqual(boat.status, 0, boat.err)
        try waitFor("alpha at the coach over TLS", timeout: 20) { (try self.fleetBoats(coach)["alpha"]?["state"] as? String) == "ended" }
        XCTAssertNil(try fleetBoats(coach)["stranger"])
        XCTAssertGreaterThan(try fleetBoats(coach)["alpha"]?["strokes"] as? Int ?? 0, 10)
    }

    func testABoatMayPublishOnlyUnderItsOwnNameAndOnlyWithItsPassword() throws {
        let acl = try String(contentsOf: TestPaths.packageRoot.appendingPathComponent("hardware/mosquitto/acl"), encoding: .utf8)
        let broker = try MosquittoBroker(users: [("alpha", "a-secret"), ("bravo", "b-secret"), ("coach", "c-secret")], acl: acl)
        try broker.start()
        defer { broker.stop() }
        let host = "127.0.0.1:\(broker.port)"
        let trace = work.appendingPathComponent("short.csv").path
        XCTAssertEqual(try oarlogCLI(["simulate", "--minutes", "1", "-o", trace], dataDirectory: work).status, 0)
        let coach = try startCoach("mqtt://coach:c-secret@\(host)")
        defer { coach.stop() }
        // alpha's login under bravo's name: every message refused, said, and a failure.
        let spoof = try oarlogCLI(["replay", trace, "--publish", "mqtt://alpha:a-secret@\(host)", "--boat", "bravo", "--publish-wait", "20"],
                                  dataDirectory: work)
        XCTAssertNotEqual(spoof.status, 0)
        XCTAssertTrue(spoof.err.contains("the broker refused") && spoof.err.contains("oarlog/bravo/") && spoof.err.contains("Not authorized"), spoof.err)
        XCTAssertFalse(spoof.err.contains("a-secret"), "the password is never shown")
        // Its own name: delivered.
        let own = try oarlogCLI(["replay", trace, "--publish", "mqtt://alpha:a-secret@\(host)", "--boat", "alpha"], dataDirectory: work)
        XCTAssertEqual(own.status, 0, own.err)
        // No password, a wrong one: the connection is refused, said plainly.
        for url in ["mqtt://\(host)", "mqtt://alpha:wrong@\(host)"] {
            let refused = try oarlogCLI(["replay", trace, "--publish", url, "--boat", "alpha", "--publish-wait", "3"], dataDirectory: work)
            XCTAssertNotEqual(refused.status, 0, url)
            XCTAssertTrue(refused.err.contains("refused the connection"), refused.err)
        }
        try waitFor("alpha at the coach", timeout: 20) { (try self.fleetBoats(coach)["alpha"]?["state"] as? String) == "ended" }
        XCTAssertEqual(Array(try fleetBoats(coach).keys), ["alpha"], "nothing under bravo reached the coach")
    }
}

extension ISO8601DateFormatter {
    nonisolated(unsafe) static let withFractions: ISO8601DateFormatter = {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return f
    }()
}
