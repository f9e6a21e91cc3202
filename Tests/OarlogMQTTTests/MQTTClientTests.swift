import Foundation
import OarlogMQTT
import OarlogTestSupport
import XCTest

/// The MQTT client against a real mosquitto on 127.0.0.1: delivery and order at QoS 1, store and
/// forward across a broker restart, the shipped ACL (hardware/mosquitto/acl), refused logins, TLS
/// with a club CA made in the test.
final class MQTTClientTests: XCTestCase {
    /// The ACL a club installs, read from the project.
    static let shippedACL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("hardware/mosquitto/acl")

    private var scratch: URL!

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("oarlog-mqtt-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    override func tearDown() {
        if let scratch { try? FileManager.default.removeItem(at: scratch) }
    }

    private func address(_ text: String) throws -> BrokerAddress {
        try BrokerAddress(parsing: text)
    }

    /// Publishes on `probe` until `inbox` has seen a message there: the subscriber's subscription
    /// is then in place (it is made after its CONNACK, asynchronously).
    private func waitForSubscription(publisher: MQTTClient, inbox: Inbox, probe: String, file: StaticString = #filePath,
                                     line: UInt = #line) {
        let deadline = Date(timeIntervalSinceNow: 10)
        while Date() < deadline {
            publisher.publish(OutgoingMessage(topic: probe, payload: Array("probe".utf8)))
            if inbox.wait(timeout: 0.2, until: { $0.contains { $0.topic == probe } }) {
                publisher.waitUntilDelivered(timeout: 10)  // every probe acknowledged: counts start clean
                return
            }
        }
        XCTFail("the subscriber never received a probe on \(probe)", file: file, line: line)
    }

    func testFiveHundredMessagesArriveOnceInOrder() throws {
        let broker = try MosquittoBroker()
        try broker.start()
        let inbox = Inbox()
        let url = "mqtt://127.0.0.1:\(broker.port)"
        let coach = MQTTClient(address: try address(url), options: .init(clientID: "coach-500", subscriptions: ["oarlog/#"]),
                               onMessage: inbox.handler)
        let boat = MQTTClient(address: try address(url), options: .init(clientID: "alpha-500", window: 20))
        defer { boat.stop(); coach.stop() }
        try coach.start()
        try boat.start()
        XCTAssertTrue(coach.waitUntilConnected(timeout: 10), "coach: \(coach.status) \(broker.logText)")
        XCTAssertTrue(boat.waitUntilConnected(timeout: 10), "boat: \(boat.status)")
        waitForSubscription(publisher: boat, inbox: inbox, probe: "oarlog/alpha/probe")
        let probes = boat.status.acknowledged

        for k in 0..<500 { boat.publish(OutgoingMessage(topic: "oarlog/alpha/stroke", payload: sequencePayload(k))) }
        XCTAssertTrue(boat.waitUntilDelivered(timeout: 20), "undelivered: \(boat.status)")
        XCTAssertTrue(inbox.wait(timeout: 20) { $0.filter { $0.topic == "oarlog/alpha/stroke" }.count >= 500 })
        usleep(300_000)  // anything extra (a duplicate) would arrive now

        let strokes = inbox.messages.filter { $0.topic == "oarlog/alpha/stroke" }
        XCTAssertEqual(strokes.count, 500, "exactly once")
        XCTAssertEqual(strokes.compactMap { sequenceNumber($0.payload) }, Array(0..<500), "in order")
        let status = boat.status
        XCTAssertEqual(status.acknowledged - probes, 500)
        XCTAssertEqual(status.undelivered, 0)
        XCTAssertEqual(status.refused, 0)
        XCTAssertEqual(status.dropped, 0)
        XCTAssertEqual(status.resent, 0)
        XCTAssertEqual(status.connections, 1)
        XCTAssertGreaterThanOrEqual(coach.status.received, 500 + 1)
    }

