import OarlogCore
import OarlogFences

/// The fleet's messages as Signal K delta messages (Signal K 1.5 `delta.json`), so that a Signal K
/// server, or InfluxDB and Grafana through one, read them as they read a yacht's instruments.
///
/// The boat is the context (`vessels.urn:mrn:oarlog:boat:ID`); one update per message, its
/// timestamp the UTC of what it reports; values in Signal K's SI units under its own paths where
/// it has them (`navigation.position`, `navigation.speedOverGround` in m/s,
/// `navigation.courseOverGroundTrue` in radians, `navigation.log` in metres) and under
/// `performance.rowing.*` for rowing (stroke rate in Hz, times in seconds, the split in seconds
/// per 500 m). The vessel's name is the value `{"name": …}` at the empty path, as Signal K has
/// it. The session and per-boat sequence ride beside the updates in `"oarlog"`, which the delta
/// schema allows and Signal K readers pass over. docs/FLEET.md lists every path.
public enum SignalKDelta {
    public static let contextPrefix = "vessels.urn:mrn:oarlog:boat:"
    public static let rowing = "performance.rowing."
    /// A payload larger than this is refused unread.
    public static let maximumPayloadBytes = 64 * 1024

    // MARK: - Writing

    public static func payload(of message: FleetMessage) -> [UInt8] {
        var values: [(String, String)] = []
        var meta: [(String, String)] = []
        func add(_ path: String, _ json: String) { values.append((path, json)) }
        if let name = message.boatName { add("", "{\"name\":\(quoted(name, FleetText.nameBytes))}") }
        add(rowing + "elapsedTime", number(message.elapsed))
        switch message.content {
        case .stroke(let s):
            add(rowing + "strokeCount", "\(s.index)")
            add(rowing + "strokeRate", hertz(s.strokeRate))
            add(rowing + "strokeRateSmoothed", hertz(s.smoothedRate))
            add(rowing + "driveTime", number(s.driveTime))
            add(rowing + "recoveryTime", number(s.recoveryTime))
            add(rowing + "peakAcceleration", number(Double(s.peakAcceleration)))
            add(rowing + "split", number(s.split))
            add(rowing + "strokeDistance", number(s.distancePerStroke))
            if let q = s.quality {   // stroke quality, only when the stroke has it
                add(rowing + "check", number(Double(q.check)))
                add(rowing + "drivePeakAcceleration", number(Double(q.peakDriveAcceleration)))
                add(rowing + "driveMeanAcceleration", number(Double(q.meanDriveAcceleration)))
                add(rowing + "speedBelowMean", number(q.speedBelowMean))
                add(rowing + "speedAboveMean", number(q.speedAboveMean))
                if let v = q.meanSpeed { add(rowing + "strokeMeanSpeed", number(v)) }
            }
            if let d = s.distance { add("navigation.log", number(d)) }
        case .caught(let c):
            add(rowing + "strokeCount", "\(c.index)")
            add(rowing + "strokeRate", hertz(c.strokeRate))
            add(rowing + "strokeRateSmoothed", hertz(c.smoothedRate))
            add(rowing + "catch", c.withdrawn ? "\"withdrawn\"" : "\"caught\"")
        case .position(let p):
            add("navigation.position", "{\"latitude\":\(number(p.latitude)),\"longitude\":\(number(p.longitude))}")
            if let v = p.speed { add("navigation.speedOverGround", number(v)) }
            if let c = p.course { add("navigation.courseOverGroundTrue", number(c * .pi / 180)) }
            if let d = p.distance { add("navigation.log", number(d)) }
        case .status(let s):
            add(rowing + "state", JSONString.quoted(s.state.rawValue))
            add(rowing + "strokeCount", "\(s.strokes)")
            add(rowing + "strokeRate", hertz(s.strokeRate))
            add(rowing + "split", number(s.split))
            add("navigation.speedOverGround", number(s.speed))
            add("navigation.log", number(s.distance))
            values += heartRateValues(s.heartRates)
            meta = heartRateMeta(s.heartRates)
        case .note(let text):
            add(rowing + "note", quoted(text, FleetText.noteBytes))
        case .fence(let f):
            add(rowing + "fence", fenceJSON(f))
        case .session(let s):
            add(rowing + "session", sessionJSON(s))
        case .workout(let s):
            workoutValues(s, add)
        case .interval(let i):
            add(workout + "interval", intervalJSON(i))
        }
        var out = "{\"context\":\(JSONString.quoted(contextPrefix + message.boat)),\"updates\":[{\"source\":{\"label\":\"oarlog\",\"type\":\"oarlog\",\"src\":\(JSONString.quoted(message.boat))}"
        out += ",\"timestamp\":\"\(UTCTime.iso8601(message.utc, millisecondRounding: .toNearestOrAwayFromZero))\",\"values\":["
        for (k, (path, json)) in values.enumerated() {
            if k > 0 { out += "," }
            out += "{\"path\":\(JSONString.quoted(path)),\"value\":\(json)}"
        }
        out += "]"
        if !meta.isEmpty {
            out += ",\"meta\":[" + meta.map { "{\"path\":\(JSONString.quoted($0.0)),\"value\":\($0.1)}" }.joined(separator: ",") + "]"
        }
        out += "}],\"oarlog\":{\"session\":\(JSONString.quoted(message.session)),\"seq\":\(message.sequence),\"kind\":\"\(message.kind.rawValue)\"}}"
        return Array(out.utf8)
    }

