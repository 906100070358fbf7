import Foundation

/// Every token's bytes in a double-array trie: the longest token that starts
/// a text is found in one pass over its bytes, one load a byte, and each
/// token knows the next shorter token that is a prefix of it.
///
/// A state `s` with byte `c` leads to `t = base[s] + c` when `check[t] == s`.
/// One 64-bit cell holds a state's `check` (22 bits), `base` (22 bits) and the
/// id + 1 of the token its path spells (20 bits, 0 for none), so a step is a
/// single load.
struct TokenTrie: @unchecked Sendable {
    // @unchecked Sendable: raw pointers into an arena that is written while the trie is built and only read after.
    let cells: UnsafeMutablePointer<UInt64>
    /// For each id, the longest token that is a strict prefix of it, or `.max`.
    let nextPrefix: UnsafeMutablePointer<UInt32>

    struct Shape: Equatable {
        var idCount: Int
        var cellCount: Int
    }

    /// Cells must be numbered in 22 bits, below the two markers.
    static let maxCellCount = (1 << 22) - 2
    static let free: UInt64 = (1 << 22) - 1
    static let rootCheck: UInt64 = (1 << 22) - 2

    static func layout(_ shape: Shape) -> (size: Int, cells: Int, nextPrefix: Int) {
        var a = ArenaLayout()
        let cells = a.reserve(UInt64.self, shape.cellCount)
        let nextPrefix = a.reserve(UInt32.self, shape.idCount)
        return (a.size, cells, nextPrefix)
    }

    init(shape: Shape, arena: TableArena) {
        let l = Self.layout(shape)
        precondition(arena.size >= l.size)
        cells = arena.table(UInt64.self, at: l.cells)
        nextPrefix = arena.table(UInt32.self, at: l.nextPrefix)
    }

    /// The longest token that `p[i..<end]` starts with, and its length.
    /// Every single byte is a token, so there always is one when `i < end`.
    @inline(__always)
    func longestToken(_ p: UnsafePointer<UInt8>, _ i: Int, _ end: Int) -> (id: UInt32, length: Int) {
        var state: UInt64 = 0
        var cell = cells[0]
        var best: UInt64 = 0
        var bestEnd = i
        var k = i
        while k < end {
            let t = Int(truncatingIfNeeded: (cell >> 20) & 0x3F_FFFF) &+ Int(p[k])
            let next = cells[t]
            if next >> 42 != state { break }
            k &+= 1
            let token = next & 0xF_FFFF
            if token != 0 { best = token; bestEnd = k }
            state = UInt64(truncatingIfNeeded: t)
            cell = next
        }
        return (UInt32(truncatingIfNeeded: best) &- 1, bestEnd &- i)
    }

