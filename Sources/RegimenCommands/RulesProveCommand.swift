import ArgumentParser
import Foundation
import RegimenKit
import RegimenAnalysis

/// Options every solver-backed `rules` subcommand shares.
struct SolverOptions: ParsableArguments {
    @Option(name: .long, help: "The SMT-LIB 2 solver to run: a name on PATH or a path (z3, cvc5).")
    var solver: String = "z3"

    @Option(name: .long, help: "Seconds each query may take before it is reported as unknown (timeout).")
    var timeout: Double = 10

    /// The analysis, or a usage failure (exit 2) naming what to install.
    func analysis() throws(CommandFailure) -> PolicyAnalysis {
        guard let analysis = PolicyAnalysis(solver: solver, timeoutSeconds: timeout) else {
            CommandContext.current.standardError.write("error: no SMT solver '\(solver)' found (install z3: apt-get install -y z3, or name one with --solver)\n")
            throw CommandFailure.usage
        }
        return analysis
    }

    /// The Firestore policy at `file`, compiled (a policy that would not run is not analysed);
    /// a Storage policy, or one that does not read, is a usage error.
    static func load(_ file: String) throws(CommandFailure) -> Policy {
        let policy: Policy
        do {
            policy = try Policy(file: file)
        } catch {
            CommandContext.current.standardError.write(DiagnosticPrinter.lines(error.diagnostics) + "\n")
            throw CommandFailure.usage
        }
        guard policy.service == .firestore else {
            CommandContext.current.standardError.write("error: \(file): the analysis covers Firestore policies (service cloud.firestore) only\n")
            throw CommandFailure.usage
        }
        return policy
    }
}

/// `regimen rules prove POLICY --for 'write /users/{uid}/**' --assert EXPR`: proves a property of
/// every request, or shows a request that breaks it.
struct RulesProveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prove",
        abstract: "Prove a property of every request a Firestore policy decides, or show a counterexample.",
        discussion: """
        --assert EXPR: every request the policy allows satisfies EXPR (rules language; request, \
        resource and the wildcards of --for are in scope). --query asks always-allows, always-denies \
        or never-errors instead. Counterexamples are security_tests cases, replayed through the \
        evaluator before they are shown. Exits 0 when proved, 1 otherwise, 2 on bad input or no solver.
        """
    )

    @Argument(help: "The policy (.rules, or .yaml with kind: security_rules).")
    var policy: String

    @Option(name: .customLong("for"), help: "Method and path pattern: 'write /users/{uid}/**' (read, write, get, create, update, delete).")
    var scope: String

    @Option(name: .customLong("assert"), help: "A rules-language condition every allowed request must satisfy.")
    var assertion: String?

    @Option(name: .long, help: "always-allows, always-denies or never-errors (instead of --assert).")
    var query: String?

    @OptionGroup var solverOptions: SolverOptions

    init() {}

    package func run() throws {
        guard let shapes = PolicyAnalysis.shapes(inScope: scope) else {
            CommandContext.current.standardError.write("error: --for needs a method and a document path pattern, e.g. 'write /users/{uid}/**'\n")
            throw CommandFailure.usage
        }
        guard (assertion == nil) != (query == nil) else {
            CommandContext.current.standardError.write("error: give exactly one of --assert and --query\n")
            throw CommandFailure.usage
        }
        var asked: PolicyAnalysis.Query?
        if let query {
            guard let known = PolicyAnalysis.Query(rawValue: query) else {
                CommandContext.current.standardError.write("error: --query must be always-allows, always-denies or never-errors\n")
                throw CommandFailure.usage
            }
            asked = known
        }
        let loaded = try SolverOptions.load(policy)
        let analysis = try solverOptions.analysis()
        let entries = try { () throws(CommandFailure) in
            guard let assertion else { return analysis.ask(asked ?? .alwaysAllows, of: loaded, for: shapes) }
            do {
                return try analysis.prove(loaded, scope: scope, assertion: assertion)
            } catch {
                CommandContext.current.standardError.write("error: --assert: \(error)\n")
                throw CommandFailure.usage
            }
        }()
        var output = "rules prove \(policy) --for '\(scope)' \(assertion.map { "--assert '\($0)'" } ?? "--query \(query ?? "")")\n"
        for entry in entries {
            output += "  \(entry.shape): " + entry.first.rendered(proved: "proved", found: "does not hold")
        }
        let proved = entries.allSatisfy { $0.first.isProved }
        if scope.contains("**") {
            output += "  (`**` covers paths of up to 3 segments below it: each length is its own query)\n"
        }
        output += proved ? "proved for every request above\n" : "not proved\n"
        CommandContext.current.standardOutput.write(output)
        if !proved { throw CommandFailure.failed }
    }
}
