import ArgumentParser
import OarlogApp
import OarlogCore
import OarlogTerminal

/// `oarlog workouts`: the plans kept by name (`WorkoutLibrary`, beside the sessions), to choose
/// on the phone before the start or give to `--workout`. docs/WORKOUTS.md.
struct Workouts: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "workouts",
        abstract: "Keep workout plans by name: add, list, show, remove (see docs/WORKOUTS.md).",
        discussion: """
            A plan is written as rowers write it (3x4:00/2:00r, 8x500m@1:50/1:30r, \
            4:00,3:00,2:00,1:00/1:00r, 3x10:00@20spm,22spm,24spm/2:00r), or in the JSON form in a \
            .json file for anything longer (warm-up, cool-down, named steps, repeats).
            Examples:
              oarlog workouts add "Tuesday 8s" 8x500m@1:48-1:52/1:30r
              oarlog workouts add "Saturday pyramid" pyramid.json
              oarlog workouts list
              oarlog workouts show "Tuesday 8s"
              oarlog workouts show 3x10:00@20spm,22spm,24spm/2:00r
            """,
        subcommands: [Add.self, List.self, Show.self, Remove.self]
    )

    /// Runs `work`, printing a library error as `Error: …` (and, for a plan's text, the text with
    /// a caret under the column at fault) with exit status 1.
    static func reporting<T>(_ work: () throws(WorkoutLibraryError) -> T) throws -> T {
        do { return try work() } catch {
            StandardStreams.error("Error: \(StoredText.escapedForTerminal(error.description))\n")
            if let pointer = error.pointer {
                StandardStreams.error(pointer.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 + "\n" }.joined())
            }
            throw ExitCode.failure
        }
    }

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Save a plan by name (the text form, or a .json file in the JSON form).")

        @Argument(help: "The plan's name: 1 to 80 printable characters.")
        var name: String

        @Argument(help: "The plan: 3x4:00/2:00r and the like, or the path of a .json file.")
        var spec: String

        @Flag(help: "Replace a plan saved under this name.")
        var replace = false

        func run() throws {
            let (saved, replaced) = try Workouts.reporting { () throws(WorkoutLibraryError) in
                try WorkoutLibrary.default.add(name: name, .argument(spec), replacing: replace)
            }
            let shown = StoredText.escapedForTerminal(saved.name)
            StandardStreams.write("\(replaced ? "replaced" : "saved") \(shown): \(saved.summary)\n")
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "The saved plans: name and summary.")

        @Flag(help: "Print a JSON array: name, spec, plan (the JSON form as saved), summary, pieces, steps.")
        var json = false

        func run() throws {
            let workouts = try Workouts.reporting { () throws(WorkoutLibraryError) in try WorkoutLibrary.default.list() }
            if json {
                StandardStreams.write(SavedWorkout.json(workouts) + "\n")
            } else if workouts.isEmpty {
                StandardStreams.error("no saved workouts (oarlog workouts add NAME SPEC)\n")
            } else {
                let rows = [["name", "pieces", "plan"]]
                    + workouts.map { [StoredText.escapedForTerminal($0.name), String($0.plan.pieceCount), $0.summary] }
                StandardStreams.write(TextTable.columns(rows, rightAligned: [1]))
            }
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "A plan's steps: a saved plan's name, a .json file, or a plan's text (to check it).")

        @Argument(help: "A saved plan's name, a .json plan file, or a plan such as 3x4:00/2:00r.")
        var plan: String

        @Flag(help: "Print the plan in the JSON form (every step written out).")
        var json = false

        func run() throws {
            let plan = try Workouts.reporting { () throws(WorkoutLibraryError) in try WorkoutLibrary.default.resolve(self.plan) }
            if json {
                StandardStreams.write(WorkoutPlanJSON.encode(plan) + "\n")
                return
            }
            var text = TextTable.labelled([("workout", StoredText.escapedForTerminal(plan.name)),
                                           ("plan", plan.spec ?? "(JSON form)"), ("summary", plan.summary)])
            var rows = [["step", "piece", "kind", "length", "target", "label"]]
            for (i, step) in plan.steps.enumerated() {
                rows.append([String(i + 1), plan.pieceNumber(ofStep: i).map { "\($0)/\(plan.pieceCount)" } ?? "",
                             WorkoutText.human(step.kind), WorkoutText.human(step.length), WorkoutText.human(step.target),
                             StoredText.escapedForTerminal(step.label ?? "")])
            }
            text += "\n" + TextTable.columns(rows, rightAligned: [0]).split(separator: "\n").map { line in
                String(line.reversed().drop { $0 == " " }.reversed()) + "\n"
            }.joined()
            StandardStreams.write(text)
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove",
            abstract: "Remove a saved plan.")

        @Argument(help: "The saved plan's name.")
        var name: String

        func run() throws {
            try Workouts.reporting { () throws(WorkoutLibraryError) in try WorkoutLibrary.default.remove(name: name) }
            StandardStreams.write("removed \(StoredText.escapedForTerminal(name))\n")
        }
    }
}
