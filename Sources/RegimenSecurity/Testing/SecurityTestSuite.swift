import Foundation
package import OrderedCollections
package import RegimenLanguage
import RegimenRules

/// An auditor's test file (`kind: security_tests`): a policy, the documents that exist, and
/// cases with the decision each must get.
package struct SecurityTestSuite: Sendable {
    package var file: String
    package var policy: SecurityPolicy
    package var documents: DocumentStore
    package var cases: [SecurityTestCase]

    /// `request.time` when a test file gives none. A fixed instant keeps results reproducible
    /// from one day to the next; a policy that compares with the clock gets `time:` in its tests.
    package static let defaultTime = Timestamp(seconds: 1_735_689_600)  // 2025-01-01T00:00:00Z
}

/// One expected-decision case.
package struct SecurityTestCase: Sendable {
    package var name: String
    package var location: SourceLocation
    package var request: SecurityRequest
    /// Documents added (or, with a null value, removed) for this case only.
    package var documents: [(path: RequestPath, data: OrderedDictionary<String, Value>?)]
    var expectAllow: Bool
}

extension SecurityTestSuite {
    /// Loads a test file and the policy it names (relative to the test file's folder).
    /// - Throws: ``DiagnosticsError`` with every problem in the test file and the policy.
    package static func load(file: String) throws(DiagnosticsError) -> SecurityTestSuite {
        try parse(try InputFile.read(path: file), file: file)
    }

    package static func parse(_ text: String, file: String) throws(DiagnosticsError) -> SecurityTestSuite {
        try parse(text, file: file, policy: nil)
    }

    /// Parses a test file; with `givenPolicy`, its cases run against that policy and a `rules:`
    /// key is read but never followed (a test body sent to a service names no file to load).
    /// The file is read as the rule loader reads a `security_tests` file of the tree.
    package static func parse(_ text: String, file: String, policy givenPolicy: SecurityPolicy?) throws(DiagnosticsError) -> SecurityTestSuite {
        try RuleSetLoader.decodeFile(text, file: file, as: SecurityTestsFile.self) { top in
            decodeFile(&top, file: file, policy: givenPolicy)
        }.get()
    }

    /// Reads a test file's keys besides `kind` and `version` (in describing mode, records their
    /// shapes and returns `nil`); `nil` when its policy did not load.
    static func decodeFile(_ top: inout MappingDecoder, file: String, policy givenPolicy: SecurityPolicy?) -> SecurityTestSuite? {
        let context = top.context
        top.summary("An auditor's test file: a policy, the documents that exist, and cases with the decision each must get.")
        var policy: SecurityPolicy? = givenPolicy
        if givenPolicy != nil {
            top.allow("rules")
        } else if let rulesNode = top.node("rules", shape: .text, required: true, missing: "missing 'rules:' naming the rules file"),
                  let rules = context.decode(rulesNode, as: String.self, at: top.path.appending(key: "rules")) {
            let path = (rules.hasPrefix("/") ? rules : ((file as NSString).deletingLastPathComponent as NSString).appendingPathComponent(rules))
            do { policy = try PolicyLoader.load(file: path) } catch {
                context.report(contentsOf: error.diagnostics)
                if error.diagnostics.isEmpty { context.error("tests.rules", "cannot load rules \(rules)", at: rulesNode.location) }
            }
        }
        var time = SecurityTestSuite.defaultTime
        if let node = top.node("time", shape: timeShape) {
            if let t = timestamp(node, in: context) { time = t } else {
                context.error("tests.time", "'time' must be an ISO-8601 date-time", at: node.location)
            }
        }
        let service = policy?.service ?? .firestore
        let bucket = top.optional("bucket", as: String.self) ?? "default-bucket"
        var store = DocumentStore()
        if let node = top.node("documents", shape: documentsShape) {
            for (path, data) in documents(node, service: service, bucket: bucket, in: context) {
                if let data { store[path] = data }
            }
        }
        let cases = top.list("cases") { item, path in
            decodeCase(item, at: path, service: service, bucket: bucket, time: time, in: context)
        } ?? []
        var names = Set<String>()
        for testCase in cases where !names.insert(testCase.name).inserted {
            context.error("tests.duplicate-name", "duplicate case name '\(testCase.name)'", at: testCase.location)
        }
        guard let policy, !context.isDescribing else { return nil }
        return SecurityTestSuite(file: file, policy: policy, documents: store, cases: cases)
    }

