import ArgumentParser
import Foundation
import OarlogApp
import OarlogTerminal

/// `oarlog hr …`: the crew's heart-rate straps (Bluetooth LE, through bluetoothd; docs/HEART_RATE.md).
struct HeartRateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hr",
        abstract: "Heart-rate straps: scan for them, give each to a seat (record and serve read them).",
        subcommands: [Scan.self, Assign.self, Unassign.self, List.self]
    )

    static func write(_ straps: [StrapStatus], json: Bool) throws {
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            StandardStreams.write(String(decoding: try encoder.encode(straps), as: UTF8.self) + "\n")
            return
        }
        if straps.isEmpty { StandardStreams.write("no straps\n") }
        for s in straps { StandardStreams.write(line(s) + "\n") }
    }

    /// `AA:BB:… Polar H10  seat stroke  -61 dBm  connected 142 bpm`
    static func line(_ s: StrapStatus) -> String {
        var parts = [s.address, s.name ?? "(no name)"]
        parts.append(s.seat.map { "seat \($0)" } ?? "no seat")
        if let rssi = s.rssi { parts.append("\(rssi) dBm") }
        if s.connected { parts.append("connected") }
        if let bpm = s.bpm { parts.append("\(bpm) bpm") }
        return parts.joined(separator: "  ")
    }

    struct Scan: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Ask bluetoothd for Bluetooth LE devices offering the Heart Rate service (0x180D).")

        @Option(help: "Seconds to scan (1–120).")
        var seconds: Double = 10

        @Flag(help: "As JSON: [{address, name, rssi, connected, seat}].")
        var json = false

        func validate() throws {
            guard seconds >= 1 && seconds <= 120 else { throw ValidationError("--seconds must be 1–120") }
        }

        func run() throws {
            if !json { StandardStreams.error("scanning \(Int(seconds)) s for heart-rate straps (wear the strap: most sleep when dry)…\n") }
            try HeartRateCommand.write(HeartRateStraps.scan(seconds: seconds, book: SessionStore.default.straps), json: json)
        }
    }

    struct Assign: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Give a strap to a seat (at most 8 straps).")

        @Argument(help: "The seat: stroke, bow, 2 … 7, cox, or any short name (16 characters at most).")
        var seat: String

        @Argument(help: "The strap's Bluetooth address, AA:BB:CC:DD:EE:FF (oarlog hr scan lists them).")
        var address: String

        func run() throws {
            let book = SessionStore.default.straps
            let left = try book.assign(seat: seat, address: address)
            let entry = try book.list().first { $0.seat == seat.trimmingCharacters(in: .whitespaces) }
            StandardStreams.write("\(entry?.seat ?? seat): \(entry?.address ?? address)\(left.map { " (taken from \($0))" } ?? "")\n")
        }
    }

    struct Unassign: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Take a strap from its seat.")

        @Argument(help: "The seat, or the strap's address.")
        var seatOrAddress: String

        func run() throws {
            guard let gone = try SessionStore.default.straps.unassign(seatOrAddress) else {
                throw ValidationError("no strap is assigned to '\(seatOrAddress)' (oarlog hr list)")
            }
            StandardStreams.write("\(gone.seat): \(gone.address) unassigned\n")
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The assigned straps, and those bluetoothd knows (no scan).")

        @Flag(help: "As JSON: [{address, name, seat, rssi, connected, bpm}].")
        var json = false

        func run() throws {
            try HeartRateCommand.write(HeartRateStraps.status(book: SessionStore.default.straps), json: json)
        }
    }
}
