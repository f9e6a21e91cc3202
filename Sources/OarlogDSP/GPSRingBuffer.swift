/// A fixed-capacity first-in first-out buffer: storage is allocated once at init, and appending
/// to a full buffer drops the oldest element. Index 0 is the oldest element.
struct GPSRingBuffer<Element: Sendable>: Sendable {
    private var storage: [Element]
    private var head = 0
    private(set) var count = 0

    init(capacity: Int, filler: Element) {
        storage = [Element](repeating: filler, count: max(1, capacity))
    }

    var capacity: Int { storage.count }
    var isEmpty: Bool { count == 0 }
    var isFull: Bool { count == storage.count }

    subscript(index: Int) -> Element {
        get { storage[(head + index) % storage.count] }
        set { storage[(head + index) % storage.count] = newValue }
    }

    var first: Element? { count > 0 ? self[0] : nil }
    var last: Element? { count > 0 ? self[count - 1] : nil }

    /// Appends, dropping the oldest element when full.
    mutating func append(_ element: Element) {
        if count == storage.count {
            storage[head] = element
            head = (head + 1) % storage.count
        } else {
            storage[(head + count) % storage.count] = element
            count += 1
        }
    }

    mutating func removeFirst(_ n: Int = 1) {
        let k = min(n, count)
        head = (head + k) % storage.count
        count -= k
    }

    mutating func removeAll() {
        head = 0
        count = 0
    }
}
