import Foundation
import OarlogCore
import XCTest

/// What the cox's live screen must show of a workout (browser/live_workout.py, run by
/// BrowserTests in its one browser): the coach's offer as a banner, answered on the page; the
/// chooser's error with the column; piece n of m with what is left counting down; each target
/// beside the live figure, coloured by the band the server reported and saying it in an arrow and
/// a word; the rest's countdown large with what comes next; the beeps; all of it fitting the
/// phone at 390×844 and 844×390.
enum WorkoutOnThePage {
    /// Two one-minute pieces with targets and 40 s rest: at 5× a piece lasts 12 s and a rest 8 s
    /// on the wall clock, long enough for a screenshot in each orientation.
    static let spec = "2x1:00@22-24spm@1:48-1:52/0:40r"
    static let replaySpeed = 5.0

    static func check(_ w: [String: Any], answers: [String], plan: WorkoutPlan?, saved: [String: String],
                      file: StaticString = #filePath, line: UInt = #line) throws {
        // The saved plans (GET /api/workouts), each with its summary; chosen by picking it.
        let listed = (w["saved_plans"] as? [[String]] ?? []).dropFirst()
        XCTAssertEqual(listed.map { $0.first ?? "" }, Array(saved.keys), file: file, line: line)
        XCTAssertEqual(listed.map { $0.last ?? "" }, saved.map { "\($0.key) (\($0.value))" }, file: file, line: line)
        XCTAssertEqual(w["chosen_saved"] as? String, "Pyramid · 4 pieces", file: file, line: line)
        XCTAssertEqual(w["chosen_saved_spec"] as? String, "4:00,3:00,2:00,1:00/1:00r", "the saved plan's spec in the box", file: file, line: line)
        XCTAssertEqual(w["saved_picked_after_accept"] as? String, "", "another plan chosen: no saved plan picked", file: file, line: line)

        // The offer: who sent it, the plan, Accept and Decline; accepted, the station heard it once.
        let offer = try XCTUnwrap(w["offer"] as? [String: Any], file: file, line: line)
        XCTAssertEqual(offer["from"] as? String, "Launch", file: file, line: line)
        XCTAssertEqual(offer["plan"] as? String, spec, file: file, line: line)
        XCTAssertEqual(offer["steps"] as? String, "1:00 @ 22–24 spm · 1:48–1:52 · 0:40 rest · 1:00 @ 22–24 spm · 1:48–1:52", file: file, line: line)
        XCTAssertEqual(offer["buttons"] as? [String], ["Accept", "Decline"], file: file, line: line)
        XCTAssertEqual(answers, ["coach-1 true"], file: file, line: line)
        XCTAssertEqual(plan?.name, spec, "the accepted plan is the station's", file: file, line: line)

        // The chooser: `3x4:00/2:00` lacks the rest's r at its 11th character (counted by hand).
        XCTAssertEqual(w["bad_spec_error"] as? String, "rest needs a trailing r at column 11", file: file, line: line)
        XCTAssertEqual(w["bad_spec_pointer"] as? String, "3x4:00/2:00\n" + String(repeating: " ", count: 10) + "^", file: file, line: line)
        XCTAssertEqual(w["chosen_typed"] as? String, "20:00 · 1 piece", file: file, line: line)
        XCTAssertEqual(w["error_after_good_spec"] as? String, "", file: file, line: line)
        let refusals = w["bad_spec_console"] as? [String] ?? []
        XCTAssertTrue(refusals.count == 1 && refusals[0].contains("/api/live/workout") && refusals[0].contains("400"), "\(refusals)", file: file, line: line)
        XCTAssertEqual(w["chosen_accepted"] as? String, "\(spec) · 2 pieces", file: file, line: line)
        XCTAssertTrue((w["chosen_steps"] as? String ?? "").hasSuffix("· starts at go"), "\(w["chosen_steps"] ?? "")", file: file, line: line)
        XCTAssertEqual(w["chooser_hidden_racing"] as? Bool, true, "nothing invites editing during the race", file: file, line: line)

        // During the first piece: its number, the time left counting down from 1:00.
        let piece = try XCTUnwrap(w["piece"] as? [String: Any], file: file, line: line)
        XCTAssertEqual(piece["title"] as? String, "Piece 1 of 2", file: file, line: line)
        XCTAssertEqual(piece["caption"] as? String, "left", file: file, line: line)
        let left = try XCTUnwrap(w["piece_remaining"] as? [Double], file: file, line: line)
        XCTAssertEqual(left.count, 4, file: file, line: line)
        XCTAssertTrue(zip(left, left.dropFirst()).allSatisfy { $0 > $1 }, "the time left counts down: \(left)", file: file, line: line)
        XCTAssertTrue(left.allSatisfy { $0 > 0 && $0 <= 60 }, "\(left)", file: file, line: line)
        try checkTargets(piece, file: file, line: line)

        // During the rest: "Rest", its countdown larger than a piece's (in each orientation), the
        // next piece and its targets.
        let pieceFont = piece["font_px"] as? Double ?? 0
        let landscapeFont = (w["second_piece_landscape"] as? [String: Any])?["font_px"] as? Double ?? 0
        for (key, smallest) in [("rest", 1.4 * pieceFont), ("rest_landscape", 1.2 * landscapeFont)] {
            let rest = try XCTUnwrap(w[key] as? [String: Any], key, file: file, line: line)
            XCTAssertEqual(rest["title"] as? String, "Rest", key, file: file, line: line)
            XCTAssertEqual(rest["resting"] as? Bool, true, key, file: file, line: line)
            XCTAssertEqual(rest["next"] as? String, "Next: Piece 2 of 2 · 1:00 · 22–24 spm · 1:48–1:52", key, file: file, line: line)
            XCTAssertEqual(rest["targets_shown"] as? Bool, false, key, file: file, line: line)
            let value = rest["remaining_value"] as? Double ?? -1
            XCTAssertTrue(value > 0 && value <= 40, "\(key): \(value)", file: file, line: line)
            XCTAssertEqual(rest["remaining"] as? String, countdown(value), key, file: file, line: line)
            XCTAssertGreaterThanOrEqual(rest["font_px"] as? Double ?? 0, smallest, "\(key): the rest's countdown is large", file: file, line: line)
            XCTAssertEqual(rest["fits"] as? Bool, true, key, file: file, line: line)
        }
        let second = try XCTUnwrap(w["second_piece_landscape"] as? [String: Any], file: file, line: line)
        XCTAssertEqual(second["title"] as? String, "Piece 2 of 2", file: file, line: line)
        try checkTargets(second, file: file, line: line)

        // The end of the piece, 10 s and 0 s of the rest: one beep each, in that order, the sound unlocked by the taps.
        let beeps = (w["beeps"] as? [[String: Any]] ?? []).compactMap { $0["kind"] as? String }
        XCTAssertEqual(beeps, ["piece-end", "rest-10", "rest-end"], file: file, line: line)
        XCTAssertEqual(w["audio"] as? String, "running", file: file, line: line)
        XCTAssertEqual(w["chooser_after_stop"] as? Bool, true, file: file, line: line)
        XCTAssertEqual(w["console"] as? [String], [], "no errors in the browser console", file: file, line: line)
    }

