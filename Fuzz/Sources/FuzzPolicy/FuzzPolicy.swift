import FuzzSupport
import RegimenLanguage
import RegimenSecurity

/// The `.rules` parser, compiler and decision: the input is a policy text, optionally followed by
/// a NUL byte and steering bytes that pick requests (operation, path, who asks, what data) to
/// decide against it, plainly and with explanations.
let verbs = ["get", "list", "create", "update", "set", "delete"]
let paths = ["users/alice", "users/bob", "users/alice/workouts/w1", "a/b", "trainers/t1/students/s1", "x/y/z/w", "users"]
let auths = ["null", "{uid: alice}", "{uid: bob, token: {admin: true}}", "{uid: '', token: {email_verified: false}}"]
let datas = [
    "{owner: alice, n: 1}", "{owner: bob}", "{}", "{title: aaaaaaaaaaaaaaaaaaaa, tags: [a, b], n: 1.5}",
    "{owner: alice, createdAt: 2025-01-01T00:00:00Z, nested: {deep: {x: [1, 2, {y: null}]}}}",
]
let queries = ["{limit: 10}", "{limit: 10, where: [[owner, '==', alice]]}", "{}", "{orderBy: [n], limit: 1000}"]

func fuzzPolicy(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let (document, tail) = FuzzInput(data, size).documentAndTail
    guard let parsed = try? PolicyLoader.parse(document, file: "fuzz.rules"), let policy = try? CompiledPolicy(parsed) else { return 0 }
    var choices = Choices(tail)
    var explained = 0
    let store = DocumentStore(["users/alice": ["owner": .string("alice"), "n": .int(3)], "a/b": ["owner": .string("bob")]])
    repeat {
        let verb = choices.pick(verbs)
        guard let request = try? SecurityTestSuite.request(
            verb: verb, path: choices.pick(paths), data: ["create", "update", "set"].contains(verb) ? choices.pick(datas) : nil,
            query: verb == "list" ? choices.pick(queries) : nil, auth: choices.pick(auths), time: nil, service: parsed.service)
        else { continue }
        _ = policy.decide(request, store: store)
        // Explanations walk every statement with the traced evaluator: once per input is enough.
        if explained < 1 {
            explained += 1
            _ = policy.decide(request, store: store, options: DecisionOptions(explain: true, evaluateAll: true))
        }
    } while !choices.isEmpty
    return 0
}

@_cdecl("FuzzPolicy_main")
public func entryPoint(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { data, size in fuzzPolicy(data, size) }
}
