public import RegimenLanguage

/// How one `match` pattern lines up with a stretch of a request path.
struct PatternMatch: Sendable, Hashable {
    /// Index of the first request segment after the pattern.
    var end: Int
    /// Variables the pattern bound, in pattern order.
    var captures: [Capture]

    struct Capture: Sendable, Hashable {
        var name: String
        var value: Value
    }
}

/// Firestore's path matching for one pattern.
enum PathMatcher {
    /// Every way `pattern` can match `segments` starting at `start`.
    ///
    /// A `{name}` segment takes exactly one segment and binds it as a string. A `{name=**}`
    /// segment binds a path: in rules_version 2 it takes zero or more segments and may sit
    /// anywhere, so several alignments can exist (each is returned); in version 1 it takes one
    /// or more and is the last segment, so it takes everything that is left.
    static func matches(_ pattern: [PathPatternSegment], _ segments: [String], from start: Int, version2: Bool) -> [PatternMatch] {
        var results: [PatternMatch] = []
        var captures: [PatternMatch.Capture] = []
        captures.reserveCapacity(pattern.count)
        func step(_ p: Int, _ s: Int) {
            if p == pattern.count {
                results.append(PatternMatch(end: s, captures: captures))
                return
            }
            switch pattern[p] {
            case .literal(let literal):
                guard s < segments.count, segments[s] == literal else { return }
                step(p + 1, s + 1)
            case .wildcard(let name):
                guard s < segments.count else { return }
                captures.append(.init(name: name, value: .string(segments[s])))
                step(p + 1, s + 1)
                captures.removeLast()
            case .recursive(let name):
                let remaining = segments.count - s
                let lengths: ClosedRange<Int>
                if version2 {
                    lengths = 0...remaining
                } else {
                    guard p == pattern.count - 1, remaining >= 1 else { return }
                    lengths = remaining...remaining
                }
                for length in lengths {
                    captures.append(.init(name: name, value: .path(PathValue(segments: Array(segments[s..<(s + length)])))))
                    step(p + 1, s + length)
                    captures.removeLast()
                }
            }
        }
        step(0, start)
        return results
    }
}

/// A path split into segments, with the request-path prefix of its service.
public struct RequestPath: Sendable, Hashable, CustomStringConvertible {
    /// The path's segments, the service prefix (`databases/(default)/documents`) included.
    public let segments: [String]
    /// `/databases/(default)/documents/users/alice`; kept because stores are keyed by it.
    public let description: String

    /// The most segments a path may have below the service root (`databases/(default)/documents`
    /// or `b/bucket/o`): Firestore's document path depth limit (100 subcollection levels are
    /// stated as "maximum depth of subcollections: 100"; Regimen counts segments, the stricter
    /// reading, and so does the issue that set it).
    public static let maxDepth = 100

    /// Segments below the service root.
    public var depth: Int { max(0, segments.count - 3) }

    /// A path of the given segments, the service prefix included.
    public init(segments: [String]) {
        self.segments = segments
        description = "/" + segments.joined(separator: "/")
    }

    /// Reads a path a test author writes: relative to the service root (`users/alice`), or
    /// absolute (`/databases/(default)/documents/users/alice`, `/b/bucket/o/file.pdf`).
    public init(_ text: String, service: SecurityService, database: String = "(default)", bucket: String = "default-bucket") {
        let parts = text.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        switch service {
        case .firestore:
            if parts.count >= 3, parts[0] == "databases", parts[2] == "documents" {
                self.init(segments: parts)
            } else {
                self.init(segments: ["databases", database, "documents"] + parts)
            }
        case .storage:
            if parts.count >= 3, parts[0] == "b", parts[2] == "o" {
                self.init(segments: parts)
            } else {
                self.init(segments: ["b", bucket, "o"] + parts)
            }
        }
    }

    /// Why `text` is not a path a request can name, or nil when it is: Firestore rejects an empty
    /// segment (`users//alice`, `users/alice/`) rather than reading it as `users/alice`. One
    /// leading `/` marks an absolute path and is allowed.
    public static func problem(with text: String) -> String? {
        let body = text.hasPrefix("/") ? text.dropFirst() : Substring(text)
        guard !body.isEmpty else { return "'\(text)' is an empty path" }
        // A newline or other control character would be shown (and decided) as something else.
        if let control = text.unicodeScalars.first(where: { $0.properties.generalCategory == .control }) {
            return "the path holds the control character U+\(String(control.value, radix: 16, uppercase: true).leftPadded(to: 4)); write the path as Firestore receives it"
        }
        guard !body.split(separator: "/", omittingEmptySubsequences: false).contains(where: \.isEmpty) else {
            return "'\(text)' has an empty path segment; Firestore rejects such a path"
        }
        return nil
    }

    /// The segments after the service prefix (`users/alice`).
    public var relativeSegments: ArraySlice<Segment> { segments.dropFirst(3) }
    /// One segment of a path.
    public typealias Segment = String

    /// The path as a rules-language value.
    public var pathValue: PathValue { PathValue(segments: segments) }

    /// The last segment: the document id, or the object name.
    public var lastSegment: String { segments.last ?? "" }

    /// A Firestore document path has an even number of segments after `documents`.
    public var isFirestoreDocument: Bool { relativeSegments.count >= 2 && relativeSegments.count % 2 == 0 }

    /// A Firestore collection path has an odd number of segments after `documents`.
    public var isFirestoreCollection: Bool { relativeSegments.count % 2 == 1 }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
