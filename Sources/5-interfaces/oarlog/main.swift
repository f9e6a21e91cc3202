#if canImport(Glibc)
import Glibc
#endif
import OarlogTerminal

// `oarlog`: the top-level help and a plain replay are answered here, on the replay's modules
// alone; every other command line goes to `oarlog-full` beside this program, in this process.
let arguments = Array(CommandLine.arguments.dropFirst())
switch FrontCommand(arguments) {
case .help where TopLevelHelp.isEightyColumns:
    StandardStreams.write(TopLevelHelp.text)
    exit(0)
case .replay(let request):
    PlainReplay.run(request, otherwise: arguments)
case .help, .full:
    FullProgram.run(arguments)
}