    /// A number in JSON: `null` when unknown or not finite.
    static func number(_ x: Double?) -> String { x.map { $0.isFinite ? "\($0)" : "null" } ?? "null" }

    /// A number read and scaled to Oarlog's units, nil when the scaling overflows (1e307 Hz is no
    /// stroke rate, and would be written again as `null`).
    static func finite(_ x: Double) -> Double? { x.isFinite ? x : nil }

    /// A stroke rate as Signal K has it, in Hz.
    static func hertz(_ spm: StrokesPerMinute?) -> String { number(spm.map { $0 / 60 }) }

    /// A stroke rate read in Hz, in strokes per minute (`hertz` read back).
    static func perMinute(_ hz: Double?) -> StrokesPerMinute? { hz.flatMap { finite($0 * 60) } }

    /// A text cut to what a receiver accepts (`FleetText`), so that nothing valid on the boat is
    /// refused downstream.
    static func quoted(_ text: String, _ bytes: Int) -> String { JSONString.quoted(FleetText.clip(text, bytes: bytes)) }

    /// The value at `performance.rowing.fence`.
    private static func fenceJSON(_ f: FleetFenceEvent) -> String {
        var body = "{\"name\":\(quoted(f.name, FleetText.eventNameBytes)),\"fence\":\(quoted(f.fence, FleetText.fenceNameBytes))"
        body += ",\"text\":\(quoted(f.text, FleetText.fenceTextBytes)),\"fields\":{"
        for (k, field) in f.fields.prefix(FleetText.fenceFields).enumerated() {
            body += (k > 0 ? "," : "") + "\(quoted(field.key, FleetText.eventNameBytes)):\(quoted(field.value, FleetText.fieldValueBytes))"
        }
        return body + "}}"
    }

    /// The value at `performance.rowing.session`.
    private static func sessionJSON(_ s: FleetSessionEvent) -> String {
        var body = "{\"state\":\"\(s.started ? "started" : "ended")\",\"title\":\(quoted(s.title, FleetText.titleBytes))"
        if let m = s.summary {
            body += ",\"summary\":{\"strokeCount\":\(m.strokes),\"log\":\(number(m.distance)),\"elapsedTime\":\(number(m.elapsed))"
            body += ",\"averageStrokeRate\":\(hertz(m.averageStrokeRate)),\"averageSplit\":\(number(m.averageSplit))"
            body += ",\"maxStrokeRate\":\(hertz(m.maxStrokeRate)),\"bestSplit\":\(number(m.bestSplit))"
            body += ",\"strokeDistance\":\(number(m.distancePerStroke)),\"movingTime\":\(number(m.movingTime))}"
        }
        return body + "}"
    }

    // MARK: - Reading

