import ArgumentParser
import Foundation
import OarlogApp
import OarlogCore
import OarlogFleet
import OarlogTerminal

/// `oarlog archive`: the club's server keeps every boat's outing from the fleet's stream, as
/// session files that every command reads.
struct ArchiveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "archive",
        abstract: "Keep every boat's sessions from the fleet's MQTT stream as session files (a club's server).",
        discussion: """
            Subscribes to PREFIX/+/+ with a session kept at the broker (what arrives while this is \
            down is queued for it), puts each boat's messages back in order, drops those seen twice, \
            and writes one session file per boat and outing: fixes, strokes, notes and fence events; \
            the boat's summary when it ends. A session not heard of for --idle-close seconds is \
            closed as it stands. Only each boat's own stream is kept: a message for another \
            session or far ahead, an id outside a-z 0-9 - _, a boat past 64 at once or a session past \
            30 new ones a boat an hour is refused and counted. Stop with Ctrl-C or SIGTERM. docs/FLEET.md.
            Examples:
              oarlog archive --subscribe mqtts://archive@club.example:8883 --mqtt-password-file pw --mqtt-ca club-ca.crt
              oarlog archive --subscribe mqtt://localhost:1883 --data-dir /srv/oarlog
            """
    )

    @Option(help: "The fleet's MQTT broker: mqtt://[USER[:PASSWORD]@]HOST[:PORT] or mqtts://….")
    var subscribe: String

    @Option(name: .customLong("data-dir"), help: "Where the sessions go (default: $OARLOG_DATA_DIR/sessions, as every command).")
    var dataDir: String?

    @Option(name: .customLong("idle-close"), help: "Seconds without a message that close a boat's session.")
    var idleClose: Double = 900

    @Option(name: .customLong("client-id"), help: "The archive's id at the broker (its queued messages are kept under it).")
    var clientID: String?

    @Option(help: "Stop after this many seconds (tests, unattended runs).")
    var duration: Double?

    @OptionGroup(title: "Broker")
    var broker: BrokerOptions

    func validate() throws {
        _ = try broker.connection(subscribe)
        if !(idleClose >= 10 && idleClose.isFinite) { throw ValidationError("--idle-close must be at least 10 seconds") }
        if let duration, !(duration > 0) { throw ValidationError("--duration must be positive") }
    }

    func run() throws {
        SignalFlag.install()
        let sessions = dataDir.map { SessionStore(sessionsPath: $0) } ?? .default
        let archive = FleetArchive(try broker.connection(subscribe), sessions: sessions, idleClose: idleClose, clientID: clientID,
                                   log: { StandardStreams.write("oarlog archive: \($0)\n") })
        try archive.start()
        StandardStreams.write("archiving \(archive.connection.topics.everyBoat) from \(archive.connection.broker) into \(sessions.path)\n")
        let start = Date()
        var reported = 0
        var problem: String?
        var subscribed = false
        while !SignalFlag.interrupted {
            if let duration, Date().timeIntervalSince(start) >= duration { break }
            Thread.sleep(forTimeInterval: 0.2)
            archive.tick()
            let written = archive.written
            for path in written.dropFirst(reported) { StandardStreams.write("session \(SessionText.id(of: path)): \(path)\n") }
            reported = written.count
            if archive.brokerStatus?.subscribed == true, !subscribed { StandardStreams.write("subscribed to \(archive.connection.topics.everyBoat)\n") }
            subscribed = archive.brokerStatus?.subscribed ?? false
            let now = archive.brokerStatus?.problem
            if now != problem, let now { StandardStreams.write("oarlog archive: \(now)\n") }
            problem = now
        }
        archive.stop()
        StandardStreams.write("\(archive.written.count) session(s) written\n")
        // What was not archived, by why (docs/FLEET.md "Limits and trust").
        let refused = archive.refused.filter { $0.value > 0 }.sorted { $0.key < $1.key }
        if !refused.isEmpty {
            StandardStreams.write("refused: " + refused.map { "\($0.value) \($0.key.rawValue)" }.joined(separator: ", ") + "\n")
        }
    }
}
