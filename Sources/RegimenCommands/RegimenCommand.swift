import ArgumentParser

/// The `regimen` command: every subcommand hangs off this root.
public struct RegimenCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "regimen",
        abstract: "A declarative rules engine for fitness coaching and Firestore-style security policy.",
        subcommands: [
            Bench.self,
            Check.self,
            Eval.self,
        ]
    )

    public init() {}
}