    /// Builds the trie of every token of `vocabulary`, or nil if it needs too many cells.
    static func build(for vocabulary: Vocabulary) -> (Shape, TableArena)? {
        var ids = (0..<vocabulary.idCount).filter { vocabulary.length(of: UInt32($0)) > 0 }
        ids.sort { a, b in
            let (pa, na) = vocabulary.rawBytes(of: a), (pb, nb) = vocabulary.rawBytes(of: b)
            let c = memcmp(pa, pb, min(na, nb))
            return c != 0 ? c < 0 : na < nb
        }
        var builder = DoubleArrayBuilder()
        // Breadth first over (state, depth, range of sorted ids sharing the state's prefix).
        var queue: [(state: Int, depth: Int, lo: Int, hi: Int)] = [(0, 0, 0, ids.count)]
        var head = 0
        var labels: [Int] = []
        var ranges: [(lo: Int, hi: Int)] = []
        while head < queue.count {
            let (state, depth, lo, hi) = queue[head]
            head += 1
            var i = lo
            if vocabulary.length(of: UInt32(ids[i])) == depth {
                builder.tokens[state] = UInt32(ids[i])
                i += 1
            }
            labels.removeAll(keepingCapacity: true)
            ranges.removeAll(keepingCapacity: true)
            while i < hi {
                let c = Int(vocabulary.rawBytes(of: ids[i]).0[depth])
                var j = i + 1
                while j < hi && Int(vocabulary.rawBytes(of: ids[j]).0[depth]) == c { j += 1 }
                labels.append(c)
                ranges.append((i, j))
                i = j
            }
            guard !labels.isEmpty else { continue }
            let base = builder.place(state: state, labels: labels)
            for (c, r) in zip(labels, ranges) { queue.append((base + c, depth + 1, r.lo, r.hi)) }
        }
        let cellCount = builder.usedEnd + 256  // any base + byte stays inside
        guard cellCount <= maxCellCount else { return nil }
        let shape = Shape(idCount: vocabulary.idCount, cellCount: cellCount)
        let arena = TableArena(size: layout(shape).size)
        let trie = TokenTrie(shape: shape, arena: arena)
        for t in 0..<cellCount {
            guard t < builder.check.count, builder.check[t] != -1 else { trie.cells[t] = free << 42; continue }
            let check = builder.check[t] == -2 ? rootCheck : UInt64(builder.check[t])
            let token = builder.tokens[t] == .max ? 0 : UInt64(builder.tokens[t]) + 1
            trie.cells[t] = check << 42 | UInt64(builder.base[t]) << 20 | token
        }
        for id in 0..<vocabulary.idCount {
            let (p, n) = vocabulary.rawBytes(of: id)
            trie.nextPrefix[id] = n > 1 ? trie.longestToken(p, 0, n - 1).id : .max
        }
        return (shape, arena)
    }
}

/// Places trie states into a double array: each state gets the smallest base
/// at which all its children's cells are free.
private struct DoubleArrayBuilder {
    var base: [Int32] = [0]
    var check: [Int32] = [-2]  // -1 = free; the root's -2 is no state's index
    var tokens: [UInt32] = [.max]
    /// Free cells still worth trying, in increasing order (doubly linked; -1 ends).
    private var nextFree: [Int32] = [-1]
    private var previousFree: [Int32] = [-1]
    private var failures: [UInt8] = [0]
    private var firstFree = -1
    private var lastFree = -1
    private(set) var usedEnd = 1

    /// Reserves the children's cells of `state` and returns its base.
    mutating func place(state: Int, labels: [Int]) -> Int {
        let first = labels[0]
        var f = firstFree
        while true {
            if f < 0 {
                grow(to: check.count + 256)
                f = lastFree - 255
                continue
            }
            let b = f - first
            let next = Int(nextFree[f])
            if b >= 1 {
                let top = b + labels.last!
                if top >= check.count { grow(to: top + 257) }
                if labels.allSatisfy({ check[b + $0] == -1 }) {
                    base[state] = Int32(b)
                    for c in labels {
                        check[b + c] = Int32(state)
                        unlink(b + c)
                        usedEnd = max(usedEnd, b + c + 1)
                    }
                    return b
                }
            }
            // A cell that fits nothing many times over is no longer tried (it
            // stays free), which keeps placement linear on a dense prefix.
            failures[f] &+= 1
            if failures[f] > 32 { unlink(f) }
            f = next
        }
    }

    private mutating func grow(to count: Int) {
        let old = check.count
        guard count > old else { return }
        base += repeatElement(0, count: count - old)
        check += repeatElement(-1, count: count - old)
        tokens += repeatElement(.max, count: count - old)
        failures += repeatElement(0, count: count - old)
        nextFree += (old..<count).map { Int32($0 + 1) }
        previousFree += (old..<count).map { Int32($0 - 1) }
        nextFree[count - 1] = -1
        previousFree[old] = Int32(lastFree)
        if lastFree >= 0 { nextFree[lastFree] = Int32(old) } else { firstFree = old }
        lastFree = count - 1
    }

    private mutating func unlink(_ t: Int) {
        let p = Int(previousFree[t]), n = Int(nextFree[t])
        guard p >= 0 || firstFree == t else { return }  // not in the list
        if p >= 0 { nextFree[p] = Int32(n) } else { firstFree = n }
        if n >= 0 { previousFree[n] = Int32(p) } else { lastFree = p }
        previousFree[t] = -1
        nextFree[t] = -1
    }
}
