import Foundation
import OrderedCollections
import RegimenLanguage
import RegimenSecurity

/// Turns the solver's model into a `security_tests` case (the expectation left as `EXPECT` until
/// the replay has decided it).
struct CounterexampleBuilder {
    let encoder: SymbolicEncoder
    let model: [String: SExpression]
    let shape: RequestShape

    /// The case text, and whether every value could be spelled.
    func testCase(name: String) -> (String?, Bool) {
        guard let path = requestPath() else { return (nil, false) }
        let signedIn = model[SymbolicEncoder.auth] == .atom("true")
        var lines = ["  - name: \(YAMLText.quoted("counterexample: \(name) (\(shape))"))"]
        if signedIn {
            guard case .value(.string(let uid))? = model[SymbolicEncoder.uid].map(ModelValue.init) else { return (nil, false) }
            guard let token = fields(of: "token") else { return (nil, false) }
            var auth = "{uid: \(YAMLText.quoted(uid))"
            if !token.isEmpty { auth += ", token: \(YAMLText.value(.map(token)))" }
            lines.append("    auth: \(auth)}")
        }
        guard case .value(.timestamp(let time))? = model[SymbolicEncoder.time].map({ ModelValue(.list([.atom("vts"), $0])) }) else { return (nil, false) }
        lines.append("    time: \(time)")
        var documents = OrderedDictionary<String, OrderedDictionary<String, Value>>()
        let resourceExists = model[SymbolicEncoder.resourceExists] == .atom("true")
        if resourceExists && shape.method != .create {
            guard let old = fields(of: "old") else { return (nil, false) }
            documents[path] = old
        }
        for doc in encoder.documents where model[doc.exists] == .atom("true") {
            var segments: [String] = []
            for term in doc.segments {
                guard let value = model[term], case .value(.string(let s)) = ModelValue(value) else { return (nil, false) }
                segments.append(s)
            }
            guard segments.count > 3, segments[0] == "databases", segments[2] == "documents", let data = fields(of: doc.root) else { return (nil, false) }
            let relative = segments.dropFirst(3).joined(separator: "/")
            documents[relative] = (documents[relative] ?? [:]).merging(data) { existing, _ in existing }
        }
        if !documents.isEmpty {
            lines.append("    documents:")
            for (docPath, data) in documents { lines.append("      \(YAMLText.quoted(docPath)): \(YAMLText.value(.map(data)))") }
        }
        lines.append("    \(shape.method.rawValue): \(YAMLText.quoted(path))")
        if shape.method == .create || shape.method == .update {
            guard let data = fields(of: "new") else { return (nil, false) }
            lines.append("    data: \(YAMLText.value(.map(data)))")
        }
        lines.append("    expect: EXPECT")
        return (lines.joined(separator: "\n") + "\n", true)
    }

    /// `users/alice` from the shape and the model's path segments.
    func requestPath() -> String? {
        var parts: [String] = []
        for segment in encoder.segments {
            switch segment {
            case .string(let s): parts.append(s)
            case .term(let t):
                guard let value = model[t], case .value(.string(let s)) = ModelValue(value) else { return nil }
                parts.append(s)
            default: return nil
            }
        }
        return parts.joined(separator: "/")
    }

    /// The fields of a root map in the model; `nil` when one cannot be written in a test file.
    func fields(of root: String) -> OrderedDictionary<String, Value>? {
        var out = OrderedDictionary<String, Value>()
        let variables = encoder.fieldVariables.filter { $0.ref.root == root }
            .sorted { ($0.ref.path.count, $0.ref.path.joined(separator: "\u{0}")) < ($1.ref.path.count, $1.ref.path.joined(separator: "\u{0}")) }
        for variable in variables {
            guard let raw = model[variable.name] else { return nil }
            switch ModelValue(raw) {
            case .absent: continue
            case .value(.list) where encoder.listFields.contains(variable.name):
                guard let list = listValue(of: variable.name) else { return nil }
                if !Self.set(&out, variable.ref.path[...], list) { continue }
            case .value(let v): if !Self.set(&out, variable.ref.path[...], v) { continue }
            case .map: if !Self.set(&out, variable.ref.path[...], .map([:]), keepExisting: true) { continue }
            case .error, .unprintable: return nil
            }
        }
        // Keys the policies never read, where the model has them: named apart from every key
        // read, with null values (nothing reads them).
        for ref in encoder.extraKeyMaps where ref.root == root {
            guard let extra = encoder.existingExtraKeys(ref), model[extra] == .atom("true") else { continue }
            // Only a map holds keys (the Bool means nothing for a field that holds a list).
            if !ref.path.isEmpty {
                guard let raw = model[encoder.field(ref)], case .map = ModelValue(raw) else { continue }
            }
            var count: Int64 = 1
            if let unread = encoder.unreadKeyCounts[ref] {
                guard let modelled = model[unread]?.integer, modelled >= 1, modelled <= Int64(SymbolicEncoder.extraKeysWritten) else { return nil }
                count = modelled
            }
            let read = Set(encoder.fieldVariables.filter { $0.ref.root == ref.root && $0.ref.path.count == ref.path.count + 1 && Array($0.ref.path.dropLast()) == ref.path }.compactMap(\.ref.path.last))
            var written = 0, index = 0
            while written < count {
                index += 1
                let key = "extra_\(index)"
                guard !read.contains(key) else { continue }
                if ref.path.isEmpty {
                    out[key] = .null
                } else if !Self.set(&out, (ref.path + [key])[...], .null) {
                    return nil
                }
                written += 1
            }
        }
        return out
    }

