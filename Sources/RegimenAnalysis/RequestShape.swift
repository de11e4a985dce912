import RegimenSecurity

/// The requests one query is about: a method and a path pattern below
/// `/databases/(default)/documents`, whose `{wildcards}` stand for any document id.
package struct RequestShape: Sendable, Hashable, CustomStringConvertible {
    package enum Segment: Sendable, Hashable {
        case literal(String)
        case variable(String)
    }

    package var method: AnalysedMethod
    var segments: [Segment]

    /// `get /users/{uid}`
    package var description: String { "\(method.rawValue) \(pattern)" }

    /// `/users/{uid}`
    package var pattern: String {
        "/" + segments.map { segment in
            switch segment {
            case .literal(let s): s
            case .variable(let name): "{\(name)}"
            }
        }.joined(separator: "/")
    }

    /// The shapes a pattern such as `/users/{uid}/**` or `/users/{uid}/{rest=**}` stands for: a
    /// recursive wildcard is unrolled to each length from 0 to `maxRecursive` that makes a
    /// document path (an even number of segments). `nil` when the text is not a pattern.
    package static func shapes(method: AnalysedMethod, pattern text: String, maxRecursive: Int = 3) -> [RequestShape]? {
        var text = text
        if text.hasSuffix("/**") { text = String(text.dropLast(3)) + "/{rest=**}" }
        guard case .success(let pattern) = PathPattern.parse(text) else { return nil }
        var prefix = pattern.segments
        // A pattern written from the service root drops `/databases/{database}/documents`.
        if prefix.count >= 3, case .literal("databases") = prefix[0], case .literal("documents") = prefix[2] { prefix.removeFirst(3) }
        return shapes(method: method, pattern: prefix, maxRecursive: maxRecursive)
    }

    static func shapes(method: AnalysedMethod, pattern: [PathPatternSegment], maxRecursive: Int) -> [RequestShape] {
        var out: [[Segment]] = [[]]
        for segment in pattern {
            switch segment {
            case .literal(let s): out = out.map { $0 + [.literal(s)] }
            case .wildcard(let name): out = out.map { $0 + [.variable(name)] }
            case .recursive(let name):
                out = out.flatMap { base in (0...maxRecursive).map { n in base + (0..<n).map { .variable("\(name)\($0 + 1)") } } }
            }
        }
        return out.filter { !$0.isEmpty && $0.count.isMultiple(of: 2) }.map { RequestShape(method: method, segments: $0) }
    }
}
