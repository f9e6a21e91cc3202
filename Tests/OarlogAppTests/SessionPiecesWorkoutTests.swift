import Foundation
import OarlogApp
import OarlogCore
import OarlogSession
import XCTest

/// A session that rowed a plan: its pieces are the plan's intervals as recorded (warm-up, pieces
/// and rests in the order rowed), each with the session's strokes inside it for its curve, the
/// tracker's rate, its target, the shares in band and where its averages stand against the bands.
final class SessionPiecesWorkoutTests: XCTestCase {
    typealias F = SessionMetadata.Setting

    /// A stroke every 3 s from 0 s, 10 m a stroke.
    let strokes: [StrokeMetrics] = (0..<70).map { k in
        StrokeMetrics(stroke: StrokeEvent(index: k, catchTime: Double(k) * 3, driveDuration: 0.9, recoveryDuration: nil,
                                          peakAcceleration: 3, strokeRate: 20),
                      split: 150, distancePerStroke: 10, distance: Double(k) * 10)
    }

    /// The records a session file holds for a warm-up of 60 s, a piece of 60 s at 20–22 spm and
    /// 2:00–2:05, a rest of 30 s, a second piece at 20–22 spm, then a cool-down never rowed.
    func records(rowed: Int = 4) -> [SessionEvent] {
        let band = [F("rate_min_spm", "20.0"), F("rate_max_spm", "22.0")]
        let split = [F("split_min_s_per_500m", "120.0"), F("split_max_s_per_500m", "125.0")]
        var records = [
            SessionEvent(time: 0, name: "workout.plan", fields: [F("name", "warm/2x1:00"), F("steps", "5")]),
            SessionEvent(time: 0, name: "workout.step", fields: [F("index", "0"), F("kind", "warmup"), F("time_s", "60.0")]),
            SessionEvent(time: 0, name: "workout.step", fields: [F("index", "1"), F("kind", "work"), F("time_s", "60.0")] + band + split
                         + [F("label", "race pace")]),
            SessionEvent(time: 0, name: "workout.step", fields: [F("index", "2"), F("kind", "rest"), F("time_s", "30.0")]),
            SessionEvent(time: 0, name: "workout.step", fields: [F("index", "3"), F("kind", "work"), F("time_s", "60.0")] + band),
            SessionEvent(time: 0, name: "workout.step", fields: [F("index", "4"), F("kind", "cooldown"), F("time_s", "300.0")]),
        ]
        // index, step, kind, start, end, strokes, piece, distance, rate, rate in band, split in band, extra fields
        let intervals: [(Int, Int, String, Double, Double, Int, Int?, Double, Double?, Double?, Double?, [F])] = [
            (1, 0, "warmup", 0, 60, 20, nil, 200, 20.0, nil, nil, [F("completed", "true")]),
            (2, 1, "work", 60, 120, 20, 1, 200, 23.0, 0.25, 0.0, band + split + [F("label", "race pace"), F("completed", "true")]),
            (3, 2, "rest", 120, 150, 10, nil, 100, nil, nil, nil, [F("completed", "true")]),
            (4, 3, "work", 150, 210, 20, 2, 200, 21.0, 0.9, nil, band + [F("completed", "false")]),
        ]
        for i in intervals.prefix(rowed) {
            var fields = [F("index", "\(i.0)"), F("step", "\(i.1)"), F("kind", i.2), F("start_s", "\(i.3)"), F("end_s", "\(i.4)"),
                          F("strokes", "\(i.5)"), F("distance_m", "\(i.7)")]
            if let n = i.6 { fields.append(F("piece", "\(n)")) }
            if let r = i.8 { fields.append(F("avg_rate_spm", "\(r)")) }
            if let s = i.9 { fields.append(F("rate_in_band", "\(s)")) }
            if let s = i.10 { fields.append(F("split_in_band", "\(s)")) }
            records.append(SessionEvent(time: i.4, name: "workout.interval", fields: fields + i.11))
        }
        return records
    }

