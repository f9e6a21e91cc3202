import Foundation
import OarlogCore
import OarlogLive
import Synchronization

/// What the scripted device hands over: numbered data, stamped with the session time it came,
/// and the gaps the reader loop makes.
enum FakeRecord: LiveDeviceRecord, Equatable {
    case data(Int, at: Seconds)
    case gap(Gap)

    var dataID: Int? { if case .data(let id, _) = self { return id } else { return nil } }
    var gapValue: Gap? { if case .gap(let g) = self { return g } else { return nil } }
}

/// One thing a scripted connection does, at an absolute session time.
enum Step: Sendable {
    /// These records arrive (one read, `.progressed`).
    case records([Int], at: Seconds)
    /// The read throws (an I/O error).
    case fail(String, at: Seconds)
    /// The read says the device is gone.
    case lost(String, at: Seconds)
    /// Something arrives that is not data (`.idle`).
    case noise(at: Seconds)

    var at: Seconds {
        switch self {
        case .records(_, let t), .fail(_, let t), .lost(_, let t), .noise(let t): return t
        }
    }
}

/// One open attempt: it fails, or it opens a connection that follows the steps (and stays
/// silent after the last one).
enum Attempt: Sendable {
    case fail(String)
    case open([Step])
}

struct ScriptError: Error, CustomStringConvertible {
    let description: String
    init(_ text: String) { description = text }
}

/// A device that follows a plan of open attempts; after the plan, it is missing
/// ("no such device"). It records when each open was attempted and how many connections were
/// closed.
final class ScriptedDevice: LiveDevice, @unchecked Sendable {
    typealias Record = FakeRecord
    let sensor = SensorKind.gps
    let logName = "fake"
    private let state: Mutex<(plan: [Attempt], attempts: [Seconds], opened: Int, closed: Int)>

    init(_ plan: [Attempt]) { state = Mutex((plan, [], 0, 0)) }

    /// Session times of the open attempts, in order.
    var attempts: [Seconds] { state.withLock { $0.attempts } }
    var closed: Int { state.withLock { $0.closed } }

    func open(_ context: LiveReadContext<FakeRecord>) throws -> ScriptedConnection {
        let now = context.now()
        let (attempt, number) = state.withLock { s -> (Attempt?, Int) in
            s.attempts.append(now)
            guard !s.plan.isEmpty else { return (nil, 0) }
            let next = s.plan.removeFirst()
            if case .open = next { s.opened += 1 }
            return (next, s.opened)
        }
        switch attempt {
        case nil: throw ScriptError("no such device")
        case .fail(let text): throw ScriptError(text)
        case .open(let steps): return ScriptedConnection(number: number, steps: steps, device: self)
        }
    }

    fileprivate func connectionClosed() { state.withLock { $0.closed += 1 } }
}

/// A connection that plays its steps on the source's clock: a read waits for the next step
/// (sleeping on the clock) or times out after `timeout` if the step is later than that.
final class ScriptedConnection: LiveDeviceConnection, @unchecked Sendable {
    let number: Int
    private var steps: [Step]
    private let device: ScriptedDevice

    init(number: Int, steps: [Step], device: ScriptedDevice) {
        self.number = number
        self.steps = steps
        self.device = device
    }

    var summary: String { "reading script \(number)" }

    func read(timeout: Seconds, _ context: LiveReadContext<FakeRecord>) throws -> LiveReadOutcome {
        let now = context.now()
        guard let step = steps.first, step.at <= now + timeout else {
            context.sleep(untilSessionTime: now + timeout)
            return .timedOut
        }
        guard context.sleep(untilSessionTime: step.at) else { return .idle }  // stopping
        steps.removeFirst()
        switch step {
        case .records(let ids, _):
            let t = context.now()
            for id in ids { context.deliver(.data(id, at: t), at: t) }
            return .progressed
        case .fail(let text, _):
            throw ScriptError(text)
        case .lost(let text, _):
            return .lost(text)
        case .noise:
            return .idle
        }
    }

    func close() { device.connectionClosed() }
}

/// A scripted device read by the shared loop on a manual clock whose session origin is 0, so
/// session time is the clock's time.
final class LoopHarness {
    let clock = ManualClock()
    let device: ScriptedDevice
    let source: LiveDeviceSource<ScriptedDevice>
    private let lines = LogLines()

    init(_ plan: [Attempt], policy: LiveReaderPolicy, queueCapacity: Int = 1024,
         shouldStop: @escaping @Sendable () -> Bool = { false }) {
        device = ScriptedDevice(plan)
        let lines = self.lines
        source = LiveDeviceSource(device: device, policy: policy, queueCapacity: queueCapacity,
                                  clock: SessionClock(monotonicOrigin: 0, wallClockAtOrigin: 1_700_000_000),
                                  liveClock: clock, log: { line in lines.append(line) },
                                  shouldStop: shouldStop)
    }

    deinit { source.stop() }

    var log: [String] { lines.all }

    /// Everything queued now (never waits for more).
    func drain() -> [FakeRecord] {
        var records: [FakeRecord] = []
        while let r = source.next(timeout: 0) { records.append(r) }
        return records
    }
}

/// Log lines collected from the reader thread.
final class LogLines: Sendable {
    private let lines = Mutex<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}
