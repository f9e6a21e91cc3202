import ArgumentParser
import OarlogApp
import OarlogTrace
import OarlogTerminal

/// `oarlog fit FILE`: every data message of a FIT file, one JSON object a line — what the
/// decoder reads, for a person curious about a device's file and for comparing with Garmin's SDK
/// (scripts/fit-compare.py).
struct FITCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fit",
        abstract: "Print each message of a FIT file as one JSON line.",
        discussion: """
            Each line is {"message": NAME, "fields": {NAME: VALUE}}: names from the FIT profile (a message \
            or field this decoder does not name is shown by its number), values scaled as the profile says \
            (distance in metres, speed in m/s, times in seconds since 1989-12-31 UTC, positions in \
            semicircles), fields without data left out. Developer fields are named by their description. \
            A damaged file (CRC mismatch, truncated) is refused, naming the byte.
            Examples:
              oarlog fit activity.fit
              oarlog fit activity.fit --message record
            """
    )

    @Argument(help: "The FIT file.")
    var file: String

    @Option(help: "Only the messages of this name (record, lap, session, file_id, …) or number.")
    var message: String?

    func run() throws {
        var decoder: FITDecoder
        do { decoder = try FITDecoder(path: file) } catch { throw CommandFailure("\(error)") }
        var out = ""
        do {
            while let m = try decoder.next() {
                if let wanted = message, wanted != String(m.globalNumber), wanted != FITProfile.messageName(m.globalNumber) {
                    continue
                }
                out += FITProfile.json(m)
                out += "\n"
                if out.utf8.count >= 1 << 16 {
                    StandardStreams.write(out)
                    out = ""
                }
            }
        } catch {
            StandardStreams.write(out)
            throw CommandFailure("\(error)")
        }
        StandardStreams.write(out)
    }
}
