import Dispatch
import Foundation
import OarlogApp
import OarlogCore
import Synchronization
@testable import OarlogServer

/// A live station and its web server in this process, on a free loopback port — what `oarlog
/// serve --replay` runs, with the station at hand: a test can offer it a coach's plan (which
/// nothing but the fleet can do to a server in its own process) and hear the cox's answers.
final class InProcessServer: @unchecked Sendable {
    /// What the station's `workoutAnswers` heard: "ID true" or "ID false", in order.
    final class Answers: Sendable {
        private let heard = Mutex<[String]>([])
        func add(_ answer: String) { heard.withLock { $0.append(answer) } }
        var all: [String] { heard.withLock { $0 } }
    }

    let station: LiveStation
    let token = String(repeating: "5a", count: 16)
    let answers = Answers()
    let dataDirectory: URL
    /// The plans saved on this boat (`GET /api/workouts`).
    let library: WorkoutLibrary
    private(set) var port = 0
    private var server: Task<Void, any Error>?

    /// The station replays `trace` at `speed` times real time; `offer` waits for the cox's answer.
    init(replay trace: String, speed: Double, offer: WorkoutOffer?) throws {
        dataDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("oarlog-inprocess-\(UUID().uuidString)")
        let sessions = SessionStore(sessionsPath: dataDirectory.appendingPathComponent("sessions").path)
        library = WorkoutLibrary(sessions: sessions)
        station = try LiveStation(source: .replay(path: trace, speed: speed), sessions: sessions, log: { _ in })
        let answers = self.answers
        station.workoutAnswers = { offer, accept in answers.add("\(offer.id) \(accept)") }
        if let offer { station.offerWorkout(offer) }
        let configuration = ServerConfiguration(host: "127.0.0.1", port: 0, webRoot: ServerConfiguration.defaultWebRoot, sessions: sessions)
        let access = ServerAccess(token: token, pairingCode: "135790")
        let listening = DispatchSemaphore(value: 0)
        let chosenPort = Mutex(0)
        let station = self.station
        server = Task {
            try await WebServer.run(configuration, station: station, access: access) { port in
                chosenPort.withLock { $0 = port }
                listening.signal()
            }
        }
        guard listening.wait(timeout: .now() + 30) == .success else { throw ServerTestError("the in-process server did not listen") }
        port = chosenPort.withLock { $0 }
        try station.start()
    }

    var base: String { "http://127.0.0.1:\(port)" }

    /// The station and the server stopped (the server's task cancelled: it closes and returns,
    /// logging Hummingbird's "Waiting on child channel: CancellationError()", which is expected).
    func stop() {
        station.stop()
        server?.cancel()
        server = nil
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: dataDirectory)
    }
}