    /// The broker stops for about 5 s while the boat keeps publishing; after it comes back on the
    /// same port (with its persistence database) the coach, a persistent session subscribed
    /// before, has every message: after dropping duplicates by sequence number, each number once.
    func testStoreAndForwardAcrossABrokerRestart() throws {
        let broker = try MosquittoBroker(persistence: true)
        try broker.start()
        let inbox = Inbox()
        let url = "mqtt://127.0.0.1:\(broker.port)"
        let coach = MQTTClient(address: try address(url),
                               options: .init(clientID: "coach-restart", cleanSession: false, keepAliveSeconds: 5, subscriptions: ["oarlog/#"]),
                               onMessage: inbox.handler)
        let boat = MQTTClient(address: try address(url), options: .init(clientID: "alpha-restart", keepAliveSeconds: 5, window: 10))
        defer { boat.stop(); coach.stop() }
        try coach.start()
        try boat.start()
        XCTAssertTrue(coach.waitUntilConnected(timeout: 10), "coach: \(coach.status)")
        XCTAssertTrue(boat.waitUntilConnected(timeout: 10), "boat: \(boat.status)")
        waitForSubscription(publisher: boat, inbox: inbox, probe: "oarlog/alpha/probe")

        // 50 messages a second from a thread of its own, for 9 s; the broker is away from 2 s to 7 s.
        let total = 450
        let published = DispatchSemaphore(value: 0)
        let publisher = Thread {
            for k in 0..<total {
                boat.publish(OutgoingMessage(topic: "oarlog/alpha/stroke", payload: sequencePayload(k)))
                usleep(20_000)
            }
            published.signal()
        }
        publisher.start()
        Thread.sleep(forTimeInterval: 2)
        broker.stop()
        let sentBeforeStop = inbox.messages.filter { $0.topic == "oarlog/alpha/stroke" }.count
        Thread.sleep(forTimeInterval: 1)
        XCTAssertFalse(boat.status.connected, "the boat noticed the broker was gone")
        XCTAssertGreaterThan(boat.status.undelivered, 0, "messages wait in the outbox while the broker is away")
        Thread.sleep(forTimeInterval: 4)
        try broker.restart()

        XCTAssertTrue(boat.waitUntilConnected(timeout: 15), "boat back: \(boat.status)")
        XCTAssertEqual(published.wait(timeout: .now() + 15), .success, "the publishing thread finished")
        XCTAssertTrue(boat.waitUntilDelivered(timeout: 20), "boat: \(boat.status)")
        let all = inbox.wait(timeout: 15) { Set($0.compactMap { $0.topic == "oarlog/alpha/stroke" ? sequenceNumber($0.payload) : nil }).count >= total }

        let numbers = inbox.messages.filter { $0.topic == "oarlog/alpha/stroke" }.compactMap { sequenceNumber($0.payload) }
        var firstSeen: [Int] = []
        var seen = Set<Int>()
        for n in numbers where seen.insert(n).inserted { firstSeen.append(n) }
        let missing = Set(0..<total).subtracting(seen).sorted()
        XCTAssertTrue(all && missing.isEmpty, "missing \(missing.count): \(missing.prefix(20)); coach \(coach.status)\n\(broker.logText)")
        XCTAssertEqual(firstSeen.count, total, "after dropping duplicates every number is there once")
        XCTAssertEqual(firstSeen.first, 0)
        XCTAssertEqual(firstSeen.last, total - 1)
        XCTAssertTrue(seen.isSubset(of: Set(0..<total)), "nothing that was not sent")
        XCTAssertGreaterThan(sentBeforeStop, 0, "some arrived before the broker stopped")
        XCTAssertLessThan(sentBeforeStop, total, "and some after")

        let boatStatus = boat.status
        print("store and forward: \(numbers.count) received for \(total) sent (\(numbers.count - seen.count) duplicates),",
              "\(sentBeforeStop) before the stop; boat \(boatStatus.connections) connections, \(boatStatus.resent) resent;",
              "coach \(coach.status.connections) connections")
        XCTAssertGreaterThanOrEqual(boatStatus.connections, 2, "the boat reconnected")
        XCTAssertGreaterThanOrEqual(coach.status.connections, 2, "the coach reconnected")
        XCTAssertEqual(boatStatus.undelivered, 0)
        XCTAssertEqual(boatStatus.dropped, 0)
        XCTAssertEqual(boatStatus.refused, 0)
        XCTAssertGreaterThanOrEqual(boatStatus.acknowledged, total)
    }

