package import RegimenLanguage

/// The product a policy protects: Cloud Firestore documents or Cloud Storage objects.
public enum SecurityService: String, Sendable, Hashable, CaseIterable {
    /// Cloud Firestore (`service cloud.firestore`).
    case firestore = "cloud.firestore"
    /// Cloud Storage for Firebase (`service firebase.storage`).
    case storage = "firebase.storage"
}

/// A security policy: the one model both the native `.rules` syntax and the YAML form compile to.
///
/// Loaded policies are immutable values; evaluation compiles them once into a
/// ``CompiledPolicy``.
package struct SecurityPolicy: Sendable, Hashable {
    /// `'2'` for rules_version 2; `nil` when the file has no `rules_version` (the v1 engine).
    var rulesVersion: String?
    package var service: SecurityService
    /// Functions declared directly in the `service` block, visible everywhere.
    package var functions: [FunctionDeclaration]
    package var matches: [MatchBlock]
    /// Where the policy came from: file path and full text (for coverage reports).
    package var origin: PolicyOrigin

    init(
        rulesVersion: String?, service: SecurityService, functions: [FunctionDeclaration] = [],
        matches: [MatchBlock], origin: PolicyOrigin
    ) {
        self.rulesVersion = rulesVersion
        self.service = service
        self.functions = functions
        self.matches = matches
        self.origin = origin
    }

    /// Whether recursive wildcards follow rules_version 2 (zero or more segments, anywhere).
    package var usesVersion2: Bool { rulesVersion == "2" }

    /// Every allow statement, in source order.
    var allAllows: [AllowStatement] {
        var out: [AllowStatement] = []
        func visit(_ block: MatchBlock) {
            out.append(contentsOf: block.allows)
            block.children.forEach(visit)
        }
        matches.forEach(visit)
        return out
    }

    /// Every function declaration with the match nesting it is declared in, in source order.
    var allFunctions: [FunctionDeclaration] {
        var out = functions
        func visit(_ block: MatchBlock) {
            out.append(contentsOf: block.functions)
            block.children.forEach(visit)
        }
        matches.forEach(visit)
        return out
    }
}

/// The file a policy was read from, kept for reports that show the source.
package struct PolicyOrigin: Sendable, Hashable {
    package var file: String
    package var text: String
    package var syntax: PolicySyntax

}

/// The two spellings of a policy.
package enum PolicySyntax: String, Sendable, Hashable {
    case native
    case yaml
}

/// A `match` block: a path pattern relative to its parent, with its allows, functions and
/// nested matches.
package struct MatchBlock: Sendable, Hashable {
    package var pattern: PathPattern
    package var functions: [FunctionDeclaration]
    package var allows: [AllowStatement]
    package var children: [MatchBlock]
    package var location: SourceLocation

    init(
        pattern: PathPattern, functions: [FunctionDeclaration] = [], allows: [AllowStatement] = [],
        children: [MatchBlock] = [], location: SourceLocation
    ) {
        self.pattern = pattern
        self.functions = functions
        self.allows = allows
        self.children = children
        self.location = location
    }
}

/// `allow get, list: if condition;`
package struct AllowStatement: Sendable, Hashable {
    /// The methods as written (`read`, `update`, …).
    package var methods: [MethodName]
    /// `nil` for `allow read;`, which always grants.
    package var condition: PolicyExpression?
    /// Where the `allow` keyword is; identifies the statement in explanations and coverage.
    package var location: SourceLocation

    /// The request methods this statement applies to.
    package var requestMethods: Set<RequestMethod> {
        methods.reduce(into: []) { $0.formUnion($1.expansion) }
    }

    /// `allow update, delete` as written, for messages.
    package var methodList: String { methods.map(\.rawValue).joined(separator: ", ") }
}

/// `function name(a, b) { let x = …; return …; }`
package struct FunctionDeclaration: Sendable, Hashable {
    package var name: String
    package var parameters: [String]
    package var lets: [LetBinding]
    package var body: PolicyExpression
    package var location: SourceLocation

    package init(name: String, parameters: [String], lets: [LetBinding], body: PolicyExpression, location: SourceLocation) {
        self.name = name
        self.parameters = parameters
        self.lets = lets
        self.body = body
        self.location = location
    }

    /// `name(a, b)`
    var signature: String { "\(name)(\(parameters.joined(separator: ", ")))" }
}

/// `let name = value;` inside a function.
package struct LetBinding: Sendable, Hashable {
    package var name: String
    package var value: PolicyExpression
    package var location: SourceLocation

}

/// An expression as written in a policy, with where each of its lines sits in the file.
package struct PolicyExpression: Sendable, Hashable {
    package var source: SourceText

    init(_ source: SourceText) { self.source = source }

    package var text: String { source.text }

    /// Where the expression starts in its file.
    package var location: SourceLocation? { source.lineOrigins.first }
}
