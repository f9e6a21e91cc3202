// The fleet at scale: `oarlog-fleet-bench [BOATS] [SECONDS]` runs a real mosquitto (or two, a
// launch bridged to a club) on loopback ports and N simulated boats, each its own MQTT client
// publishing what a boat publishes (a stroke message every 2.2 s, a position every second, a
// retained status every 5 s: real Signal K payloads), QoS 1. It measures, at the coach:
//   - messages delivered per second, and whether every one arrived (by boat and sequence);
//   - latency from the boat's publish call to the coach's callback, p50 / p99 / max;
// for two subscribers side by side on the same stream: a bare libmosquitto subscriber that only
// counts (the floor), and Oarlog's coach (Signal K read back, the board, crossed paths and a
// race). Then the same through a launch→club bridge (boats on the launch, the coach at the club).
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import OarlogApp
import OarlogCore
import OarlogFleet
import OarlogMQTT

let arguments = CommandLine.arguments
// libmosquitto's network loop uses select(), so one process holds at most about 300 clients
// (1,024 descriptors, three a client): real boats are one client a board.
let boatCount = min(300, arguments.count > 1 ? Int(arguments[1]) ?? 200 : 200)
let seconds = arguments.count > 2 ? Double(arguments[2]) ?? 30 : 30

func monotonic() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// A mosquitto on a free loopback port, its files in a temporary directory; stopped at exit.
final class Broker {
    let port: Int
    let process = Process()
    let directory: String
    init(name: String, bridgeTo: Int? = nil) throws {
        directory = NSTemporaryDirectory() + "oarlog-fleet-bench-\(name)-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let probe = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(probe, $0, length); return getsockname(probe, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        close(probe)
        var configuration = "listener \(port) 127.0.0.1\nallow_anonymous true\nmax_queued_messages 100000\n"
        if getuid() == 0 { configuration += "user root\n" }
        if let bridgeTo {
            configuration += "connection club\naddress 127.0.0.1:\(bridgeTo)\ntopic oarlog/# out 1\ncleansession false\n"
            configuration += "bridge_protocol_version mqttv311\nmax_inflight_messages 1000\n"
        }
        try configuration.write(toFile: directory + "/mosquitto.conf", atomically: true, encoding: .utf8)
        process.executableURL = URL(fileURLWithPath: FileManager.default.isExecutableFile(atPath: "/usr/sbin/mosquitto") ? "/usr/sbin/mosquitto" : "/usr/bin/mosquitto")
        process.arguments = ["-c", directory + "/mosquitto.conf"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        usleep(300_000)
    }
    /// CPU seconds the broker has used so far (user + system).
    var cpuSeconds: Double {
        guard let text = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return .nan }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // After the name: state is field 3, utime 14, stime 15 (1-based in proc(5)).
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return .nan }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
    func stop() {
        process.terminate()
        process.waitUntilExit()
        try? FileManager.default.removeItem(atPath: directory)
    }
}

/// Publish times by (boat, sequence), and what each subscriber saw.
final class Ledger: @unchecked Sendable {
    let lock = NSLock()
    var published: [String: [Double]] = [:]
    func sent(boat: String, sequence: Int, at t: Double) {
        lock.lock()
        published[boat, default: []].append(t)
        precondition(published[boat]!.count == sequence)
        lock.unlock()
    }
    func publishTime(boat: String, sequence: Int) -> Double? {
        lock.lock()
        defer { lock.unlock() }
        guard let times = published[boat], sequence >= 1, sequence <= times.count else { return nil }
        return times[sequence - 1]
    }
    var total: Int { lock.lock(); defer { lock.unlock() }; return published.values.reduce(0) { $0 + $1.count } }
}

final class Receiver: @unchecked Sendable {
    let name: String
    let lock = NSLock()
    var latencies: [Double] = []
    var seen: [String: Set<Int>] = [:]
    var duplicates = 0
    var first = Double.infinity, last = 0.0
    init(name: String) { self.name = name }
    func got(boat: String, sequence: Int, sentAt: Double?, now: Double) {
        lock.lock()
        defer { lock.unlock() }
        if !seen[boat, default: []].insert(sequence).inserted { duplicates += 1; return }
        if let sentAt { latencies.append(now - sentAt) }
        first = min(first, now)
        last = max(last, now)
    }
    var received: Int { lock.lock(); defer { lock.unlock() }; return seen.values.reduce(0) { $0 + $1.count } }
    func report(expected: Int, window: Double) -> String {
        lock.lock()
        defer { lock.unlock() }
        let sorted = latencies.sorted()
        func p(_ q: Double) -> Double { sorted.isEmpty ? .nan : sorted[min(sorted.count - 1, Int(Double(sorted.count) * q))] * 1000 }
        let count = seen.values.reduce(0) { $0 + $1.count }
        return String(format: "%@: %d of %d messages (%.1f%%), %.0f messages/s, latency p50 %.1f ms, p99 %.1f ms, max %.1f ms, duplicates %d",
                      name, count, expected, 100 * Double(count) / Double(max(1, expected)), Double(count) / window, p(0.5), p(0.99),
                      (sorted.last ?? .nan) * 1000, duplicates)
    }
}