    /// A coach or an archive (cleanSession false, a fixed client id) that stops and comes back
    /// gets what was published while it was away: the broker kept its session. (MQTT 5: only if
    /// the client asks for a session expiry interval; 0, the default, ends the session at once.)
    func testPersistentSessionKeepsMessagesWhileTheSubscriberIsAway() throws {
        let broker = try MosquittoBroker()
        try broker.start()
        let url = "mqtt://127.0.0.1:\(broker.port)"
        let options = MQTTClient.Options(clientID: "coach-away", cleanSession: false, subscriptions: ["oarlog/#"])
        let first = Inbox()
        let coach = MQTTClient(address: try address(url), options: options, onMessage: first.handler)
        let boat = MQTTClient(address: try address(url), options: .init(clientID: "alpha-away"))
        defer { boat.stop() }
        try coach.start()
        try boat.start()
        XCTAssertTrue(coach.waitUntilConnected(timeout: 10))
        XCTAssertTrue(boat.waitUntilConnected(timeout: 10))
        waitForSubscription(publisher: boat, inbox: first, probe: "oarlog/alpha/probe")
        coach.stop()

        for k in 0..<10 { boat.publish(OutgoingMessage(topic: "oarlog/alpha/stroke", payload: sequencePayload(k))) }
        XCTAssertTrue(boat.waitUntilDelivered(timeout: 10))

        let second = Inbox()
        let back = MQTTClient(address: try address(url), options: options, onMessage: second.handler)
        defer { back.stop() }
        try back.start()
        XCTAssertTrue(back.waitUntilConnected(timeout: 10))
        let all = second.wait(timeout: 5) { $0.filter { $0.topic == "oarlog/alpha/stroke" }.count >= 10 }
        let numbers = second.messages.filter { $0.topic == "oarlog/alpha/stroke" }.compactMap { sequenceNumber($0.payload) }
        XCTAssertTrue(all, "the coach got \(numbers) of what was published while it was away")
        XCTAssertEqual(numbers, Array(0..<10))
    }

    /// The club's ACL as shipped: a boat publishes under its own topic only; the coach reads all.
    func testShippedACLHoldsABoatToItsOwnTopic() throws {
        let acl = try String(contentsOf: Self.shippedACL, encoding: .utf8)
        XCTAssertTrue(acl.contains("pattern write oarlog/%u/#"))
        let broker = try MosquittoBroker(users: [("alpha", "alpha-pw"), ("bravo", "bravo-pw"), ("coach", "coach-pw")], acl: acl)
        try broker.start()
        let inbox = Inbox()
        let coach = MQTTClient(address: try address("mqtt://coach:coach-pw@127.0.0.1:\(broker.port)"),
                               options: .init(clientID: "coach-acl", subscriptions: ["oarlog/#"]), onMessage: inbox.handler)
        let alpha = MQTTClient(address: try address("mqtt://alpha:alpha-pw@127.0.0.1:\(broker.port)"), options: .init(clientID: "alpha-acl"))
        defer { alpha.stop(); coach.stop() }
        try coach.start()
        try alpha.start()
        XCTAssertTrue(coach.waitUntilConnected(timeout: 10), "coach: \(coach.status) \(broker.logText)")
        XCTAssertTrue(alpha.waitUntilConnected(timeout: 10), "alpha: \(alpha.status) \(broker.logText)")
        waitForSubscription(publisher: alpha, inbox: inbox, probe: "oarlog/alpha/probe")
        let before = alpha.status

        alpha.publish(OutgoingMessage(topic: "oarlog/alpha/stroke", payload: Array("mine".utf8)))
        alpha.publish(OutgoingMessage(topic: "oarlog/bravo/stroke", payload: Array("not mine".utf8)))
        alpha.publish(OutgoingMessage(topic: "oarlog/alpha/note", payload: Array("last".utf8)))
        XCTAssertTrue(alpha.waitUntilDelivered(timeout: 10), "alpha: \(alpha.status)")
        // One publisher's messages arrive in order: once "last" is here, "not mine" would have been.
        XCTAssertTrue(inbox.wait(timeout: 10) { $0.contains { $0.topic == "oarlog/alpha/note" } })
        usleep(200_000)

        let status = alpha.status
        XCTAssertEqual(status.acknowledged - before.acknowledged, 2, "its own topic: acknowledged")
        XCTAssertEqual(status.refused - before.refused, 1, "another boat's topic: refused")
        XCTAssertEqual(before.refused, 0)
        let refusal = try XCTUnwrap(status.refusal)
        XCTAssertTrue(refusal.contains("oarlog/bravo/stroke"), refusal)
        XCTAssertTrue(refusal.contains("Not authorized"), refusal)
        XCTAssertEqual(status.undelivered, 0)

        let topics = inbox.messages.map(\.topic)
        XCTAssertEqual(topics.filter { $0 == "oarlog/alpha/stroke" }.count, 1)
        XCTAssertEqual(inbox.messages.first { $0.topic == "oarlog/alpha/stroke" }.map { String(decoding: $0.payload, as: UTF8.self) }, "mine")
        XCTAssertFalse(topics.contains { $0.hasPrefix("oarlog/bravo/") }, "the coach never receives what alpha may not publish")
        XCTAssertEqual(coach.status.refused, 0)
    }

