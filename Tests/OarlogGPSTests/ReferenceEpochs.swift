import Foundation
import OarlogCore
import OarlogGPS
import Synchronization

/// A TPV as gpspipe printed it (gpsd's JSON, read with Foundation: independent of libgps).
struct ReferenceTPV: Equatable {
    var timeNanoseconds: Int64?
    var mode: Int
    var latitude: Double?
    var longitude: Double?
    var speed: Double?
    var course: Double?
}

/// Nanoseconds since 1970 of gpsd's `2018-08-20T09:47:37.000Z`.
func parseGPSDTime(_ s: String) -> Int64? {
    let parts = s.split(whereSeparator: { "-T:Z".contains($0) })
    guard parts.count >= 6, let y = Int(parts[0]), let mo = Int(parts[1]), let d = Int(parts[2]),
          let h = Int(parts[3]), let mi = Int(parts[4]) else { return nil }
    let secParts = parts[5].split(separator: ".")
    guard let sec = Int(secParts[0]) else { return nil }
    var nanos: Int64 = 0
    if secParts.count > 1 {
        let digits = String(secParts[1].prefix(9)).padding(toLength: 9, withPad: "0", startingAt: 0)
        nanos = Int64(digits) ?? 0
    }
    // Days from civil (H. Hinnant).
    let yy = mo <= 2 ? y - 1 : y
    let era = (yy >= 0 ? yy : yy - 399) / 400
    let yoe = yy - era * 400
    let doy = (153 * (mo + (mo > 2 ? -3 : 9)) + 2) / 5 + d - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    let days = era * 146097 + doe - 719468
    let seconds = Int64(days) * 86400 + Int64(h * 3600 + mi * 60 + sec)
    return seconds * 1_000_000_000 + nanos
}

/// The TPVs in gpspipe's output, in order.
func referenceTPVs(fromGPSPipeOutput text: String) -> [ReferenceTPV] {
    var out: [ReferenceTPV] = []
    for line in text.split(whereSeparator: \.isNewline) where line.contains("\"class\":\"TPV\"") {
        guard let obj = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { continue }
        out.append(ReferenceTPV(
            timeNanoseconds: (obj["time"] as? String).flatMap(parseGPSDTime),
            mode: (obj["mode"] as? NSNumber)?.intValue ?? 0,
            latitude: (obj["lat"] as? NSNumber)?.doubleValue,
            longitude: (obj["lon"] as? NSNumber)?.doubleValue,
            speed: (obj["speed"] as? NSNumber)?.doubleValue,
            course: (obj["track"] as? NSNumber)?.doubleValue))
    }
    return out
}

/// The documented one-fix-per-epoch rule (see `EpochReducer`), written out again here on
/// gpspipe's records so the test does not check the reducer against itself.
func referenceEpochs(_ tpvs: [ReferenceTPV]) -> (fixes: [ReferenceTPV], backward: Int) {
    var fixes: [ReferenceTPV] = []
    var epoch: Int64?
    var emitted = false
    var pending: ReferenceTPV?
    var dropped: Int64?
    var backward = 0
    for tpv in tpvs {
        guard tpv.mode >= 2, tpv.latitude != nil, tpv.longitude != nil, let t = tpv.timeNanoseconds else { continue }
        if let e = epoch, t < e {
            if let d = dropped, t > d {
                // the receiver's clock stepped back and carries on: new timeline
            } else {
                if dropped == nil || t < dropped! { dropped = t; backward += 1 }
                continue
            }
        }
        if epoch != t {
            if !emitted, let p = pending { fixes.append(p) }
            epoch = t; emitted = false; pending = nil; dropped = nil
        }
        if emitted { continue }
        if tpv.speed != nil { fixes.append(tpv); emitted = true; pending = nil } else if pending == nil { pending = tpv }
    }
    if !emitted, let p = pending { fixes.append(p) }
    return (fixes, backward)
}

/// Pulls a source's events on a background thread until the source finishes.
final class EventCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [(event: GPSDSourceEvent, at: Double)] = []
    private var thread: Thread!

    init(_ source: GPSDSource) {
        thread = Thread { [self] in
            while let e = source.nextEvent() {
                let now = monotonicNow()
                lock.withLock { events.append((e, now)) }
            }
        }
        thread.start()
    }

    var all: [GPSDSourceEvent] { lock.withLock { events.map(\.event) } }
    var fixes: [GPSDReport] { all.compactMap { if case .fix(let r) = $0 { return r } else { return nil } } }
    var gaps: [Gap] { all.compactMap { if case .gap(let g) = $0 { return g } else { return nil } } }
    var count: Int { lock.withLock { events.count } }
    /// Monotonic time of the latest event (or nil).
    var lastEventAt: Double? { lock.withLock { events.last?.at } }

    /// Waits until the server has written everything and no event arrived for `quiet` seconds.
    func waitForQuiet(after server: NMEAServer, quiet: Double = 1.5, timeout: Double = 90) {
        let start = monotonicNow()
        while monotonicNow() - start < timeout {
            if server.finished, monotonicNow() - (lastEventAt ?? start) > quiet,
               monotonicNow() - start > quiet { return }
            usleep(50_000)
        }
    }

    func join() { while !thread.isFinished { usleep(5_000) } }
}
