import RegimenTestSupport
import Testing
@testable import RegimenLanguage
import OrderedCollections

/// A projected variable (``Projection``) must evaluate exactly as the map it stands for: same
/// value, or same error at the same place, in value, traced and grant evaluation.
@Suite struct ProjectionTests {
    static let projections = [
        Projection(variable: "request", fields: ["auth", "time", "resource"]),
        Projection(variable: "request.resource", fields: ["data", "id"]),
        Projection(variable: "resource", fields: ["data"]),
    ]
    static let functions = [
        FunctionSource(name: "isOwner", parameters: ["u"], result: SourceText("request.auth != null && request.auth.uid == u")),
        FunctionSource(name: "valid", parameters: ["d"], lets: [("n", SourceText("d.n"))], result: SourceText("n is int && n >= 0")),
    ]

    static let atoms = [
        "request.auth != null", "request.auth == null", "request.auth.uid == 'a'", "request.auth.token.admin == true",
        "isOwner('a')", "request.time == request.time", "request.resource.data.n >= 0", "valid(request.resource.data)",
        "request.resource.id == 'd1'", "resource.data.n == 0", "request.resource.data.keys().size() == 1",
        "request.auth.uid in ['a', 'b']", "!request.resource.data.flag", "request.resource.data.n is int",
        "request.auth.token['admin']", "resource.data == request.resource.data",
        // Uses of the maps themselves: these must see them whole.
        "request.keys().size() == 3", "request.resource == null", "request.other == 1", "request['auth'] != null",
        "resource == null", "resource.id == 'd1'", "request.resource.__name__ == 1",
    ]

    /// A write, a signed-out write, a delete (null `request.resource`), a read (no such key),
    /// data of the wrong type and a missing field.
    static let requests: [(request: Value.Map, resource: Value)] = {
        let time = Value.timestamp(Timestamp(seconds: 1_700_000_000, nanos: 0))
        let owner: Value = .map(["uid": .string("a"), "token": .map(["admin": .bool(true)])])
        func written(_ data: Value.Map) -> Value { .map(["data": .map(data), "id": .string("d1"), "__name__": .string("/d/d1")]) }
        let stored: Value = .map(["data": .map(["n": .int(0)])])
        return [
            (["auth": owner, "time": time, "resource": written(["n": .int(1)])], stored),
            (["auth": .null, "time": time, "resource": written(["n": .int(1)])], stored),
            (["auth": owner, "time": time, "resource": .null], stored),
            (["auth": owner, "time": time], .null),
            (["auth": .map(["uid": .int(7)]), "time": time, "resource": written(["n": .string("x"), "flag": .bool(true)])], stored),
            (["auth": owner, "time": time, "resource": written([:])], .map(["id": .string("d1")])),
        ]
    }()

    let environment: ExpressionEnvironment

    init() throws {
        environment = try ExpressionEnvironment(variables: ["request", "resource"], projections: Self.projections, functions: Self.functions)
    }

    /// The slots with `request` and `resource` whole (nothing projected).
    func wholeSlots(_ request: Value.Map, _ resource: Value) -> [Value] {
        var slots = [Value](repeating: .null, count: environment.variables.count)
        slots[0] = .map(request)
        slots[1] = resource
        return slots
    }