    func testNoCredentialsAndWrongPasswordAreRefused() throws {
        let acl = try String(contentsOf: Self.shippedACL, encoding: .utf8)
        let broker = try MosquittoBroker(users: [("alpha", "alpha-pw"), ("coach", "coach-pw")], acl: acl)
        try broker.start()
        let anonymous = MQTTClient(address: try address("mqtt://127.0.0.1:\(broker.port)"), options: .init(clientID: "anonymous"))
        let wrong = MQTTClient(address: try address("mqtt://alpha:guess@127.0.0.1:\(broker.port)"), options: .init(clientID: "wrong"))
        let right = MQTTClient(address: try address("mqtt://alpha:alpha-pw@127.0.0.1:\(broker.port)"), options: .init(clientID: "right"))
        defer { anonymous.stop(); wrong.stop(); right.stop() }
        for client in [anonymous, wrong, right] { try client.start() }
        anonymous.publish(OutgoingMessage(topic: "oarlog/alpha/stroke", payload: [1]))
        wrong.publish(OutgoingMessage(topic: "oarlog/alpha/stroke", payload: [2]))

        XCTAssertTrue(right.waitUntilConnected(timeout: 10), "the right password connects: \(right.status)")
        XCTAssertFalse(anonymous.waitUntilConnected(timeout: 3))
        XCTAssertFalse(wrong.waitUntilConnected(timeout: 1))
        for (name, client) in [("no credentials", anonymous), ("wrong password", wrong)] {
            let status = client.status
            XCTAssertFalse(status.connected, name)
            XCTAssertEqual(status.connections, 0, name)
            let problem = try XCTUnwrap(status.problem, "\(name): no problem reported")
            XCTAssertTrue(problem.contains("refused the connection"), "\(name): \(problem)")
            XCTAssertTrue(problem.contains("127.0.0.1:\(broker.port)"), "\(name): \(problem)")
            XCTAssertFalse(problem.contains("guess"), "the password is never shown: \(problem)")
            XCTAssertEqual(status.acknowledged, 0, name)
            XCTAssertEqual(status.undelivered, 1, "\(name): its message waits in the outbox")
        }
        XCTAssertNil(right.status.problem)
    }

