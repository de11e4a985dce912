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

    /// The node at `path` (keys joined by `.`, list positions in `[n]`), or, when the body
    /// stops short of it (a missing field, a position past the list's end), the deepest node the
    /// path reaches: a missing field is placed at the mapping it is missing from. Linear in the
    /// path's length; a malformed part ends the walk where it is.
    func node(at path: String) -> LocatedNode {
        var node = root
        for part in path.split(separator: ".", omittingEmptySubsequences: false) {
            var rest = part[...]
            let key = rest.prefix { $0 != "[" }
            rest = rest.dropFirst(key.count)
            if !key.isEmpty {
                guard let value = node[String(key)] else { return node }
                node = value
            }
            while !rest.isEmpty {
                guard rest.first == "[", let close = rest.firstIndex(of: "]"),
                      let number = Int(rest[rest.index(after: rest.startIndex)..<close]),
                      let items = node.sequence, items.indices.contains(number - firstIndex) else { return node }
                node = items[number - firstIndex]
                rest = rest[rest.index(after: close)...]
            }
        }
        return node
    }

    /// `diagnostic` placed at its field (or, without one, at the body) when it has no
    /// location yet; a located diagnostic is returned unchanged.
    func locate(_ diagnostic: Diagnostic) -> Diagnostic {
        guard diagnostic.location == nil else { return diagnostic }
        var located = diagnostic
        located.location = node(at: diagnostic.field ?? "").location
        return located
    }
}
