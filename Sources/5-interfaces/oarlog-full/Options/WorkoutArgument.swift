import OarlogApp
import OarlogCore

/// `--workout PLAN` on `replay`, `record`, `export` and `simulate`: a saved plan's name, a .json
/// plan file, or the plan as written (`WorkoutLibrary.resolve`). A plan that does not read is
/// refused with the place it went wrong marked under it.
enum WorkoutArgument {
    static func plan(_ text: String) throws -> WorkoutPlan {
        do {
            return try WorkoutLibrary.default.resolve(text)
        } catch {
            let pointer = error.pointer.map { "\n" + $0.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(separator: "\n") } ?? ""
            throw CommandFailure("--workout \(error.description)\(pointer)")
        }
    }
}
