/// Whether a polygon ring is simple, in O(n log n): a Shamos–Hoey sweep over the ring's edges.
///
/// The question is the one `PlaneGeometry.pairwiseSelfIntersection` answers by trying every pair
/// (O(n²)): do two non-adjacent edges share a point (crossing, touching or overlapping)? The sweep
/// answers it in three steps:
/// 1. the vertices sorted by (east, north): a vertex that occurs twice is a touch;
/// 2. adjacent edges that double back along each other (a spike) make the far end of the shorter
///    one lie on the longer one, where a non-adjacent edge touches it;
/// 3. with distinct vertices and no spikes, a sweep line moves over the vertices in that order
///    and keeps the edges it cuts in a balanced search tree ordered bottom to top (a treap).
///    Edges that end at a vertex leave the tree, then edges that start there enter it; each pair
///    of edges that become neighbours in the tree is tested exactly (`segmentsTouch`), and an
///    edge entering at a vertex that lies on an edge already in the tree is a touch. If any two
///    non-adjacent edges meet, the pair meeting at the leftmost such point are neighbours in the
///    tree just before it (nothing can lie between them without meeting one of them earlier), so
///    the sweep finds a pair; if it finds none, the ring is simple.
/// The comparisons are orientation tests (`PlaneGeometry.cross`) on the given coordinates, the
/// same arithmetic as the pairwise test, so both agree wherever those tests are exact (always on
/// integer coordinates, as the property test checks).
final class SelfIntersectionSweep {
    /// A tree node: one edge, its endpoints in sweep order, its links (-1: none).
    private struct Node {
        var first: PlanePoint
        var last: PlanePoint
        var left: Int32 = -1
        var right: Int32 = -1
        var parent: Int32 = -1
        var priority: UInt32
    }
    /// A vertex in sweep order.
    private struct Vertex {
        var point: PlanePoint
        var index: Int32
    }

    private let points: UnsafeBufferPointer<PlanePoint>
    private let n: Int
    /// One node per edge (node k = edge k, from point k to point k + 1).
    private let nodes: UnsafeMutablePointer<Node>
    private var root: Int32 = -1

    init(points: UnsafeBufferPointer<PlanePoint>) {
        self.points = points
        n = points.count
        nodes = .allocate(capacity: max(n, 1))
        // Random priorities (a fresh seed each time, so that no input can shape a deep tree).
        var state = UInt64.random(in: 1...UInt64.max)
        for k in 0..<n {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            let a = points[k], b = points[(k + 1) % n]
            let ordered = Self.precedes(a, b) ? (a, b) : (b, a)
            (nodes + k).initialize(to: Node(first: ordered.0, last: ordered.1,
                                            priority: UInt32(truncatingIfNeeded: state >> 32)))
        }
    }

    deinit {
        nodes.deinitialize(count: n)
        nodes.deallocate()
    }

    /// A pair of non-adjacent edges that touch (smaller index first), or nil if the ring is simple.
    func run() -> (Int, Int)? {
        guard n >= 4 else { return nil }
        let p = points
        // 1. Vertices in sweep order (east, then north); a repeated vertex is a touch.
        var order = [Vertex](unsafeUninitializedCapacity: n) { buffer, count in
            for k in 0..<n { buffer[k] = Vertex(point: p[k], index: Int32(k)) }
            count = n
        }
        order.sort { a, b in Self.precedes(a.point, b.point) }
        for k in 1..<n where order[k - 1].point == order[k].point {
            let a = Int(order[k - 1].index), b = Int(order[k].index)
            return touchAtRepeatedVertex(min(a, b), max(a, b))
        }
        // 2. Spikes: edges k − 1 and k leave point k in the same direction.
        for k in 0..<n {
            let before = p[(k + n - 1) % n], at = p[k], after = p[(k + 1) % n]
            let u = before - at, w = after - at
            if u.east * w.north - u.north * w.east == 0 && u.east * w.east + u.north * w.north > 0 {
                // The far end of the shorter edge lies on the longer: the edge beyond it touches.
                let pair = w.east * w.east + w.north * w.north <= u.east * u.east + u.north * u.north
                    ? ((k + n - 1) % n, (k + 1) % n) : ((k + n - 2) % n, k)
                return (min(pair.0, pair.1), max(pair.0, pair.1))
            }
        }
        // 3. The sweep: at each vertex, the edges ending there leave, then those starting there enter.
        for v in order {
            let k = Int(v.index)
            let edges = ((k + n - 1) % n, k)
            let starts = (nodes[edges.0].first == v.point, nodes[edges.1].first == v.point)
            if !starts.0, let pair = remove(edges.0) { return pair }
            if !starts.1, let pair = remove(edges.1) { return pair }
            if starts.0, let pair = insert(edges.0, at: v.point) { return pair }
            if starts.1, let pair = insert(edges.1, at: v.point) { return pair }
        }
        return nil
    }

    /// Sweep order: by east, then by north.
    @inline(__always)
    static func precedes(_ a: PlanePoint, _ b: PlanePoint) -> Bool {
        a.east < b.east || (a.east == b.east && a.north < b.north)
    }

    private func adjacent(_ a: Int, _ b: Int) -> Bool {
        let d = abs(a - b)
        return d <= 1 || d == n - 1
    }

