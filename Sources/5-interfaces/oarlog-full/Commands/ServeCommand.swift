import ArgumentParser
import Dispatch
import OarlogApp
import OarlogCore
import OarlogServer
import OarlogTerminal

/// `oarlog serve`: the boat's web app for the cox's phone (the live race screen, the race list,
/// the API of docs/API.md), over the live sensors or a trace replayed as if live.
struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the web app: the live race screen and the race list for the cox's phone.",
        discussion: """
            Listens on 127.0.0.1:8080 unless told (--listen 0.0.0.0:8080 on the boat's Wi-Fi). The \
            source runs from the start, as the boat's sensors would: the live sensors (as `oarlog \
            record` opens them; either may be missing), or --replay TRACE, fed through the pipeline \
            as if live (--speed N: N times real time); the live stream ends when the trace ends. \
            Start and Stop on the page record a session (same crash-safe file as `record`). \
            --workout PLAN chooses the plan the recordings row (the cox can change it on the page).

            Controls (start, stop, notes, rename, delete) need the token printed at start; a phone \
            gets it by entering the 6-digit pairing code. Reads are open. Stop with Ctrl-C.
            Examples:
              oarlog serve --replay samples/sim-workout.csv --speed 10
              oarlog serve --replay samples/sim-workout.csv --speed 10 --workout 3x4:00/2:00r
              oarlog serve --listen 0.0.0.0:8080
              oarlog serve --course "NK 2k" --ghost best      each recording races the course's fastest kept attempt
            """
    )

    @Option(help: "HOST:PORT to listen on.")
    var listen = "127.0.0.1:8080"

    @Option(name: .customLong("allow-host"),
            help: "A name the phone's browser may use for this board besides its IP addresses, host name and localhost (repeatable).")
    var allowHosts: [String] = []

    /// Seconds a connection may wait for a whole request (docs/API.md, Limits); lower in tests.
    @Option(name: .customLong("idle-timeout"), help: .hidden)
    var idleTimeout: Double = 30

    @Option(help: "Replay this trace as if live instead of reading the sensors.")
    var replay: String?

    @Option(help: "With --replay: trace seconds per second (1: real time).")
    var speed: Double = 1

    @OptionGroup(title: "Sensors")
    var sensors: SensorOptions

    @Option(help: "GeoJSON fences or a course (docs/FENCES.md).")
    var fences: String?

    @Option(help: "The pages to serve (default: Web/ of the project, else /usr/local/share/oarlog/web).")
    var webRoot: String?

    @OptionGroup(title: "Analysis")
    var analysis: AnalysisOptions

    @Option(help: "A workout plan for the recordings (`3x4:00/2:00r`, `8x500m@1:50/1:30r`, a saved plan's name or a .json plan; docs/WORKOUTS.md); the cox can change it on the page.")
    var workout: String?

    @Flag(name: .customLong("workout-at-go"), help: "With --workout: the first piece starts at the countdown's go, not at the first catch.")
    var workoutAtGo = false

    @Option(help: "The boat's name, with --publish (its topic and its sessions' boat).")
    var boat: String?

    @Flag(help: "A coach's launch: show every boat of the fleet live (with --subscribe), instead of this boat's sensors.")
    var coach = false

    @Option(help: "With --coach: the fleet's MQTT broker, mqtt://[USER[:PASSWORD]@]HOST[:PORT] or mqtts://….")
    var subscribe: String?

    @Option(help: "With --coach: a course (a saved course's name or a GeoJSON file; docs/FENCES.md): race mode, each boat along it, gaps at every gate, results. With --ghost: the course the recordings race on.")
    var course: String?

    @Option(help: "The attempt the recordings race (docs/GHOST.md): best (the fastest kept, of --boat when given) or SESSION[:K]; with --course. The cox can change it on the page.")
    var ghost: String?

    @Option(name: .customLong("meeting-distance"), help: "With --coach: boats closer than this many metres at the same time have crossed paths.")
    var meetingDistance: Double = 10

    @OptionGroup(title: "Fleet (docs/FLEET.md)")
    var fleet: PublishOptions

    func validate() throws {
        if ServerConfiguration.listenAddress(listen) == nil { throw ValidationError("--listen '\(listen)': expected HOST:PORT, e.g. 127.0.0.1:8080") }
        if !(idleTimeout >= 0.1 && idleTimeout <= 30) { throw ValidationError("--idle-timeout must be from 0.1 to 30 seconds") }
        if let bad = allowHosts.first(where: { $0.isEmpty || $0.contains("/") || $0.contains(" ") }) {
            throw ValidationError("--allow-host '\(bad)': expected a host name such as boat.example.org")
        }
        if !(speed > 0 && speed <= 1000) { throw ValidationError("--speed must be more than 0 and at most 1000") }
        if coach {
            guard let subscribe else { throw ValidationError("--coach needs the fleet's broker: --subscribe mqtt://HOST:PORT") }
            _ = try fleet.broker.connection(subscribe)
            if fleet.publish != nil || replay != nil { throw ValidationError("--coach shows the fleet: it takes no --publish or --replay") }
            if workout != nil { throw ValidationError("--workout is the boat's plan: a coach's launch takes none") }
            if ghost != nil { throw ValidationError("--ghost is raced in a boat: a coach's launch takes none") }
            if !(meetingDistance > 0 && meetingDistance <= 1000) { throw ValidationError("--meeting-distance must be more than 0 and at most 1000 metres") }
            return
        }
        if subscribe != nil { throw ValidationError("--subscribe is for a coach's launch: add --coach") }
        if course != nil && ghost == nil { throw ValidationError("--course is a coach's race course (add --coach) or the course a ghost is raced on (add --ghost)") }
        try GhostArgument.validate(course: course, ghost: ghost)
        if workoutAtGo && workout == nil { throw ValidationError("--workout-at-go starts a plan: add --workout") }
        if replay == nil && sensors.noGPS && sensors.noAccel { throw ValidationError("--no-gps and --no-accel leave nothing to show") }
        if replay == nil { try sensors.validateValues() }
        try fleet.validate(boat: boat)
    }

    var source: LiveStation.Source {
        if let replay { return .replay(path: replay, speed: speed) }
        return .live(sensors.choice)
    }

    func run() throws {
        let address = ServerConfiguration.listenAddress(listen)!
        let plan = try workout.map(WorkoutArgument.plan)
        let sessions = SessionStore.default
        let link = coach ? nil : try fleet.link(boat: boat, plans: true)
        let station = try LiveStation(source: coach ? .live(LiveSensorChoice(accelerometer: nil, gpsd: nil)) : source,
                                      settings: analysis.settings, sessions: sessions, fencesPath: fences,
                                      sinks: { utc in link.map { [$0.publisher(title: "\($0.boatName) (live)", startUTC: utc)] } ?? [] },
                                      log: { StandardStreams.error("oarlog serve: \($0)\n") })
        // The coach's plans to the cox, the cox's answers and the recording's workout to the fleet.
        link?.offerPlans(to: station)
        let fleetCoach = try startCoach()
        // Courses and challenges between the coach and the boats (docs/CHALLENGES.md).
        let challenges = try ChallengeLink.start(coach: fleetCoach, boat: link, store: sessions)
        let access = try ServerAccess(tokenFile: sessions.path + "/../serve-token") { code in
            StandardStreams.error("pairing code:  \(code) (a new one: the last was guessed wrong too often)\n")
        }
        var configuration = ServerConfiguration(host: address.host, port: address.port,
                                                webRoot: webRoot ?? ServerConfiguration.defaultWebRoot, sessions: sessions)
        configuration.limits.idleTimeout = idleTimeout
        configuration.allowedHosts = allowHosts
        if let plan { try station.chooseWorkout(plan, startsAtGo: workoutAtGo) }
        if !coach, let reference = try GhostArgument.reference(course: course, ghost: ghost, boat: boat), let course, let ghost {
            try station.chooseGhost(reference, course: course, choice: ghost)
            StandardStreams.error(GhostArgument.describe(reference))
        }
        if !coach { try station.start() }
        let done = DispatchSemaphore(value: 0)
        let failure = ServeFailure()
        let shown = address.host == "0.0.0.0" || address.host == "::" ? "this board's address" : address.host
        Task { [configuration] in
            do {
                try await WebServer.run(configuration, station: station, access: access, coach: fleetCoach) { port in
                    StandardStreams.error("""
                        Oarlog web app: http://\(shown):\(port)/
                        control token: \(access.token)
                        pairing code:  \(access.pairingCode)

                        """)
                }
            } catch {
                failure.set("\(error)")
            }
            done.signal()
        }
        done.wait()
        station.stop()
        fleetCoach?.stop()
        challenges?.stop()
        if let link, let problem = link.finish() { StandardStreams.error("oarlog serve: --publish: \(problem)\n") }
        if let message = failure.message { throw CommandFailure("serving on \(listen) failed: \(message)") }
    }
}

extension Serve {
    /// The coach's link to the fleet, listening (nil without --coach).
    func startCoach() throws -> FleetCoach? {
        guard coach, let subscribe else { return nil }
        // A saved course by its name, else a GeoJSON file.
        let courseFile = try (try? course.map { try SessionStore.default.courses.course(named: $0).file }) ?? RowingPipeline.loadFences(course)
        let fleetCoach = try FleetCoach(try fleet.broker.connection(subscribe), course: courseFile, meetingDistance: meetingDistance)
        try fleetCoach.start()
        StandardStreams.error("coach: listening to \(fleetCoach.connection.broker) for \(fleetCoach.connection.topics.everyBoat) and \(fleetCoach.connection.topics.everyPlanAnswer)\n")
        return fleetCoach
    }
}

/// The server's error, handed from its task to the command.
final class ServeFailure: @unchecked Sendable {
    private let lock = DispatchSemaphore(value: 1)
    private var text: String?
    func set(_ message: String) { lock.wait(); text = message; lock.signal() }
    var message: String? { lock.wait(); defer { lock.signal() }; return text }
}
