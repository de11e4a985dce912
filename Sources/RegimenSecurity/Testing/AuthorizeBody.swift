import OrderedCollections
package import RegimenLanguage
import RegimenRules

/// The requests of an authorize body: one request (a test case's keys without `name` and
/// `expect`: `{"get": "users/alice", "auth": {"uid": "alice"}}`), a list of them, or
/// `{"requests": [...], "documents": {path: fields}}` sharing documents across the list.
package struct AuthorizeBody: Sendable {
    /// One request with the documents that exist for it (shared ones, then its own on top).
    package struct Item: Sendable {
        package var request: SecurityRequest
        package var documents: DocumentStore
    }

    package var items: [Item]
    /// Whether the body was a list (answered with a list) rather than one request.
    package var isBatch: Bool

    /// Nesting deeper than this is refused before parsing, so a hostile body cannot exhaust the
    /// stack; a request with data nests a few levels.
    static let maximumDepth = 64

    /// Reads `text` (JSON or YAML) for a policy of `service`; `base` holds the documents that
    /// exist for every request (a service's `--documents` folder).
    /// - Throws: ``DiagnosticsError`` with every problem, located in `file`.
    package static func read(_ text: String, file: String, service: SecurityService, base: DocumentStore) throws(DiagnosticsError) -> AuthorizeBody {
        if let line = lineExceedingDepth(text) {
            throw DiagnosticsError([.error("yaml.too-deep", "body nests deeper than \(maximumDepth) levels", at: SourceLocation(file: file, line: line, column: 1))])
        }
        let root = try SecurityYAML.read(text, file: file)
        let context = DecodingContext()
        var shared = base
        var requestNodes: [LocatedNode] = []
        let isBatch: Bool
        if let items = root.sequence {
            requestNodes = items
            isBatch = true
        } else if root.mapping != nil, root["requests"] != nil {
            // `{"requests": [...], "documents": {...}}`: any other key is reported as unknown.
            _ = context.mapping(root, at: DecodingPath()) { map -> Bool? in
                requestNodes = map.list("requests") { node, _ in node } ?? []
                if let documents = map.node("documents") {
                    for (path, data) in SecurityTestSuite.documents(documents, service: service, bucket: "default-bucket", in: context) {
                        shared[path] = data
                    }
                }
                return nil
            }
            isBatch = true
        } else {
            requestNodes = [root]
            isBatch = false
        }
        var items: [Item] = []
        items.reserveCapacity(requestNodes.count)
        for (index, node) in requestNodes.enumerated() {
            let path = isBatch ? DecodingPath(subject: "request \(index + 1)") : DecodingPath(subject: "the request")
            guard let decoded = SecurityTestSuite.decodeCase(
                node, at: path, service: service, bucket: "default-bucket", time: SecurityTestSuite.defaultTime, in: context,
                expectationOptional: true)
            else { continue }
            var store = shared
            for (path, data) in decoded.documents { store[path] = data }
            items.append(Item(request: decoded.request, documents: store))
        }
        if context.hasErrors { throw DiagnosticsError(context.diagnostics) }
        return AuthorizeBody(items: items, isBatch: isBatch)
    }

    /// An over-estimate of nesting: open brackets outside quoted strings plus half the line's
    /// indentation. Real requests stay far below the limit; only hostile input reaches it.
    static func lineExceedingDepth(_ text: String) -> Int? {
        var flowDepth = 0, line = 1, indentation = 0
        var leading = true, quote: UInt8? = nil, escaped = false
        for byte in text.utf8 {
            if let open = quote {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\"), open == UInt8(ascii: "\"") { escaped = true } else if byte == open { quote = nil }
                // A quote never hides the brackets of a later line (a YAML apostrophe is no quote).
                if byte != UInt8(ascii: "\n") { continue }
                quote = nil
                escaped = false
            }
            switch byte {
            case UInt8(ascii: "\n"):
                line += 1
                indentation = 0
                leading = true
                continue
            case UInt8(ascii: " ") where leading: indentation += 1
            case UInt8(ascii: "\""), UInt8(ascii: "'"): quote = byte
            case UInt8(ascii: "["), UInt8(ascii: "{"): flowDepth += 1
            case UInt8(ascii: "]"), UInt8(ascii: "}"): flowDepth = max(0, flowDepth - 1)
            default: break
            }
            if byte != UInt8(ascii: " ") { leading = false }
            if flowDepth + indentation / 2 > maximumDepth { return line }
        }
        return nil
    }
}