func subscriber(port: Int, id: String, tag: String, ledger: Ledger, receiver: Receiver, coach: FleetCoach?) throws -> MQTTClient {
    let topics = try FleetTopics()
    let client = MQTTClient(address: BrokerAddress(host: "127.0.0.1", port: port), options: MQTTClient.Options(
        clientID: id, cleanSession: true, subscriptions: [topics.everyBoat], window: 1000)) { topic, payload in
        let now = monotonic()
        // Only this run's boats (the broker keeps the last run's retained statuses).
        guard let (boat, kind) = topics.parse(topic), boat.hasPrefix(tag + "-") else { return }
        if let coach {
            // The coach's whole path: Signal K read back, the board, crossed paths, the race.
            coach.receive(topic: topic, payload: payload)
            guard let m = try? SignalKDelta.message(boat: boat, kind: kind, payload: payload) else { return }
            receiver.got(boat: boat, sequence: m.sequence, sentAt: ledger.publishTime(boat: boat, sequence: m.sequence), now: monotonic())
        } else {
            // The floor: find the sequence number in the bytes and count.
            guard let seq = sequenceNumber(payload) else { return }
            receiver.got(boat: boat, sequence: seq, sentAt: ledger.publishTime(boat: boat, sequence: seq), now: now)
        }
    }
    try client.start()
    guard client.waitUntilSubscribed(timeout: 10) else { fatalError("\(id) did not subscribe") }
    return client
}

/// `"seq":N` from a payload without parsing the JSON.
func sequenceNumber(_ payload: [UInt8]) -> Int? {
    let key = Array("\"seq\":".utf8)
    guard payload.count > key.count else { return nil }
    for i in 0...(payload.count - key.count) where payload[i] == key[0] && Array(payload[i..<i + key.count]) == key {
        var n = 0, j = i + key.count
        while j < payload.count, payload[j] >= 48, payload[j] <= 57 { n = n * 10 + Int(payload[j] - 48); j += 1 }
        return n
    }
    return nil
}

/// N boats for `seconds`: each its own client; a stroke every 2.2 s, a position every second, a status every 5 s.
func row(port: Int, ledger: Ledger, tag: String) throws -> (published: Int, window: Double) {
    let topics = try FleetTopics()
    let start = UTCTime.epochSeconds(year: 2026, month: 6, day: 6, hour: 9)
    let plane = LocalTangentPlane(origin: GeoPoint(latitude: 51.4873, longitude: -0.2241))
    var clients: [MQTTClient] = []
    for k in 0..<boatCount {
        let client = MQTTClient(address: BrokerAddress(host: "127.0.0.1", port: port), options: MQTTClient.Options(clientID: "bench-\(tag)-boat-\(k)"))
        try client.start()
        clients.append(client)
    }
    for c in clients { _ = c.waitUntilConnected(timeout: 10) }
    var sequence = Array(repeating: 0, count: boatCount)
    var strokes = Array(repeating: 0, count: boatCount)
    let t0 = monotonic()
    var tick = 0
    // Ten ticks a second; each boat's messages spread over the ticks by its number.
    while monotonic() - t0 < seconds {
        let target = t0 + Double(tick) / 10
        let wait = target - monotonic()
        if wait > 0 { usleep(useconds_t(wait * 1e6)) }
        let t = Double(tick) / 10
        for k in 0..<boatCount {
            let id = "\(tag)-boat-\(k)"
            var due: [FleetContent] = []
            let phase = (tick + k) % 10 == 0
            if phase {
                let p = plane.unproject(east: 4.5 * t, north: 15 * Double(k))
                due.append(.position(FleetPosition(latitude: p.latitude, longitude: p.longitude, speed: 4.5, course: 90, distance: 4.5 * t)))
            }
            if (tick + k) % 22 == 0 {
                strokes[k] += 1
                due.append(.stroke(FleetStroke(index: strokes[k], catchTime: t, strokeRate: 27.3, smoothedRate: 27.1, driveTime: 0.8,
                                               recoveryTime: 1.4, peakAcceleration: 3.1, split: 111.1, distancePerStroke: 9.9, distance: 4.5 * t)))
            }
            if (tick + k) % 50 == 0 {
                due.append(.status(FleetStatus(state: .rowing, strokes: strokes[k], strokeRate: 27.1, split: 111.1, speed: 4.5, distance: 4.5 * t)))
            }
            for content in due {
                sequence[k] += 1
                let m = FleetMessage(boat: id, boatName: nil, session: "2026-06-06T09:00:00.000Z", sequence: sequence[k], utc: start + t,
                                     elapsed: t, content: content)
                ledger.sent(boat: id, sequence: sequence[k], at: monotonic())
                clients[k].publish(OutgoingMessage(topic: topics.topic(boat: id, m.kind), payload: SignalKDelta.payload(of: m),
                                                   retain: m.kind == .status))
            }
        }
        tick += 1
    }
    let window = monotonic() - t0
    for c in clients { _ = c.waitUntilDelivered(timeout: 30) }
    for c in clients { c.stop() }
    return (sequence.reduce(0, +), window)
}

