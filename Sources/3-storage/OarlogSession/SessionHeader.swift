/// The head of a session file: the preamble (magic, major and minor version) and the metadata
/// frame. One encoder for every writer of a head — a new recording (`SessionWriter`), a rename
/// (`SessionRetitle`), a repair (`SessionRecovery`) — so that the files they write cannot drift
/// apart. docs/SESSION_FORMAT.md has the layout.
enum SessionHeader {
    /// Appends the 12-byte preamble: `SessionFormat.magic`, then the major and minor version.
    static func appendPreamble(to w: inout ByteWriter) {
        w.raw(SessionFormat.magic)
        w.u16(SessionFormat.majorVersion)
        w.u16(SessionFormat.minorVersion)
    }

    /// Appends a metadata frame holding `metadata`.
    static func appendMetadataFrame(_ metadata: SessionMetadata, to w: inout ByteWriter) {
        var frame = FrameBuilder(capacity: 512)
        frame.begin(.metadata)
        metadata.encode(into: &frame.w)
        frame.end()
        w.raw(frame.w)
    }

    /// The preamble and the metadata frame: what a session file starts with.
    static func bytes(for metadata: SessionMetadata) -> [UInt8] {
        var head = ByteWriter(capacity: 512)
        appendPreamble(to: &head)
        appendMetadataFrame(metadata, to: &head)
        return head.bytes
    }
}
