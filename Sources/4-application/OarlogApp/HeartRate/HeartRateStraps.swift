import Foundation
import OarlogCore
import OarlogHeartRate
import OarlogLive
import Synchronization

/// Where a strap stands, for `oarlog hr scan`, `oarlog hr list`, `oarlog devices` and
/// `GET /api/heart-rate/straps`: assigned (a seat), seen by bluetoothd, and, while a live
/// session reads it, connected with its latest heart rate.
public struct StrapStatus: Codable, Sendable, Equatable {
    public var address: String
    public var name: String?
    public var seat: String?
    public var rssi: Int?
    public var connected: Bool
    public var bpm: Int?
    public init(address: String, name: String? = nil, seat: String? = nil, rssi: Int? = nil, connected: Bool = false, bpm: Int? = nil) {
        self.address = address
        self.name = name
        self.seat = seat
        self.rssi = rssi
        self.connected = connected
        self.bpm = bpm
    }
}

/// The straps' glue between the strap book, bluetoothd and the live session.
public enum HeartRateStraps {
    /// The live session's strap reader, while one runs (set by `LiveSensors.open`; not kept alive by this).
    static let running = Mutex<WeakStrapSource>(WeakStrapSource())

    /// The D-Bus address used: `DBUS_SYSTEM_BUS_ADDRESS` if set, else the system bus.
    static var busAddress: String? { ProcessInfo.processInfo.environment["DBUS_SYSTEM_BUS_ADDRESS"] }

    /// The live strap reader over the book's straps, or nil when none are assigned.
    public static func source(for choice: HeartRateStrapChoice, clock: SessionClock, log: @escaping @Sendable (String) -> Void,
                              shouldStop: @escaping @Sendable () -> Bool) -> HeartRateStrapSource? {
        guard !choice.straps.isEmpty else { return nil }
        let configuration = HeartRateStrapConfiguration(
            straps: choice.straps.map { StrapAssignment(seat: $0.seat, address: $0.address) }, busAddress: choice.busAddress ?? busAddress)
        let source = HeartRateStrapSource(configuration: configuration, clock: clock, log: log, shouldStop: shouldStop)
        running.withLock { $0.source = source }
        return source
    }

    /// Asks bluetoothd to look for straps (the Heart Rate service) for `seconds`, and lists them
    /// with the book's seats and the assigned straps not seen. Throws when bluetoothd cannot be reached.
    public static func scan(seconds: Double, book: StrapBook) throws -> [StrapStatus] {
        let seen: [BlueZDevice]
        do { seen = try StrapScanner.scan(duration: seconds, busAddress: busAddress) } catch {
            throw AppError("\(error) (is bluetoothd running? systemctl status bluetooth)")
        }
        return merge(book: try book.list(), seen: seen)
    }

    /// The book's straps and those bluetoothd knows now (no scan; nothing when it cannot be
    /// reached), with the live session's connection and heart rate.
    public static func status(book: StrapBook, askBluetoothd: Bool = true) throws -> [StrapStatus] {
        let seen = askBluetoothd ? ((try? StrapScanner.scan(duration: 0, busAddress: busAddress, timeout_s: 1)) ?? []) : []
        return merge(book: try book.list(), seen: seen)
    }

    static func merge(book: [StrapBookEntry], seen: [BlueZDevice]) -> [StrapStatus] {
        let live = running.withLock { $0.source?.statistics } ?? []
        var list: [StrapStatus] = book.map { entry in
            let device = seen.first { $0.address == entry.address }
            let stats = live.first { $0.address == entry.address }
            return StrapStatus(address: entry.address, name: device?.name ?? stats?.name, seat: entry.seat, rssi: device?.rssi,
                               connected: stats?.connected ?? device?.connected ?? false,
                               bpm: stats?.connected == true ? stats?.lastBeatsPerMinute : nil)
        }
        for device in seen where !book.contains(where: { $0.address == device.address }) {
            list.append(StrapStatus(address: device.address, name: device.name, rssi: device.rssi, connected: device.connected))
        }
        return list
    }
}

/// A reference to the running strap reader that does not keep it alive.
struct WeakStrapSource: @unchecked Sendable {
    weak var source: HeartRateStrapSource?
}

/// Which straps a live session reads (the strap book's, unless --no-hr).
public struct HeartRateStrapChoice: Sendable, Equatable {
    public var straps: [StrapBookEntry]
    /// nil: the system bus (or `DBUS_SYSTEM_BUS_ADDRESS`).
    public var busAddress: String?
    public init(straps: [StrapBookEntry], busAddress: String? = nil) {
        self.straps = straps
        self.busAddress = busAddress
    }

    /// The straps assigned in the book beside `sessionsPath`; none when the book cannot be read.
    public static func assigned(sessionsPath: String) -> HeartRateStrapChoice {
        HeartRateStrapChoice(straps: (try? StrapBook(sessionsPath: sessionsPath).list()) ?? [])
    }
}