    /// The slots a host fills for `expression`: every map it does not use whole is projected.
    func projectedSlots(_ request: Value.Map, _ resource: Value, for expression: CompiledExpression) throws -> [Value] {
        var slots = [Value](repeating: .null, count: environment.variables.count)
        func slot(_ name: String) throws -> Int { try #require(environment.slot(of: name)) }
        let projectsRequest = !expression.usesWhole(slot: 0)
        var bits: Int64 = 0
        if projectsRequest {
            bits |= environment.projectionBits("request", present: Array(request.keys))
            for field in ["auth", "time", "resource"] { slots[try slot("request.\(field)")] = request[field] ?? .null }
            if !expression.usesWhole(slot: try slot("request.resource")), case .map(let written)? = request["resource"] {
                bits |= environment.projectionBits("request.resource", present: Array(written.keys))
                for field in ["data", "id"] { slots[try slot("request.resource.\(field)")] = written[field] ?? .null }
            }
        } else {
            slots[0] = .map(request)
        }
        if !expression.usesWhole(slot: 1), case .map(let stored) = resource {
            bits |= environment.projectionBits("resource", present: Array(stored.keys))
            slots[try slot("resource.data")] = stored["data"] ?? .null
        } else {
            slots[1] = resource
        }
        slots[try #require(environment.projectionPresenceSlot)] = .int(bits)
        return slots
    }

    static func describe(_ result: Result<Value, EvaluationError>) -> String {
        switch result {
        case .success(let value): "value \(value)"
        case .failure(let error): "error \(error.message) at \(String(describing: error.span))"
        }
    }

    @Test func projectedFieldsEvaluateAsTheWholeMap() throws {
        var grammar = ConditionMixer(rng: SeededGenerator(seed: 0x9A0_2026), atoms: Self.atoms)
        let conditions = Self.atoms + (0..<400).map { _ in grammar.condition() }
        var projectedReads = 0
        for text in conditions {
            let expression = try CompiledExpression(text, environment: environment)
            for (request, resource) in Self.requests {
                let whole = wholeSlots(request, resource)
                let projected = try projectedSlots(request, resource, for: expression)
                if case .int(let bits) = projected[try #require(environment.projectionPresenceSlot)], bits != 0 { projectedReads += 1 }
                let expected = Self.describe(Result(catching: { () throws(EvaluationError) in try expression.evaluate(slots: whole) }))
                let actual = Self.describe(Result(catching: { () throws(EvaluationError) in try expression.evaluate(slots: projected) }))
                #expect(actual == expected, "\(text) with \(request)")
                let traced = Result(catching: { () throws(EvaluationError) in try expression.evaluate(slots: projected, tracer: RecordingTracer()) })
                #expect(Self.describe(traced) == expected, "traced: \(text)")
                let grants = projected.withUnsafeBufferPointer { expression.grants(slots: $0) }
                #expect(grants == (expected == "value true"), "grants: \(text)")
            }
        }
        // Most evaluations above really read projected slots.
        #expect(projectedReads > conditions.count * Self.requests.count / 2)
    }

    @Test(arguments: [
        ("request.auth.uid == 'a'", false, false), ("request.resource.data.n > 1", false, false), ("resource.data.n > 1", false, false),
        ("request.keys().size() > 0", true, false), ("request['auth'] != null", true, false), ("request.other", true, false),
        ("request.resource == null", false, false), ("resource == null", false, true), ("resource.id == 'x'", false, true),
        ("isOwner(request.auth.uid)", false, false),
    ])
    func wholeUsesAreFound(text: String, usesRequest: Bool, usesResource: Bool) throws {
        let expression = try CompiledExpression(text, environment: environment)
        #expect(expression.usesWhole(slot: 0) == usesRequest)
        #expect(expression.usesWhole(slot: 1) == usesResource)
        let requestResource = try #require(environment.slot(of: "request.resource"))
        #expect(expression.usesWhole(slot: requestResource) == (text == "request.resource == null"))
    }

    @Test func projectionSlotsAreNotNames() throws {
        // A projected field's slot name is not an identifier: no expression can read it, and an
        // unknown name is not offered it as a suggestion.
        #expect(throws: DiagnosticsError.self) { try CompiledExpression("auth == null", environment: environment) }
        let error = try #require(throws: DiagnosticsError.self) { try CompiledExpression("requst.auth", environment: environment) }
        let notes: [String] = error.diagnostics.flatMap(\.notes)
        #expect(!notes.joined().contains("request."))
        #expect(environment.projectionBits("nothing", present: ["auth"]) == 0)
    }
}

/// Random `&&`, `||`, `!` and ternary combinations of atoms.
struct ConditionMixer {
    var rng: SeededGenerator
    let atoms: [String]

    mutating func condition(depth: Int = 0) -> String {
        let choice = depth > 2 ? 0 : Int.random(in: 0..<6, using: &rng)
        switch choice {
        case 0, 1: return atoms.randomElement(using: &rng) ?? "true"
        case 2: return "\(condition(depth: depth + 1)) && \(condition(depth: depth + 1))"
        case 3: return "\(condition(depth: depth + 1)) || \(condition(depth: depth + 1))"
        case 4: return "!(\(condition(depth: depth + 1)))"
        default: return "\(condition(depth: depth + 1)) ? \(condition(depth: depth + 1)) : \(condition(depth: depth + 1))"
        }
    }
}