    static func documents(
        _ node: LocatedNode, service: SecurityService, bucket: String, in context: DecodingContext
    ) -> [(RequestPath, OrderedDictionary<String, Value>?)] {
        guard let entries = node.mapping else {
            context.error("rules.wrong-type", "'documents' must map paths to document data, not \(node.kindDescription)", at: node.location)
            return []
        }
        var out: [(RequestPath, OrderedDictionary<String, Value>?)] = []
        for entry in entries {
            guard let key = entry.key.scalar?.text else { continue }
            if let problem = RequestPath.problem(with: key) {
                context.error("tests.path", problem, at: entry.key.location)
                continue
            }
            let path = RequestPath(key, service: service, bucket: bucket)
            if service == .firestore, !path.isFirestoreDocument {
                context.error("tests.path", "'\(key)' is not a document path (it needs an even number of segments)", at: entry.key.location)
            }
            if entry.value.isNull {
                out.append((path, nil))
                continue
            }
            guard case .map(let data) = YAMLValues.value(entry.value, in: context) else {
                context.error("tests.document", "document '\(key)' must be a mapping of fields", at: entry.value.location)
                continue
            }
            out.append((path, data))
        }
        return out
    }

    static let operationKeys = ["get", "list", "create", "update", "set", "delete", "upload", "download"]

    /// Decodes one case at `path`; with `expectationOptional`, a case without `name` and `expect`
    /// is a bare request (what an authorize request body holds). In describing mode, records a
    /// case's shape for `node`: which keys a case may have depends on its operation, so a case
    /// is described once per operation and the shape is any of them.
    static func decodeCase(
        _ node: LocatedNode, at path: DecodingPath, service: SecurityService, bucket: String, time fileTime: Timestamp,
        in context: DecodingContext, expectationOptional: Bool = false
    ) -> SecurityTestCase? {
        if context.isDescribing {
            let shapes = operationKeys.map { verb in
                context.shape { described in
                    _ = context.mapping(described, at: path) { map in
                        map.summary("A test case whose request is '\(verb)'.")
                        return decodeCase(
                            &map, describing: verb, service: service, bucket: bucket, time: fileTime, expectationOptional: expectationOptional)
                    }
                }
            }
            _ = context.describe(.anyOf(shapes), for: node)
            return nil
        }
        return context.mapping(node, at: path) { map in
            decodeCase(&map, describing: nil, service: service, bucket: bucket, time: fileTime, expectationOptional: expectationOptional)
        }
    }

