import OarlogCore
import OarlogDSP
import OarlogPipeline
import OarlogSimulator
import OarlogTrace

/// Distance from a standing start (issue 29): the first 500 m of a piece rowed from rest, the
/// first stroke included. Simulated (20 s still, then a racing start) against the truth; and in
/// each per-stroke device export of the samples, from the session's start and from each start
/// after a rest (a device's new interval, or 20 s without a stroke), against the device's own
/// distance over the same strokes.
extension Evaluation {
    /// Tolerance on a standing-start piece (fraction of its distance).
    public static let standingStartTolerance = 0.005
    /// How long a standing-start piece is, metres (shorter when its interval ends first).
    public static let standingStartPiece: Metres = 500
    /// No stroke for this long is a rest: the next stroke starts a piece.
    public static let restBetweenPieces: Seconds = 20

    /// Each per-stroke device export of the samples whose file name `files` takes, from its start
    /// and from each rest.
    public static func deviceStandingStarts(dataDirectory: String, files: (String) -> Bool = { _ in true }) -> [EvaluationRow] {
        var rows: [EvaluationRow] = []
        let exports: [(String, String, (String) throws -> AnyRecordSource)] = [
            ("SpeedCoach GPS Pro", "SpeedCoach2Linkv1.27.csv", { AnyRecordSource(try SpeedCoachReader(path: $0)) }),
            ("SpeedCoach GPS Pro, 5 intervals", "SpeedCoach2Link_interval.csv", { AnyRecordSource(try SpeedCoachReader(path: $0)) }),
            ("nk_logbook (NK LiNK)", "nk_logbook.csv", { AnyRecordSource(try NKLogbookReader(path: $0)) }),
        ]
        for (name, file, open) in exports where files(file) {
            rows += deviceStandingStarts(name: name) { try open(dataDirectory + "/rowingdata/" + file) }
        }
        return rows
    }

    /// The exports whose every piece from rest is within the tolerance, registered in `all`: the
    /// SpeedCoach interval file (its five pieces, since coarse positions are averaged with the
    /// receiver's speed). The others' pieces are open goals (docs/DISTANCE.md says why).
    public static let registeredStandingStartExports: Set<String> = ["SpeedCoach2Link_interval.csv"]

    /// 500 m rowed from rest after 20 s still (a racing start), every seed, against the truth.
    public static func simulatedStandingStart(speed: Bool) -> EvaluationRow {
        let dataset = "simulated 500 m from a standing start, " + (speed ? "Doppler speed" : "positions only")
        let profile = SimulationProfile(name: "500m-standing-start", segments: [.rest(20), .rowing(105, rate: 34, power: 1.0)],
                                        flyingStart: false)
        do {
            let errors = try simulatedDistanceErrors(profile: profile, course: .straight, speed: speed)
            let worst = errors.max { abs($0) < abs($1) } ?? .nan
            let mean = errors.reduce(0, +) / Double(max(1, errors.count))
            return EvaluationRow(dataset: dataset, check: "distance from rest vs truth", expected: "true distance, \(errors.count) seeds",
                                 found: "mean " + percent(mean), error: "worst " + percent(worst),
                                 tolerance: "±" + RowingFormat.decimal(standingStartTolerance * 100, places: 1) + " %",
                                 passed: errors.count == distanceSeeds.count && abs(worst) <= standingStartTolerance)
        } catch {
            return .failure(dataset: dataset, check: "distance from rest vs truth", "\(error)")
        }
    }

    /// The pieces of a device export from rest: ours against the device's distance over each.
    static func deviceStandingStarts(name: String, open: () throws -> AnyRecordSource) -> [EvaluationRow] {
        do {
            var records: [TraceRecord] = []
            var source = try open()
            while let r = try source.next() { records.append(r) }
            var list = RecordList(records: records)
            let (_, collector) = try Pipeline.collect(&list, configuration: asNKDevices)
            var ours: [Seconds: Metres] = [:]
            for m in collector.strokes { if let d = m.distance { ours[m.stroke.catchTime] = d } }
            return standingStartPieces(records: records).map { piece in
                pieceRow(name: name, piece: piece, references: collector.references, ours: ours)
            }
        } catch {
            return [.failure(dataset: name, check: "500 m from rest", "\(error)")]
        }
    }

    /// Where each piece starts: the index of its first reference stroke, and whether it follows
    /// a rest (else it is the session's start).
    private static func standingStartPieces(records: [TraceRecord]) -> [(first: Int, afterRest: Bool)] {
        var pieces: [(first: Int, afterRest: Bool)] = []
        var count = 0, lastTime: Seconds?, newInterval = false
        for r in records {
            switch r {
            case .note(let n) where n.text.hasPrefix("SpeedCoach interval"): newInterval = true
            case .reference(let s) where s.distance != nil:
                if count == 0 {
                    pieces.append((0, false))
                } else if newInterval || (lastTime.map { s.time - $0 >= restBetweenPieces } ?? false) {
                    pieces.append((count, true))
                }
                newInterval = false
                lastTime = s.time
                count += 1
            default: break
            }
        }
        return pieces
    }

    /// One piece: from the session's start (both at 0) or the last stroke before the rest, to the
    /// first stroke at 500 m on (or the last before the next rest).
    private static func pieceRow(name: String, piece: (first: Int, afterRest: Bool), references all: [ReferenceStroke],
                                 ours: [Seconds: Metres]) -> EvaluationRow {
        let references = all.filter { $0.distance != nil }
        let dataset = name + (piece.afterRest ? ", from rest at \(RowingFormat.decimal(references[piece.first].time, places: 1)) s"
                                              : ", from the session's start")
        let check = "first \(Int(standingStartPiece)) m from rest"
        let start = piece.afterRest ? references[piece.first - 1] : nil
        let deviceStart = start?.distance ?? 0
        let ourStart = start.map { ours[$0.time] } ?? 0
        var end = piece.first
        while end + 1 < references.count, (references[end].distance ?? 0) - deviceStart < standingStartPiece {
            let next = references[end + 1]
            if next.time - references[end].time >= restBetweenPieces { break }
            end += 1
        }
        guard let ourStart, let ourEnd = ours[references[end].time], let deviceEnd = references[end].distance,
              deviceEnd > deviceStart else {
            return .failure(dataset: dataset, check: check, "no distance of ours at the piece's strokes")
        }
        let device = deviceEnd - deviceStart, found = ourEnd - ourStart
        let error = found / device - 1
        return EvaluationRow(dataset: dataset, check: check, expected: RowingFormat.decimal(device, places: 1) + " m (device)",
                             found: RowingFormat.decimal(found, places: 1) + " m", error: percent(error),
                             tolerance: "±" + RowingFormat.decimal(standingStartTolerance * 100, places: 1) + " %",
                             passed: abs(error) <= standingStartTolerance)
    }
}
