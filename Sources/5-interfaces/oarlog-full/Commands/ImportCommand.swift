import ArgumentParser
import OarlogApp
import OarlogCore
import OarlogTrace
import OarlogTerminal

/// `oarlog import PATH…`: a club's history into the archive, each trace kept as a session.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import trace files, folders and zips into the archive, each as a session (a file imported before is skipped).",
        discussion: """
            Every file in any format `oarlog replay` reads (detected), in the folders given (walked, \
            hidden files left out, files of no trace format passed over and counted) and in zip files \
            as NK LiNK and Garmin hand them out. Each is replayed and kept as a session at the start \
            the file gives (else the file's time), titled by its session name or file name. A file \
            already imported — the same device and start, or the same content — is skipped, so \
            importing a folder again adds nothing. `oarlog bests`, `sessions` and `compare` see the \
            new sessions at once.

            Exit status: 0 when no file was refused, 1 when any was (each named with why) or the \
            import was stopped (Ctrl-C: the file being read is not kept; import again for the rest).

            Examples:
              oarlog import ~/rowing/speedcoach/ --boat "Nell"
              oarlog import export.zip more.csv --json
            """
    )

    @Argument(help: "Trace files, folders and zip files.")
    var paths: [String]

    @Option(help: "The boat that rowed them, kept with each session (`oarlog sessions --boat`, `oarlog bests --boat`).")
    var boat: String?

    @Flag(name: .customLong("any-sport"), help: "Read TCX, GPX or FIT activities of any sport (default: refuse what is not rowing).")
    var anySport = false

    @Flag(help: "Print one JSON object: {\"imported\": [{file, session, start_utc}], \"duplicates\": [{file, session}], \"refused\": [{file, error}], \"other_files\": N}.")
    var json = false

    @OptionGroup(title: "Analysis")
    var analysis: AnalysisOptions

    func run() throws {
        SignalFlag.install()
        let bar = ImportProgressBar.ifTerminal()
        let summary = try SessionStore.default.importing(
            paths, boat: boat, options: TraceOpenOptions(anySport: anySport), settings: analysis.settings,
            progress: { bar?.show($0) }, shouldStop: { SignalFlag.interrupted })
        bar?.clear()
        StandardStreams.write(json ? summary.json() + "\n" : summary.text())
        if !summary.refused.isEmpty || summary.notRead > 0 { throw ExitCode(1) }
    }
}

/// The import's progress on a terminal (standard error), in place: how many files of how many,
/// and the one being read. Nothing when standard error is not a terminal.
final class ImportProgressBar {
    private var shown = false

    static func ifTerminal() -> ImportProgressBar? { StandardStreams.stderrIsTerminal ? ImportProgressBar() : nil }

    func show(_ progress: ImportProgress) {
        guard progress.total > 0, progress.done < progress.total else { return }
        let width = 20
        let filled = progress.done * width / progress.total
        let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled)
        let name = StoredText.escapedForTerminal(String(progress.file.suffix(40)))
        StandardStreams.error("\r\u{1B}[K  importing [\(bar)] \(progress.done + 1) of \(progress.total)  \(name)")
        shown = true
    }

    func clear() {
        if shown { StandardStreams.error("\r\u{1B}[K") }
    }
}
