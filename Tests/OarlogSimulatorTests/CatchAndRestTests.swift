import OarlogCore
@testable import OarlogSimulator
import XCTest

final class CatchAndRestTests: XCTestCase {
    func testTruthCatchIsTheMinimumOfTheNoiseFreeSurge() throws {
        for rate in [20.0, 36.0] {
            var configuration = noiseFree(SimulationConfiguration(minutes: 1.5, rate: rate))
            configuration.accelRate = 1000
            let session = try simulate(configuration)
            let frames = session.boatFrames
            XCTAssertGreaterThan(session.truth.strokes.count, 20)
            for stroke in session.truth.strokes where stroke.catchTime > 0.35 && stroke.catchTime < 89.6 {
                let lower = Int(((stroke.catchTime - 0.3) * 1000).rounded(.up))
                let upper = Int(((stroke.catchTime + 0.3) * 1000).rounded(.down))
                let window = frames[lower...upper]
                let deepest = window.min { $0.surge < $1.surge }!
                XCTAssertEqual(deepest.time, stroke.catchTime, accuracy: 0.001, "stroke \(stroke.index) at \(rate) spm")
                XCTAssertEqual(Double(stroke.catchAcceleration), deepest.surge, accuracy: 0.2)
                // A real dip: well below the surrounding drive.
                XCTAssertLessThan(deepest.surge, -3)
                XCTAssertGreaterThan(window.map(\.surge).max()!, 1.5)
            }
        }
    }

    func testRestsHaveNoStrokesAndTheBoatStops() throws {
        let profile = try SimulationProfile.parse("120:24,120:rest,60:30", duration: 300)
        var configuration = noiseFree(SimulationConfiguration(duration: 300, profile: profile))
        configuration.accelRate = 25
        let session = try simulate(configuration)
        let strokes = session.truth.strokes
        XCTAssertTrue(strokes.allSatisfy { $0.catchTime < 120 || $0.catchTime >= 240 })
        let firstPiece = strokes.filter { $0.catchTime < 120 }
        let secondPiece = strokes.filter { $0.catchTime >= 240 }
        XCTAssertEqual(Double(firstPiece.count), 2 * 24, accuracy: 1)
        XCTAssertEqual(Double(secondPiece.count), 30, accuracy: 1.5)
        // A stroke's rate is its own (to the next catch of its piece): none for a piece's last.
        XCTAssertNil(firstPiece.last?.strokeRate)
        XCTAssertNil(firstPiece.last?.recoveryDuration)
        XCTAssertEqual(secondPiece[0].strokeRate!, 60 / (secondPiece[1].catchTime - secondPiece[0].catchTime), accuracy: 1e-9)
        XCTAssertEqual(secondPiece.first!.catchTime, 240.5, accuracy: 1e-9)
        // The boat glides down and stops during the rest; no stroke force, only drag.
        let rest = session.boatFrames.filter { $0.time > 125 && $0.time < 240 }
        for i in 1..<rest.count { XCTAssertLessThanOrEqual(rest[i].speed, rest[i - 1].speed + 1e-12) }
        XCTAssertEqual(rest.first { $0.time >= 130 }!.speed, 1.5, accuracy: 1.2)
        XCTAssertEqual(rest.last!.speed, 0)
        // Stopped about a minute after the last stroke (modelled glide, see BoatResponse).
        let stopped = rest.first { $0.speed == 0 }!.time
        print("boat stopped \(stopped - 120) s into the rest")
        XCTAssertEqual(stopped - 120, 65, accuracy: 20)
        XCTAssertTrue(rest.allSatisfy { $0.surge <= 0 })
        // Rowing again from a standing start, the boat speeds up to its pace within 20 s.
        let late = session.boatFrames.filter { $0.time > 270 }
        let pace = (late.last!.distance - late.first!.distance) / (late.last!.time - late.first!.time)
        XCTAssertEqual(pace, BoatResponse.targetSpeed(rate: 30, power: 1), accuracy: 0.2)
    }

    func testWorkoutHasWarmUpPiecesAndRests() throws {
        let profile = SimulationProfile.workout(duration: 25 * 60)
        var configuration = SimulationConfiguration(duration: 25 * 60, profile: profile)
        configuration.accelRate = 25
        let session = try simulate(configuration)
        let strokes = session.truth.strokes
        let profileRates = Set(strokes.map(\.profileRate))
        XCTAssertEqual(profileRates, [18, 20, 22, 24, 26, 30, 32, 40])
        // Warm-up paddling is gentler than the 40 spm piece.
        let warmUpDip = mean(strokes.filter { $0.catchTime < 240 }.map { Double($0.catchAcceleration) })
        let sprintDip = mean(strokes.filter { $0.profileRate == 40 }.map { Double($0.catchAcceleration) })
        XCTAssertLessThan(sprintDip, 2 * warmUpDip)
        // Each rest leaves a gap in the catches at least as long as the rest minus a stroke.
        let gaps = zip(strokes, strokes.dropFirst()).map { $1.catchTime - $0.catchTime }.filter { $0 > 10 }
        XCTAssertEqual(gaps.count, 5)
        let totalSegments = profile.segments.filter { if case .rowing = $0.activity { return true } else { return false } }
        var expected = 0.0
        for segment in totalSegments { if case .rowing(let rate, _) = segment.activity { expected += segment.duration * rate / 60 } }
        XCTAssertEqual(Double(strokes.count), expected, accuracy: 8)
    }
}
