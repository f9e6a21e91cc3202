import Foundation
import XCTest
import OarlogCore
import OarlogDSP
import OarlogExport
import OarlogSimulator
import OarlogTestSupport

/// A simulated session with a heart-rate strap and power figures of known values, for the
/// heart-rate and power export tests: 60 s rowing at 24 spm, 40 s rest, 60 s rowing (two laps at
/// the default rule), a strap sample every whole second except in `heartRateGap`, and power
/// figures (a device's strokes, or an oarlock's) added by the test.
enum HeartRatePowerSession {
    /// The strap's heart rate at a whole second `t`: 110, rising a beat every 2 s.
    static func heartRate(_ t: Double) -> Double { 110 + (t / 2).rounded(.down) }
    /// No strap samples in this span (the strap lost contact): points and strokes more than 5 s
    /// after its last sample have no heart rate.
    static let heartRateGap = 20.0..<32.0
    static let duration = 160.0
    /// Rowing spans (the rest between them).
    static func rowing(_ t: Double) -> Bool { t < 60 || t >= 100 }

    /// The strap's sample times.
    static var heartRateTimes: [Double] {
        stride(from: 0.0, to: duration, by: 1).filter { !heartRateGap.contains($0) }
    }

    /// The heart rate the exports should put at `t`: the latest sample at or before `t`, at most
    /// 5 s old; nil when there is none.
    static func heartRate(at t: Double) -> Double? {
        guard let s = heartRateTimes.last(where: { $0 <= t }), t - s <= 5 else { return nil }
        return heartRate(s)
    }

    /// The simulator's records with the strap's samples and `extra` merged in time order (each
    /// extra record before the first record later than it).
    static func records(extra: [TraceRecord] = []) throws -> [TraceRecord] {
        var configuration = SimulationConfiguration(duration: duration, profile: SimulationProfile(
            name: "piece-rest-piece", segments: [.rowing(60, rate: 24, power: 0.9), .rest(40), .rowing(60, rate: 24, power: 0.9)],
            flyingStart: true))
        configuration.seed = 28
        var simulator = try BoatSimulator(configuration: configuration)
        var added = heartRateTimes.map { TraceRecord.heartRate(HeartRateSample(time: $0, bpm: heartRate($0))) } + extra
        added.sort { ($0.time ?? 0) < ($1.time ?? 0) }
        var out: [TraceRecord] = []
        var next = 0
        while let r = try simulator.next() {
            if let t = r.time {
                while next < added.count, (added[next].time ?? 0) <= t { out.append(added[next]); next += 1 }
            }
            out.append(r)
        }
        out += added[next...]
        return out
    }

    static func export(_ test: XCTestCase, extra: [TraceRecord] = []) throws -> ExportRun {
        var source = ListSource(try records(extra: extra))
        return try ExportRun.make(&source, in: try temporaryDirectory(test))
    }

    /// The first catch after a pause of at least 30 s: where the second lap begins.
    static func secondLapStart(_ strokes: [StrokeMetrics]) throws -> Double {
        let catches = strokes.map(\.stroke.catchTime)
        let i = try XCTUnwrap(catches.indices.dropFirst().first { catches[$0] - catches[$0 - 1] >= 30 }, "a rest of 30 s")
        return catches[i]
    }

    static func mean(_ values: [Double]) -> Double { values.reduce(0, +) / Double(values.count) }
}

/// The number between `open` and `close` in each part of `text` that begins at `start` and ends
/// at `end`: `values(of: "<gpxtpx:hr>", "</gpxtpx:hr>", per: "<trkpt ", until: "</trkpt>", in: gpx)`
/// gives each track point's heart rate (nil where it has none).
func values(of open: String, _ close: String, per start: String, until end: String, in text: String) -> [Double?] {
    text.components(separatedBy: start).dropFirst().map { part in
        let chunk = part.components(separatedBy: end)[0]
        guard let a = chunk.range(of: open), let b = chunk.range(of: close, range: a.upperBound..<chunk.endIndex) else { return nil }
        return Double(chunk[a.upperBound..<b.lowerBound])
    }
}
