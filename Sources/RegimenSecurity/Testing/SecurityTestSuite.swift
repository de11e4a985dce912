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
    package static func parse(_ text: String, file: String, policy givenPolicy: SecurityPolicy?) throws(DiagnosticsError) -> SecurityTestSuite {
        var diagnostics = DiagnosticCollector()
        let root = try SecurityYAML.read(text, file: file)
        guard var top = YAMLMapping(root, context: "the test file", diagnostics: &diagnostics) else { throw DiagnosticsError(diagnostics.diagnostics) }
        let suite = decodeFile(&top, file: file, policy: givenPolicy, diagnostics: &diagnostics)
        if diagnostics.hasErrors { throw DiagnosticsError(diagnostics.diagnostics) }
        guard let suite else { throw DiagnosticsError(diagnostics.diagnostics) }
        return suite
    }

    /// Reads a test file's keys from `top` (in describing mode, records their shapes; see
    /// ``fileShape``); `nil` when its policy did not load.
    static func decodeFile(
        _ top: inout YAMLMapping, file: String, policy givenPolicy: SecurityPolicy?, diagnostics: inout DiagnosticCollector
    ) -> SecurityTestSuite? {
        let root = top.node
        let kind = top.string("kind", shape: .oneOf(["security_tests", "security-tests"]), required: true, diagnostics: &diagnostics)
        // `security-tests` is the deprecated spelling (`regimen check` warns about it).
        if kind != "security_tests" && kind != "security-tests" {
            diagnostics.error("tests.kind", "expected 'kind: security_tests'", at: top.keyLocation("kind") ?? root.location)
        }
        if let version = top.value("version", shape: .integer(minimum: 1, maximum: 1), required: true), version.scalar?.text != "1" {
            diagnostics.error("tests.version", "unsupported version '\(version.scalar?.text ?? "?")'; expected 1", at: version.location)
        }
        var policy: SecurityPolicy? = givenPolicy
        if givenPolicy != nil {
            _ = top.value("rules")
        } else if let rules = top.string("rules", required: true, diagnostics: &diagnostics) {
            let path = (rules.hasPrefix("/") ? rules : ((file as NSString).deletingLastPathComponent as NSString).appendingPathComponent(rules))
            do { policy = try PolicyLoader.load(file: path) } catch {
                diagnostics.append(contentsOf: error.diagnostics)
                if error.diagnostics.isEmpty { diagnostics.error("tests.rules", "cannot load rules \(rules)", at: top.keyLocation("rules")) }
            }
        } else if top.value("rules") == nil {
            diagnostics.error("tests.rules", "missing 'rules:' naming the rules file", at: root.location)
        }
        var time = SecurityTestSuite.defaultTime
        if let node = top.value("time", shape: timeShape) {
            if let t = timestamp(node, diagnostics: &diagnostics) { time = t } else {
                diagnostics.error("tests.time", "'time' must be an ISO-8601 date-time", at: node.location)
            }
        }
        let service = policy?.service ?? .firestore
        var bucket = "default-bucket"
        if let b = top.string("bucket", diagnostics: &diagnostics) { bucket = b }
        var store = DocumentStore()
        if let node = top.value("documents", shape: documentsShape) {
            for (path, data) in documents(node, service: service, bucket: bucket, diagnostics: &diagnostics) {
                if let data { store[path] = data }
            }
        }
        var cases: [SecurityTestCase] = []
        if let node = top.value("cases", shape: .list(caseShape), required: true) {
            if let items = node.sequence {
                var names = Set<String>()
                for item in items {
                    guard let testCase = decodeCase(item, service: service, bucket: bucket, time: time, diagnostics: &diagnostics) else { continue }
                    if !names.insert(testCase.name).inserted {
                        diagnostics.error("tests.duplicate-name", "duplicate case name '\(testCase.name)'", at: testCase.location)
                    }
                    cases.append(testCase)
                }
            } else {
                diagnostics.error("yaml.type", "'cases' must be a list", at: node.location)
            }
        } else {
            diagnostics.error("tests.cases", "missing 'cases:'", at: root.location)
        }
        top.reportUnknownKeys(&diagnostics)
        guard let policy else { return nil }
        return SecurityTestSuite(file: file, policy: policy, documents: store, cases: cases)
    }

    static func documents(
        _ node: LocatedNode, service: SecurityService, bucket: String, diagnostics: inout DiagnosticCollector
    ) -> [(RequestPath, OrderedDictionary<String, Value>?)] {
        guard let entries = node.mapping else {
            diagnostics.error("yaml.type", "'documents' must map paths to document data", at: node.location)
            return []
        }
        var out: [(RequestPath, OrderedDictionary<String, Value>?)] = []
        for entry in entries {
            guard let key = entry.key.scalar?.text else { continue }
            if let problem = RequestPath.problem(with: key) {
                diagnostics.error("tests.path", problem, at: entry.key.location)
                continue
            }
            let path = RequestPath(key, service: service, bucket: bucket)
            if service == .firestore, !path.isFirestoreDocument {
                diagnostics.error("tests.path", "'\(key)' is not a document path (it needs an even number of segments)", at: entry.key.location)
            }
            if entry.value.isNull {
                out.append((path, nil))
                continue
            }
            guard case .map(let data) = YAMLValues.value(entry.value, diagnostics: &diagnostics) else {
                diagnostics.error("tests.document", "document '\(key)' must be a mapping of fields", at: entry.value.location)
                continue
            }
            out.append((path, data))
        }
        return out
    }

    static let operationKeys = ["get", "list", "create", "update", "set", "delete", "upload", "download"]

    /// Decodes one case; with `expectationOptional`, a case without `name` and `expect` is a bare
    /// request (what an authorize request body holds).
    static func decodeCase(
        _ node: LocatedNode, service: SecurityService, bucket: String, time fileTime: Timestamp, diagnostics: inout DiagnosticCollector,
        expectationOptional: Bool = false
    ) -> SecurityTestCase? {
        guard var map = YAMLMapping(node, context: "a test case", diagnostics: &diagnostics) else { return nil }
        return decodeCase(
            &map, describing: nil, service: service, bucket: bucket, time: fileTime, diagnostics: &diagnostics,
            expectationOptional: expectationOptional)
    }

    /// Reads one case from `map`; in describing mode, records the keys a case whose operation is
    /// `describedVerb` may have (see ``caseShape``) and returns `nil`.
    static func decodeCase(
        _ map: inout YAMLMapping, describing describedVerb: String?, service: SecurityService, bucket: String, time fileTime: Timestamp,
        diagnostics: inout DiagnosticCollector, expectationOptional: Bool
    ) -> SecurityTestCase? {
        let node = map.node
        let name = map.string("name", shape: nameShape, required: !expectationOptional, diagnostics: &diagnostics) ?? ""
        if name.isEmpty, !expectationOptional { diagnostics.error("tests.name", "a test case needs a 'name'", at: node.location) }
        let context = "case '\(name)'"
        var auth: AuthContext?
        if let authNode = map.value("auth", shape: authShape.orNull), !authNode.isNull {
            if var authMap = YAMLMapping(authNode, context: "'auth' of \(context)", diagnostics: &diagnostics) {
                auth = decodeAuth(&authMap, context: context, diagnostics: &diagnostics)
            }
        }
        var time = fileTime
        if let node = map.value("time", shape: timeShape) {
            if let t = timestamp(node, diagnostics: &diagnostics) { time = t } else {
                diagnostics.error("tests.time", "'time' of \(context) must be an ISO-8601 date-time", at: node.location)
            }
        }
        var expectAllow = false
        if let expect = map.string("expect", shape: .oneOf(["allow", "deny"]), required: !expectationOptional, diagnostics: &diagnostics) {
            switch expect {
            case "allow": expectAllow = true
            case "deny": expectAllow = false
            default: diagnostics.error("tests.expect", "'expect' of \(context) must be allow or deny, not '\(expect)'", at: map.keyLocation("expect"))
            }
        } else if !expectationOptional {
            diagnostics.error("tests.expect", "\(context) needs 'expect: allow' or 'expect: deny'", at: node.location)
        }
        var caseDocuments: [(path: RequestPath, data: OrderedDictionary<String, Value>?)] = []
        if let docs = map.value("documents", shape: documentsShape) {
            caseDocuments = documents(docs, service: service, bucket: bucket, diagnostics: &diagnostics).map { (path: $0.0, data: $0.1) }
        }
        let present = describedVerb.map { [$0] } ?? operationKeys.filter { map.keyLocation($0) != nil }
        let pathNode = present.count == 1 ? map.value(present[0], shape: pathShape, required: true) : nil
        if map.isDescribing, let verb = present.first {
            // The keys this operation reads besides its path, recorded by the same reads.
            _ = operation(verb, path: RequestPath("", service: service, bucket: bucket), at: node.location, in: &map, context: context, diagnostics: &diagnostics)
            return nil
        }
        // A null path (`get: ~`) is an empty one, not the word `~` or `null`.
        guard let verb = present.first, let pathNode, let pathText = pathNode.isNull ? "" : pathNode.scalar?.text else {
            diagnostics.error(
                "tests.operation", "\(context) needs exactly one operation: \(operationKeys.joined(separator: ", "))", at: node.location)
            map.reportUnknownKeys(&diagnostics)
            return nil
        }
        if let problem = RequestPath.problem(with: pathText) {
            diagnostics.error("tests.path", problem, at: pathNode.location)
            return nil
        }
        let path = RequestPath(pathText, service: service, bucket: bucket)
        let storageVerbs: Set = ["upload", "download"]
        let firestoreOnly: Set = ["list", "create", "update", "set", "get"]
        if service == .storage, firestoreOnly.contains(verb), verb != "get", verb != "list" {
            diagnostics.error("tests.operation", "'\(verb)' is a Firestore operation; Storage cases use upload, download, delete", at: pathNode.location)
        }
        if service == .firestore, storageVerbs.contains(verb) {
            diagnostics.error("tests.operation", "'\(verb)' is a Storage operation; this policy is for cloud.firestore", at: pathNode.location)
        }
        if service == .firestore {
            let wantsCollection = verb == "list"
            if wantsCollection ? !path.isFirestoreCollection : !path.isFirestoreDocument {
                diagnostics.error(
                    "tests.path",
                    wantsCollection ? "'list' needs a collection path (odd number of segments): '\(pathText)'"
                        : "'\(verb)' needs a document path (even number of segments): '\(pathText)'",
                    at: pathNode.location)
            }
        }
        let operation = operation(verb, path: path, at: pathNode.location, in: &map, context: context, diagnostics: &diagnostics)
        map.reportUnknownKeys(&diagnostics)
        return SecurityTestCase(
            name: name, location: node.location, request: SecurityRequest(auth: auth, operation: operation, time: time),
            documents: caseDocuments, expectAllow: expectAllow)
    }

    /// Reads `auth`: a `uid` and the token's claims.
    static func decodeAuth(_ authMap: inout YAMLMapping, context: String, diagnostics: inout DiagnosticCollector) -> AuthContext {
        let uid = authMap.string("uid", required: true, diagnostics: &diagnostics)
        if uid == nil { diagnostics.error("tests.auth", "'auth' of \(context) needs a 'uid' (omit 'auth' for a signed-out request)", at: authMap.node.location) }
        var token = OrderedDictionary<String, Value>()
        if let tokenNode = authMap.value("token", shape: fields(.anything(note: "A claim of the signed-in user's ID token."), summary: "The ID token's claims.")) {
            if case .map(let claims) = YAMLValues.value(tokenNode, diagnostics: &diagnostics) { token = claims } else {
                diagnostics.error("yaml.type", "'token' of \(context) must be a mapping of claims", at: tokenNode.location)
            }
        }
        authMap.reportUnknownKeys(&diagnostics)
        return AuthContext(uid: uid ?? "", token: token)
    }

    /// Reads what operation `verb` needs besides its path (`data`, `query`, `size`, …).
    private static func operation(
        _ verb: String, path: RequestPath, at pathLocation: SourceLocation, in map: inout YAMLMapping, context: String,
        diagnostics: inout DiagnosticCollector
    ) -> SecurityOperation {
        func writeData() -> OrderedDictionary<String, WriteValue> {
            guard let dataNode = map.value("data", shape: writeDataShape, required: true) else {
                diagnostics.error("tests.data", "'\(verb)' in \(context) needs 'data'", at: pathLocation)
                return [:]
            }
            guard case .map(let fields) = YAMLValues.writeValue(dataNode, diagnostics: &diagnostics) else {
                diagnostics.error("tests.data", "'data' of \(context) must be a mapping of fields", at: dataNode.location)
                return [:]
            }
            return fields
        }
        let operation: SecurityOperation
        switch verb {
        case "get": operation = .get(path)
        case "download": operation = .download(path)
        case "delete": operation = .delete(path)
        case "list": operation = .list(path, decodeQuery(map.value("query", shape: queryShape), context: context, diagnostics: &diagnostics))
        case "create":
            let data = writeData()
            rejectDeleteSentinel(data, verb: verb, at: pathLocation, diagnostics: &diagnostics)
            operation = .create(path, WriteData(fields: data))
        case "set":
            let data = writeData()
            rejectDeleteSentinel(data, verb: verb, at: pathLocation, diagnostics: &diagnostics)
            operation = .set(path, WriteData(fields: data))
        case "update": operation = .update(path, WriteData(fields: writeData()))
        default:  // upload
            var size: Int64 = 0
            if let sizeNode = map.value("size", shape: .integer(minimum: 0, maximum: nil), required: true) {
                if case .int(let n) = YAMLValues.value(sizeNode, diagnostics: &diagnostics), n >= 0 { size = n } else {
                    diagnostics.error("tests.upload", "'size' of \(context) must be a non-negative integer (bytes)", at: sizeNode.location)
                }
            } else {
                diagnostics.error("tests.upload", "'upload' in \(context) needs 'size' in bytes", at: pathLocation)
            }
            let contentType = map.string("contentType", diagnostics: &diagnostics)
            var metadata = OrderedDictionary<String, Value>()
            if let metaNode = map.value("metadata", shape: fields(.anything(note: "Custom metadata of the uploaded object."), summary: "Custom metadata.")) {
                if case .map(let m) = YAMLValues.value(metaNode, diagnostics: &diagnostics) { metadata = m } else {
                    diagnostics.error("yaml.type", "'metadata' of \(context) must be a mapping", at: metaNode.location)
                }
            }
            operation = .upload(path, StorageUpload(size: size, contentType: contentType, metadata: metadata))
        }
        return operation
    }

    private static func rejectDeleteSentinel(
        _ data: OrderedDictionary<String, WriteValue>, verb: String, at location: SourceLocation, diagnostics: inout DiagnosticCollector
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
            diagnostics.error("tests.data", "!delete removes a field in an update; it cannot appear in '\(verb)' data", at: location)
        }
    }

    private static func decodeQuery(_ node: LocatedNode?, context: String, diagnostics: inout DiagnosticCollector) -> ListQuery {
        guard let node else { return ListQuery() }
        guard var map = YAMLMapping(node, context: "'query' of \(context)", diagnostics: &diagnostics) else { return ListQuery() }
        return decodeQuery(&map, diagnostics: &diagnostics)
    }

    /// Reads a `list` case's query from `map`.
    static func decodeQuery(_ map: inout YAMLMapping, diagnostics: inout DiagnosticCollector) -> ListQuery {
        var query = ListQuery()
        for key in ["limit", "offset"] {
            guard let n = map.value(key, shape: .integer(minimum: 0, maximum: nil)) else { continue }
            if case .int(let i) = YAMLValues.value(n, diagnostics: &diagnostics), i >= 0 {
                if key == "limit" { query.limit = i } else { query.offset = i }
            } else {
                diagnostics.error("tests.query", "'\(key)' must be a non-negative integer", at: n.location)
            }
        }
        if let orderBy = map.value("orderBy", shape: .anyOf([.list(orderByShape), orderByShape])) {
            let items = orderBy.sequence ?? [orderBy]
            for item in items {
                let parts = item.scalar?.text.split(separator: " ").map(String.init) ?? []
                guard !item.isNull, (1...2).contains(parts.count), parts.count == 1 || ["asc", "desc"].contains(parts[1].lowercased()) else {
                    diagnostics.error("tests.query", "orderBy entries are 'field' or 'field desc'", at: item.location)
                    continue
                }
                query.orderBy[parts[0]] = parts.count == 2 ? parts[1].lowercased() : "asc"
            }
        }
        if let whereNode = map.value("where", shape: .list(whereClauseShape)) {
            for clause in whereNode.sequence ?? [] {
                guard let parts = clause.sequence, parts.count == 3, !parts[0].isNull, let field = parts[0].scalar?.text, let opText = parts[1].scalar?.text else {
                    diagnostics.error("tests.query", "a where clause is [field, op, value]", at: clause.location)
                    continue
                }
                guard let op = QueryFilter.Operator(rawValue: opText) else {
                    diagnostics.error(
                        "tests.query", "unknown query operator '\(opText)'; expected \(QueryFilter.Operator.allCases.map(\.rawValue).joined(separator: ", "))",
                        at: parts[1].location)
                    continue
                }
                let value = YAMLValues.value(parts[2], diagnostics: &diagnostics)
                if QueryFilter.Operator.takingLists.contains(op), value.listValue == nil {
                    diagnostics.error("tests.query", "'\(opText)' needs a list value", at: parts[2].location)
                    continue
                }
                query.filters.append(QueryFilter(field: field, op: op, value: value))
            }
            if whereNode.sequence == nil { diagnostics.error("tests.query", "'where' must be a list of [field, op, value]", at: whereNode.location) }
        }
        for kind in QueryCursor.Kind.allCases {
            guard let node = map.value(kind.rawValue, shape: cursorShape) else { continue }
            guard let items = node.sequence, !items.isEmpty else {
                diagnostics.error("tests.query", "'\(kind.rawValue)' is a list of values, one per orderBy field", at: node.location)
                continue
            }
            if query.cursors.contains(where: { $0.kind.starts == kind.starts }) {
                diagnostics.error("tests.query", "a query has at most one \(kind.starts ? "start (startAt or startAfter)" : "end (endAt or endBefore)") cursor", at: node.location)
                continue
            }
            if items.count > query.orderBy.count {
                diagnostics.error("tests.query", "'\(kind.rawValue)' has \(items.count) values but the query orders by \(query.orderBy.count) fields", at: node.location)
                continue
            }
            query.cursors.append(QueryCursor(kind: kind, values: items.map { YAMLValues.value($0, diagnostics: &diagnostics) }))
        }
        map.reportUnknownKeys(&diagnostics)
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
        var diagnostics = DiagnosticCollector()
        let node: LocatedNode
        do { node = try SecurityYAML.read(text, file: "<command line>") } catch { throw DiagnosticsError(relocated(error.diagnostics)) }
        guard let testCase = decodeCase(node, service: service, bucket: "default-bucket", time: defaultTime, diagnostics: &diagnostics),
              !diagnostics.hasErrors
        else { throw DiagnosticsError(relocated(diagnostics.diagnostics)) }
        return testCase.request
    }

    /// Reads a documents file (YAML or JSON mapping path → fields) into a store.
    package static func documents(file: String, service: SecurityService) throws(DiagnosticsError) -> DocumentStore {
        let text = try InputFile.read(path: file)
        var diagnostics = DiagnosticCollector()
        let node = try SecurityYAML.read(text, file: file)
        var store = DocumentStore()
        for (path, data) in documents(node, service: service, bucket: "default-bucket", diagnostics: &diagnostics) where data != nil {
            store[path] = data
        }
        if diagnostics.hasErrors { throw DiagnosticsError(diagnostics.diagnostics) }
        return store
    }
}