    /// Whether non-adjacent edges a and b share a point.
    private func touch(_ a: Int, _ b: Int) -> Bool {
        guard !adjacent(a, b) else { return false }
        return PlaneGeometry.segmentsTouch(nodes[a].first, nodes[a].last, nodes[b].first, nodes[b].last)
    }

    private func pair(_ a: Int, _ b: Int) -> (Int, Int) { (min(a, b), max(a, b)) }

    /// Points a < b are equal: among the edges at a (a − 1, a) and at b (b − 1, b), two
    /// non-adjacent ones (they touch at the point).
    private func touchAtRepeatedVertex(_ a: Int, _ b: Int) -> (Int, Int) {
        for x in [(a + n - 1) % n, a] {
            for y in [(b + n - 1) % n, b] where x != y && !adjacent(x, y) { return pair(x, y) }
        }
        return pair(a, b)
    }

    // MARK: The tree of edges cut by the sweep line, bottom to top

    /// Inserts edge e, which starts at `vertex`: one descent finds its place and its neighbours
    /// (an edge through the vertex is a touch), then it is rotated up to its priority.
    private func insert(_ e: Int, at vertex: PlanePoint) -> (Int, Int)? {
        let far = nodes[e].last
        var under: Int32 = -1, over: Int32 = -1
        var x = root, up: Int32 = -1, goesRight = false
        while x >= 0 {
            let t = nodes[Int(x)]
            let below: Bool
            if t.first == vertex {
                // The other edge starting here: compare the far ends.
                below = PlaneGeometry.cross(vertex, t.last, far) > 0
            } else {
                let side = PlaneGeometry.cross(t.first, t.last, vertex)
                if side == 0 && touch(Int(x), e) { return pair(Int(x), e) }   // the vertex lies on edge x
                below = side > 0
            }
            up = x
            goesRight = below
            if below { under = x; x = t.right } else { over = x; x = t.left }
        }
        let node = Int32(e)
        nodes[e].parent = up
        if up < 0 {
            root = node
        } else if goesRight {
            nodes[Int(up)].right = node
        } else {
            nodes[Int(up)].left = node
        }
        while nodes[e].parent >= 0 && nodes[Int(nodes[e].parent)].priority < nodes[e].priority {
            rotateUp(node)
        }
        if under >= 0 && touch(Int(under), e) { return pair(Int(under), e) }
        if over >= 0 && touch(Int(over), e) { return pair(Int(over), e) }
        return nil
    }

    /// Removes edge e (it ends at the sweep's vertex); its two neighbours meet.
    private func remove(_ e: Int) -> (Int, Int)? {
        let node = Int32(e)
        let under = predecessor(node), over = successor(node)
        // Rotate it down to a leaf (or a node with one child), then unlink it.
        while nodes[e].left >= 0 && nodes[e].right >= 0 {
            let l = nodes[e].left, r = nodes[e].right
            rotateUp(nodes[Int(l)].priority > nodes[Int(r)].priority ? l : r)
        }
        let child = nodes[e].left >= 0 ? nodes[e].left : nodes[e].right
        let up = nodes[e].parent
        replace(node, by: child, under: up)
        nodes[e].left = -1; nodes[e].right = -1; nodes[e].parent = -1
        if under >= 0 && over >= 0 && touch(Int(under), Int(over)) { return pair(Int(under), Int(over)) }
        return nil
    }

    /// Points `up`'s link to `old` at `new` (the root if `up` is none).
    @inline(__always)
    private func replace(_ old: Int32, by new: Int32, under up: Int32) {
        if up < 0 {
            root = new
        } else if nodes[Int(up)].left == old {
            nodes[Int(up)].left = new
        } else {
            nodes[Int(up)].right = new
        }
        if new >= 0 { nodes[Int(new)].parent = up }
    }

    /// Rotates `x` above its parent (order kept).
    private func rotateUp(_ x: Int32) {
        let k = Int(x)
        let p = nodes[k].parent
        let g = nodes[Int(p)].parent
        if nodes[Int(p)].left == x {
            let b = nodes[k].right
            nodes[Int(p)].left = b
            if b >= 0 { nodes[Int(b)].parent = p }
            nodes[k].right = p
        } else {
            let b = nodes[k].left
            nodes[Int(p)].right = b
            if b >= 0 { nodes[Int(b)].parent = p }
            nodes[k].left = p
        }
        nodes[Int(p)].parent = x
        replace(p, by: x, under: g)
    }

    private func predecessor(_ node: Int32) -> Int32 {
        var x = nodes[Int(node)].left
        if x >= 0 {
            while nodes[Int(x)].right >= 0 { x = nodes[Int(x)].right }
            return x
        }
        x = node
        while nodes[Int(x)].parent >= 0 && nodes[Int(nodes[Int(x)].parent)].left == x { x = nodes[Int(x)].parent }
        return nodes[Int(x)].parent
    }

    private func successor(_ node: Int32) -> Int32 {
        var x = nodes[Int(node)].right
        if x >= 0 {
            while nodes[Int(x)].left >= 0 { x = nodes[Int(x)].left }
            return x
        }
        x = node
        while nodes[Int(x)].parent >= 0 && nodes[Int(nodes[Int(x)].parent)].right == x { x = nodes[Int(x)].parent }
        return nodes[Int(x)].parent
    }
}