    /// Reads a payload that arrived on a topic of `kind` for `boat`; anything malformed, too
    /// large, or claiming another boat than its topic is a `FleetMessageError` saying what.
    public static func message(boat: String, kind: FleetMessageKind, payload: [UInt8]) throws(FleetMessageError) -> FleetMessage {
        let delta = try Delta(boat: boat, payload: payload)
        let values = delta.values
        var name: String?
        if let v = values.byPath[""] { name = try text(v["name"], "the boat's name", limit: FleetText.nameBytes) }
        let elapsed = try values.required(rowing + "elapsedTime")
        let content: FleetContent
        switch kind {
        case .stroke:
            content = .stroke(FleetStroke(index: try values.count(rowing + "strokeCount"), catchTime: elapsed,
                                          strokeRate: values.spm(rowing + "strokeRate"),
                                          smoothedRate: values.spm(rowing + "strokeRateSmoothed"), driveTime: try values.required(rowing + "driveTime"),
                                          recoveryTime: values.number(rowing + "recoveryTime"),
                                          peakAcceleration: try values.requiredAcceleration(rowing + "peakAcceleration"),
                                          split: values.number(rowing + "split"), distancePerStroke: values.number(rowing + "strokeDistance"),
                                          distance: values.number("navigation.log"),
                                          quality: values.quality()))
        case .catch:
            let state = try text(values.byPath[rowing + "catch"], "the catch", limit: 16)
            guard state == "caught" || state == "withdrawn" else { throw FleetMessageError("an unknown catch state") }
            content = .caught(FleetCatch(index: try values.count(rowing + "strokeCount"), catchTime: elapsed,
                                         strokeRate: values.spm(rowing + "strokeRate"),
                                         smoothedRate: values.spm(rowing + "strokeRateSmoothed"), withdrawn: state == "withdrawn"))
        case .position:
            guard case .number(let lat)? = values.byPath["navigation.position"]?["latitude"],
                  case .number(let lon)? = values.byPath["navigation.position"]?["longitude"],
                  abs(lat) <= 90, abs(lon) <= 180 else { throw FleetMessageError("no navigation.position") }
            content = .position(FleetPosition(latitude: lat, longitude: lon, speed: values.number("navigation.speedOverGround"),
                                              course: values.number("navigation.courseOverGroundTrue").flatMap { finite($0 * 180 / .pi) },
                                              distance: values.number("navigation.log")))
        case .status:
            guard let state = FleetStatus.State(rawValue: try text(values.byPath[rowing + "state"], "the state")) else {
                throw FleetMessageError("an unknown state")
            }
            content = .status(FleetStatus(state: state, strokes: try values.count(rowing + "strokeCount"),
                                          strokeRate: values.spm(rowing + "strokeRate"), split: values.number(rowing + "split"),
                                          speed: values.number("navigation.speedOverGround"),
                                          distance: try values.required("navigation.log"), heartRates: heartRates(in: values)))
        case .note:
            content = .note(try text(values.byPath[rowing + "note"], "the note", limit: FleetText.noteBytes))
        case .fence:
            content = .fence(try fenceEvent(values.byPath[rowing + "fence"]))
        case .session:
            content = .session(try sessionEvent(values.byPath[rowing + "session"]))
        case .workout:
            if let i = values.byPath[workout + "interval"] {
                content = .interval(try interval(i))
            } else {
                content = .workout(try workoutStatus(values))
            }
        }
        return FleetMessage(boat: boat, boatName: name, session: delta.session, sequence: delta.sequence, utc: delta.utc,
                            elapsed: elapsed, content: content)
    }

    /// A delta's envelope, checked: the boat it claims, the session and sequence beside it, and
    /// its one update's timestamp and values.
    private struct Delta {
        var session: String
        var sequence: Int
        var utc: Double
        var values: Values

        init(boat: String, payload: [UInt8]) throws(FleetMessageError) {
            guard payload.count <= maximumPayloadBytes else { throw FleetMessageError("a payload of \(payload.count) bytes (at most \(maximumPayloadBytes))") }
            let root: JSONValue
            do { root = try JSONValue.parse(utf8: payload, maxValues: 4096) } catch { throw FleetMessageError("not JSON: \(error)") }
            guard case .string(let context)? = root["context"], context.hasPrefix(contextPrefix) else {
                throw FleetMessageError("no context vessels.urn:mrn:oarlog:boat:…")
            }
            guard context.dropFirst(contextPrefix.count) == boat else {
                throw FleetMessageError("the context names boat '\(context.dropFirst(contextPrefix.count))' on boat '\(boat)'s topic")
            }
            guard case .string(let session)? = root["oarlog"]?["session"], !session.isEmpty, session.utf8.count <= 64 else {
                throw FleetMessageError("no oarlog.session")
            }
            guard case .number(let seq)? = root["oarlog"]?["seq"], seq >= 1, seq <= 9e15, seq == seq.rounded() else {
                throw FleetMessageError("no oarlog.seq (a whole number from 1)")
            }
            guard case .array(let updates)? = root["updates"], updates.count == 1 else { throw FleetMessageError("not one update") }
            let update = updates[0]
            guard case .string(let stamp)? = update["timestamp"], stamp.hasSuffix("Z"), let utc = UTCTime.parseISO8601(stamp) else {
                throw FleetMessageError("no timestamp in UTC (RFC 3339 ending in Z)")
            }
            guard case .array(let list)? = update["values"] else { throw FleetMessageError("no values") }
            var byPath: [String: JSONValue] = [:]
            for v in list {
                guard case .string(let path)? = v["path"], let value = v["value"] else { throw FleetMessageError("a value without path or value") }
                byPath[path] = value
            }
            (self.session, self.sequence, self.utc, self.values) = (session, Int(seq), utc, Values(byPath: byPath))
        }
    }

    /// An update's values by path, read in Oarlog's units.
    struct Values {
        var byPath: [String: JSONValue]

        /// A finite number at `path`, or nil.
        func number(_ path: String) -> Double? {
            if case .number(let x)? = byPath[path], x.isFinite { return x }
            return nil
        }

