#if canImport(Glibc)
import Glibc
#endif
import OarlogSession

/// Finding the session a person names: a path, an id (or enough of its start to be unique) in
/// the data directory, or `last`.
public struct SessionLookup: Sendable {
    public var directory: SessionDirectory

    public init(directory: SessionDirectory = .default) { self.directory = directory }

    /// The file `reference` names, or an error that says where it looked.
    public func path(of reference: String) throws -> String {
        do { return try directory.resolve(reference) } catch { throw AppError("\(error)") }
    }

    /// The session `reference` names, opened for reading; errors name the file.
    public func open(_ reference: String) throws -> SessionReader {
        let path = try path(of: reference)
        do { return try SessionReader(path: path) } catch { throw AppError("\(error)") }
    }

    /// The session an argument names, if it names one: an existing file that is a session, or
    /// (when no such file exists) `last`, an id or id prefix in the data directory. Nil means
    /// "not a session" (a trace, say).
    public func sessionIfAny(_ argument: String) -> SessionReader? {
        if access(argument, F_OK) == 0 { return try? SessionReader(path: argument) }
        guard let path = try? directory.resolve(argument) else { return nil }
        return try? SessionReader(path: path)
    }
}

/// Work that could not be done (no such session, a damaged file, a missing sensor), in words for
/// the person; the CLI prints it as "Error: …" with exit status 1.
public struct AppError: Error, CustomStringConvertible, Equatable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
