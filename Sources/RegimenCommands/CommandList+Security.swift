import ArgumentParser

extension CommandList {
    /// Security policies for auditors.
    static let security: [any ParsableCommand.Type] = [
        SecurityTestCommand.self, AuthorizeCommand.self, RulesCommand.self, AuditCommand.self, SecurityBenchCommand.self,
    ]
}
