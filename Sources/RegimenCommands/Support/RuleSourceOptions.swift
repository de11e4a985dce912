import ArgumentParser

/// `--rules DIR` and `--catalogs DIR`, shared by every command that loads rules.
struct RuleSourceOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "Rules directory, or a directory holding rules/ and catalogs/ (default: the repository's own).",
        valueName: "dir"))
    var rules: String?

    @Option(name: .long, help: ArgumentHelp("Catalogs directory (default: beside the rules, or the repository's own).", valueName: "dir"))
    var catalogs: String?
}
