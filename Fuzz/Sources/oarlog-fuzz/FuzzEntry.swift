#if canImport(Glibc)
import Glibc
#endif
import OarlogAPI
import OarlogApp
import OarlogCore
import OarlogDSP
import OarlogFences
import OarlogFleet
import OarlogPipeline
import OarlogSession
import OarlogTrace
import OarlogWorkouts

/// The parser a run exercises, from `OARLOG_FUZZ_TARGET`.
enum FuzzTarget: String, CaseIterable {
    case native, speedcoach, nkLogbook = "nk-logbook", talos, quiske
    case speedcoachV1 = "speedcoach-v1", boatcoach, coxmate, tcx, gpx, fit
    case importZip = "import-zip"
    case fences, session, recovery, webRequest = "web-request", fleetMessage = "fleet-message"
    case workoutPlan = "workout-plan"

    static let current: FuzzTarget = {
        guard let name = getenv("OARLOG_FUZZ_TARGET").map({ String(cString: $0) }), let target = FuzzTarget(rawValue: name) else {
            let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
            let message = "oarlog-fuzz: set OARLOG_FUZZ_TARGET to one of: \(names)\n"
            _ = message.withCString { write(2, $0, strlen($0)) }
            exit(2)
        }
        return target
    }()
}

/// Where each input is written (the readers take paths, as the CLI gives them): tmpfs, one file
/// per process.
let inputPath: String = {
    let dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp"
    return "\(dir)/oarlog-fuzz-\(getpid())-\(FuzzTarget.current.rawValue).input"
}()

func writeInput(_ bytes: UnsafeRawBufferPointer) {
    let fd = open(inputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    precondition(fd >= 0, "cannot write \(inputPath)")
    var offset = 0
    while offset < bytes.count {
        let n = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
        precondition(n > 0, "short write to \(inputPath)")
        offset += n
    }
    close(fd)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: count > 0 ? data : nil, count: count)
    if FuzzTarget.current == .webRequest {
        webRequest(Array(bytes))
        return 0
    }
    if FuzzTarget.current == .importZip {
        importZip(Array(bytes))
        return 0
    }
    if FuzzTarget.current == .fleetMessage {
        fleetMessage(Array(bytes))
        return 0
    }
    if FuzzTarget.current == .workoutPlan {
        workoutPlan(Array(bytes))
        return 0
    }
    writeInput(bytes)
    switch FuzzTarget.current {
    case .native: replay(format: .native)
    case .speedcoach: replay(format: .speedcoach)
    case .nkLogbook: replay(format: .nkLogbook)
    case .talos: replay(format: .talos)
    case .quiske: replay(format: .quiske)
    case .speedcoachV1: replay(format: .speedcoachV1)
    case .boatcoach: replay(format: .boatcoach)
    case .coxmate: replay(format: .coxmate)
    case .tcx: replay(format: .tcx)
    case .gpx: replay(format: .gpx)
    case .fit:
        fitMessages(bytes)
        replay(format: .fit)
    case .fences: fences()
    case .session: session()
    case .recovery: recovery()
    case .webRequest, .fleetMessage, .importZip, .workoutPlan: break
    }
    return 0
}

