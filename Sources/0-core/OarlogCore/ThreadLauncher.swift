#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Starts a thread on a closure: the one `pthread_create` of the project (the device readers'
/// threads, the live sources' forwarding threads, the trace's parsing thread).
public enum ThreadLauncher {
    /// Runs `body` on a new thread, to be joined or detached by the caller; on failure `body`
    /// never runs and the failure holds `pthread_create`'s status.
    public static func start(_ body: @escaping @Sendable () -> Void) -> Result<pthread_t, ThreadStartFailure> {
        let box = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
        #if canImport(Darwin)
        var thread: pthread_t?
        #else
        var thread = pthread_t()
        #endif
        let status = pthread_create(&thread, nil, { raw in
            Unmanaged<ThreadBody>.fromOpaque(raw!).takeRetainedValue().run()
            return nil
        }, box)
        guard status == 0 else {
            Unmanaged<ThreadBody>.fromOpaque(box).release()
            return .failure(ThreadStartFailure(status: status))
        }
        #if canImport(Darwin)
        return .success(thread!)
        #else
        return .success(thread)
        #endif
    }
}

/// A thread that could not be started: `pthread_create`'s status and its text.
public struct ThreadStartFailure: Error, CustomStringConvertible {
    public let status: Int32
    public var description: String { String(cString: strerror(status)) }
}

/// What a thread runs; a class so it crosses `pthread_create` as one retained pointer.
private final class ThreadBody {
    let run: @Sendable () -> Void
    init(_ run: @escaping @Sendable () -> Void) { self.run = run }
}
