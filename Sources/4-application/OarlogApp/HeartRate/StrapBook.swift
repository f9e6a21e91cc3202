import Foundation
import OarlogHeartRate

/// One strap's place in the boat: a seat's short name and the strap's Bluetooth address.
public struct StrapBookEntry: Codable, Sendable, Equatable {
    public var seat: String
    public var address: String
    public init(seat: String, address: String) {
        self.seat = seat
        self.address = address
    }
}

/// The heart-rate straps given to seats, kept in `straps.json` beside the sessions (locked,
/// replaced atomically: `DataFile`). At most 8; a seat holds one strap and a strap one seat.
public struct StrapBook: Sendable {
    public static let fileName = "straps.json"
    public static let maximumStraps = HeartRateStrapConfiguration.maximumStraps
    public static let maximumSeatLength = 16

    public let path: String

    public init(sessionsPath: String) {
        path = (sessionsPath.hasSuffix("/") ? sessionsPath : sessionsPath + "/") + Self.fileName
    }

    var file: DataFile { DataFile(path: path, maximumBytes: 64 << 10) }

    /// The straps, in the order they were given.
    public func list() throws -> [StrapBookEntry] { try file.items(StrapBookEntry.self) }

    /// Gives the strap at `address` to `seat` (replacing the seat's strap, and taking the strap
    /// from any other seat). Returns the seat the strap left, if any.
    @discardableResult
    public func assign(seat rawSeat: String, address rawAddress: String) throws -> String? {
        let seat = try Self.checkedSeat(rawSeat)
        let address = try Self.checkedAddress(rawAddress)
        return try file.changeItems(StrapBookEntry.self, pretty: true) { entries -> String? in
            let previous = entries.first { $0.address == address && $0.seat != seat }?.seat
            entries.removeAll { $0.address == address || $0.seat == seat }
            guard entries.count < Self.maximumStraps else {
                throw AppError("\(Self.maximumStraps) straps are assigned already: unassign one first (oarlog hr unassign SEAT)")
            }
            entries.append(StrapBookEntry(seat: seat, address: address))
            return previous
        }
    }

    /// Takes the strap from a seat (by seat name or strap address); the entry removed, nil when none matched.
    @discardableResult
    public func unassign(_ seatOrAddress: String) throws -> StrapBookEntry? {
        let key = seatOrAddress.trimmingCharacters(in: .whitespaces)
        let address = (try? Self.checkedAddress(key)) ?? ""
        return try file.changeItems(StrapBookEntry.self, pretty: true) { entries -> StrapBookEntry? in
            guard let index = entries.firstIndex(where: { $0.seat == key || $0.address == address }) else { return nil }
            return entries.remove(at: index)
        }
    }

    /// A seat's name as given: 1–16 letters, digits, '-' or '_' ("stroke", "bow", "2", "cox").
    public static func checkedSeat(_ text: String) throws -> String {
        let seat = text.trimmingCharacters(in: .whitespaces)
        guard !seat.isEmpty, seat.count <= maximumSeatLength,
              seat.unicodeScalars.allSatisfy({ $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_") }) else {
            throw AppError("seat '\(text.prefix(40))': expected 1–\(maximumSeatLength) letters, digits, '-' or '_' (stroke, bow, 2 … 7, cox)")
        }
        return seat
    }

    /// A Bluetooth address, upper case: six pairs of hex digits joined by ':' (`AA:BB:CC:DD:EE:FF`).
    public static func checkedAddress(_ text: String) throws -> String {
        let address = text.trimmingCharacters(in: .whitespaces).uppercased()
        let pairs = address.split(separator: ":", omittingEmptySubsequences: false)
        guard pairs.count == 6, pairs.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isHexDigit) }) else {
            throw AppError("'\(text.prefix(40))' is not a Bluetooth address: expected six pairs of hex digits, e.g. C0:FF:EE:12:34:56")
        }
        return address
    }
}

extension SessionStore {
    /// The heart-rate straps given to seats (`straps.json` beside the sessions).
    public var straps: StrapBook { StrapBook(sessionsPath: path) }
}
