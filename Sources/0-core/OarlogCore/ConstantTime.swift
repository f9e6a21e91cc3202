/// Comparison of secrets (the control token, the pairing code, a share link's token, a playback
/// key) whose time depends on their lengths only, never on how much of a guess was right.
public enum ConstantTime {
    public static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var diff: UInt8 = 0
        for i in 0..<a.count { diff |= a[i] ^ b[i] }
        return diff == 0
    }
}