        func required(_ path: String) throws(FleetMessageError) -> Double {
            guard let x = number(path) else { throw FleetMessageError("no number at \(path)") }
            return x
        }

        /// An acceleration (stored as a `Float`): nil when missing or beyond what a `Float` holds,
        /// which written again would be `null`.
        func acceleration(_ path: String) -> MetresPerSecondSquared? {
            number(path).map { MetresPerSecondSquared($0) }.flatMap { $0.isFinite ? $0 : nil }
        }

        func requiredAcceleration(_ path: String) throws(FleetMessageError) -> MetresPerSecondSquared {
            guard let a = acceleration(path) else { throw FleetMessageError("no acceleration in m/s² at \(path)") }
            return a
        }

        /// A stroke rate: Hz on the wire, strokes per minute here.
        func spm(_ path: String) -> StrokesPerMinute? { perMinute(number(path)) }

        func count(_ path: String) throws(FleetMessageError) -> Int {
            let x = try required(path)
            guard x >= 0, x <= 1e9, x == x.rounded() else { throw FleetMessageError("\(path) is not a count") }
            return Int(x)
        }

        /// A stroke's quality: all of its paths, or none.
        func quality() -> StrokeQuality? {
            guard let check = acceleration(rowing + "check"), let peak = acceleration(rowing + "drivePeakAcceleration"),
                  let mean = acceleration(rowing + "driveMeanAcceleration"), let below = number(rowing + "speedBelowMean"),
                  let above = number(rowing + "speedAboveMean") else { return nil }
            return StrokeQuality(check: check, peakDriveAcceleration: peak,
                                 meanDriveAcceleration: mean, speedBelowMean: below, speedAboveMean: above,
                                 meanSpeed: number(rowing + "strokeMeanSpeed"))
        }
    }

    /// A text of at most `limit` UTF-8 bytes (`what` names it in the error).
    static func text(_ value: JSONValue?, _ what: String, limit: Int = 4096) throws(FleetMessageError) -> String {
        guard case .string(let s)? = value, s.utf8.count <= limit else { throw FleetMessageError("no text for \(what)") }
        return s
    }

    /// The value at `performance.rowing.fence`: name, fence, text and fields.
    private static func fenceEvent(_ f: JSONValue?) throws(FleetMessageError) -> FleetFenceEvent {
        var fields: [FleetFenceEvent.Field] = []
        if case .object(let members)? = f?["fields"] {
            guard members.count <= FleetText.fenceFields else { throw FleetMessageError("more than \(FleetText.fenceFields) fence event fields") }
            for (key, value) in members {
                guard key.utf8.count <= FleetText.eventNameBytes else { throw FleetMessageError("a fence event field name of over 64 bytes") }
                fields.append(FleetFenceEvent.Field(key, try text(value, "the fence event field \(key)", limit: FleetText.fieldValueBytes)))
            }
        }
        return FleetFenceEvent(name: try text(f?["name"], "the fence event", limit: FleetText.eventNameBytes),
                               fence: try text(f?["fence"], "the fence", limit: FleetText.fenceNameBytes),
                               text: try text(f?["text"], "the fence text", limit: FleetText.fenceTextBytes),
                               fields: fields)
    }

    /// The value at `performance.rowing.session`: started or ended, the title, and the summary
    /// an ended session has.
    private static func sessionEvent(_ s: JSONValue?) throws(FleetMessageError) -> FleetSessionEvent {
        let state = try text(s?["state"], "the session state", limit: 16)
        guard state == "started" || state == "ended" else { throw FleetMessageError("an unknown session state") }
        var summary: FleetSummary?
        if let m = s?["summary"] {
            func n(_ key: String) -> Double? { if case .number(let x)? = m[key], x.isFinite { return x } else { return nil } }
            guard let strokes = n("strokeCount"), strokes >= 0, strokes <= 1e9 else { throw FleetMessageError("a summary without strokeCount") }
            summary = FleetSummary(strokes: Int(strokes), distance: n("log"), elapsed: n("elapsedTime"),
                                   averageStrokeRate: perMinute(n("averageStrokeRate")), averageSplit: n("averageSplit"),
                                   maxStrokeRate: perMinute(n("maxStrokeRate")), bestSplit: n("bestSplit"),
                                   distancePerStroke: n("strokeDistance"), movingTime: n("movingTime"))
        }
        return FleetSessionEvent(started: state == "started", title: try text(s?["title"], "the title", limit: FleetText.titleBytes),
                                 summary: summary)
    }
}

/// A fleet payload that cannot be read, and why.
public struct FleetMessageError: Error, Equatable, CustomStringConvertible {
    public var description: String
    init(_ d: String) { description = d }
}
