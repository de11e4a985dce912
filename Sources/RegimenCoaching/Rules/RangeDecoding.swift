import Foundation
import RegimenLanguage
import RegimenRules

/// Reads a coach-written range (`0.80-0.90`, `3–5`, or a `[low, high]` list) under `key`.
func decodeRange(_ map: inout MappingDecoder, _ key: String, required: Bool = true) -> ClosedRange<Double>? {
    guard let node = required ? map.requiredNode(key) : map.node(key) else { return nil }
    return decodeRange(node, at: map.path.appending(key: key), in: map.context)
}

/// Reads a range from a node; reports what is wrong at the node.
func decodeRange(_ node: LocatedNode, at path: DecodingPath, in context: DecodingContext) -> ClosedRange<Double>? {
    if let items = node.sequence {
        guard items.count == 2,
              let low = context.decode(items[0], as: Double.self, at: path.appending(index: 0)),
              let high = context.decode(items[1], as: Double.self, at: path.appending(index: 1))
        else {
            if items.count != 2 { context.error("rules.range", path.message("must be a range such as 8-12 or [8, 12]"), at: node.location) }
            return nil
        }
        guard low <= high else {
            context.error("rules.range", path.message("runs backwards: \(low) is above \(high)"), at: node.location)
            return nil
        }
        return low...high
    }
    guard let text = node.scalar?.text, let range = parseRange(text) else {
        context.error("rules.range", path.message("must be a range such as 8-12, not \(node.kindDescription) '\(node.scalar?.text ?? "")'"), at: node.location)
        return nil
    }
    return range
}

/// `8-12`, `8–12`, `8 - 12`, `0.8-0.9` or a single number; `nil` otherwise.
func parseRange(_ text: String) -> ClosedRange<Double>? {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    if let single = Double(trimmed) { return single...single }
    let normalized = trimmed.replacingOccurrences(of: "–", with: "-")
    // Split at a dash that follows a digit, so a leading minus sign stays with its number.
    let scalars = Array(normalized.unicodeScalars)
    for index in scalars.indices.dropFirst() where scalars[index] == "-" {
        let before = scalars[scalars.index(before: index)]
        guard CharacterSet.decimalDigits.contains(before) || before == " " else { continue }
        let low = String(String.UnicodeScalarView(scalars[..<index])).trimmingCharacters(in: .whitespaces)
        let high = String(String.UnicodeScalarView(scalars[scalars.index(after: index)...])).trimmingCharacters(in: .whitespaces)
        guard let lowValue = Double(low), let highValue = Double(high), lowValue <= highValue else { return nil }
        return lowValue...highValue
    }
    return nil
}
