import ArgumentParser
import OarlogApp
import OarlogFleet

/// How a command reaches the fleet's MQTT broker: `--publish` (a boat: record, serve, replay) or
/// `--subscribe` (the coach's `serve --coach`, the club's `archive`), with the topic prefix and
/// the TLS and password files. docs/FLEET.md.
struct BrokerOptions: ParsableArguments {
    @Option(name: .customLong("topic-prefix"), help: "The first level of every fleet topic (PREFIX/BOAT/KIND).")
    var topicPrefix = FleetTopics.defaultPrefix

    @Option(name: .customLong("mqtt-ca"), help: "The club's CA certificate (PEM) that signed the broker's: TLS (mqtts://).")
    var caFile: String?

    @Option(name: .customLong("mqtt-cert"), help: "This client's certificate (PEM), if the broker asks for one.")
    var certificateFile: String?

    @Option(name: .customLong("mqtt-key"), help: "This client's private key (PEM), with --mqtt-cert.")
    var keyFile: String?

    @Option(name: .customLong("mqtt-password-file"), help: "A file holding the broker password (instead of USER:PASSWORD@ in the address).")
    var passwordFile: String?

    func connection(_ url: String) throws -> FleetConnection {
        do {
            return try FleetConnection(url: url, topicPrefix: topicPrefix, passwordFile: passwordFile, caFile: caFile,
                                       certificateFile: certificateFile, keyFile: keyFile)
        } catch {
            throw ValidationError("\(error)")
        }
    }
}

/// `--publish URL` on a boat's command: every stroke, position, status, note, fence event and
/// the session's start and end to the broker, as Signal K deltas under PREFIX/BOAT/….
struct PublishOptions: ParsableArguments {
    @Option(help: "Publish live to the fleet's MQTT broker: mqtt://[USER[:PASSWORD]@]HOST[:PORT] or mqtts://… (needs --boat).")
    var publish: String?

    @Option(name: .customLong("publish-wait"), help: "At the end, seconds to wait for the broker to take what is still queued.")
    var publishWait: Double = 30

    @OptionGroup(title: "Broker")
    var broker: BrokerOptions

    func validate(boat: String?) throws {
        guard let publish else { return }
        _ = try broker.connection(publish)
        if (boat ?? "").trimmingCharacters(in: .whitespaces).isEmpty { throw ValidationError("--publish needs the boat's name: --boat NAME") }
        if !(publishWait >= 0 && publishWait <= 3600) { throw ValidationError("--publish-wait must be 0–3600 seconds") }
    }

    /// The boat's link, connecting (nil without --publish). `plans`: it takes the coach's workout
    /// plans too (`serve`, whose cox answers them).
    func link(boat: String?, plans: Bool = false) throws -> FleetLink? {
        guard let publish, let boat else { return nil }
        let link = try FleetLink(try broker.connection(publish), boatName: boat, deliveryTimeout: publishWait, plans: plans)
        try link.start()
        return link
    }
}
