import ArgumentParser
import OarlogApp
import OarlogCore
import OarlogFences
import OarlogPipeline
import OarlogTrace
import OarlogTerminal

/// `oarlog course TRACE --fences course.geojson`: replays a trace through the pipeline with the
/// course's gates and prints each piece's per-leg table (time, split, stroke rate), the course
/// problems (wrong way, missed gates) and the count of rejected crossings.
struct CourseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "course",
        abstract: "Time a course over a trace: per-leg time, split and stroke rate from gate crossings.",
        discussion: """
            The course is the gates of a GeoJSON file with a "role" (start, marker, finish); see \
            docs/FENCES.md, or make a straight one with `oarlog fences make-course`.
            """
    )

    @OptionGroup var input: TraceArguments
    var trace: String { input.trace }
    var format: TraceFormat? { input.format }

    @Option(help: "The GeoJSON course (and any other fences).")
    var fences: String

    @Flag(help: "Also print every fence event as it happens.")
    var events = false

    @OptionGroup(title: "Analysis")
    var analysis: AnalysisOptions

    func run() throws {
        SignalFlag.install()
        let file: FenceFile
        do {
            file = try FenceFile.load(path: fences)
        } catch {
            StandardStreams.error("error: \(error)\n")
            throw ExitCode(1)
        }
        guard file.course != nil else {
            StandardStreams.error("error: \(fences) defines no course (no gate has a \"role\": start, marker or finish)\n")
            throw ExitCode(1)
        }
        var replay = try TraceReplay(path: trace, format: format, options: input.options, settings: analysis.settings, fences: file)
        var sinks: [any PipelineSink] = []
        if events { sinks.append(FenceEventPrinter { StandardStreams.write($0 + "\n") }) }
        sinks.append(CourseTable { StandardStreams.write($0) })
        let outcome = try replay.run(sinks: sinks, shouldStop: { SignalFlag.interrupted })
        reportSkips(outcome.skipNote)
    }
}
