/// What a fleet message is about: the last level of its topic, `PREFIX/BOAT/KIND`.
public enum FleetMessageKind: String, Sendable, CaseIterable {
    /// One message per stroke, once the pipeline has concluded it (its drive, recovery, split,
    /// distance): the update of the stroke's `catch` message.
    case stroke
    /// A stroke at its catch, as soon as the boat's detector has it: index and rate (or a catch
    /// withdrawn: no drive followed).
    case `catch`
    /// The boat's position, at most once a second.
    case position
    /// The boat's figures now, every few seconds, retained by the broker (a coach that joins sees
    /// every boat at once).
    case status
    case note
    /// Geofence, gate and course events.
    case fence
    /// A session started or ended (with its summary).
    case session
    /// Where the crew is in its workout plan (at most once a second, and at each step's change),
    /// and each interval's figures when it is over.
    case workout
}

/// The fleet's topic names: `PREFIX/BOAT/KIND`, with the prefix `oarlog` unless a club sets its
/// own (several clubs on one broker, a regatta). A boat's topic id is its name made safe for a
/// topic level and for a broker's ACL pattern `PREFIX/%u/#` (the boat logs in with it).
public struct FleetTopics: Sendable, Equatable {
    public static let defaultPrefix = "oarlog"
    public let prefix: String

    public init(prefix: String = FleetTopics.defaultPrefix) throws(FleetTopicError) {
        var p = Substring(prefix)
        while p.hasSuffix("/") { p = p.dropLast() }
        guard !p.isEmpty else { throw FleetTopicError("the topic prefix is empty") }
        guard !p.contains(where: { $0 == "+" || $0 == "#" || $0 == "\0" }) else {
            throw FleetTopicError("the topic prefix '\(prefix)' contains a wildcard (+ or #)")
        }
        guard p.utf8.count <= 200 else { throw FleetTopicError("the topic prefix is longer than 200 bytes") }
        self.prefix = String(p)
    }

    /// A boat's topic id from its name: lower case letters, digits, `-` and `_`; anything else
    /// becomes `-` ("Women's 8+ A" → "women-s-8-a"). At most 64 characters; never empty, and
    /// never `all` (the level of the coach's plan for every boat): a boat named "All" is `all-boat`.
    public static func boatID(_ name: String) -> String {
        var out = ""
        var lastDash = true
        for scalar in name.lowercased().unicodeScalars {
            let ok = (scalar >= "a" && scalar <= "z") || (scalar >= "0" && scalar <= "9") || scalar == "_" || scalar == "-"
            if ok {
                out.unicodeScalars.append(scalar)
                lastDash = scalar == "-"
            } else if !lastDash {
                out += "-"
                lastDash = true
            }
            if out.count >= 64 { break }
        }
        while out.hasSuffix("-") { out.removeLast() }
        if out == everyBoatLevel { return "all-boat" }
        return out.isEmpty ? "boat" : out
    }

    /// The topic level that stands for every boat in the coach's plans (`PREFIX/all/plan`); no
    /// boat has it as its id.
    public static let everyBoatLevel = "all"

    /// Whether `id` follows the rule `boatID` makes: 1 to 64 of a-z, 0-9, `-` and `_`. A
    /// receiver refuses a topic whose id does not (no boat publishes under one).
    public static func isBoatID(_ id: some StringProtocol) -> Bool {
        let bytes = id.utf8
        return !bytes.isEmpty && bytes.count <= 64 && id != everyBoatLevel
            && bytes.allSatisfy { ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || $0 == 45 || $0 == 95 }
    }

    public func topic(boat: String, _ kind: FleetMessageKind) -> String { "\(prefix)/\(boat)/\(kind.rawValue)" }

    /// The filter for every boat's every message.
    public var everyBoat: String { "\(prefix)/+/+" }

    /// The boat id and kind of a fleet topic; nil for anything else.
    public func parse(_ topic: String) -> (boat: String, kind: FleetMessageKind)? {
        guard topic.hasPrefix(prefix + "/") else { return nil }
        let rest = topic.dropFirst(prefix.count + 1).split(separator: "/", omittingEmptySubsequences: false)
        guard rest.count == 2, !rest[0].isEmpty, let kind = FleetMessageKind(rawValue: String(rest[1])) else { return nil }
        return (String(rest[0]), kind)
    }
}

/// A message off the broker that a receiver does not take, with why and a line for its log.
public struct FleetRefused: Error, Sendable, CustomStringConvertible {
    public let reason: FleetRefusal
    public let description: String
}

extension FleetTopics {
    /// A message off the broker read as every receiver (the coach, the archive) takes it: the
    /// topic parsed, its boat id checked against the rule, the payload read. Nil for a topic
    /// that is not the fleet's.
    public func read(topic: String, payload: [UInt8]) -> Result<FleetMessage, FleetRefused>? {
        guard let (boat, kind) = parse(topic) else { return nil }
        guard FleetTopics.isBoatID(boat) else {
            return .failure(FleetRefused(reason: .badID, description: "\(topic.prefix(200)): not a boat id (a-z, 0-9, - and _, at most 64)"))
        }
        do {
            return .success(try SignalKDelta.message(boat: boat, kind: kind, payload: payload))
        } catch {
            return .failure(FleetRefused(reason: .unreadable, description: "\(topic): unreadable message: \(error)"))
        }
    }
}

public struct FleetTopicError: Error, Equatable, CustomStringConvertible {
    public var description: String
    init(_ d: String) { description = d }
}
