import ArgumentParser

extension CommandList {
    /// Rule files and the expression language.
    static let core: [any ParsableCommand.Type] = [Check.self, ExplainKind.self, Eval.self, Bench.self]
}
