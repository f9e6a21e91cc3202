import Foundation
import XCTest
import OarlogUpload

/// An account's secrets are files of mode 0600 in a directory of mode 0700, replaced whole.
final class SecretFilesTests: XCTestCase {
    func testASecretIsKeptInAFileOfMode0600AndReadBack() throws {
        let root = NSTemporaryDirectory() + "oarlog-secrets-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: root) }
        let secrets = SecretFiles(directory: root + "/accounts/strava")
        XCTAssertNil(try secrets.secret(.refreshToken))
        try secrets.keep(.refreshToken, "r-1234")
        try secrets.keep(.refreshToken, "r-5678")
        XCTAssertEqual(try secrets.secret(.refreshToken), "r-5678")
        let file = try FileManager.default.attributesOfItem(atPath: secrets.path(.refreshToken))
        XCTAssertEqual((file[.posixPermissions] as? NSNumber)?.intValue, 0o600)
        let directory = try FileManager.default.attributesOfItem(atPath: secrets.directory)
        XCTAssertEqual((directory[.posixPermissions] as? NSNumber)?.intValue, 0o700)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: secrets.directory), ["refresh-token"])
        secrets.removeAll()
        XCTAssertFalse(FileManager.default.fileExists(atPath: secrets.directory))
    }
}