    /// Reads one case from `map`; in describing mode, records the keys a case whose operation is
    /// `describedVerb` may have and returns `nil`.
    private static func decodeCase(
        _ map: inout MappingDecoder, describing describedVerb: String?, service: SecurityService, bucket: String, time fileTime: Timestamp,
        expectationOptional: Bool
    ) -> SecurityTestCase? {
        let node = map.node
        let context = map.context
        let nameNode = map.node("name", shape: nameShape, required: !expectationOptional, missing: "a test case needs a 'name'")
        let name = nameNode.flatMap { context.decode($0, as: String.self, at: map.path.appending(key: "name")) } ?? ""
        if let nameNode, name.isEmpty, !expectationOptional { context.error("tests.name", "a test case's 'name' is empty", at: nameNode.location) }
        if !name.isEmpty { map.path = DecodingPath(subject: "case '\(name)'") }
        var auth: AuthContext?
        let authPath = map.path.appending(key: "auth")
        // The shape is worked out only in describing mode (an autoclosure), not per request.
        if let authNode = map.node("auth", shape: authShape(at: authPath, in: context).orNull), !authNode.isNull {
            auth = context.mapping(authNode, at: authPath) { decodeAuth(&$0) }
        }
        var time = fileTime
        if let timeNode = map.node("time", shape: timeShape) {
            if let t = timestamp(timeNode, in: context) { time = t } else {
                context.error("tests.time", map.path.message("'time' must be an ISO-8601 date-time"), at: timeNode.location)
            }
        }
        var expectAllow = false
        let expectPath = map.path.appending(key: "expect")
        if let expectNode = map.node(
            "expect", shape: .oneOf(["allow", "deny"]), required: !expectationOptional, missing: "needs 'expect: allow' or 'expect: deny'"),
            let expect = context.decode(expectNode, as: String.self, at: expectPath) {
            switch expect {
            case "allow": expectAllow = true
            case "deny": expectAllow = false
            default: context.error("tests.expect", expectPath.message("must be allow or deny, not '\(expect)'"), at: expectNode.location)
            }
        }
        var caseDocuments: [(path: RequestPath, data: OrderedDictionary<String, Value>?)] = []
        if let docs = map.node("documents", shape: documentsShape) {
            caseDocuments = documents(docs, service: service, bucket: bucket, in: context).map { (path: $0.0, data: $0.1) }
        }
        let present = describedVerb.map { [$0] } ?? operationKeys.filter(map.contains)
        let pathNode = present.count == 1 ? map.node(present[0], shape: pathShape, required: true) : nil
        if context.isDescribing, let verb = present.first {
            // The keys this operation reads besides its path, recorded by the same reads.
            _ = operation(verb, path: RequestPath("", service: service, bucket: bucket), at: node.location, in: &map)
            return nil
        }
        // A null path (`get: ~`) is an empty one, not the word `~` or `null`.
        guard let verb = present.first, let pathNode, let pathText = pathNode.isNull ? "" : pathNode.scalar?.text else {
            context.error(
                "tests.operation", map.path.prefixed("needs exactly one operation: \(operationKeys.joined(separator: ", "))"), at: node.location)
            // The operations written are reported here, not as unknown keys.
            for verb in present { map.allow(verb) }
            return nil
        }
        if let problem = RequestPath.problem(with: pathText) {
            context.error("tests.path", problem, at: pathNode.location)
            return nil
        }
        let path = RequestPath(pathText, service: service, bucket: bucket)
        let storageVerbs: Set = ["upload", "download"]
        let firestoreOnly: Set = ["list", "create", "update", "set", "get"]
        if service == .storage, firestoreOnly.contains(verb), verb != "get", verb != "list" {
            context.error("tests.operation", "'\(verb)' is a Firestore operation; Storage cases use upload, download, delete", at: pathNode.location)
        }
        if service == .firestore, storageVerbs.contains(verb) {
            context.error("tests.operation", "'\(verb)' is a Storage operation; this policy is for cloud.firestore", at: pathNode.location)
        }
        if service == .firestore {
            let wantsCollection = verb == "list"
            if wantsCollection ? !path.isFirestoreCollection : !path.isFirestoreDocument {
                context.error(
                    "tests.path",
                    wantsCollection ? "'list' needs a collection path (odd number of segments): '\(pathText)'"
                        : "'\(verb)' needs a document path (even number of segments): '\(pathText)'",
                    at: pathNode.location)
            }
        }
        let operation = operation(verb, path: path, at: pathNode.location, in: &map)
        return SecurityTestCase(
            name: name, location: node.location, request: SecurityRequest(auth: auth, operation: operation, time: time),
            documents: caseDocuments, expectAllow: expectAllow)
    }

