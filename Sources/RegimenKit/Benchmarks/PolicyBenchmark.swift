import RegimenSecurity

/// `regimen bench-security`'s workload against one policy: 1,000 fixed write requests on
/// Appendix A's sets path and the documents they read, decided by the allow-only path (what a
/// server answers) or with the record of every evaluated statement (what `--explain` shows).
package struct PolicyBenchmark {
    private let workload = SecurityBenchmark()
    private let policy: CompiledPolicy

    /// The workload against `policy`.
    package init(policy: Policy) {
        self.policy = policy.compiled
    }

    /// The requests, in the order each pass decides them.
    package var requests: [SecurityRequest] { workload.requests }

    /// Whether the policy allows `request`, by the allow-only path.
    package func isAllowed(_ request: SecurityRequest) -> Bool {
        policy.isAllowed(request, store: workload.store)
    }

    /// Whether the policy allows `request`, recording every evaluated statement as it goes.
    package func decidesAllowed(_ request: SecurityRequest) -> Bool {
        policy.decide(request, store: workload.store).allowed
    }

    /// The workload as a security test file for the policy at `rules`, each case expecting
    /// the decision of `decisions` at its position.
    package func testFile(rules: String, decisions: [Bool]) -> String {
        workload.testFile(rules: rules, decisions: decisions)
    }
}
