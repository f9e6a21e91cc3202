/// A first-in first-out queue on one contiguous array: appends at the back, removals at the front
/// move a head index, and the array is compacted once the dead front is half of it. Its capacity
/// settles at the longest backlog, so steady streaming allocates nothing.
struct ExportQueue<Element: Sendable>: Sendable {
    private var storage: [Element] = []
    private var head = 0

    var count: Int { storage.count - head }
    var isEmpty: Bool { head == storage.count }
    var first: Element? { head < storage.count ? storage[head] : nil }
    /// The element `offset` places behind the front (0: the first), if there is one.
    func element(at offset: Int) -> Element? { offset >= 0 && head + offset < storage.count ? storage[head + offset] : nil }

    /// Visits the elements front to back while `body` returns true.
    func scan(_ body: (Element) -> Bool) {
        var i = head
        while i < storage.count, body(storage[i]) { i += 1 }
    }

    mutating func append(_ element: Element) {
        if head > 0 && head * 2 >= storage.count {
            storage.removeFirst(head)
            head = 0
        }
        storage.append(element)
    }

    @discardableResult
    mutating func removeFirst() -> Element {
        let e = storage[head]
        head += 1
        if head == storage.count {
            storage.removeAll(keepingCapacity: true)
            head = 0
        }
        return e
    }
}
