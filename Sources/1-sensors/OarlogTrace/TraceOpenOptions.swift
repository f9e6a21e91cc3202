/// How a trace is opened, beyond its path and format.
public struct TraceOpenOptions: Sendable, Equatable {
    /// Read an activity of any sport (a ride, a run) instead of refusing it as not rowing. Only
    /// the formats that name a sport (TCX, GPX, FIT) look at it.
    public var anySport: Bool

    public init(anySport: Bool = false) {
        self.anySport = anySport
    }
}
