import Foundation
import Synchronization

/// `serve`'s delivery in the background: what is due in the upload queue is delivered every
/// `interval_s` (30 s), and at once when poked (a session saved, an upload asked for on the
/// page). One per process; `UploadPump.poke()` is a no-op when none runs.
public final class UploadPump: Sendable {
    private static let running = Mutex<UploadPump?>(nil)
    private let wake: AsyncStream<Void>.Continuation
    private let stream: AsyncStream<Void>
    public let store: SessionStore
    public let interval_s: Double

    public init(store: SessionStore, interval_s: Double = 30) {
        self.store = store
        self.interval_s = interval_s
        (stream, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Starts delivering in the background (until the process ends); returns the pump.
    @discardableResult
    public static func start(store: SessionStore, makeSite: @escaping UploadDelivery.SiteMaker, interval_s: Double = 30) -> UploadPump {
        let pump = UploadPump(store: store, interval_s: interval_s)
        running.withLock { $0 = pump }
        let stream = pump.stream
        Task.detached(priority: .utility) {
            let delivery = UploadDelivery(store: store, makeSite: makeSite)
            var ticker = Task { await Self.tick(pump, after_s: interval_s) }
            _ = ticker
            for await _ in stream {
                // A Strava upload still being processed is polled (2 s, 4 s, …) before the pump sleeps.
                await delivery.deliver(waitForProcessing_s: 30)
                ticker.cancel()
                ticker = Task { await Self.tick(pump, after_s: interval_s) }
            }
        }
        pump.wake.yield()
        return pump
    }

    private static func tick(_ pump: UploadPump, after_s: Double) async {
        try? await Task.sleep(nanoseconds: UInt64(after_s * 1e9))
        if !Task.isCancelled { pump.wake.yield() }
    }

    /// Delivers what is due now, in the background, if a pump runs in this process.
    public static func poke() {
        running.withLock { $0 }?.wake.yield()
    }

    /// A saved session: queued to every `--auto` account, and the pump poked.
    public static func sessionSaved(_ id: String, store: SessionStore) {
        if !store.queueAutomaticUploads(session: id).isEmpty { poke() }
    }
}