    func testThePiecesAreThePlansIntervals() throws {
        let workout = try XCTUnwrap(RecordedWorkout(records: records()))
        // A course leg recorded too: the plan's intervals come first.
        let leg = SessionEvent(time: 100, name: "course.segment", fields: [F("from", "Start"), F("to", "Finish"), F("start_s", "10"), F("end_s", "100")])
        let cut = SessionPieces(strokes: strokes, events: [leg], workout: workout)
        XCTAssertEqual(cut.kind, .workout)
        XCTAssertEqual(cut.plan?.name, "warm/2x1:00")
        XCTAssertEqual(cut.pieces.map(\.label), ["Warm-up", "Piece 1", "Rest", "Piece 2"])
        // The strokes whose catch is in [start, end): every 3 s, so 20 to a minute, 10 to the rest.
        XCTAssertEqual(cut.pieces.map(\.strokeRange), [0...19, 20...39, 40...49, 50...69])
        XCTAssertEqual(cut.pieces.map(\.strokes), [20, 20, 10, 20])
        XCTAssertEqual(cut.pieces[1].time, 60, accuracy: 1e-9)
        XCTAssertEqual(cut.pieces[1].split ?? 0, 150, accuracy: 1e-9, "60 s for 200 m")
        XCTAssertEqual(cut.pieces[1].rate ?? 0, 23, accuracy: 1e-9, "the tracker's rate, as recorded")
        XCTAssertEqual(cut.pieces[2].rate ?? 0, 20, accuracy: 1e-9, "no recorded rate: 10 strokes in 30 s")
        XCTAssertEqual(cut.pieces[3].interval?.completed, false)

        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(cut.json().utf8)) as? [String: Any])
        XCTAssertEqual(json["kind"] as? String, "workout")
        let plan = try XCTUnwrap(json["plan"] as? [String: Any])
        XCTAssertEqual(plan["name"] as? String, "warm/2x1:00")
        XCTAssertEqual((plan["steps"] as? [Any])?.count, 5)
        let pieces = try XCTUnwrap(json["pieces"] as? [[String: Any]])
        XCTAssertEqual(pieces.map { $0["index"] as? Int }, [1, 2, 3, 4])
        XCTAssertEqual(pieces.map { $0["kind"] as? String }, ["work", "work", "rest", "work"])
        XCTAssertEqual(pieces.map { $0["step"] as? String }, ["warmup", "work", "rest", "work"])
        XCTAssertEqual(pieces.map { $0["first_stroke"] as? Int }, [0, 20, 40, 50])
        XCTAssertEqual(pieces[1]["step_label"] as? String, "race pace")
        XCTAssertEqual(pieces[1]["piece_number"] as? Int, 1)
        XCTAssertTrue(pieces[0]["target"] is NSNull)
        let target = try XCTUnwrap(pieces[1]["target"] as? [String: Any])
        XCTAssertEqual(target["stroke_rate_spm"] as? [Double], [20, 22])
        XCTAssertEqual(target["split_s_per_500m"] as? [Double], [120, 125])
        XCTAssertEqual(pieces[1]["stroke_rate_in_band"] as? Double ?? -1, 0.25, accuracy: 1e-9)
        XCTAssertEqual(pieces[1]["split_in_band"] as? Double ?? -1, 0, accuracy: 1e-9)
        // Averages against the bands (± 0.5): 23 spm is over 20–22; 150 s is slower than 2:05
        // (over); 21 spm is in.
        XCTAssertEqual(pieces[1]["stroke_rate_band"] as? String, "over")
        XCTAssertEqual(pieces[1]["split_band"] as? String, "over")
        XCTAssertEqual(pieces[3]["stroke_rate_band"] as? String, "in")
        XCTAssertTrue(pieces[3]["split_band"] is NSNull, "no split band")
        XCTAssertEqual(pieces[1]["distance_per_stroke_m"] as? Double ?? -1, 10, accuracy: 1e-9)
        XCTAssertEqual(pieces.map { $0["completed"] as? Bool }, [true, true, true, false])
        XCTAssertEqual(pieces[1]["rate_spm"] as? Double ?? -1, 23, accuracy: 1e-9)
    }

    func testAPlanNeverStartedLeavesTheOtherKinds() throws {
        let notStarted = try XCTUnwrap(RecordedWorkout(records: records(rowed: 0)))
        let cut = SessionPieces(strokes: strokes, events: [], workout: notStarted)
        XCTAssertEqual(cut.kind, .rests)
        XCTAssertNil(cut.plan)
        XCTAssertEqual(cut.pieces.map(\.strokeRange), [0...69], "one run of rowing, no stop of 10 s")
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(cut.json().utf8)) as? [String: Any])
        XCTAssertNil(json["plan"])
        XCTAssertNil((json["pieces"] as? [[String: Any]])?.first?["target"], "no interval keys outside a workout")
        // Without a workout the kinds are as before.
        XCTAssertEqual(SessionPieces(strokes: strokes, events: []).kind, .rests)
    }
}
