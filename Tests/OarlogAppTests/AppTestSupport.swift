import Foundation
import OarlogApp
import OarlogSession
import OarlogTestSupport
import XCTest

/// A fresh session directory under /tmp, removed at the end of the test.
final class TemporarySessions {
    let url: URL
    let directory: SessionDirectory
    init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("oarlog-app-tests-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        directory = SessionDirectory(path: url.appendingPathComponent("sessions").path)
    }
    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
    func remove() { try? FileManager.default.removeItem(at: url) }
}

/// The bundled simulated workout (20 minutes, 50 Hz accelerometer, 1 Hz GPS, tilted sensor).
func simWorkout() throws -> String { try samplePath("sim-workout.csv") }

/// The catches of the workout's ground truth (`sim-workout.truth.csv`, `stroke` rows).
func simWorkoutTruthStrokes() throws -> Int {
    let text = try String(contentsOfFile: try samplePath("sim-workout.truth.csv"), encoding: .utf8)
    return text.split(separator: "\n").filter { $0.hasPrefix("stroke,") || $0.contains(",stroke,") }.count
}
