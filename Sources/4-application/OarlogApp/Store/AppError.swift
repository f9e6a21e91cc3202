/// Work that could not be done (no such session, a damaged file, a missing sensor), in words for
/// the person; the CLI prints it as "Error: …" with exit status 1.
public struct AppError: Error, CustomStringConvertible, Equatable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
