/// Work done on every accelerometer sample of a recorded trace on the thread that parses it
/// (`ParseAheadTraceReader`), ahead of the analysis and on the other core: the samples are handed
/// over in the order they come out of the trace, each block's before the block is.
///
/// The parsing thread calls `take` and `end`; the reading side calls `attach` once, before the
/// thread starts. What the stage computes and how the analysis reads it is the stage's own
/// business (OarlogDSP's `MountingLookahead`).
public protocol AccelLookahead: AnyObject, Sendable {
    /// Called once when a parsing thread is about to feed the stage; false if one already does
    /// (a stage follows one trace).
    func attach() -> Bool
    /// The next samples of the trace, in order.
    func take(_ samples: UnsafeBufferPointer<AccelSample>)
    /// No more samples: the trace ended, failed or was abandoned.
    func end()
}