    func testTLSWithTheClubCA() throws {
        let club = try TestCertificateAuthority(directory: scratch.appendingPathComponent("club"), name: "Test rowing club CA")
        let other = try TestCertificateAuthority(directory: scratch.appendingPathComponent("other"), name: "Some other CA")
        let broker = try MosquittoBroker(tls: .init(club))
        try broker.start()
        let tlsPort = try XCTUnwrap(broker.tlsPort)
        let inbox = Inbox()
        let coach = MQTTClient(address: try address("mqtts://127.0.0.1:\(tlsPort)"),
                               options: .init(clientID: "coach-tls", tls: BrokerTLS(caFile: club.caFile), subscriptions: ["oarlog/#"]),
                               onMessage: inbox.handler)
        let boat = MQTTClient(address: try address("mqtts://localhost:\(tlsPort)"),
                              options: .init(clientID: "alpha-tls", tls: BrokerTLS(caFile: club.caFile)))
        let stranger = MQTTClient(address: try address("mqtts://127.0.0.1:\(tlsPort)"),
                                  options: .init(clientID: "stranger-tls", tls: BrokerTLS(caFile: other.caFile)))
        defer { boat.stop(); coach.stop(); stranger.stop() }
        for client in [coach, boat, stranger] { try client.start() }
        XCTAssertTrue(coach.waitUntilConnected(timeout: 10), "coach: \(coach.status) \(broker.logText)")
        XCTAssertTrue(boat.waitUntilConnected(timeout: 10), "boat: \(boat.status) \(broker.logText)")
        waitForSubscription(publisher: boat, inbox: inbox, probe: "oarlog/alpha/probe")
        for k in 0..<20 { boat.publish(OutgoingMessage(topic: "oarlog/alpha/position", payload: sequencePayload(k))) }
        stranger.publish(OutgoingMessage(topic: "oarlog/stranger/position", payload: sequencePayload(0)))
        XCTAssertTrue(boat.waitUntilDelivered(timeout: 10), "boat: \(boat.status)")
        XCTAssertTrue(inbox.wait(timeout: 10) { $0.filter { $0.topic == "oarlog/alpha/position" }.count >= 20 })
        XCTAssertEqual(inbox.messages.filter { $0.topic == "oarlog/alpha/position" }.compactMap { sequenceNumber($0.payload) },
                       Array(0..<20))

        XCTAssertFalse(stranger.waitUntilConnected(timeout: 3), "a broker certificate from another CA is not trusted")
        let status = stranger.status
        XCTAssertEqual(status.connections, 0)
        XCTAssertEqual(status.undelivered, 1)
        XCTAssertFalse(inbox.messages.contains { $0.topic.hasPrefix("oarlog/stranger/") })
        XCTAssertFalse(broker.logText.isEmpty)
    }