    /// `auth` of a case, as ``decodeAuth(_:)`` reads it (describing mode only).
    private static func authShape(at path: DecodingPath, in context: DecodingContext) -> NodeShape {
        context.shape { described in
            _ = context.mapping(described, at: path) { authMap in
                authMap.summary("The signed-in user; omit it (or write null) for a signed-out request.")
                return decodeAuth(&authMap)
            }
        }
    }

    /// Reads `auth`: a `uid` and the token's claims.
    static func decodeAuth(_ authMap: inout MappingDecoder) -> AuthContext? {
        let context = authMap.context
        let uid = authMap.node("uid", shape: .text, required: true, missing: "'auth' needs a 'uid' (omit 'auth' for a signed-out request)")
            .flatMap { context.decode($0, as: String.self, at: authMap.path.appending(key: "uid")) }
        var token = OrderedDictionary<String, Value>()
        if let tokenNode = authMap.node("token", shape: fields(.anything(note: "A claim of the signed-in user's ID token."), summary: "The ID token's claims.")) {
            if case .map(let claims) = YAMLValues.value(tokenNode, in: context) { token = claims } else {
                context.wrongType(tokenNode, expected: "a mapping of claims", at: authMap.path.appending(key: "token"))
            }
        }
        return AuthContext(uid: uid ?? "", token: token)
    }

    /// Reads what operation `verb` needs besides its path (`data`, `query`, `size`, …).
    private static func operation(_ verb: String, path: RequestPath, at pathLocation: SourceLocation, in map: inout MappingDecoder) -> SecurityOperation {
        let context = map.context
        func writeData() -> OrderedDictionary<String, WriteValue> {
            guard let dataNode = map.node("data", shape: writeDataShape, required: true, missing: "'\(verb)' needs 'data'") else { return [:] }
            guard case .map(let fields) = YAMLValues.writeValue(dataNode, in: context) else {
                context.wrongType(dataNode, expected: "a mapping of fields", at: map.path.appending(key: "data"))
                return [:]
            }
            return fields
        }
        let operation: SecurityOperation
        switch verb {
        case "get": operation = .get(path)
        case "download": operation = .download(path)
        case "delete": operation = .delete(path)
        case "list":
            let query = map.mapping("query", required: false) { query in
                query.summary("The query a list request makes.")
                return decodeQuery(&query)
            }
            operation = .list(path, query ?? ListQuery())
        case "create":
            let data = writeData()
            rejectDeleteSentinel(data, verb: verb, at: pathLocation, in: context)
            operation = .create(path, WriteData(fields: data))
        case "set":
            let data = writeData()
            rejectDeleteSentinel(data, verb: verb, at: pathLocation, in: context)
            operation = .set(path, WriteData(fields: data))
        case "update": operation = .update(path, WriteData(fields: writeData()))
        default:  // upload
            var size: Int64 = 0
            if let sizeNode = map.node("size", shape: .integer(minimum: 0, maximum: nil), required: true, missing: "'upload' needs 'size' in bytes") {
                if case .int(let n) = YAMLValues.value(sizeNode, in: context), n >= 0 { size = n } else {
                    context.error("tests.upload", map.path.appending(key: "size").message("must be a non-negative integer (bytes)"), at: sizeNode.location)
                }
            }
            let contentType = map.optional("contentType", as: String.self)
            var metadata = OrderedDictionary<String, Value>()
            if let metaNode = map.node("metadata", shape: fields(.anything(note: "Custom metadata of the uploaded object."), summary: "Custom metadata.")) {
                if case .map(let m) = YAMLValues.value(metaNode, in: context) { metadata = m } else {
                    context.wrongType(metaNode, expected: "a mapping", at: map.path.appending(key: "metadata"))
                }
            }
            operation = .upload(path, StorageUpload(size: size, contentType: contentType, metadata: metadata))
        }
        return operation
    }

