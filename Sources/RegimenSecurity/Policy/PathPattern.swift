import RegimenLanguage

/// One segment of a `match` path.
package enum PathPatternSegment: Sendable, Hashable {
    /// A fixed segment such as `users`.
    case literal(String)
    /// `{name}`: exactly one segment, bound as a string.
    case wildcard(String)
    /// `{name=**}`: a run of segments, bound as a path (zero or more in rules_version 2,
    /// one or more and only last in version 1).
    case recursive(String)

    package var text: String {
        switch self {
        case .literal(let s): s
        case .wildcard(let name): "{\(name)}"
        case .recursive(let name): "{\(name)=**}"
        }
    }

    /// The variable this segment binds, if any.
    var variableName: String? {
        switch self {
        case .literal: nil
        case .wildcard(let name), .recursive(let name): name
        }
    }
}

/// The path of a `match` statement, relative to the enclosing match.
package struct PathPattern: Sendable, Hashable, CustomStringConvertible {
    package var segments: [PathPatternSegment]

    init(segments: [PathPatternSegment]) { self.segments = segments }

    /// `/users/{userId}`
    package var description: String { "/" + segments.map(\.text).joined(separator: "/") }

    /// The variables bound by this pattern, in order.
    var variableNames: [String] { segments.compactMap(\.variableName) }

    /// Parses a pattern such as `/users/{userId}/{rest=**}`. Returns the problem as a message
    /// when the text is not a valid pattern.
    package static func parse(_ text: String) -> Result<PathPattern, PathPatternError> {
        guard text.hasPrefix("/") else { return .failure(PathPatternError("a match path starts with '/'")) }
        var segments: [PathPatternSegment] = []
        for raw in text.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            let piece = String(raw)
            if piece.isEmpty { return .failure(PathPatternError("empty segment in match path '\(text)'")) }
            if piece.hasPrefix("{") {
                guard piece.hasSuffix("}"), piece.count >= 3 else {
                    return .failure(PathPatternError("unterminated wildcard '\(piece)' in match path"))
                }
                let inner = String(piece.dropFirst().dropLast())
                if inner.hasSuffix("=**") {
                    let name = String(inner.dropLast(3))
                    guard isIdentifier(name) else { return .failure(PathPatternError("invalid wildcard name '\(name)'")) }
                    segments.append(.recursive(name))
                } else {
                    guard isIdentifier(inner) else { return .failure(PathPatternError("invalid wildcard name '\(inner)'")) }
                    segments.append(.wildcard(inner))
                }
            } else {
                if piece.contains("{") || piece.contains("}") {
                    return .failure(PathPatternError("a wildcard must be a whole segment: '\(piece)'"))
                }
                segments.append(.literal(piece))
            }
        }
        if segments.filter({ if case .recursive = $0 { true } else { false } }).count > 1 {
            return .failure(PathPatternError("at most one recursive wildcard per match path"))
        }
        return .success(PathPattern(segments: segments))
    }

    static func isIdentifier(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, first == "_" || first.properties.isAlphabetic else { return false }
        return text.unicodeScalars.allSatisfy { $0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0) }
    }
}

/// Why a match path could not be parsed.
package struct PathPatternError: Error, Sendable, Hashable {
    package var message: String
    init(_ message: String) { self.message = message }
}
