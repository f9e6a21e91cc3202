import OarlogCore

/// The old name of `RingBuffer` (OarlogCore), kept only while `RowingAnalyzer.swift` still says
/// it; goes when that file says `RingBuffer`.
typealias GPSRingBuffer<Element> = RingBuffer<Element>
