import ArgumentParser

@main
struct Oarlog: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "oarlog",
        abstract: "A rowing instrument: stroke rate, split, distance and strokes from an accelerometer and GPS.",
        discussion: """
            Replay a recorded trace (native CSV, NK SpeedCoach, NK LiNK Logbook, Talos, Quiske) through \
            the same pipeline that runs in the boat, or simulate a session with known ground truth.
            """,
        subcommands: [Replay.self, Record.self, Sessions.self, Show.self, Play.self, NoteCommand.self, Delete.self, Simulate.self, Export.self, CourseCommand.self, FencesCommand.self, GPSMonitor.self, AccelCheck.self, Devices.self, Recover.self, Evaluate.self, Serve.self, Bests.self, Compare.self, ArchiveCommand.self, FITCommand.self, ImportCommand.self, Workouts.self, Courses.self, Attempts.self, ChallengesCommand.self, ShareCommand.self, SharesCommand.self, UnshareCommand.self, AccountsCommand.self, UploadCommand.self, UploadsCommand.self, HeartRateCommand.self]
    )
}
