package import RegimenLanguage
import RegimenRules

/// The request in a security-simulator body: a test case's keys, except that the operation is
/// given as `method` and `path` (what a form has) rather than as one key naming the path, and
/// beside the keys that choose the policy (`policy`, `policyText`, `syntax`), which are skipped.
/// Read with the tests' own reader, so values keep their rules types (`2.0` a float,
/// `{"$timestamp": …}` a timestamp) and every problem is located in the body.
package enum SimulatorBody {
    /// The body's keys that are not the request's.
    static let policyKeys: Set = ["policy", "policyText", "syntax", "tests"]

    /// - Throws: ``DiagnosticsError`` with every problem, located in `file`.
    package static func request(_ text: String, file: String, service: SecurityService, base: DocumentStore = DocumentStore()) throws(DiagnosticsError) -> AuthorizeBody {
        if let line = AuthorizeBody.lineExceedingDepth(text) {
            throw DiagnosticsError([.error("yaml.too-deep", "body nests deeper than \(AuthorizeBody.maximumDepth) levels", at: SourceLocation(file: file, line: line, column: 1))])
        }
        let root = try SecurityYAML.read(text, file: file)
        guard case .mapping(let pairs) = root.content else {
            throw DiagnosticsError([.error("simulator.body", "the body must be a mapping with 'method', 'path' and the request's keys", at: root.location)])
        }
        func value(_ key: String) -> LocatedPair? { pairs.first { $0.key.scalar?.text == key } }
        var problems: [Diagnostic] = []
        let method = value("method")
        let methods = SecurityTestSuite.operationKeys
        if method == nil {
            problems.append(.error("simulator.method", "'method' is required: one of \(methods.joined(separator: ", "))", at: root.location))
        } else if let method, !(method.value.scalar.map { methods.contains($0.text) } ?? false) {
            problems.append(.error("simulator.method", "'method' must be one of \(methods.joined(separator: ", "))", at: method.value.location))
        }
        let path = value("path")
        if path == nil {
            problems.append(.error("simulator.path", "'path' is required: the document path under the service root, such as users/alice", at: root.location))
        } else if let path, path.value.scalar == nil {
            problems.append(.error("simulator.path", "'path' must be text, such as users/alice", at: path.value.location))
        }
        guard problems.isEmpty, let method, let path, let verb = method.value.scalar?.text else { throw DiagnosticsError(problems) }
        var request = [LocatedPair(key: LocatedNode(.scalar(LocatedScalar(verb)), at: method.key.location), value: path.value)]
        for pair in pairs {
            guard let key = pair.key.scalar?.text, key != "method", key != "path", !policyKeys.contains(key) else { continue }
            if key == "time", let time = pair.value.scalar {
                // A form (and JSON) sends the time as a quoted string; a test file writes it plain.
                request.append(LocatedPair(key: pair.key, value: LocatedNode(.scalar(LocatedScalar(time.text)), at: pair.value.location)))
            } else {
                request.append(pair)
            }
        }
        let context = DecodingContext()
        let decoded = SecurityTestSuite.decodeCase(
            LocatedNode(.mapping(request), at: root.location), at: DecodingPath(subject: "the request"), service: service, bucket: "default-bucket",
            time: SecurityTestSuite.defaultTime, in: context, expectationOptional: true)
        guard let decoded, !context.hasErrors else { throw DiagnosticsError(context.diagnostics) }
        var store = base
        for (documentPath, data) in decoded.documents { store[documentPath] = data }
        return AuthorizeBody(items: [AuthorizeBody.Item(request: decoded.request, documents: store)], isBatch: false)
    }
}
