import ArgumentParser
import OarlogApp
import OarlogCore
import OarlogFences
import OarlogSimulator
import OarlogTrace
import OarlogTerminal

/// `oarlog simulate`: writes a simulated session as a native trace plus its ground truth.
struct Simulate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Simulate a rowing session: a native CSV trace and a ground-truth file beside it.",
        discussion: """
            Example: oarlog simulate --minutes 10 --rate 24 --accel-hz 100 --gps-hz 1 -o sim.csv \
            writes sim.csv (replay it with `oarlog replay sim.csv`) and sim.truth.csv (every stroke's \
            catch time, rate, drive and recovery, and the true distance). \
            With --workout 3x1:00/0:30r the crew rows that plan from its first catch, stops for the \
            rests, and the truth also lists each interval (its start, end, distance, strokes and \
            rate). With --course course.geojson (a course file as `oarlog course --fences` reads) the \
            boat rows the course up and down, through every gate's centre, turning at each end, and \
            the truth also lists every gate crossing (time, direction, passage). See docs/SIMULATOR.md.
            """
    )

    @Option(help: "Session length in minutes (default 10; with --workout, the least length: the session ends 20 s after the plan).")
    var minutes: Double?

    @Option(help: "Stroke rate (spm) for the constant profile.")
    var rate: Double = 24

    @Option(help: "Profile: constant, workout (warm-up, pieces 18–40 spm, rests), ladder, or a list such as 300:18@0.5,60:rest,120:24.")
    var profile: String = "constant"

    @Option(name: .customLong("accel-hz"), help: "Accelerometer sample rate (Hz).")
    var accelHz: Double = 100

    @Option(name: .customLong("gps-hz"), help: "GPS fix rate (Hz).")
    var gpsHz: Double = 1

    @Option(help: "Sensor mounting: flat, upright, tilted, upside-down, or yaw=30,pitch=-80,roll=10.")
    var mounting: String = "flat"

    @Option(help: "Sensor noise: none, low, normal, high or a multiplier.")
    var noise: String = "normal"

    @Option(name: .customLong("gps-dropouts"), help: "Mean GPS outages per hour.")
    var gpsDropouts: Double = 4

    @Option(help: "Random seed (the same seed gives the same session).")
    var seed: UInt64 = 1

    @Option(name: .shortAndLong, help: "The trace file to write (the truth goes beside it as NAME.truth.csv).")
    var output: String

    @Option(name: .customLong("start-utc"), help: "UTC of the start, ISO 8601 (e.g. 2026-05-02T07:00:00Z).")
    var startUTC: String?

    @Option(help: "Heading at the start, degrees from true north.")
    var heading: Double?

    @Option(help: "Course: straight, curving, or a GeoJSON course file (start, markers, finish) the boat rows up and down.")
    var course: String?

    @Option(help: "A workout plan for the crew to row, e.g. 3x4:00/2:00r, 8x500m/1:30r or 3x10:00@20spm,22spm,24spm/2:00r (steps without a rate target at --rate or the profile's rate).")
    var workout: String?

    @Option(help: "Where the boat starts, LAT,LON in degrees (default 51.4873,-0.2241, the Tideway at Putney).")
    var start: String?

    func run() throws {
        let plan = try workout.map(WorkoutArgument.plan)
        let courseFile = course.flatMap { SimulationConfiguration.isCourseShape($0) ? nil : $0 }
        let measuredCourse = try courseFile.map(Self.measuredCourse(path:))
        let configuration = try SimulationConfiguration.fromOptions(
            minutes: minutes ?? (plan == nil ? 10 : 0), rate: rate, accelHz: accelHz, gpsHz: gpsHz, profile: profile, mounting: mounting,
            seed: seed, noise: noise, startUTC: startUTC, heading: heading, course: courseFile == nil ? course : nil,
            dropoutsPerHour: gpsDropouts, start: start, workout: plan, measuredCourse: measuredCourse)
        try configuration.validate()
        // Only the recent strokes are kept in memory: the truth file is written as the session goes.
        var simulator = try BoatSimulator(configuration: configuration, truthRetention: .recent(64))
        var trace = try TraceWriter(path: output, metadata: [])
        let truthPath = GroundTruthWriter.truthPath(forTracePath: output)
        var records = 0
        let truth = try simulator.run(truthPath: truthPath) { record in
            try trace.write(record)
            records += 1
        }
        try trace.close()
        var intervals = truth.intervals.isEmpty ? "" : ", \(truth.intervals.count) intervals"
        if let gates = measuredCourse?.gates.count {
            let passages = truth.completeForwardPassages(gateCount: gates).count
            intervals += ", \(truth.gateCrossings.count) gate crossings (complete passages up the course: \(passages))"
        }
        StandardStreams.error("wrote \(output) (\(records) records) and \(truthPath): \(truth.strokeCount) strokes\(intervals), "
                              + RowingFormat.distance(truth.distance) + " in " + RowingFormat.duration(truth.elapsed) + "\n")
    }

    /// `--course FILE`: the course in a GeoJSON fence file (as `oarlog course --fences` reads it)
    /// as the simulator's path — each gate's line, name and course distance, in course order.
    static func measuredCourse(path: String) throws -> GatePath {
        let file: FenceFile
        do {
            file = try FenceFile.load(path: path)
        } catch {
            throw CommandFailure("--course: \(error) (--course takes straight, curving or a GeoJSON course file)")
        }
        guard let course = file.course else {
            throw CommandFailure("--course: \(path) defines no course (no gate has a \"role\": start, marker or finish)")
        }
        let lines = CourseCheck.gateLines(file)
        guard lines.count == course.gates.count else { throw CommandFailure("--course: \(path): a course gate is not a line") }
        let gates = zip(course.gates, lines).enumerated().map { k, gate in
            GatePath.Gate(name: gate.0.name, line: gate.1, courseDistance: course.distances[k])
        }
        let measured = GatePath(name: course.name, gates: gates)
        if let problem = measured.problem { throw CommandFailure("--course: \(path): \(problem)") }
        return measured
    }
}
