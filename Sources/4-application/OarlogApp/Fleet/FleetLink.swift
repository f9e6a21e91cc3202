import Foundation
import OarlogFences
import OarlogFleet
import OarlogMQTT
import OarlogPipeline
import OarlogSession

/// How a boat, a coach or a club reaches the fleet's broker.
public struct FleetConnection: Sendable {
    public var broker: BrokerAddress
    public var topics: FleetTopics
    public var tls: BrokerTLS?

    /// - Parameters:
    ///   - url: `mqtt://[USER[:PASSWORD]@]HOST[:PORT]` or `mqtts://…`.
    ///   - passwordFile: a file whose first line is the password (instead of one in the URL).
    ///   - caFile, certificateFile, keyFile: TLS with a club's own CA (implies TLS).
    public init(url: String, topicPrefix: String = FleetTopics.defaultPrefix, passwordFile: String? = nil, caFile: String? = nil,
                certificateFile: String? = nil, keyFile: String? = nil) throws {
        do { broker = try BrokerAddress(parsing: url) } catch { throw FleetSetupError("\(error)") }
        do { topics = try FleetTopics(prefix: topicPrefix) } catch { throw FleetSetupError("--topic-prefix: \(error)") }
        if let passwordFile {
            guard broker.username != nil else { throw FleetSetupError("--mqtt-password-file needs a user name in the address (mqtt://USER@HOST)") }
            guard let text = try? String(contentsOfFile: passwordFile, encoding: .utf8) else {
                throw FleetSetupError("cannot read the password file \(passwordFile)")
            }
            broker.password = String(text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
        }
        for file in [caFile, certificateFile, keyFile].compactMap({ $0 }) where !FileManager.default.isReadableFile(atPath: file) {
            throw FleetSetupError("cannot read \(file)")
        }
        if (certificateFile == nil) != (keyFile == nil) { throw FleetSetupError("--mqtt-cert and --mqtt-key go together") }
        if let caFile {
            tls = BrokerTLS(caFile: caFile, certificateFile: certificateFile, keyFile: keyFile)
            broker.usesTLS = true
        } else if broker.usesTLS {
            tls = BrokerTLS(caFile: "", certificateFile: certificateFile, keyFile: keyFile)
        }
    }
}

extension FleetConnection {
    /// A client that reads every boat (a coach, an archive): a session kept at the broker under
    /// `role`'s id on this host (or `clientID`), so what arrives while it is away is queued for it.
    /// `also`: more topic filters (the coach's: every boat's plan answers).
    func everyBoatSubscriber(role: String, clientID: String?, also: [String] = [],
                             onMessage: @escaping @Sendable (String, [UInt8]) -> Void) -> MQTTClient {
        let id = clientID ?? "oarlog-\(role)-\(ProcessInfo.processInfo.hostName)"
        return MQTTClient(address: broker, options: MQTTClient.Options(
            clientID: String(id.prefix(64)), cleanSession: false, tls: tls, subscriptions: [topics.everyBoat] + also), onMessage: onMessage)
    }
}

/// A fleet set-up that cannot work, said plainly.
public struct FleetSetupError: Error, CustomStringConvertible {
    public var description: String
    public init(_ d: String) { description = d }
}

/// A boat's link to the fleet (`--publish`): one MQTT client for the whole run, and a
/// `FleetPublisher` sink for each session (a new session id and sequence each time). Messages
/// wait in the client's outbox while the broker cannot be reached and go when it can; at the end
/// `finish` waits for them, up to `deliveryTimeout`.
public final class FleetLink: @unchecked Sendable {
    public let connection: FleetConnection
    public let boatName: String
    public let boat: String
    public let deliveryTimeout: Double
    public let client: MQTTClient
    /// The coach's plans for this boat, each new one once (with `plans`; `offerPlans(to:)`).
    let plans = FleetPlanInbox()
    /// Workout events of the live station's recording, for this run's publisher.
    let workoutFeed = FleetWorkoutFeed()

    /// - Parameter plans: also take the coach's workout plans (`PREFIX/BOAT/plan` and
    ///   `PREFIX/all/plan`; `serve --publish`, whose cox can accept them).
    public init(_ connection: FleetConnection, boatName: String, deliveryTimeout: Double = 30, plans takesPlans: Bool = false) throws {
        let name = boatName.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty else { throw FleetSetupError("--publish needs the boat's name: --boat NAME") }
        self.connection = connection
        // Cut as every receiver takes it, so that the topic id is the one the receivers derive.
        self.boatName = FleetText.clip(name, bytes: FleetText.nameBytes)
        self.boat = FleetTopics.boatID(self.boatName)
        self.deliveryTimeout = deliveryTimeout
        // The boat's outbox is its queue: a clean session at the broker, one client id per boat.
        let topics = connection.topics
        let inbox = plans
        var onMessage: (@Sendable (String, [UInt8]) -> Void)?
        if takesPlans { onMessage = { topic, payload in inbox.receive(topic: topic, payload: payload, topics: topics) } }
        client = MQTTClient(address: connection.broker, options: MQTTClient.Options(
            clientID: "oarlog-boat-\(boat)", cleanSession: true, tls: connection.tls,
            subscriptions: takesPlans ? [topics.plan(boat: boat), topics.plan(boat: nil)] : []), onMessage: onMessage)
    }

    public func start() throws {
        do { try client.start() } catch { throw FleetSetupError("\(error)") }
    }

    /// A sink that publishes one session. `startUTC`: UTC at its time 0, when known.
    public func publisher(title: String, startUTC: Double? = nil) -> FleetPublisher {
        let client = self.client
        let feed = workoutFeed
        return FleetPublisher(boatName: boatName, topics: connection.topics, title: title, startUTC: startUTC,
                              wallClock: { Date().timeIntervalSince1970 }, describeFence: Self.fleetEvent,
                              workoutFeed: { feed.take() },
                              send: { topic, message in
                                  client.publish(OutgoingMessage(topic: topic, payload: SignalKDelta.payload(of: message),
                                                                 retain: Self.isRetained(message)))
                              })
    }

    /// The boat's figures and where it is in its plan stay at the broker for a coach that joins.
    static func isRetained(_ message: FleetMessage) -> Bool {
        switch message.content {
        case .status, .workout: true
        default: false
        }
    }

    /// A fence event as the fleet carries it: the session file's event (name and fields) and the display's line.
    static func fleetEvent(_ event: FenceEvent) -> FleetFenceEvent {
        let record = SessionEvent(event)
        let fence = record.fields.first { ["fence", "gate", "course", "to"].contains($0.key) }?.value ?? ""
        return FleetFenceEvent(name: record.name, fence: fence, text: FenceEventPrinter.line(event),
                               fields: record.fields.map { FleetFenceEvent.Field($0.key, $0.value) })
    }

    /// Waits for the outbox to empty (up to `deliveryTimeout`) and disconnects. Returns what a
    /// person should know if not everything arrived (nil when it did).
    public func finish() -> String? {
        let delivered = client.waitUntilDelivered(timeout: deliveryTimeout)
        let status = client.status
        client.stop()
        var problems: [String] = []
        if !delivered {
            problems.append("\(status.undelivered) message(s) not delivered to \(connection.broker) within \(Int(deliveryTimeout)) s"
                            + (status.problem.map { " (\($0))" } ?? ""))
        }
        if status.refused > 0 {
            problems.append("the broker refused \(status.refused) message(s): \(status.refusal ?? "")")
        }
        if status.dropped > 0 { problems.append("\(status.dropped) message(s) dropped: the outbox was full") }
        return problems.isEmpty ? nil : problems.joined(separator: "; ")
    }
}
