import CMosquitto
import Foundation

/// An MQTT 5 client over libmosquitto for the fleet: QoS 1 publishing through a `PublishOutbox`
/// (store and forward across lost connections), subscriptions that are made again after every
/// reconnect, user name and password, and TLS with a club's own CA.
///
/// libmosquitto runs its network loop on its own thread (`mosquitto_loop_start`) and reconnects by
/// itself with a backoff (1 s to 8 s). Its callbacks (free functions in MQTTCallbacks.swift) come
/// on that thread; this object's state is behind one lock. Nothing here blocks a caller of
/// `publish` on the network.
public final class MQTTClient: @unchecked Sendable {
    public struct Options: Sendable {
        public var clientID: String
        /// false: the broker keeps this client's subscriptions and queues its QoS 1 messages while
        /// it is away (a coach or an archive); true for a boat, whose outbox is its own queue.
        public var cleanSession: Bool
        public var keepAliveSeconds: Int32
        public var tls: BrokerTLS?
        /// Topic filters to subscribe to at QoS 1 on every connection.
        public var subscriptions: [String]
        /// Unacknowledged messages at a time.
        public var window: Int
        public var outboxLimit: Int
        /// With `cleanSession` false: how long the broker keeps the session (its subscriptions and
        /// the messages queued for it) after this client is gone.
        public var sessionExpirySeconds: UInt32 = 7 * 24 * 3600
        /// Retained message the broker publishes for this client if it vanishes (its status: offline).
        public var will: OutgoingMessage?

        public init(clientID: String, cleanSession: Bool = true, keepAliveSeconds: Int32 = 10, tls: BrokerTLS? = nil,
                    subscriptions: [String] = [], window: Int = 100, outboxLimit: Int = 200_000, will: OutgoingMessage? = nil) {
            self.clientID = clientID
            self.cleanSession = cleanSession
            self.keepAliveSeconds = keepAliveSeconds
            self.tls = tls
            self.subscriptions = subscriptions
            self.window = window
            self.outboxLimit = outboxLimit
            self.will = will
        }
    }

    /// What a person is told about the connection.
    public struct Status: Sendable, Equatable {
        public var connected: Bool
        public var connections: Int
        /// Why the broker refused the last connection attempt or why it was lost, if it was.
        public var problem: String?
        public var undelivered: Int
        public var acknowledged: Int
        public var refused: Int
        public var refusal: String?
        public var dropped: Int
        public var resent: Int
        public var received: Int
        /// The broker has confirmed every subscription of the current connection.
        public var subscribed: Bool
    }

    public let address: BrokerAddress
    public let options: Options
    private let onMessage: (@Sendable (String, [UInt8]) -> Void)?

    private let lock = NSCondition()
    private var handle: OpaquePointer?
    private var outbox: PublishOutbox
    private var connected = false
    private var connections = 0
    private var problem: String?
    private var received = 0
    private var subscriptionsPending: Set<Int32> = []
    private var subscribed = false
    private var retainedUserData: Unmanaged<MQTTClient>?

    public init(address: BrokerAddress, options: Options, onMessage: (@Sendable (String, [UInt8]) -> Void)? = nil) {
        self.address = address
        self.options = options
        self.onMessage = onMessage
        self.outbox = PublishOutbox(window: options.window, limit: options.outboxLimit)
    }

    deinit {
        if handle != nil { stop() }
    }