    private static func rejectDeleteSentinel(
        _ data: OrderedDictionary<String, WriteValue>, verb: String, at location: SourceLocation, in context: DecodingContext
    ) {
        func contains(_ value: WriteValue) -> Bool {
            switch value {
            case .deleteField: true
            case .map(let m): m.values.contains(where: contains)
            case .list(let l): l.contains(where: contains)
            default: false
            }
        }
        if data.values.contains(where: contains) {
            context.error("tests.data", "!delete removes a field in an update; it cannot appear in '\(verb)' data", at: location)
        }
    }

    /// Reads a `list` case's query from `map`.
    static func decodeQuery(_ map: inout MappingDecoder) -> ListQuery {
        let context = map.context
        var query = ListQuery()
        for key in ["limit", "offset"] {
            guard let n = map.node(key, shape: .integer(minimum: 0, maximum: nil)) else { continue }
            if case .int(let i) = YAMLValues.value(n, in: context), i >= 0 {
                if key == "limit" { query.limit = i } else { query.offset = i }
            } else {
                context.error("tests.query", "'\(key)' must be a non-negative integer", at: n.location)
            }
        }
        if let orderBy = map.node("orderBy", shape: .anyOf([.list(orderByShape), orderByShape])) {
            let items = orderBy.sequence ?? [orderBy]
            for item in items {
                let parts = item.scalar?.text.split(separator: " ").map(String.init) ?? []
                guard !item.isNull, (1...2).contains(parts.count), parts.count == 1 || ["asc", "desc"].contains(parts[1].lowercased()) else {
                    context.error("tests.query", "orderBy entries are 'field' or 'field desc'", at: item.location)
                    continue
                }
                query.orderBy[parts[0]] = parts.count == 2 ? parts[1].lowercased() : "asc"
            }
        }
        if let whereNode = map.node("where", shape: .list(whereClauseShape)) {
            for clause in whereNode.sequence ?? [] {
                guard let parts = clause.sequence, parts.count == 3, !parts[0].isNull, let field = parts[0].scalar?.text, let opText = parts[1].scalar?.text else {
                    context.error("tests.query", "a where clause is [field, op, value]", at: clause.location)
                    continue
                }
                guard let op = QueryFilter.Operator(rawValue: opText) else {
                    context.error(
                        "tests.query", "unknown query operator '\(opText)'; expected \(QueryFilter.Operator.allCases.map(\.rawValue).joined(separator: ", "))",
                        at: parts[1].location)
                    continue
                }
                let value = YAMLValues.value(parts[2], in: context)
                if QueryFilter.Operator.takingLists.contains(op), value.listValue == nil {
                    context.error("tests.query", "'\(opText)' needs a list value", at: parts[2].location)
                    continue
                }
                query.filters.append(QueryFilter(field: field, op: op, value: value))
            }
            if whereNode.sequence == nil { context.error("tests.query", "'where' must be a list of [field, op, value]", at: whereNode.location) }
        }
        for kind in QueryCursor.Kind.allCases {
            guard let node = map.node(kind.rawValue, shape: cursorShape) else { continue }
            guard let items = node.sequence, !items.isEmpty else {
                context.error("tests.query", "'\(kind.rawValue)' is a list of values, one per orderBy field", at: node.location)
                continue
            }
            if query.cursors.contains(where: { $0.kind.starts == kind.starts }) {
                context.error("tests.query", "a query has at most one \(kind.starts ? "start (startAt or startAfter)" : "end (endAt or endBefore)") cursor", at: node.location)
                continue
            }
            if items.count > query.orderBy.count {
                context.error("tests.query", "'\(kind.rawValue)' has \(items.count) values but the query orders by \(query.orderBy.count) fields", at: node.location)
                continue
            }
            query.cursors.append(QueryCursor(kind: kind, values: items.map { YAMLValues.value($0, in: context) }))
        }
        return query
    }
}

