import RegimenLanguage
import RegimenRules

/// Reads a coach-written range (`0.80-0.90`, `3–5`, or a `[low, high]` list) under `key`.
func decodeRange(_ map: inout MappingDecoder, _ key: String, required: Bool = true) -> ClosedRange<Double>? {
    guard let node = required ? map.requiredNode(key) : map.node(key) else { return nil }
    return decodeRange(node, at: map.path.appending(key: key), in: map.context)
}

/// Reads a range from a node, in every form ``NumberRange`` reads; reports what is wrong at the node.
func decodeRange(_ node: LocatedNode, at path: DecodingPath, in context: DecodingContext) -> ClosedRange<Double>? {
    NumberRange.decode(from: node, at: path, in: context)?.closedRange
}
