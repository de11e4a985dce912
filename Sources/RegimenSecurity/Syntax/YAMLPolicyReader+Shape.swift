import RegimenLanguage
import RegimenRules

/// A YAML policy's shape (its JSON Schema), described by running the policy reader's own reads in
/// describing mode (see ``YAMLMapping/init(describing:)``): a key the reader reads is in the
/// schema with the shape its read names, a key it reports missing is required, and a key it does
/// not read is not allowed.
///
/// Conditions, `let` values and return expressions are expressions in the rules language: the
/// schema checks only where one is written; their syntax, names and types are the loader's
/// (regimen check), as are duplicate functions. The patterns below are the ones the reader
/// checks: a match path's segments, a function's signature, an allow entry's methods.
extension YAMLPolicyReader {
    /// The keys of a policy file besides `kind` and `version`, as the reader reads them.
    static var fileShape: MappingShape {
        var top = YAMLMapping(describing: "A security policy in Regimen's YAML form of Firestore (or Storage) rules.")
        var ignored = DiagnosticCollector()
        _ = decodeFile(&top, file: "<schema>", text: "", diagnostics: &ignored)
        return top.described ?? MappingShape()
    }

    /// Where the top-level match blocks' shape is in the schema: a nested `match` list refers to it.
    static let matchPointer = "#/properties/match/items"

    /// One match block, as ``Reader/match(_:diagnostics:)`` reads it.
    static var matchShape: NodeShape {
        var map = YAMLMapping(describing: "A match block: a path pattern, the functions visible inside it, its allow statements and nested blocks.")
        var ignored = DiagnosticCollector()
        _ = Reader().match(&map, diagnostics: &ignored)
        return .mapping(map.described ?? MappingShape())
    }

    /// Functions by signature: each an expression (what it returns) or `let:` and `return:`.
    static var functionsShape: NodeShape {
        var body = YAMLMapping(describing: "A function with local variables: 'let' binds names in order, 'return' is the result.")
        var ignored = DiagnosticCollector()
        _ = Reader().functionBody(&body, name: "", diagnostics: &ignored)
        var functions = MappingShape(
            otherKeys: .anyOf([expressionShape, .mapping(body.described ?? MappingShape())]),
            summary: "Functions by signature ('isOwner(userId)'): each a return expression, or 'let' and 'return'.")
        functions.keyPattern = signaturePattern
        return .mapping(functions)
    }

    /// `- update, delete: condition`: one pair, its key the methods, its value the condition
    /// (none: always allowed).
    static var allowShape: NodeShape {
        var entry = MappingShape(
            otherKeys: expressionShape.orNull,
            summary: "An allow statement: the methods (\(methodNames.joined(separator: ", ")); several separated by commas) and the condition under which they are allowed; no condition allows them always.")
        entry.keyPattern = "^[ \\t]*\(methodWord)[ \\t]*(,[ \\t]*\(methodWord)[ \\t]*)*$"
        entry.nonEmpty = true
        entry.maximumKeys = 1
        return .mapping(entry)
    }

    /// `- name: expression`: one local variable of a function.
    static var letShape: NodeShape {
        var entry = MappingShape(otherKeys: expressionShape, summary: "A local variable: its name and the expression it stands for.")
        entry.keyPattern = "^\(identifier)$"
        entry.nonEmpty = true
        entry.maximumKeys = 1
        return .mapping(entry)
    }

    /// An expression: any scalar but a plain null; what it says is the loader's.
    static let expressionShape: NodeShape = .expression

    /// `"1"` or `"2"` (quoted or not).
    static let rulesVersionShape: NodeShape = .anyOf([.oneOf(["1", "2"]), .integer(minimum: 1, maximum: 2)])

    /// A match path: `/`-separated segments, none empty, each a literal (no braces), a wildcard
    /// `{name}` or a recursive wildcard `{name=**}`, at most one of those.
    static let pathPatternShape: NodeShape = .pattern(
        "^(?!(.*=\\*\\*\\}){2})(/([^/{}]+|\\{\(identifier)\\}|\\{\(identifier)=\\*\\*\\}))+$")

    /// `name(a, b)`, spaces allowed around each name.
    static let signaturePattern = "^[ \\t]*\(identifier)[ \\t]*\\(([ \\t]*\(identifier)[ \\t]*(,[ \\t]*\(identifier)[ \\t]*)*)?\\)$"

    /// A wildcard, function, parameter or variable name. The schema checks ASCII names; the
    /// loader also accepts letters of other alphabets (``PathPattern/isIdentifier(_:)``).
    static let identifier = "[A-Za-z_][A-Za-z0-9_]*"

    private static var methodWord: String { "(\(methodNames.joined(separator: "|")))" }
}
