import RegimenLanguage

/// The match tree laid out for the per-request walk: blocks in preorder with plain integer
/// fields, so matching a request touches no reference counts (walking the tree of
/// ``CompiledMatch`` objects recursively retained and released a dozen references per block).
///
/// Only built when no pattern has a recursive wildcard: then every block's pattern has a fixed
/// length, so every block starts at a fixed segment of the request path and can match it in one
/// way at most. That also fixes which path segment each wildcard variable reads, so the walk only
/// compares literals, and a block's slot buffer is filled once, when one of its statements is
/// about to be evaluated, straight from the request path.
struct MatchWalk: Sendable {
    struct Node: Sendable {
        /// How many path segments the block and its ancestors cover: a shorter path cannot match
        /// the block or anything under it, and only a path of exactly this length stops here.
        var end: Int
        /// This block's own literal segments in `literals`.
        var literalStart: Int
        var literalEnd: Int
        /// This block's statements in `statements`.
        var statementStart: Int
        var statementEnd: Int
        /// The preorder index after this block's subtree: where the walk resumes when the block
        /// does not match.
        var subtreeEnd: Int
        /// Wildcard slots (`firstSlot...`) inside this block (every enclosing one, then its own): their names
        /// in `names` (only read to report bindings) and the path segments they hold in
        /// `positions`, over the same range.
        var nameStart: Int
        var nameEnd: Int
        /// The size of the block's slot buffer (at least what its conditions were compiled for).
        var slotCount: Int
        /// The wildcard slots some condition of the block (or a function it may call) reads, in
        /// `readSlots` and `readPositions`: all an allow-only decision fills.
        var readStart: Int
        var readEnd: Int
    }

    struct Statement: Sendable {
        var allowID: Int
        var methods: MethodMask
    }

    /// A literal pattern segment and the path segment it must equal.
    struct Literal: Sendable {
        var position: Int
        var text: String
    }

    let nodes: [Node]
    let literals: [Literal]
    let statements: [Statement]
    let names: [String]
    /// Per wildcard slot of a block, the index of the path segment it holds (`-1`: none, null).
    let positions: [Int]
    /// Per read wildcard of a block (``Node/readStart``), its slot and its path segment (`-1`: none, null).
    let readSlots: [Int]
    let readPositions: [Int]
    /// The first wildcard slot, after `request`, `resource` and their projections.
    let firstSlot: Int
    /// The largest block's slot count.
    let maxSlotCount: Int

    /// `nil` when some pattern has a recursive wildcard.
    init?(roots: [CompiledMatch], allows: [CompiledAllow], firstSlot: Int) {
        self.firstSlot = firstSlot
        var nodes: [Node] = []
        var literals: [Literal] = []
        var statements: [Statement] = []
        var names: [String] = []
        var positions: [Int] = []
        var readSlots: [Int] = []
        var readPositions: [Int] = []
        let functionReads = CompiledExpression.functionSlotUses(allows.compactMap(\.condition)).read
        /// `enclosing`: the wildcard slots (`firstSlot...`) of the parent block, as (name, position).
        func add(_ match: CompiledMatch, start: Int, enclosing: [(name: String, position: Int)]) -> Bool {
            if match.hasRecursiveWildcard { return false }
            let index = nodes.count
            // Laid out as the slots are (the block's wildcards from `firstSlot` on, over the
            // enclosing ones), so the buffer holds what the compiled conditions expect.
            var own = enclosing
            let literalStart = literals.count
            var slot = match.firstSlot
            for (offset, step) in match.steps.enumerated() {
                if step.isLiteral {
                    literals.append(Literal(position: start + offset, text: step.text))
                    continue
                }
                while own.count <= slot - firstSlot { own.append((name: "", position: -1)) }
                own[slot - firstSlot] = (name: step.text, position: start + offset)
                slot += 1
            }
            let nameStart = names.count
            names.append(contentsOf: own.map(\.name))
            positions.append(contentsOf: own.map(\.position))
            // Any function may be called from here (reading more than needed costs a slot write).
            let read = match.allowIDs.reduce(into: functionReads) { $0.formUnion(allows[$1].condition?.ownSlotUses.read ?? []) }
            let readStart = readSlots.count
            for (offset, wildcard) in own.enumerated() where read.contains(firstSlot + offset) {
                readSlots.append(firstSlot + offset)
                readPositions.append(wildcard.position)
            }
            let statementStart = statements.count
            statements.append(contentsOf: match.allowIDs.map { Statement(allowID: $0, methods: allows[$0].methodMask) })
            let end = start + match.steps.count
            nodes.append(Node(
                end: end, literalStart: literalStart, literalEnd: literals.count, statementStart: statementStart,
                statementEnd: statements.count, subtreeEnd: 0, nameStart: nameStart, nameEnd: names.count,
                slotCount: max(match.slotCount, firstSlot + own.count), readStart: readStart, readEnd: readSlots.count))
            for child in match.children where !add(child, start: end, enclosing: own) { return false }
            nodes[index].subtreeEnd = nodes.count
            return true
        }
        for root in roots where !add(root, start: 0, enclosing: []) { return nil }
        self.nodes = nodes
        self.literals = literals
        self.statements = statements
        self.names = names
        self.positions = positions
        self.readSlots = readSlots
        self.readPositions = readPositions
        maxSlotCount = nodes.map(\.slotCount).max() ?? firstSlot
    }

    /// The first block at or after preorder index `start` that matches the whole of `segments`
    /// and has statements, or `nil`. Blocks that do not match are skipped with their subtrees.
    ///
    /// `nodes` and `literals` are read without bounds checks: their indices (`subtreeEnd`, the
    /// literal ranges) were laid out by `init` and stay inside them. Path segments are indexed
    /// checked, although `end <= segments.count` already bounds every literal's position.
    func nextStop(from start: Int, _ segments: [String]) -> Int? {
        nodes.withUnsafeBufferPointer { nodes in
            literals.withUnsafeBufferPointer { literals in
                var index = start
                blocks: while index < nodes.count {
                    let end = nodes[index].end
                    guard end <= segments.count else {
                        index = nodes[index].subtreeEnd
                        continue
                    }
                    var literal = nodes[index].literalStart
                    while literal < nodes[index].literalEnd {
                        guard segments[literals[literal].position] == literals[literal].text else {
                            index = nodes[index].subtreeEnd
                            continue blocks
                        }
                        literal += 1
                    }
                    if end == segments.count, nodes[index].statementStart < nodes[index].statementEnd { return index }
                    index += 1
                }
                return nil
            }
        }
    }
}