/// What a coach and a club do with a message off the broker (anyone on the network may publish
/// one): the input's first line is the topic, the rest the payload. Read, then applied to a
/// coach's board (ordering, crossed paths) twice. Refusals are fine; a trap is a finding.
nonisolated(unsafe) var fuzzBoard = FleetBoard(strokeLimit: 64, trackLimit: 64)
nonisolated(unsafe) var fuzzPaths = CrossedPaths()
func fleetMessage(_ input: [UInt8]) {
    let parts = input.split(separator: 0x0A, maxSplits: 1, omittingEmptySubsequences: false)
    let topic = String(decoding: parts.first ?? [], as: UTF8.self)
    let payload = Array(parts.count > 1 ? parts[1] : [])
    let topics = try! FleetTopics()
    if let (boat, kind) = topics.parse(topic), let m = try? SignalKDelta.message(boat: boat, kind: kind, payload: payload) {
        precondition(m.boat == boat && m.kind == kind && m.sequence >= 1 && m.utc.isFinite && m.elapsed.isFinite, "\(m)")
        // What it reads, written again, reads back as the same message.
        let again = try? SignalKDelta.message(boat: boat, kind: kind, payload: SignalKDelta.payload(of: m))
        precondition(again?.sequence == m.sequence && again?.session == m.session && again?.kind == m.kind, "round trip of \(m)")
        if case .position(let p) = m.content { fuzzPaths.add(boat: boat, utc: m.utc, latitude: p.latitude, longitude: p.longitude) }
    }
    // The receiver's clock fixed after every session a seed holds (a session more than an hour
    // ahead of the clock is refused unread), so the board's stream checks are what is exercised.
    for _ in 0..<2 { _ = fuzzBoard.receive(topic: topic, payload: payload, topics: topics, now: 2_000_000_000) }
    if fuzzBoard.boats.count > 200 { fuzzBoard = FleetBoard(strokeLimit: 64, trackLimit: 64) }
}

/// What `oarlog serve` does with a phone's request before it touches anything (OarlogAPI): the
/// input's first line is the path, its second the `Authorization` header, the rest the body, given
/// to every call's decoder. Refusals are fine; a trap is a finding.
func webRequest(_ input: [UInt8]) {
    var lines = input.split(separator: 0x0A, maxSplits: 2, omittingEmptySubsequences: false).makeIterator()
    let path = String(decoding: lines.next() ?? [], as: UTF8.self)
    let header = String(decoding: lines.next() ?? [], as: UTF8.self)
    let body = Array(lines.next() ?? [])
    if APIRequest.isAcceptablePath(path) {
        for segment in path.split(separator: "/") where APIRequest.isPlausibleSessionID(String(segment)) {
            precondition(!segment.contains("/") && segment != "..", "a session id that is a path: \(segment)")
        }
    }
    _ = APIRequest.bearerToken(header)
    _ = try? PairingRequest(body: body)
    _ = try? StartRequest(body: body)
    _ = try? RetitleRequest(body: body)
    _ = try? WorkoutChoiceRequest(body: body)
    _ = try? WorkoutAnswerRequest(body: body)
    _ = try? GhostChoiceRequest(body: body)
    _ = try? UploadRequest(body: body)
    _ = try? ChallengeSetRequest(body: body)
    _ = try? ChallengeAnswerRequest(body: body)
    // A course sent from the phone: a name that reads is never empty or long, and a GeoJSON
    // course is checked as `courses add` checks it (nothing is kept here).
    if let course = try? CourseRequest(body) {
        precondition(CourseLibrary.nameProblem(course.name) == nil, "course name kept: \(course.name)")
    }
    if let note = try? NoteRequest(body: body) {
        precondition(!note.text.isEmpty && note.text.count <= APIRequest.maximumNoteCharacters)
        // What is stored holds no control character (a terminal escape, a bidi override).
        precondition(StoredText.escapedForTerminal(note.text) == note.text, "note text not clean: \(note.text.unicodeScalars.map(\.value))")
        for end in [0, 412.5, -.infinity, .nan] {
            if let t = try? note.time(inSessionEndingAt: end) { precondition(t.isFinite && t >= 0, "note time \(t)") }
        }
    }
    // A playback phone's message: a seek is a finite time from 0, a speed within 0.1–60×.
    if let command = try? PlaybackCommand(body: body) {
        if let seek = command.seek { precondition(seek.isFinite && seek >= 0, "seek \(seek)") }
        if let speed = command.speed { precondition(PlaybackCommand.speeds.contains(speed), "speed \(speed)") }
        precondition(command.seek != nil || command.speed != nil || command.pause != nil)
    }
    // The plots' series query (`fields` from the header line, `points` from the body's start).
    if let series = try? SeriesRequest(fields: header, points: String(decoding: body.prefix(16), as: UTF8.self)) {
        precondition(!series.fields.isEmpty && SeriesRequest.pointLimits.contains(series.points), "series \(series)")
    }
    // The map's trail and the stroke curves' queries.
    let query = String(decoding: body.prefix(16), as: UTF8.self)
    if let trail = try? TrailRequest(points: query) { precondition(TrailRequest.pointLimits.contains(trail.points)) }
    if let curve = try? CurveRequest(piece: header, stroke: nil, points: query) {
        precondition(CurveRequest.pointLimits.contains(curve.points), "curve \(curve)")
        if case .piece(let k) = curve.target { precondition(k >= 0) } else { preconditionFailure("a piece was asked for") }
    }
}

