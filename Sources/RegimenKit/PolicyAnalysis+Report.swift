package import RegimenAnalysis
package import RegimenLanguage

/// The analysis's answers as JSON values, for the service and the page: each verdict names its
/// result (`proved`, `counterexample`, `possible`, `unknown`) and carries what a person needs to
/// act on it (the `security_tests` case to paste, or the reason and the abstracted constructs).
extension PolicyComparison.Entry {
    /// A proof's entry: the request shape and whether the property holds for it.
    package var proofValue: Value {
        .map(["method": .string(shape.method.rawValue), "path": .string(shape.pattern), "verdict": first.reportValue])
    }

    /// A comparison's entry: what the new version newly allows and newly denies on this shape.
    package var comparisonValue: Value {
        .map([
            "method": .string(shape.method.rawValue), "path": .string(shape.pattern),
            "equivalent": .bool(first.isProved && second?.isProved == true),
            "newlyAllows": first.reportValue,
            "newlyDenies": (second ?? .unknown(reason: PolicyAnalysis.notAsked)).reportValue,
        ])
    }
}

extension Verdict {
    /// `{"result": …}` with the counterexample's case and decisions, or the reason.
    var reportValue: Value {
        switch self {
        case .proved:
            return .map(["result": .string("proved")])
        case .counterexample(let found):
            return .map([
                "result": .string("counterexample"), "testCase": .string(found.testCase),
                "decisions": .list(found.decisions.map { .string($0 ? "allow" : "deny") }),
            ])
        case .possible(let reason, let abstractions):
            return .map([
                "result": .string("possible"), "reason": .string(reason),
                "abstractions": .list(abstractions.map { .map(["construct": .string($0.construct), "location": .string($0.location)]) }),
            ])
        case .unknown(let reason):
            return .map(["result": .string("unknown"), "reason": .string(reason)])
        }
    }
}