    /// The list a list field holds in the model (its length and elements); `nil` when it is longer
    /// than the encoding decides exactly or an element cannot be written.
    func listValue(of field: String) -> Value? {
        let (length, elements) = encoder.listContents(of: field)
        guard let count = model[length]?.integer, count >= 0, count <= Int64(elements.count) else { return nil }
        var items: [Value] = []
        for element in elements.prefix(Int(count)) {
            guard let raw = model[element], case .value(let item) = ModelValue(raw), item.isWritableListElement else { return nil }
            items.append(item)
        }
        return .list(items)
    }

    /// Sets `value` at `path` below maps that exist; false when a parent is not a map.
    static func set(_ map: inout OrderedDictionary<String, Value>, _ path: ArraySlice<String>, _ value: Value, keepExisting: Bool = false) -> Bool {
        guard let key = path.first else { return false }
        if path.count == 1 {
            if keepExisting, map[key] != nil { return true }
            map[key] = value
            return true
        }
        guard case .map(var inner)? = map[key] else { return false }
        let done = set(&inner, path.dropFirst(), value, keepExisting: keepExisting)
        map[key] = .map(inner)
        return done
    }
}

/// Values as YAML flow text a test file reads back as the same values.
enum YAMLText {
    /// Single-quoted when the text is printable ASCII; otherwise double-quoted with escapes.
    static func quoted(_ s: String) -> String {
        if s.unicodeScalars.allSatisfy({ (0x20...0x7E).contains($0.value) }) {
            return "'" + s.replacingOccurrences(of: "'", with: "''") + "'"
        }
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar.value {
            case 0x22: out += "\\\""
            case 0x5C: out += "\\\\"
            case 0x20...0x7E: out.unicodeScalars.append(scalar)
            case 0...0xFFFF: out += "\\u" + String(format: "%04X", scalar.value)
            default: out += "\\U" + String(format: "%08X", scalar.value)
            }
        }
        return out + "\""
    }

    static func value(_ v: Value) -> String {
        switch v {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return "\(i)"
        case .float(let d) where !d.isFinite: return "{'$float': '\(d.isNaN ? "NaN" : d > 0 ? "Infinity" : "-Infinity")'}"
        case .float(let d): return d == d.rounded() && Swift.abs(d) < 1e15 ? "!float \(Int64(d))" : "\(d)"
        case .string(let s): return quoted(s)
        case .timestamp(let t): return "\(t)"
        case .map(let fields): return "{" + fields.map { "\(quoted($0.key)): \(value($0.value))" }.joined(separator: ", ") + "}"
        case .list(let items): return "[" + items.map(value).joined(separator: ", ") + "]"
        default: return "null"
        }
    }
}

/// Runs a counterexample case through Regimen's own test runner machinery and evaluator.
enum Replay {
    /// Each policy's decision for the case; `nil` when the case does not load.
    static func run(caseText: String, policies: [SecurityPolicy], evaluateAll: Bool) -> [Decision]? {
        let text = "kind: security_tests\nversion: 1\nrules: counterexample.rules\ncases:\n" + caseText.replacingOccurrences(of: "expect: EXPECT", with: "expect: deny")
        var decisions: [Decision] = []
        for policy in policies {
            guard let suite = try? SecurityTestSuite.parse(text, file: "counterexample.tests.yaml", policy: policy),
                  let testCase = suite.cases.first, let compiled = try? CompiledPolicy(policy) else { return nil }
            var store = suite.documents
            for (path, data) in testCase.documents { store[path] = data }
            decisions.append(compiled.decide(testCase.request, store: store, options: DecisionOptions(evaluateAll: evaluateAll)))
        }
        return decisions
    }
}

private extension Value {
    /// Whether a counterexample can write this as a list element exactly: not a nested list,
    /// whose contents the encoding does not model (it would be written empty).
    var isWritableListElement: Bool {
        if case .list = self { return false }
        return true
    }
}