extension SecurityTestSuite {
    /// Builds one request from command-line pieces: an operation verb and path, and JSON (or
    /// YAML) texts for the data, query, auth and extra fields, read exactly as a test case's keys.
    /// - Throws: ``DiagnosticsError`` naming the piece that is wrong.
    package static func request(
        verb: String, path: String, data: String?, query: String?, auth: String?,
        size: Int64? = nil, contentType: String? = nil, metadata: String? = nil, time: String?, service: SecurityService
    ) throws(DiagnosticsError) -> SecurityRequest {
        // JSON is YAML, so the pieces form a test case in flow style and reuse its decoding.
        guard operationKeys.contains(verb) else {
            throw DiagnosticsError([.error("authorize.op", "unknown operation '\(verb)'; expected \(operationKeys.joined(separator: ", "))", at: nil)])
        }
        // Only Firestore writes carry data; on a Storage policy a write verb is refused below
        // with the operations Storage has.
        if service == .firestore, ["create", "update", "set"].contains(verb), data == nil {
            throw DiagnosticsError([.error("authorize.data", "--data is required for '\(verb)': the written fields as JSON, such as {\"name\": \"Push\"}", at: nil)])
        }
        // Each piece is one line of the synthesized case; a problem in it is reported against
        // the option it came from (`--data:1:9`), not the synthesized text.
        var text = "name: request\nexpect: allow\n\(verb): \(YAMLValues.quote(path))\n"
        var options: [Int: (option: String, offset: Int)] = [3: ("--path", verb.count + 2)]
        var syntaxErrors: [Diagnostic] = []
        func add(_ key: String, _ option: String, _ value: String?) {
            guard let value else { return }
            let line = "\(key): \(value.replacingOccurrences(of: "\n", with: " "))"
            // Parsed alone first, so an unclosed brace is blamed on its own option.
            do { _ = try SecurityYAML.read(line, file: option) } catch {
                syntaxErrors += error.diagnostics.map { diagnostic in
                    var moved = diagnostic
                    moved.location = diagnostic.location.map { SourceLocation(file: option, line: 1, column: max(1, $0.column - key.count - 2)) }
                    return moved
                }
            }
            options[text.reduce(0) { $1 == "\n" ? $0 + 1 : $0 } + 1] = (option, key.count + 2)
            text += line + "\n"
        }
        add("data", "--data", data)
        add("query", "--query", query)
        add("auth", "--auth", auth)
        add("time", "--time", time)
        add("size", "--size", size.map(String.init))
        add("contentType", "--content-type", contentType.map(YAMLValues.quote))
        add("metadata", "--metadata", metadata)
        if !syntaxErrors.isEmpty { throw DiagnosticsError(syntaxErrors) }
        func relocated(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
            diagnostics.map { diagnostic in
                guard let location = diagnostic.location, let (option, offset) = options[location.line] else { return diagnostic }
                var moved = diagnostic
                moved.location = SourceLocation(file: option, line: 1, column: max(1, location.column - offset))
                return moved
            }
        }
        let context = DecodingContext()
        let node: LocatedNode
        do { node = try SecurityYAML.read(text, file: "<command line>") } catch { throw DiagnosticsError(relocated(error.diagnostics)) }
        guard let testCase = decodeCase(node, at: DecodingPath(subject: "the request"), service: service, bucket: "default-bucket", time: defaultTime, in: context),
              !context.hasErrors
        else { throw DiagnosticsError(relocated(context.diagnostics)) }
        return testCase.request
    }

    /// Reads a documents file (YAML or JSON mapping path → fields) into a store.
    package static func documents(file: String, service: SecurityService) throws(DiagnosticsError) -> DocumentStore {
        let text = try InputFile.read(path: file)
        let context = DecodingContext()
        let node = try SecurityYAML.read(text, file: file)
        var store = DocumentStore()
        for (path, data) in documents(node, service: service, bucket: "default-bucket", in: context) where data != nil {
            store[path] = data
        }
        if context.hasErrors { throw DiagnosticsError(context.diagnostics) }
        return store
    }
}