    /// Rate and split beside their bands: the class and the word follow the band the server
    /// reported for the same status; the figures fit; the panel stays on the screen.
    static func checkTargets(_ p: [String: Any], file: StaticString, line: UInt) throws {
        XCTAssertEqual(p["targets_shown"] as? Bool, true, file: file, line: line)
        let words = ["rate": ["under": "▼ LOW", "over": "▲ HIGH", "in": "● IN"], "split": ["under": "▼ FAST", "over": "▲ SLOW", "in": "● IN"]]
        for (which, range) in [("rate", "22–24"), ("split", "1:48–1:52")] {
            let target = try XCTUnwrap(p[which] as? [String: Any], which, file: file, line: line)
            let band = try XCTUnwrap(p[which == "rate" ? "status_rate_band" : "status_split_band"] as? String, which, file: file, line: line)
            XCTAssertTrue(["under", "in", "over"].contains(band), band, file: file, line: line)
            XCTAssertEqual(target["cls"] as? String, "wk-target band-\(band)", which, file: file, line: line)
            XCTAssertEqual(target["verdict"] as? String, words[which]?[band], which, file: file, line: line)
            XCTAssertEqual(target["range"] as? String, range, which, file: file, line: line)
            XCTAssertNotEqual(target["value"] as? String, "—", which, file: file, line: line)
        }
        XCTAssertEqual(p["fits"] as? Bool, true, "every figure fits", file: file, line: line)
        XCTAssertEqual(p["inside"] as? Bool, true, "the panel is within the screen", file: file, line: line)
    }

    /// m:ss of whole seconds, rounded up, as a countdown shows it.
    static func countdown(_ seconds: Double) -> String {
        let t = Int(seconds.rounded(.up))
        return "\(t / 60):" + (t % 60 < 10 ? "0" : "") + "\(t % 60)"
    }
}
