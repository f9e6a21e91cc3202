import ArgumentParser

@main
struct Oarlog: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "oarlog",
        abstract: "A rowing instrument: stroke rate, split, distance from an accelerometer and GPS."
    )
}
