import OarlogApp
import OarlogDSP
import OarlogSession
import XCTest

final class AnalysisSettingsTests: XCTestCase {
    func testDefaultsGiveTheDefaultConfiguration() throws {
        let c = try AnalysisSettings.defaults.analyzerConfiguration()
        XCTAssertEqual(c.splitAveraging, .seconds(5))
        XCTAssertEqual(c.strokeSource, .automatic)
        XCTAssertEqual(c.mounting, MountingEstimatorConfiguration(axis: MountingAxis("auto")!))
    }

    func testEachSettingIsParsed() throws {
        let c = try AnalysisSettings(axis: "+x", splitAveraging: "4strokes", strokesFrom: "device").analyzerConfiguration()
        XCTAssertEqual(c.splitAveraging, .strokes(4))
        XCTAssertEqual(c.strokeSource, .reference)
        XCTAssertEqual(c.mounting, MountingEstimatorConfiguration(axis: MountingAxis("+x")!))
        XCTAssertEqual(try AnalysisSettings.splitAveraging("10 s"), .seconds(10))
        XCTAssertEqual(try AnalysisSettings.splitAveraging("1stroke"), .strokes(1))
    }

    func testBadSettingsNameTheOptionAndWhatItTakes() {
        XCTAssertThrowsError(try AnalysisSettings(axis: "sideways").analyzerConfiguration()) {
            XCTAssertEqual("\($0)", "--axis 'sideways': expected auto, +x, -x, +y, -y, +z, -z or three numbers like 0.7,-0.7,0")
        }
        XCTAssertThrowsError(try AnalysisSettings(splitAveraging: "0s").analyzerConfiguration()) {
            XCTAssertTrue("\($0)".hasPrefix("--split-averaging '0s': expected seconds"), "\($0)")
        }
        XCTAssertThrowsError(try AnalysisSettings(splitAveraging: "61strokes").analyzerConfiguration())
        XCTAssertThrowsError(try AnalysisSettings(strokesFrom: "oar").analyzerConfiguration()) {
            XCTAssertEqual("\($0)", "--strokes-from 'oar': expected auto, accelerometer or device")
        }
    }

    func testSessionMetadataRoundTrip() {
        let settings = AnalysisSettings(axis: "-y", splitAveraging: "10s", strokesFrom: "accelerometer")
        let metadata = SessionMetadata(title: "t", startUTC: 0, settings: settings.sessionSettings + [.init("replayed_from", "x.csv")])
        XCTAssertEqual(AnalysisSettings(recordedIn: metadata), settings)
        // A session that names nothing, or a value this version cannot use, replays with the defaults.
        XCTAssertEqual(AnalysisSettings(recordedIn: SessionMetadata(title: "", startUTC: 0)), .defaults)
        XCTAssertEqual(AnalysisSettings(recordedIn: SessionMetadata(title: "", startUTC: 0, settings: [.init("axis", "q")])), .defaults)
    }

    func testWhatThePersonAsksForWinsOverTheRecording() {
        let recorded = AnalysisSettings(axis: "+z", splitAveraging: "4strokes", strokesFrom: "device")
        XCTAssertEqual(AnalysisSettings.defaults.overriding(recorded), recorded)
        XCTAssertEqual(AnalysisSettings(splitAveraging: "10s").overriding(recorded),
                       AnalysisSettings(axis: "+z", splitAveraging: "10s", strokesFrom: "device"))
    }

    func testSessionTimes() {
        XCTAssertEqual(SessionText.sessionTime("12:30"), 750)
        XCTAssertEqual(SessionText.sessionTime("1:02:30"), 3750)
        XCTAssertEqual(SessionText.sessionTime("750s"), 750)
        XCTAssertEqual(SessionText.sessionTime("0.5"), 0.5)
        XCTAssertNil(SessionText.sessionTime("1:60"))
        XCTAssertNil(SessionText.sessionTime("1:61:00"))
        XCTAssertNil(SessionText.sessionTime("-3"))
        XCTAssertNil(SessionText.sessionTime("abc"))
        XCTAssertNil(SessionText.sessionTime("1:2:3:4"))
    }
}
