package import RegimenLanguage
package import RegimenRules

/// Where each document of a tree file is written. A tree is read and validated as values, which
/// carry no positions; this map takes a violation's document path (and field) back to the line
/// and column of the file, so `regimen validate` and the other tree readers print
/// `tree.yaml:12:9: …` (issue 33: tracker errors had a field path but no line:column).
package struct TrackerSourceMap: Sendable {
    /// Document path (`users/u1/programs/p1`), collection position (`…/weeks[2]`) or collection
    /// (`…/weeks`) → the node written there; `""` is the root.
    private var nodes: [String: LocatedNode] = [:]

    /// The map of `root`, the file's document, read as ``TrackerTree/read(_:)`` reads its value.
    package init(_ root: LocatedNode) {
        nodes[""] = root
        // The same paths `TrackerTree.read` builds: the owner only when `userId` is a string.
        var userId: String?
        if case .string(let id)? = root["userId"]?.value() { userId = id }
        if let programs = root["programs"] { add(programs, level: .program, parent: DocumentPath(userId: userId)) }
    }

    private mutating func add(_ collection: LocatedNode, level: TrackerLevel, parent: DocumentPath) {
        let here = parent.description.isEmpty ? level.collection : "\(parent)/\(level.collection)"
        nodes[here] = collection
        for (index, item) in (collection.sequence ?? []).enumerated() {
            nodes["\(here)[\(index)]"] = item
            guard let id = item["id"]?.scalar?.text, !id.isEmpty, !id.contains("/") else { continue }
            let path = parent.appending(level, id)
            // A duplicate id is reported at its first document, as the path names it.
            if nodes[path.description] == nil { nodes[path.description] = item }
            if let child = level.child, let children = item[child.collection] { add(children, level: child, parent: path) }
        }
    }

    /// Where `violation` is written: its field's value when the document has that key, else the
    /// document; `nil` when the path is not in the file.
    package func location(of violation: TrackerViolation) -> SourceLocation? {
        guard let node = nodes[violation.path] else { return nil }
        if let field = violation.field, let pair = node.mapping?.first(where: { $0.key.scalar?.text == field }) { return pair.value.location }
        return node.location
    }

    /// `violations` with their locations filled in.
    package func locate(_ violations: [TrackerViolation]) -> [TrackerViolation] {
        violations.map { violation in
            var located = violation
            if located.location == nil { located.location = location(of: violation) }
            return located
        }
    }
}
