import RegimenLanguage
import RegimenRules

/// The shapes of a YAML policy's values that the reader checks itself (a match path, a
/// function's signature, an allow entry's methods), declared for its schema beside the reads;
/// the rest of the schema is described by running the reader's own reads in describing mode
/// (see ``ShapeRecorder``), as for every rule-file kind.
///
/// Conditions, `let` values and return expressions are expressions in the rules language: the
/// schema checks only where one is written; their syntax, names and types are the loader's
/// (regimen check), as are duplicate functions.
extension YAMLPolicyReader {
    /// Where the top-level match blocks' shape is in the schema: a nested `match` list refers to it.
    static let matchPointer = "#/properties/match/items"

    /// Functions by signature: each an expression (what it returns) or `let:` and `return:`,
    /// the latter described by the reader's own reads in `context` (describing mode).
    static func functionsShape(_ context: DecodingContext) -> NodeShape {
        let body = context.shape { node in
            _ = context.mapping(node, at: DecodingPath()) { map in Reader(context: context).functionBody(&map, name: "") }
        }
        var functions = MappingShape(
            otherKeys: .anyOf([expressionShape, body]),
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
