/// A fixed-capacity first-in first-out buffer: its storage is allocated once, at init, and
/// appending to a full buffer drops the oldest element. Index 0 is the oldest element,
/// `count - 1` the newest. A value type (copy it to fork the state).
///
/// Every member is inlinable, so the DSP's hot loops get it specialised for their element type.
public struct RingBuffer<Element> {
    @usableFromInline var storage: [Element]
    /// Storage index of the oldest element.
    @usableFromInline var head = 0
    @usableFromInline var stored = 0

    /// A buffer of `capacity` elements (at least 1); `filler` only fills the storage, it is
    /// never read back.
    @inlinable
    public init(capacity: Int, filler: Element) {
        storage = [Element](repeating: filler, count: Swift.max(1, capacity))
    }

    /// How many elements the buffer holds (at most `capacity`).
    @inlinable public var count: Int { stored }
    @inlinable public var capacity: Int { storage.count }
    @inlinable public var isFull: Bool { count == storage.count }

    @inlinable
    func storageIndex(_ index: Int) -> Int {
        let i = head + index
        return i < storage.count ? i : i - storage.count
    }

    /// Appends `element`, dropping the oldest one when the buffer is full.
    @inlinable
    public mutating func append(_ element: Element) {
        if count == storage.count {
            storage[head] = element
            head = head + 1 == storage.count ? 0 : head + 1
        } else {
            storage[storageIndex(stored)] = element
            stored += 1
        }
    }

    /// Drops the `n` oldest elements (all of them when `n` ≥ `count`; none when `n` ≤ 0).
    @inlinable
    public mutating func removeFirst(_ n: Int = 1) {
        let k = Swift.min(Swift.max(0, n), stored)
        head = (head + k) % storage.count
        stored -= k
    }

    /// Empties the buffer (the storage stays allocated).
    @inlinable
    public mutating func removeAll() {
        head = 0
        stored = 0
    }
}

extension RingBuffer: RandomAccessCollection, MutableCollection {
    public typealias Index = Int
    public typealias Indices = Range<Int>

    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { count }
    @inlinable public var indices: Range<Int> { 0..<count }
    @inlinable public var isEmpty: Bool { count == 0 }
    @inlinable public func index(after i: Int) -> Int { i + 1 }
    @inlinable public func index(before i: Int) -> Int { i - 1 }

    /// The element `index` places after the oldest (0 ..< `count`).
    @inlinable
    public subscript(index: Int) -> Element {
        // Read and modified in place (`_read`, `_modify`): a field of a large element (a GPS
        // filter step holds two 6×6 matrices) is reached without copying the whole element
        // out and back.
        _read {
            precondition(index >= 0 && index < count, "RingBuffer index out of range")
            yield storage[storageIndex(index)]
        }
        _modify {
            precondition(index >= 0 && index < count, "RingBuffer index out of range")
            yield &storage[storageIndex(index)]
        }
    }

    /// The oldest element.
    @inlinable public var first: Element? { count > 0 ? storage[head] : nil }
    /// The newest element.
    @inlinable public var last: Element? { count > 0 ? storage[storageIndex(count - 1)] : nil }
}

extension RingBuffer: Sendable where Element: Sendable {}

extension RingBuffer {
    /// The index of the newest element whose `key` is at or before `value`, the elements being
    /// in ascending order of `key` (a time-ordered history); nil when the oldest is after it, or
    /// `value` is NaN. A binary search: O(log count).
    @inlinable
    public func lastIndex(atOrBefore value: Double, by key: (Element) -> Double) -> Int? {
        guard let first, key(first) <= value else { return nil }
        var lo = 0, hi = count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if key(self[mid]) <= value { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }
}