    /// Starts the network thread and the first connection attempt. Fails at once only for what
    /// cannot work at all (a TLS file that cannot be read, a bad option); a broker that is not
    /// there yet is tried again until `stop`.
    public func start() throws(MQTTError) {
        MQTTLibrary.initialise()
        let userData = Unmanaged.passRetained(self)
        guard let m = mosquitto_new(options.clientID, options.cleanSession, userData.toOpaque()) else {
            userData.release()
            throw MQTTError(operation: "create a client", code: Int32(errno), message: "out of memory or a bad client id")
        }
        retainedUserData = userData
        handle = m
        try check(mosquitto_int_option(m, MOSQ_OPT_PROTOCOL_VERSION, oarlog_mqtt_protocol_v5()), "use MQTT 5")
        try check(mosquitto_int_option(m, MOSQ_OPT_RECEIVE_MAXIMUM, Int32(min(options.window, 65535))), "set the receive window")
        _ = mosquitto_max_inflight_messages_set(m, UInt32(options.window))
        if let user = address.username {
            try check(mosquitto_username_pw_set(m, user, address.password), "set the user name")
        }
        if let tls = options.tls ?? (address.usesTLS ? BrokerTLS(caFile: "") : nil) {
            let ca = tls.caFile.isEmpty ? nil : tls.caFile
            let caPath = ca == nil ? "/etc/ssl/certs" : nil
            try check(mosquitto_tls_set(m, ca, caPath, tls.certificateFile, tls.keyFile, nil), "set up TLS with \(tls.caFile)")
        }
        if let will = options.will {
            try check(will.payload.withUnsafeBytes {
                mosquitto_will_set_v5(m, will.topic, Int32($0.count), $0.baseAddress, 1, will.retain, nil)
            }, "set the last will")
        }
        mosquitto_connect_v5_callback_set(m, oarlogMQTTConnected)
        mosquitto_disconnect_v5_callback_set(m, oarlogMQTTDisconnected)
        mosquitto_publish_v5_callback_set(m, oarlogMQTTPublished)
        mosquitto_message_v5_callback_set(m, oarlogMQTTMessage)
        mosquitto_subscribe_v5_callback_set(m, oarlogMQTTSubscribed)
        _ = mosquitto_reconnect_delay_set(m, 1, 8, true)
        let rc: Int32
        if options.cleanSession {
            rc = mosquitto_connect_bind_async(m, address.host, Int32(address.port), options.keepAliveSeconds, nil)
        } else {
            // A kept session: MQTT 5 ends a session when its client disconnects unless CONNECT
            // gives it an expiry. libmosquitto 2.0 takes CONNECT properties only in its blocking
            // connect; it keeps them for every reconnect of the network thread.
            var properties: OpaquePointer?
            _ = mosquitto_property_add_int32(&properties, oarlog_mqtt_prop_session_expiry_interval(), options.sessionExpirySeconds)
            rc = mosquitto_connect_bind_v5(m, address.host, Int32(address.port), options.keepAliveSeconds, nil, properties)
            mosquitto_property_free_all(&properties)
        }
        if rc != MOSQ_ERR_SUCCESS.rawValue {
            // Not reachable now (no route, broker down): the loop thread keeps trying.
            lock.lock()
            problem = "cannot reach \(address): \(MQTTLibrary.describe(rc))"
            lock.unlock()
        }
        try check(mosquitto_loop_start(m), "start the network thread")
    }

    /// Queues a QoS 1 message; it is sent now if connected, else when the connection returns.
    public func publish(_ message: OutgoingMessage) {
        lock.lock()
        outbox.add(message)
        pump()
        lock.unlock()
    }

    /// Waits until every queued message is acknowledged (or refused), up to `timeout` seconds.
    /// - Returns: whether the outbox is empty.
    @discardableResult
    public func waitUntilDelivered(timeout: Double) -> Bool { wait(timeout: timeout) { $0.outbox.isEmpty } }

    /// Waits, up to `timeout` seconds, until `condition` holds (checked under the lock at every change).
    private func wait(timeout: Double, until condition: (MQTTClient) -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        lock.lock()
        defer { lock.unlock() }
        while !condition(self) {
            if !lock.wait(until: deadline) { return condition(self) }
        }
        return true
    }

    /// Waits until connected (or `timeout` seconds).
    @discardableResult
    public func waitUntilConnected(timeout: Double) -> Bool { wait(timeout: timeout) { $0.connected } }

    public var status: Status {
        lock.lock()
        defer { lock.unlock() }
        return Status(connected: connected, connections: connections, problem: problem, undelivered: outbox.undelivered,
                      acknowledged: outbox.acknowledged, refused: outbox.refused,
                      refusal: outbox.lastRefusal.map { "\($0.topic): \($0.reason)" }, dropped: outbox.dropped,
                      resent: outbox.resent, received: received, subscribed: subscribed)
    }

    /// Disconnects and stops the network thread. Undelivered messages are lost with the client
    /// (`waitUntilDelivered` first).
    public func stop() {
        guard let m = handle else { return }
        _ = mosquitto_disconnect_v5(m, 0, nil)
        _ = mosquitto_loop_stop(m, false)
        mosquitto_destroy(m)
        lock.lock()
        handle = nil
        connected = false
        lock.unlock()
        retainedUserData?.release()
        retainedUserData = nil
    }

