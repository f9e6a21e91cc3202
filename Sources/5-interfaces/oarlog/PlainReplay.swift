#if canImport(Glibc)
import Glibc
#endif
import OarlogReplay
import OarlogTerminal

/// A plain replay run by the front: the same `TraceReplay` and `ReplayReport` as `oarlog-full
/// replay` with its defaults, so the output is the same byte for byte.
enum PlainReplay {
    static func run(_ request: PlainReplayRequest, otherwise arguments: [String]) -> Never {
        var replay: TraceReplay
        do {
            replay = try TraceReplay(path: request.trace, format: request.format)
        } catch {
            // Nothing is written yet: `oarlog-full` opens the trace again and says what is wrong
            // in the words and with the status every command uses.
            FullProgram.run(arguments)
        }
        SignalFlag.install()
        let report = ReplayReport(trace: request.trace, json: request.json, strokes: request.strokes)
        do {
            let outcome = try replay.run(sinks: report.sinks(facts: replay.facts), shouldStop: { SignalFlag.interrupted })
            report.finish(outcome, facts: replay.facts)
            exit(0)
        } catch {
            if !report.wroteOutput { FullProgram.run(arguments) }
            StandardStreams.error("Error: \(error)\n")
            exit(1)
        }
    }
}
