import FuzzSupport
import RegimenLanguage

/// Lexer, parser, compiler and evaluator: the input is an expression over a few variables and
/// helper functions; compiling may fail (with diagnostics), evaluating may fail (with an error
/// value), and neither may trap, stall or leak.
let environment: ExpressionEnvironment? = try? ExpressionEnvironment(
    variables: ["x", "m", "l", "s", "request", "resource"],
    functions: [
        FunctionSource(name: "isOwner", parameters: ["u"], result: SourceText("request.auth != null && request.auth.uid == u")),
        FunctionSource(name: "positive", parameters: ["v"], lets: [("w", SourceText("v * 2"))], result: SourceText("w > 0")),
    ])

let bindings: [String: Value] = [
    "x": .int(7),
    "m": .map(["a": .int(1), "b": .string("two"), "list": .list([.int(1), .float(2.5), .null]), "nested": .map(["k": .bool(true)])]),
    "l": .list([.int(3), .string("a"), .list([]), .map([:])]),
    "s": .string("héllo, wörld 😀"),
    "request": .map(["auth": .map(["uid": .string("alice"), "token": .map(["admin": .bool(false)])]), "time": .timestamp(Timestamp(seconds: 1_735_689_600))]),
    "resource": .map(["data": .map(["owner": .string("alice"), "n": .int(-4)])]),
]

func fuzzExpression(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    guard let environment else { return 0 }
    guard let expression = try? CompiledExpression(input.text, environment: environment) else { return 0 }
    _ = try? expression.evaluate(bindings)
    // The same expression traced (the path explanations use) and as a condition.
    let slots = environment.variables.map { bindings[$0] ?? .null }
    _ = expression.evaluateCondition(slots: slots, tracer: RecordingTracer())
    _ = expression.evaluateCondition(slots: slots)
    return 0
}

@_cdecl("FuzzExpression_main")
public func entryPoint(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { data, size in fuzzExpression(data, size) }
}
