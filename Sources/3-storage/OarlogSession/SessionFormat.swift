/// The constants of the Oarlog session file format (`.oarlog`). The byte layout, the record kinds,
/// the versioning rules and the crash semantics are described in `docs/SESSION_FORMAT.md`.
///
/// In short: a 12-byte preamble (magic + major/minor version), then a sequence of frames, each
/// `sync(4) kind(1) length(4, LE) payload crc32c(4, LE)` with the CRC over kind, length and payload.
/// The data frames are a metadata frame and chunks (about one second of data each); a finished
/// file ends with an index frame, a summary frame, a fixed-size footer frame and the magic again.
public enum SessionFormat {
    /// First (and last) 8 bytes of a session file: 0x89 "OARLOG" "\n". The high byte catches
    /// 7-bit transfers, the newline catches line-ending conversion (as in PNG and MCAP).
    public static let magic: [UInt8] = [0x89, 0x4F, 0x41, 0x52, 0x4C, 0x4F, 0x47, 0x0A]
    /// Major version: readers refuse a file with a major version they do not know.
    public static let majorVersion: UInt16 = 1
    /// Minor version: added record kinds or fields appended to a payload; older readers skip them.
    /// 1: the stroke record's quality fields. 2: strokes recorded at their catch (`strokeCaught`,
    /// `strokeWithdrawn`). 3: heart rates (`heartRate`) and a reference stroke's power.
    /// 4: the workout plan, its steps' starts and each interval (`workout`). 5: an instrumented
    /// oarlock's strokes (`oarlock`). 6: the boat's fused speed (`boatSpeed`).
    public static let minorVersion: UInt16 = 6
    /// Magic + major + minor.
    public static let preambleSize = 12
    /// Marks the start of every frame (UTF-8 of U+1F6A3 ROWBOAT), so recovery can find the next
    /// frame after damage.
    public static let frameSync: [UInt8] = [0xF0, 0x9F, 0x9A, 0xA3]
    /// The sync word as a little-endian 32-bit load.
    static let frameSyncWord: UInt32 = 0xA39A_9FF0
    /// sync + kind + length.
    public static let frameHeaderSize = 9
    /// The CRC after the payload.
    public static let frameTrailerSize = 4
    /// A frame longer than this is treated as damage (a flipped length must not make a reader
    /// allocate gigabytes). Writers close chunks long before this.
    public static let maximumFramePayload = 16 << 20
    /// Payload bytes of the footer frame: index offset, summary offset, data end (3 × UInt64).
    public static let footerPayloadSize = 24
    /// Footer frame + trailing magic: the fixed-size tail of a finished file.
    public static let tailSize = frameHeaderSize + footerPayloadSize + frameTrailerSize + 8
    /// Conventional file name extension.
    public static let fileExtension = "oarlog"
}

/// Top-level frame kinds. Readers skip (after checking the CRC) any kind they do not know.
public enum FrameKind: UInt8, Sendable {
    /// Session metadata: title, start UTC, monotonic origin, devices, rates, software, settings.
    case metadata = 0x01
    /// A chunk of records (about one second of data).
    case chunk = 0x02
    /// Where the chunks are and what time they cover (sparse; see `SparseChunkIndex`).
    case index = 0x03
    /// The session's totals as the pipeline concluded them, plus record counts.
    case summary = 0x04
    /// Fixed-size last frame: offsets of the index and summary frames.
    case footer = 0x05
}

/// Record kinds inside a chunk. Each record is `kind(1) length(varint) payload`; readers skip
/// kinds they do not know, and ignore payload bytes after the fields they know (fields are only
/// ever appended within a major version).
public enum RecordKind: UInt8, Sendable {
    /// A columnar block of accelerometer samples (delta-coded time, float32 or int16 counts).
    case accelBlock = 0x01
    case fix = 0x02
    case note = 0x03
    case gap = 0x04
    case reference = 0x05
    /// A trace `# key: value` line that came through the pipeline.
    case traceMetadata = 0x06
    /// A heart rate (minor version 3): time f64, bpm f64, sensor string (empty: one strap).
    case heartRate = 0x07
    /// An instrumented oarlock's stroke (minor version 5): see `RecordCoding.encodeOarlock`.
    case oarlock = 0x08
    /// A stroke with its figures, as the analyzer concluded it.
    case stroke = 0x10
    /// A named event with key/value fields (geofence crossings, marks, anything later).
    case event = 0x11
    /// A stroke at its catch (minor version 2): the stroke record's payload with what is known
    /// then (index, catch, rate, smoothed rate). The same index comes later as a `stroke`.
    case strokeCaught = 0x12
    /// A catch recorded as `strokeCaught` that was no stroke (minor version 2): the stroke
    /// record's payload; its index is free again.
    case strokeWithdrawn = 0x13
    /// A workout record (minor version 4): the event payload (`workout.plan`, `workout.step`,
    /// `workout.start`, `workout.interval`, `workout.finish`); see `SessionWorkoutRecords`.
    case workout = 0x14
    /// A block of the boat's fused speed (minor version 6): see `BoatSpeedBlock`.
    case boatSpeed = 0x15
}

/// What went wrong reading or writing a session, in words a person can act on.
public enum SessionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file does not start with the session magic.
    case notASession(path: String, detail: String)
    /// The file's major version is newer than this build understands.
    case unsupportedVersion(path: String, major: UInt16, minor: UInt16)
    /// A system call failed (`operation` says which; `errno` is the C error number).
    case io(path: String, operation: String, errno: Int32, detail: String)
    /// A frame failed its CRC or ended early.
    case damaged(path: String, offset: Int, detail: String)
    /// `SessionDirectory.resolve` found nothing (or too much) for a name.
    case notFound(reference: String, detail: String)
    /// The writer was used after it failed or was closed.
    case writerClosed(path: String, detail: String)

    public var description: String {
        switch self {
        case .notASession(let path, let detail):
            return "\(path) is not an Oarlog session file (\(detail))"
        case .unsupportedVersion(let path, let major, let minor):
            return "\(path) is an Oarlog session of format version \(major).\(minor); this oarlog reads version "
                + "\(SessionFormat.majorVersion).x — update oarlog to read it"
        case .io(let path, let operation, let errno, let detail):
            return "\(operation) \(path) failed: \(SystemError.message(errno))\(detail.isEmpty ? "" : " — " + detail)"
        case .damaged(let path, let offset, let detail):
            return "\(path) is damaged at byte \(offset): \(detail) (try `oarlog recover \(path) -o FIXED`)"
        case .notFound(let reference, let detail):
            return "no session \(reference): \(detail)"
        case .writerClosed(let path, let detail):
            return "the session \(path) is closed: \(detail)"
        }
    }
}
