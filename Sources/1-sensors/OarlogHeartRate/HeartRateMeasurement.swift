/// One Heart Rate Measurement (GATT characteristic 0x2A37, Bluetooth SIG's Heart Rate Service
/// 1.0), as a strap notifies it: a flags byte, then the rate (8 or 16 bits), then the energy
/// expended (16 bits) and RR intervals (16 bits each, 1/1024 s) when the flags say so. All
/// fields little-endian.
public struct HeartRateMeasurement: Sendable, Equatable {
    /// Whether the strap feels the skin (flags bits 1–2).
    public enum SensorContact: Sendable, Equatable {
        /// The strap does not say (bit 2 clear).
        case notSupported
        /// Supported, and no contact now (a strap too loose or dry).
        case notDetected
        /// Supported, and the skin is felt.
        case detected
    }

    /// The largest notification accepted: a real one is at most 20 bytes on the default ATT MTU;
    /// anything longer is not a strap's and is not read further.
    public static let maximumLength = 512
    /// The highest rate believed; above it the notification is counted and skipped.
    public static let maximumBeatsPerMinute = 250

    public var beatsPerMinute: Int
    /// True when the rate was sent as 16 bits (flags bit 0).
    public var rateIsSixteenBits: Bool
    public var sensorContact: SensorContact
    /// Energy expended since the strap's last reset, in kilojoules (flags bit 3).
    public var energyExpended_kJ: Int?
    /// RR intervals as sent, in 1/1024 s (flags bit 4), oldest first.
    public var rrIntervals_1024ths: [UInt16]

    public init(beatsPerMinute: Int, rateIsSixteenBits: Bool = false, sensorContact: SensorContact = .notSupported,
                energyExpended_kJ: Int? = nil, rrIntervals_1024ths: [UInt16] = []) {
        self.beatsPerMinute = beatsPerMinute
        self.rateIsSixteenBits = rateIsSixteenBits
        self.sensorContact = sensorContact
        self.energyExpended_kJ = energyExpended_kJ
        self.rrIntervals_1024ths = rrIntervals_1024ths
    }

    /// The RR intervals in seconds.
    public var rrIntervals_s: [Double] { rrIntervals_1024ths.map { Double($0) / 1024 } }

    /// Reads one notification's bytes; a rejection says why it is not a usable measurement.
    public static func parse(_ bytes: [UInt8]) -> Result<HeartRateMeasurement, HeartRateMeasurementRejection> {
        guard !bytes.isEmpty else { return .failure(.tooShort(length: 0, needed: 2)) }
        guard bytes.count <= maximumLength else { return .failure(.tooLong(length: bytes.count)) }
        let flags = bytes[0]
        let sixteenBits = flags & 0x01 != 0
        let hasEnergy = flags & 0x08 != 0
        let hasRR = flags & 0x10 != 0
        let fixedLength = 1 + (sixteenBits ? 2 : 1) + (hasEnergy ? 2 : 0) + (hasRR ? 2 : 0)
        guard bytes.count >= fixedLength else { return .failure(.tooShort(length: bytes.count, needed: fixedLength)) }
        var index = 1
        func uint16() -> UInt16 {
            defer { index += 2 }
            return UInt16(bytes[index]) | UInt16(bytes[index + 1]) << 8
        }
        let bpm: Int
        if sixteenBits { bpm = Int(uint16()) } else { bpm = Int(bytes[index]); index += 1 }
        let energy = hasEnergy ? Int(uint16()) : nil
        let rest = bytes.count - index
        if !hasRR && rest != 0 || hasRR && rest % 2 != 0 {
            return .failure(.wrongLength(length: bytes.count, flags: flags))
        }
        var rr: [UInt16] = []
        if hasRR {
            rr.reserveCapacity(rest / 2)
            while index < bytes.count { rr.append(uint16()) }
        }
        guard bpm > 0 else { return .failure(.noRate) }
        guard bpm <= maximumBeatsPerMinute else { return .failure(.implausibleRate(bpm: bpm)) }
        let contact: SensorContact = flags & 0x04 == 0 ? .notSupported : (flags & 0x02 != 0 ? .detected : .notDetected)
        return .success(HeartRateMeasurement(beatsPerMinute: bpm, rateIsSixteenBits: sixteenBits, sensorContact: contact,
                                             energyExpended_kJ: energy, rrIntervals_1024ths: rr))
    }
}

/// Why a notification was not a usable heart rate (counted and skipped, never fatal).
public enum HeartRateMeasurementRejection: Error, Sendable, Equatable, CustomStringConvertible {
    /// Fewer bytes than the flags (or the flags byte itself) need.
    case tooShort(length: Int, needed: Int)
    /// More than `HeartRateMeasurement.maximumLength` bytes.
    case tooLong(length: Int)
    /// Bytes left over that the flags do not account for (or half an RR interval).
    case wrongLength(length: Int, flags: UInt8)
    /// A rate of 0: the strap has no reading.
    case noRate
    /// Above `HeartRateMeasurement.maximumBeatsPerMinute`.
    case implausibleRate(bpm: Int)

    public var description: String {
        switch self {
        case .tooShort(let length, let needed): return "heart-rate notification too short: \(length) bytes, its flags need \(needed)"
        case .tooLong(let length): return "heart-rate notification too long: \(length) bytes"
        case .wrongLength(let length, let flags):
            return "heart-rate notification of \(length) bytes does not match its flags 0x\(String(flags, radix: 16))"
        case .noRate: return "heart-rate notification with a rate of 0"
        case .implausibleRate(let bpm): return "heart rate of \(bpm) bpm is not believable"
        }
    }
}
