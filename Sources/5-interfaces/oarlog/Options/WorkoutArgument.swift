import OarlogApp
import OarlogCore

/// `--workout PLAN` on `replay`, `record` and `simulate`: the plan as the person wrote it. A
/// plan that does not read is refused with the place it went wrong under it.
enum WorkoutArgument {
    static func plan(_ text: String) throws -> WorkoutPlan {
        do {
            return try WorkoutSpec.parse(text)
        } catch let error as WorkoutSpec.ParseError {
            throw CommandFailure("--workout: \(error.description)\n  \(error.pointer.replacingOccurrences(of: "\n", with: "\n  "))")
        }
    }
}