func run(title: String, tag: String, boatsPort: Int, coachPort: Int, brokers: [Broker]) throws {
    let ledger = Ledger()
    let floor = Receiver(name: "bare libmosquitto subscriber (the floor)")
    let oarlog = Receiver(name: "Oarlog coach (Signal K read, board, crossed paths)")
    let coach = try FleetCoach(try FleetConnection(url: "mqtt://127.0.0.1:\(coachPort)"), meetingDistance: 10)
    let a = try subscriber(port: coachPort, id: "bench-floor", tag: tag, ledger: ledger, receiver: floor, coach: nil)
    let b = try subscriber(port: coachPort, id: "bench-coach", tag: tag, ledger: ledger, receiver: oarlog, coach: coach)
    let cpuBefore = brokers.map(\.cpuSeconds)
    let (published, window) = try row(port: boatsPort, ledger: ledger, tag: tag)
    let deadline = monotonic() + 30
    while (floor.received < published || oarlog.received < published) && monotonic() < deadline { usleep(100_000) }
    print("\(title): \(boatCount) boats for \(Int(window)) s: \(published) messages published (\(Int(Double(published) / window))/s)")
    print("  " + floor.report(expected: published, window: window))
    print("  " + oarlog.report(expected: published, window: window))
    let cpu = zip(brokers.map(\.cpuSeconds), cpuBefore).map { $0 - $1 }
    // Each message in is delivered to the two subscribers (and, bridged, once more over the bridge).
    let perMessage = cpu.reduce(0, +) / Double(published)
    print(String(format: "  broker CPU: %@ s over the run; %.0f µs a message in (with its deliveries) → one core carries about %.0f messages/s, %.0f boats at %.2f messages/s a boat",
                 cpu.map { String(format: "%.2f", $0) }.joined(separator: " + "), perMessage * 1e6, 1 / perMessage,
                 1 / perMessage / (Double(published) / window / Double(boatCount)), Double(published) / window / Double(boatCount)))
    a.stop()
    b.stop()
}

let club = try Broker(name: "club")
defer { club.stop() }
try run(title: "one broker", tag: "one", boatsPort: club.port, coachPort: club.port, brokers: [club])
let launch = try Broker(name: "launch", bridgeTo: club.port)
defer { launch.stop() }
usleep(500_000)
try run(title: "launch→club bridge", tag: "bridged", boatsPort: launch.port, coachPort: club.port, brokers: [launch, club])

/// The coach's own cost, without the network: 200 boats' messages (a minute of them) read back
/// and applied, then the page's JSON made, as `serve --coach` does.
func coachCost() throws {
    let topics = try FleetTopics()
    let coach = try FleetCoach(try FleetConnection(url: "mqtt://127.0.0.1:1"), meetingDistance: 10)
    let plane = LocalTangentPlane(origin: GeoPoint(latitude: 51.4873, longitude: -0.2241))
    var messages: [(String, [UInt8])] = []
    for second in 0..<60 {
        for k in 0..<200 {
            let t = Double(second)
            let p = plane.unproject(east: 4.5 * t, north: 15 * Double(k))
            let m = FleetMessage(boat: "cost-\(k)", session: "s", sequence: second + 1, utc: 1_780_000_000 + t, elapsed: t,
                                 content: .position(FleetPosition(latitude: p.latitude, longitude: p.longitude, speed: 4.5, course: 90, distance: 4.5 * t)))
            messages.append((topics.topic(boat: m.boat, .position), SignalKDelta.payload(of: m)))
        }
    }
    let t0 = monotonic()
    for (topic, payload) in messages { coach.receive(topic: topic, payload: payload) }
    let applied = monotonic() - t0
    let t1 = monotonic()
    let json = coach.json()
    let page = monotonic() - t1
    print(String(format: "coach without the network: %d position messages of 200 boats read and applied in %.2f s (%.0f µs each: one core, %.0f messages/s); /api/fleet for 200 boats: %.1f ms, %d KB",
                 messages.count, applied, applied / Double(messages.count) * 1e6, Double(messages.count) / applied, page * 1000, json.utf8.count / 1024))
}
try coachCost()