    /// The launch's bridge (as in hardware/mosquitto/launch.conf: `topic oarlog/# out 1`,
    /// cleansession false) with the shipped ACL on both brokers: what a boat publishes while the
    /// club is down is queued on the launch and reaches the club's archive when the club returns.
    func testBridgeQueuesForTheClubWhileItIsDown() throws {
        let acl = try String(contentsOf: Self.shippedACL, encoding: .utf8)
        let club = try MosquittoBroker(users: [("archive", "archive-pw"), ("launch-bridge", "bridge-pw"), ("charlie", "charlie-pw")],
                                       acl: acl, persistence: true)
        try club.start()
        let inbox = Inbox()
        let archive = MQTTClient(address: try address("mqtt://archive:archive-pw@127.0.0.1:\(club.port)"),
                                 options: .init(clientID: "archive-bridge", cleanSession: false, subscriptions: ["oarlog/#"]),
                                 onMessage: inbox.handler)
        defer { archive.stop() }
        try archive.start()
        XCTAssertTrue(archive.waitUntilConnected(timeout: 10), "archive: \(archive.status) \(club.logText)")
        let charlie = MQTTClient(address: try address("mqtt://charlie:charlie-pw@127.0.0.1:\(club.port)"), options: .init(clientID: "charlie"))
        try charlie.start()
        waitForSubscription(publisher: charlie, inbox: inbox, probe: "oarlog/charlie/probe")
        charlie.stop()
        club.stop()

        let launch = try MosquittoBroker(users: [("alpha", "alpha-pw")], acl: acl, persistence: true,
                                         bridge: .init(name: "club", port: club.port, username: "launch-bridge", password: "bridge-pw"))
        try launch.start()
        let boat = MQTTClient(address: try address("mqtt://alpha:alpha-pw@127.0.0.1:\(launch.port)"), options: .init(clientID: "alpha-bridge"))
        defer { boat.stop() }
        try boat.start()
        XCTAssertTrue(boat.waitUntilConnected(timeout: 10), "boat: \(boat.status) \(launch.logText)")
        for k in 0..<30 { boat.publish(OutgoingMessage(topic: "oarlog/alpha/stroke", payload: sequencePayload(k))) }
        boat.publish(OutgoingMessage(topic: "oarlog/bravo/stroke", payload: sequencePayload(99)))
        XCTAssertTrue(boat.waitUntilDelivered(timeout: 10), "the launch acknowledged them with the club down: \(boat.status)")
        XCTAssertEqual(boat.status.refused, 1, "the launch's ACL holds the boat to its own topic")
        Thread.sleep(forTimeInterval: 1)
        XCTAssertFalse(inbox.messages.contains { $0.topic.hasPrefix("oarlog/alpha/") }, "nothing can reach the archive yet")

        try club.start()
        XCTAssertTrue(inbox.wait(timeout: 20) { $0.filter { $0.topic.hasPrefix("oarlog/alpha/") }.count >= 30 }, "archive: \(archive.status)\nlaunch:\n\(launch.logText)\nclub:\n\(club.logText)")
        usleep(300_000)
        let forwarded = inbox.messages.filter { $0.topic != "oarlog/charlie/probe" }
        XCTAssertEqual(forwarded.map(\.topic), Array(repeating: "oarlog/alpha/stroke", count: 30), "all, once, and nothing of bravo's")
        // Each once. The order is the bridge's: mosquitto sends its queue with several messages in
        // flight, and a connection attempt that fails while the club starts has some of them sent
        // again after later ones (seen once in CI: 1 before 0). The fleet's readers put a boat's
        // messages back in order by their sequence number (MessageOrder), so the order here is not
        // what this test holds the bridge to; that every message arrives exactly once is.
        XCTAssertEqual(forwarded.compactMap { sequenceNumber($0.payload) }.sorted(), Array(0..<30))
        XCTAssertTrue(club.logText.contains("launch-bridge"), "the bridge logged in as launch-bridge")
    }

    func testBrokerRefusesToStartWithABadConfigurationAndSaysWhy() throws {
        let broker = try MosquittoBroker(extraConfiguration: "no_such_option 1")
        XCTAssertThrowsError(try broker.start()) { error in
            XCTAssertTrue("\(error)".contains("no_such_option"), "\(error)")
        }
        XCTAssertFalse(broker.isRunning)
    }
}

/// A payload that carries a sequence number (as the fleet's messages do: `"seq":N`).
func sequencePayload(_ k: Int) -> [UInt8] {
    Array("{\"seq\":\(k),\"pad\":\"\(String(repeating: "x", count: 40))\"}".utf8)
}

func sequenceNumber(_ payload: [UInt8]) -> Int? {
    let text = String(decoding: payload, as: UTF8.self)
    guard let start = text.range(of: "\"seq\":") else { return nil }
    return Int(text[start.upperBound...].prefix { $0.isNumber })
}

/// What a subscriber received, in arrival order, filled from libmosquitto's network thread.
final class Inbox: @unchecked Sendable {
    struct Message {
        var topic: String
        var payload: [UInt8]
    }

    private let condition = NSCondition()
    private var received: [Message] = []

    /// The client's onMessage: formed here, outside any actor, since it runs on the network thread.
    var handler: @Sendable (String, [UInt8]) -> Void {
        { [self] topic, payload in
            condition.lock()
            received.append(Message(topic: topic, payload: payload))
            condition.broadcast()
            condition.unlock()
        }
    }

    var messages: [Message] {
        condition.lock()
        defer { condition.unlock() }
        return received
    }

    /// Waits until `predicate` holds for what has arrived, up to `timeout` seconds.
    func wait(timeout: Double, until predicate: ([Message]) -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while !predicate(received) {
            if !condition.wait(until: deadline) { return predicate(received) }
        }
        return true
    }
}
