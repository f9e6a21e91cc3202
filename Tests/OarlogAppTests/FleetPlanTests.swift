import OarlogApp
import OarlogCore
import XCTest

/// The coach's plan on the wire: read back exactly as sent, and what breaks the plan's limits,
/// or is not a plan at all, refused with the reason.
final class FleetPlanTests: XCTestCase {
    func testAnOfferReadsBackAsSent() throws {
        for spec in ["3x4:00/2:00r", "8x500m@1:48-1:52@34-36spm/2:00r", "3x10:00@20spm,22spm,24spm/2:00r", "20:00", "4:00,3:00,2:00,1:00/1:00r"] {
            let plan = try WorkoutSpec.parse(spec)
            for boat in ["alpha", nil] {
                let offer = FleetPlanOffer(id: "o-1", from: "coach", boat: boat, sentUTC: 1_780_736_400.25, plan: plan)
                let back = try FleetPlanOffer(payload: offer.payload, boat: boat)
                XCTAssertEqual(back, offer, spec)
                XCTAssertEqual(back.workoutOffer, WorkoutOffer(id: "o-1", from: "coach", plan: plan))
            }
        }
        // With warm-up, labels and a cool-down (the JSON shape every workout answer has).
        let long = WorkoutPlan(name: "Saturday", steps: [
            WorkoutStep(kind: .warmup, length: .time(600), label: "easy"),
            WorkoutStep(kind: .work, length: .distance(1500), target: WorkoutTarget(strokeRate: 30...32, split: 100...104), label: "race pace"),
            WorkoutStep(kind: .rest, length: .time(300)),
            WorkoutStep(kind: .cooldown, length: .distance(2000)),
        ])
        let offer = FleetPlanOffer(id: "o-2", from: "coach", boat: nil, sentUTC: 1_780_736_400, plan: long)
        XCTAssertEqual(try FleetPlanOffer(payload: offer.payload, boat: nil), offer)
        let answer = FleetPlanAnswer(id: "o-2", boat: "alpha", accepted: false, utc: 1_780_736_460.5)
        XCTAssertEqual(try FleetPlanAnswer(payload: answer.payload, boat: "alpha"), answer)
        XCTAssertThrowsError(try FleetPlanAnswer(payload: answer.payload, boat: "bravo"), "an answer on another boat's topic")
    }

    func testPlansBreakingTheLimitsAreRefused() throws {
        let good = String(decoding: FleetPlanOffer(id: "o", from: "coach", boat: "alpha", sentUTC: 1_780_736_400,
                                                   plan: try WorkoutSpec.parse("2x500m@24spm/1:00r")).payload, as: UTF8.self)
        XCTAssertNoThrow(try FleetPlanOffer(payload: Array(good.utf8), boat: "alpha"))
        func refusal(_ text: String, boat: String? = "alpha") -> String {
            do {
                _ = try FleetPlanOffer(payload: Array(text.utf8), boat: boat)
                return "accepted"
            } catch { return error.description }
        }
        let step = #"{"kind":"work","time_s":240.0,"distance_m":null,"target":null,"label":null}"#
        func with(steps: String, pieces: String = "null") -> String {
            #"{"id":"o","from":"coach","boat":"alpha","sent_utc":"2026-06-06T09:00:00.000Z","plan":{"name":"p","pieces":\#(pieces),"steps":[\#(steps)]}}"#
        }
        XCTAssertEqual(refusal(with(steps: step)), "accepted")
        XCTAssertTrue(refusal(good, boat: "bravo").contains("for boat 'alpha' on the topic of 'bravo'"))
        XCTAssertTrue(refusal(good, boat: nil).contains("on the topic of 'all'"))
        XCTAssertTrue(refusal(with(steps: "")).contains("needs steps"))
        XCTAssertTrue(refusal(with(steps: Array(repeating: step, count: 201).joined(separator: ","))).contains("at most 200"))
        XCTAssertTrue(refusal(with(steps: Array(repeating: step, count: 101).joined(separator: ","))).contains("101 pieces: a plan has at most 100"))
        XCTAssertTrue(refusal(with(steps: step, pieces: "3")).contains("pieces says"))
        XCTAssertTrue(refusal(with(steps: step.replacingOccurrences(of: "240.0", with: "172800"))).contains("step 1: a time of 172800.0 s"))
        XCTAssertTrue(refusal(with(steps: step.replacingOccurrences(of: "240.0", with: "null"))).contains("time_s or distance_m"))
        XCTAssertTrue(refusal(with(steps: step.replacingOccurrences(of: "\"distance_m\":null", with: "\"distance_m\":5"))).contains("one of them"))
        XCTAssertTrue(refusal(with(steps: step.replacingOccurrences(of: "\"work\"", with: "\"sprint\""))).contains("kind is"))
        XCTAssertTrue(refusal(with(steps: step.replacingOccurrences(of: "\"target\":null", with: #""target":{"stroke_rate_spm":[24,70]}"#)))
            .contains("stroke_rate_spm is [low, high] within 10–60"))
        XCTAssertTrue(refusal(with(steps: step.replacingOccurrences(of: "\"target\":null", with: #""target":{"split_s_per_500m":[112,108]}"#)))
            .contains("split_s_per_500m"))
        XCTAssertTrue(refusal(good.replacingOccurrences(of: "\"id\":\"o\"", with: "\"id\":\"\"")).contains("no offer id"))
        XCTAssertTrue(refusal(String(good.dropLast())).contains("not JSON"))
        XCTAssertTrue(refusal(String(repeating: " ", count: 70_000) + good).contains("65536"))
    }

    func testTheCoachsRequest() throws {
        let (plan, boat) = try FleetCoach.planRequest(body: Array(#"{"spec": "3x4:00/2:00r", "boat": "Women's 8+ A"}"#.utf8))
        XCTAssertEqual(plan, try WorkoutSpec.parse("3x4:00/2:00r"))
        XCTAssertEqual(boat, "women-s-8-a", "a boat's name is taken to its topic id")
        XCTAssertNil(try FleetCoach.planRequest(body: Array(#"{"spec": "1x1000m", "boat": null}"#.utf8)).boat)
        XCTAssertNil(try FleetCoach.planRequest(body: Array(#"{"spec": "1x1000m"}"#.utf8)).boat)
        do {
            _ = try FleetCoach.planRequest(body: Array(#"{"spec": "3x4:00/2:00", "boat": null}"#.utf8))
            XCTFail("a rest without its r")
        } catch let error as FleetPlanRequestError {
            // The column as the issue has it: the rest's last character.
            XCTAssertEqual(error.column, 11)
            XCTAssertEqual(error.description, "rest needs a trailing r at column 11")
            XCTAssertTrue(error.json.contains(#""column":11"#), error.json)
        }
        for bad in [#"[1]"#, #"{"boat": null}"#, #"{"spec": "1x1000m", "boat": 3}"#, #"{"spec": "1x1000m", "boat": ""}"#,
                    #"{"spec": "1x1000m", "plan": {}}"#, "nope"] {
            XCTAssertThrowsError(try FleetCoach.planRequest(body: Array(bad.utf8)), bad) { error in
                XCTAssertNil((error as? FleetPlanRequestError)?.column, bad)
            }
        }
        let json = #"{"plan": {"name": "two", "steps": [{"kind": "work", "distance_m": 500}, {"kind": "rest", "time_s": 60}, {"kind": "work", "distance_m": 500}]}}"#
        XCTAssertEqual(try FleetCoach.planRequest(body: Array(json.utf8)).plan.pieceCount, 2)
    }
}
