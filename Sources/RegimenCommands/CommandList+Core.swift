import ArgumentParser

extension CommandList {
    /// Rule files, the expression language, and serving them over HTTP.
    static let core: [any ParsableCommand.Type] = [Check.self, ExplainKind.self, SchemaCommand.self, Eval.self, Bench.self, ServeCommand.self]
}
