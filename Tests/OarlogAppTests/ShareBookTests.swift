import Foundation
import OarlogApp
import OarlogTestSupport
import XCTest

/// Share links over real kept sessions (the NK logbook sample, kept twice): a link opens its one
/// session; links are listed, revoked one by one or by session; at most 500 are kept; a deleted
/// session's link opens nothing; `shares.json` is of mode 0600.
final class ShareBookTests: XCTestCase {
    var temp: TemporarySessions!
    var store: SessionStore!

    override func setUpWithError() throws {
        temp = TemporarySessions()
        store = SessionStore(sessionsPath: temp.directory.path)
    }

    override func tearDown() { temp.remove() }

    private func keepSample(_ title: String) throws -> String {
        var replay = try TraceReplay(path: try samplePath("rowingdata/nk_logbook.csv"))
        let kept = try store.keeping(replay, title: title, boat: "Eight")
        _ = try replay.run(sinks: [], keeping: kept)
        return kept.id
    }

    /// 16 bytes of base64url (RFC 4648 §5) without padding.
    private func tokenBytes(_ token: String) -> Data? {
        Data(base64Encoded: token.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/") + "==")
    }

    func testALinkOpensItsSessionUntilRevoked() throws {
        let a = try keepSample("A"), b = try keepSample("B")
        XCTAssertNotEqual(a, b)
        let a1 = try store.share(id: a, now: 1000), a2 = try store.share(id: a, now: 1001), b1 = try store.share(id: b, now: 1002)
        for s in [a1, a2, b1] {
            XCTAssertEqual(s.token.count, 22, s.token)
            XCTAssertEqual(tokenBytes(s.token)?.count, 16, s.token)
            XCTAssertEqual(s.path, "/share/" + s.token)
        }
        XCTAssertEqual(Set([a1.token, a2.token, b1.token]).count, 3)
        XCTAssertEqual(try store.sharedSession(token: a1.token), a)
        XCTAssertEqual(try store.sharedSession(token: a2.token), a)
        XCTAssertEqual(try store.sharedSession(token: b1.token), b)
        // Kept in the file: another book over the same directory (another process) sees them.
        let again = SessionStore(sessionsPath: temp.directory.path)
        XCTAssertEqual(try again.shares.list(), [a1, a2, b1])
        XCTAssertEqual(try again.shares(id: a), [a1, a2])
        XCTAssertEqual(try again.shares(id: b).map(\.created), [1002])
        // The file holds bearer tokens: only its owner may read it.
        let mode = try FileManager.default.attributesOfItem(atPath: store.shares.path)[.posixPermissions] as? Int
        XCTAssertEqual(mode, 0o600)

        // Revoked one by one: a1 goes, a2 still opens A.
        XCTAssertEqual(try store.unshare(a1.token), [a1])
        XCTAssertThrowsError(try store.sharedSession(token: a1.token)) { XCTAssertEqual($0 as? SessionStoreError, .notFound("no such share link")) }
        XCTAssertEqual(try store.sharedSession(token: a2.token), a)
        XCTAssertNil(try store.shares.revoke(token: a1.token), "revoked twice")
        // By session: every link of B.
        XCTAssertEqual(try store.unshare(b), [b1])
        XCTAssertNil(try store.shares.session(token: b1.token))
        XCTAssertEqual(try store.shares.list(), [a2])
        XCTAssertThrowsError(try store.unshare(b)) { XCTAssertNotNil($0 as? SessionStoreError) }
    }

    func testUnknownTokensAndSessionsOpenNothing() throws {
        let a = try keepSample("A")
        let share = try store.share(id: a)
        XCTAssertThrowsError(try store.share(id: a + "x")) { XCTAssertEqual($0 as? SessionStoreError, .notFound("no such session")) }
        // One character changed, another length, another alphabet: nothing.
        var wrong = Array(share.token)
        wrong[5] = wrong[5] == "A" ? "B" : "A"
        for token in [String(wrong), share.token + "A", String(share.token.dropLast()), String(repeating: "+", count: 22), "", "../" + share.token] {
            XCTAssertNil(try store.shares.session(token: token), token)
        }
        // The session deleted: its link opens nothing, though it is still listed until revoked.
        try store.delete(id: a)
        XCTAssertThrowsError(try store.sharedSession(token: share.token)) { XCTAssertEqual($0 as? SessionStoreError, .notFound("no such session")) }
        XCTAssertEqual(try store.shares.list().map(\.token), [share.token])
    }

    func testAtMost500LinksAreKept() throws {
        let a = try keepSample("A")
        let book = store.shares
        var tokens = Set<String>()
        for k in 0..<ShareBook.maximumShares { tokens.insert(try book.create(session: a, now: Double(k)).token) }
        XCTAssertEqual(tokens.count, 500, "every token new")
        XCTAssertThrowsError(try store.share(id: a)) { error in
            XCTAssertEqual((error as? SessionStoreError)?.description, "500 share links are kept already: revoke some (oarlog unshare)")
        }
        XCTAssertEqual(try book.list().count, 500)
        let first = try XCTUnwrap(try book.list().first)
        XCTAssertEqual(first.created, 0)
        try book.revoke(token: first.token)
        XCTAssertEqual(try store.sharedSession(token: try store.share(id: a).token), a, "room again after a revoke")
    }

    func testADamagedFileIsSaidSo() throws {
        let a = try keepSample("A")
        try FileManager.default.createDirectory(atPath: temp.directory.path, withIntermediateDirectories: true)
        try Data("{\"version\": 1, \"shares\": [{\"token\": 3}]}".utf8).write(to: URL(fileURLWithPath: store.shares.path))
        XCTAssertThrowsError(try store.share(id: a)) { error in
            XCTAssertEqual((error as? SessionStoreError)?.description, "shares.json: not a list of share links ({\"version\": 1, \"shares\": [...]})")
        }
    }
}