/// `oarlog replay FILE --json --strokes` and the summary table, in process: the reader, the
/// whole pipeline and every formatter a person's output goes through. Errors are fine; a trap is
/// a finding.
func replay(format: TraceFormat) {
    // Any sport: the fuzzer should reach the records of a file that names another sport too.
    guard var source = try? TraceOpener.open(path: inputPath, format: format, options: TraceOpenOptions(anySport: true)) else { return }
    let facts = SessionFacts()
    var json = ""
    let sinks: [any PipelineSink] = [facts, JSONReportSink(source: "fuzz", includeStrokes: true, facts: facts) { json += $0 },
                                     StrokeTablePrinter { _ in }]
    var pipeline = Pipeline(sinks: sinks)
    guard let summary = try? pipeline.run(&source) else { return }
    _ = SummaryTable.render(title: "fuzz", summary: summary, facts: facts)
    _ = json.count
}

/// Every message of a FIT input decoded with the CRC unchecked (else nearly every mutation stops
/// at the file's CRC and the decoder's inner paths are never reached), each as its JSON line.
func fitMessages(_ bytes: UnsafeRawBufferPointer) {
    guard var decoder = try? FITDecoder(bytes: Array(bytes), path: "fuzz.fit", checksCRC: false) else { return }
    var lines = 0
    while let message = try? decoder.next() {
        lines &+= FITProfile.json(message).utf8.count
    }
    _ = lines
}

/// A zip handed to the web import (`POST /api/import?name=x.zip`) as a club's LiNK or Garmin
/// download: its central directory, inflated entries (zlib), every entry through the readers and
/// kept as a session in a store of its own. Refusals are fine; a trap, a file written outside the
/// private temp folder, or memory beyond the limits is a finding.
let fuzzStore: SessionStore = {
    let dir = "/tmp/oarlog-fuzz-import-\(getpid())"
    mkdir(dir, 0o700)
    return SessionStore(sessionsPath: dir)
}()
func importZip(_ input: [UInt8]) {
    _ = try? fuzzStore.importing(bytes: input, name: "club.zip")
}

/// A fence file parsed and a short track run past it (areas, gates, course), with the events printed.
func fences() {
    guard let file = try? FenceFile.load(path: inputPath) else { return }
    var monitor = FenceMonitor(file)
    let printer = FenceEventPrinter { _ in }
    // A track through the first fence: 60 fixes from 300 m south-west of it to 300 m north-east.
    var centre = (52.0, 4.0)
    if let shape = file.fences.first?.shape {
        switch shape {
        case .circle(let c, _): centre = (c.latitude, c.longitude)
        case .polygon(let outer, _): if let p = outer.first { centre = (p.latitude, p.longitude) }
        case .gate(let line, _): if let p = line.first { centre = (p.latitude, p.longitude) }
        }
    }
    for k in 0..<60 {
        let step = Double(k - 30) * 10 / 111_000
        let fix = GPSFix(time: Double(k) * 2.5, latitude: centre.0 + step, longitude: centre.1 + step * 1.6, speed: 4)
        monitor.process(fix) { printer.receive(.fence($0)) }
    }
    monitor.finish { printer.receive(.fence($0)) }
}

