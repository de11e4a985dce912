package import ArgumentParser

/// The `regimen` command: every subcommand hangs off this root.
///
/// Each area lists its own subcommands in its own file (`CommandList+Area.swift`), so adding a
/// command never touches another area's line.
package struct RegimenCommand: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "regimen",
        abstract: "A declarative rules engine for fitness coaching and Firestore-style security policy.",
        subcommands: CommandList.core + CommandList.coaching + CommandList.security + CommandList.tracking
    )

    package init() {}
}

/// Subcommands grouped by area.
enum CommandList {}
