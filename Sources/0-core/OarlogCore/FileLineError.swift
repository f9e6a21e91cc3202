/// A file that could not be read, like a compiler names it: `path:line: message`, where the
/// message says what was expected (line 0 when the file as a whole is the problem, e.g. it
/// cannot be opened). Thrown by the line-oriented foreign-format readers (Quiske, Talos).
public struct FileLineError: Error, CustomStringConvertible, Sendable, Equatable {
    public var path: String
    public var line: Int
    public var message: String
    public init(path: String, line: Int, message: String) {
        self.path = path; self.line = line; self.message = message
    }
    public var description: String { "\(path):\(line): \(message)" }
}