/// A session file opened and read every way `show`, `play` and `export` read it.
func session() {
    guard let reader = try? SessionReader(path: inputPath) else { return }
    _ = try? reader.notes(onDamage: .skipDamagedChunks)
    _ = try? reader.strokes(onDamage: .skipDamagedChunks)
    if var records = try? reader.recordsInTimeOrder(onDamage: .skipDamagedChunks) {
        var pipeline = Pipeline(sinks: [SessionFacts()])
        _ = try? pipeline.run(&records)
    }
    if let last = reader.summary?.statistics.lastTime, last.isFinite {
        _ = try? reader.recordsInTimeOrder(from: last / 2, onDamage: .skipDamagedChunks)
    }
    // A recorded plan, timed again over the records as a replay of the session does.
    if let workout = try? reader.workout(), var records = try? reader.recordsInTimeOrder(onDamage: .skipDamagedChunks) {
        var pipeline = Pipeline(sinks: [SessionFacts()], workout: WorkoutTracker(plan: workout.plan, goTime: workout.startTime))
        _ = try? pipeline.run(&records)
    }
}

/// A plan as a coach types it (`--workout`, the phone's plan box): the input is the text. A plan
/// that reads must keep the limits; then it is timed over a few synthetic catches and fixes
/// built from the input's bytes (in time order, as every source gives them; repeated times and
/// long silences included). Refusals are fine;
/// a trap is a finding.
func workoutPlan(_ input: [UInt8]) {
    let text = String(decoding: input.prefix(4096), as: UTF8.self)
    // The JSON form (a plan file, `POST /api/workouts`) and the whiteboard form.
    let fromJSON = try? WorkoutPlanJSON.decode(input, name: "fuzz")
    guard let plan = fromJSON ?? (try? WorkoutSpec.parse(text)) else { return }
    precondition(!plan.steps.isEmpty && plan.steps.count <= WorkoutLimits.maximumSteps, "steps \(plan.steps.count)")
    precondition(plan.pieceCount <= WorkoutLimits.maximumPieces, "pieces \(plan.pieceCount)")
    for step in plan.steps {
        switch step.length {
        case .time(let s): precondition(s >= WorkoutLimits.minimumStepTime && s <= WorkoutLimits.maximumStepTime, "time \(s)")
        case .distance(let m): precondition(m >= WorkoutLimits.minimumStepDistance && m <= WorkoutLimits.maximumStepDistance, "distance \(m)")
        }
        if let r = step.target.strokeRate { precondition(WorkoutLimits.strokeRateRange.contains(r.lowerBound) && r.lowerBound <= r.upperBound) }
        if let r = step.target.split { precondition(WorkoutLimits.splitRange.contains(r.lowerBound) && r.lowerBound <= r.upperBound) }
    }
    var records: [TraceRecord] = []
    var t = 0.0
    for (k, byte) in input.prefix(256).enumerated() {
        t += Double(byte) * Double(byte) / 64
        if k % 3 == 0 {
            records.append(.fix(GPSFix(time: t, latitude: 51.5 + Double(k) * 1e-5, longitude: -0.2, speed: Double(byte) / 40, mode: .threeD)))
        } else {
            records.append(.reference(ReferenceStroke(time: t)))
        }
    }
    var source = ListRecords(records)
    var pipeline = Pipeline(workout: WorkoutTracker(plan: plan, goTime: input.first.map { Double($0) }))
    _ = try? pipeline.run(&source)
}

/// Records from an array, in the order given.
struct ListRecords: RecordSource {
    var records: [TraceRecord]
    var index = 0
    init(_ records: [TraceRecord]) { self.records = records }
    mutating func next() throws -> TraceRecord? {
        guard index < records.count else { return nil }
        index += 1
        return records[index - 1]
    }
}

/// `oarlog recover FILE` (check only, then a recovery written to a second file and read back).
func recovery() {
    _ = try? SessionRecovery.recover(inputPath, sync: false)
    let output = inputPath + ".recovered"
    if (try? SessionRecovery.recover(inputPath, to: output, sync: false)) != nil {
        _ = try? SessionReader(path: output).notes(onDamage: .throwError)
    }
    unlink(output)
}

// SwiftPM links an executable's entry point as `<module>_main`; libFuzzer's own `main` is then
// not pulled in, so the entry point hands over to libFuzzer's driver.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<CInt>,
                         _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                         _ callback: @convention(c) (UnsafeRawPointer?, Int) -> CInt) -> CInt

@_cdecl("oarlog_fuzz_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    _ = FuzzTarget.current
    return LLVMFuzzerRunDriver(&count, &arguments) { data, size in fuzzOne(data, size) }
}