    // MARK: - From the network thread (MQTTCallbacks.swift)

    func didConnect(reasonCode: Int32) {
        lock.lock()
        defer { lock.unlock() }
        if reasonCode == 0 {
            connected = true
            connections += 1
            problem = nil
            subscribed = options.subscriptions.isEmpty
            subscriptionsPending = []
            if let m = handle {
                for filter in options.subscriptions {
                    var id: Int32 = 0
                    if mosquitto_subscribe_v5(m, &id, filter, 1, 0, nil) == MOSQ_ERR_SUCCESS.rawValue { subscriptionsPending.insert(id) }
                }
            }
            pump()
        } else {
            problem = "the broker at \(address) refused the connection: \(MQTTLibrary.reason(reasonCode))"
        }
        lock.broadcast()
    }

    func didDisconnect(reasonCode: Int32) {
        lock.lock()
        defer { lock.unlock() }
        if connected && reasonCode != 0 { problem = "lost the connection to \(address): \(MQTTLibrary.describe(reasonCode))" }
        connected = false
        subscribed = false
        outbox.connectionLost()
        lock.broadcast()
    }

    func didSubscribe(id: Int32, grantedQoS: [Int32]) {
        lock.lock()
        defer { lock.unlock() }
        if let refused = grantedQoS.first(where: { $0 >= 0x80 }) {
            problem = "the broker at \(address) refused a subscription: \(MQTTLibrary.reason(refused))"
        }
        subscriptionsPending.remove(id)
        if subscriptionsPending.isEmpty && connected && problem == nil { subscribed = true }
        lock.broadcast()
    }

    /// Waits until the broker has confirmed the subscriptions (or `timeout` seconds).
    @discardableResult
    public func waitUntilSubscribed(timeout: Double) -> Bool { wait(timeout: timeout) { $0.subscribed } }

    func didPublish(id: Int32, reasonCode: Int32) {
        lock.lock()
        defer { lock.unlock() }
        outbox.acknowledge(id: id, reasonCode: Int(reasonCode), reason: MQTTLibrary.reason(reasonCode))
        pump()
        lock.broadcast()
    }

    func didReceive(topic: String, payload: [UInt8]) {
        lock.lock()
        received += 1
        lock.unlock()
        onMessage?(topic, payload)
    }

    /// Hands queued messages to libmosquitto while connected and the window allows. Lock held.
    private func pump() {
        guard connected, let m = handle else { return }
        while let message = outbox.next() {
            var id: Int32 = 0
            let rc = message.payload.withUnsafeBytes {
                mosquitto_publish_v5(m, &id, message.topic, Int32($0.count), $0.baseAddress, 1, message.retain, nil)
            }
            if rc == MOSQ_ERR_NO_CONN.rawValue || rc == MOSQ_ERR_CONN_LOST.rawValue { return }  // back when reconnected
            if rc != MOSQ_ERR_SUCCESS.rawValue {
                // A message libmosquitto will never send (a bad topic, too large): refuse it, do not block the rest.
                outbox.refuseNext(reason: MQTTLibrary.describe(rc))
                continue
            }
            outbox.sent(id: id)
        }
    }

    private func check(_ rc: Int32, _ what: String) throws(MQTTError) {
        guard rc == MOSQ_ERR_SUCCESS.rawValue else {
            throw MQTTError(operation: what, code: rc, message: MQTTLibrary.describe(rc))
        }
    }
}

/// A client set-up that failed.
public struct MQTTError: Error, CustomStringConvertible {
    public var operation: String
    public var code: Int32
    public var message: String
    public var description: String { "MQTT: cannot \(operation): \(message)" }
}

/// libmosquitto's process-wide set-up and its messages.
enum MQTTLibrary {
    private static let once: Void = { _ = mosquitto_lib_init() }()
    static func initialise() { _ = once }
    static func describe(_ rc: Int32) -> String {
        if rc == MOSQ_ERR_ERRNO.rawValue { return String(cString: strerror(errno)) }
        return String(cString: mosquitto_strerror(rc))
    }
    static func reason(_ code: Int32) -> String {
        String(cString: mosquitto_reason_string(code))
    }
}
