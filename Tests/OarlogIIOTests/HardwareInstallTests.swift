import Foundation
import XCTest
import OarlogTestSupport

/// The boat installer (`hardware/install.sh`) checked as CI checks it: shellcheck, the overlays
/// compiled with dtc, a dry run that writes nothing, a real run into a fake SD card, a second run
/// that changes nothing, and the systemd unit verified (`hardware/test-install.sh` does each).
final class HardwareInstallTests: XCTestCase {
    func testInstallScriptChecksPass() throws {
        let root = TestPaths.packageRoot
        let script = root.appendingPathComponent("hardware/test-install.sh").path
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: script), "missing \(script)")
        let run = try ChildProcess.run("/bin/bash", [script], in: root.path, mergingErrors: true)
        print(run.out)
        XCTAssertEqual(run.status, 0, "hardware/test-install.sh failed:\n\(run.out)")
    }
}
