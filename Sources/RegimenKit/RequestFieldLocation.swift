import RegimenLanguage
import RegimenRules

/// Where a field of a request body is, so that a problem found on the document's value (and
/// named by its field path, such as `foods[2]` or `checkins[0].stress`) carries the line and
/// column of the body the caller sent, as a value, not as text to be parsed back.
struct RequestFieldLocation {
    /// The body as it was read, with the location of every node.
    let root: LocatedNode
    /// The number of a list's first element in the field paths: 0 for `checkins[0]`, 1 for a
    /// path that counts as people do (`foods[1]` is the first food).
    let firstIndex: Int

    /// The node at `path` (keys joined by `.`, list positions in `[n]`), or `nil` when the
    /// path does not name a node of the body: a field that is missing has no place of its own.
    /// Linear in the path's length; a malformed path names no node.
    func node(at path: String) -> LocatedNode? {
        var node = root
        for part in path.split(separator: ".", omittingEmptySubsequences: false) {
            var rest = part[...]
            let key = rest.prefix { $0 != "[" }
            rest = rest.dropFirst(key.count)
            if !key.isEmpty {
                guard let value = node[String(key)] else { return nil }
                node = value
            }
            while !rest.isEmpty {
                guard rest.first == "[", let close = rest.firstIndex(of: "]"),
                      let number = Int(rest[rest.index(after: rest.startIndex)..<close]),
                      let items = node.sequence else { return nil }
                let index = number - firstIndex
                guard items.indices.contains(index) else { return nil }
                node = items[index]
                rest = rest[rest.index(after: close)...]
            }
        }
        return node
    }

    /// `diagnostic` with the location of its field when it has none yet and the field names a
    /// node of the body; otherwise unchanged.
    func locate(_ diagnostic: Diagnostic) -> Diagnostic {
        guard diagnostic.location == nil, let field = diagnostic.field, let node = node(at: field) else { return diagnostic }
        var located = diagnostic
        located.location = node.location
        return located
    }
}
