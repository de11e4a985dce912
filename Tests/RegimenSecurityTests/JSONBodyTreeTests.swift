import Foundation
import RegimenLanguage
@testable import RegimenSecurity
import RegimenTestSupport
import Testing

/// A JSON body (an authorize request, a batch, a test suite sent as JSON) read without libyaml
/// gives the tree libyaml composes for it, node for node: the same decisions and diagnostics.
@Suite struct JSONBodyTreeTests {
    /// Kind, text, style, tag and location of every node, in order.
    static func outline(_ node: YAMLNode) -> [String] {
        let at = "\(node.location.line):\(node.location.column)"
        switch node.kind {
        case .scalar(let text, let style, let tag): return ["scalar \(text) \(style) \(tag ?? "-") \(at)"]
        case .sequence(let items): return ["sequence \(items.count) \(at)"] + items.flatMap(outline)
        case .mapping(let pairs): return ["mapping \(pairs.count) \(at)"] + pairs.flatMap { outline($0.key) + outline($0.value) }
        }
    }

    @Test func generatedRequestBodiesGiveLibYAMLsTree() throws {
        var random = SeededGenerator(seed: 19)
        func pick<T>(_ choices: [T]) -> T { choices[Int.random(in: 0..<choices.count, using: &random)] }
        for round in 0..<300 {
            let verb = pick(["create", "update", "set", "get", "delete"])
            let uid = pick(["alice", "bob", "Ünï", "💪"])
            let data = pick([#"{"reps": 8, "weight": 60.5, "note": "a \"quoted\" \u00e9"}"#, #"{"tags": ["a", "b"], "done": true, "at": {"$timestamp": "2025-01-01T00:00:00Z"}}"#, "{}", #"{"n": null, "x": -1e3}"#])
            let request = #"{"\#(verb)": "users/\#(uid)/sets/s\#(round)", "auth": {"uid": "\#(uid)", "token": {"admin": \#(pick(["true", "false"]))}}, "data": \#(data)}"#
            let text = round % 3 == 0 ? "[\(request),\n \(request.replacingOccurrences(of: ": ", with: ":"))]" : request
            let fast = try YAMLNode.parse(text, file: "<body>")
            let libYAML = try YAMLNode.parseThroughLibYAML(text, file: "<body>")
            #expect(Self.outline(fast) == Self.outline(libYAML), "\(text)")
        }
    }

    @Test func textTheJSONReaderDeclinesIsReadByLibYAML() throws {
        // YAML, and JSON with a duplicate key: libyaml's tree or libyaml's located error.
        let yaml = "get: users/alice\nauth: {uid: alice}\n"
        #expect(Self.outline(try YAMLNode.parse(yaml, file: "b")) == Self.outline(try YAMLNode.parseThroughLibYAML(yaml, file: "b")))
        let duplicate = #"{"get": "users/a", "get": "users/b"}"#
        #expect(throws: DiagnosticsError.self) { try YAMLNode.parse(duplicate, file: "b") }
    }
}
