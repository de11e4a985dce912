/// The match tree laid out for the per-request walk: blocks in preorder with plain integer
/// fields, so matching a request touches no reference counts (walking the tree of
/// ``CompiledMatch`` objects recursively retained and released a dozen references per block).
///
/// Only built when no pattern has a recursive wildcard: then every block's pattern has a fixed
/// length, so every block starts at a fixed segment of the request path and can match it in one
/// way at most.
struct MatchWalk: Sendable {
    struct Node: Sendable {
        /// Index of this block's first pattern segment in the request path.
        var start: Int
        /// This block's pattern in `steps`.
        var stepStart: Int
        var stepEnd: Int
        var firstSlot: Int
        /// This block's statements in `statements`.
        var statementStart: Int
        var statementEnd: Int
        /// The preorder index after this block's subtree: where the walk resumes when the block
        /// does not match.
        var subtreeEnd: Int
        /// The names of slots `2...` inside this block (every enclosing wildcard, then its own), in
        /// `names`; only read to report bindings.
        var nameStart: Int
        var nameEnd: Int
    }

    struct Statement: Sendable {
        var allowID: Int
        var methods: MethodMask
    }

    let nodes: [Node]
    let steps: [PatternStep]
    let statements: [Statement]
    let names: [String]

    /// `nil` when some pattern has a recursive wildcard.
    init?(roots: [CompiledMatch], allows: [CompiledAllow]) {
        var nodes: [Node] = []
        var steps: [PatternStep] = []
        var statements: [Statement] = []
        var names: [String] = []
        func add(_ match: CompiledMatch, start: Int, enclosingNames: [String]) -> Bool {
            if match.hasRecursiveWildcard { return false }
            let index = nodes.count
            let ownNames = enclosingNames + match.steps.filter { !$0.isLiteral }.map(\.text)
            let nameStart = names.count
            names.append(contentsOf: ownNames)
            let stepStart = steps.count
            steps.append(contentsOf: match.steps)
            let statementStart = statements.count
            statements.append(contentsOf: match.allowIDs.map { Statement(allowID: $0, methods: allows[$0].methodMask) })
            nodes.append(Node(
                start: start, stepStart: stepStart, stepEnd: steps.count, firstSlot: match.firstSlot, statementStart: statementStart,
                statementEnd: statements.count, subtreeEnd: 0, nameStart: nameStart, nameEnd: names.count))
            for child in match.children where !add(child, start: start + match.steps.count, enclosingNames: ownNames) { return false }
            nodes[index].subtreeEnd = nodes.count
            return true
        }
        for root in roots where !add(root, start: 0, enclosingNames: []) { return nil }
        self.nodes = nodes
        self.steps = steps
        self.statements = statements
        self.names = names
    }
}
