// swift-tools-version:6.2
import PackageDescription

// libFuzzer targets for Regimen: build and run them with scripts/fuzz.sh (Linux, the Swift
// toolchain's `-sanitize=fuzzer`). SwiftPM links an executable's entry point as `<Target>_main`,
// so each target defines that and hands its test function to libFuzzer's driver. The script
// passes `-sanitize=fuzzer,address -parse-as-library` to every module, so the library code under
// test is instrumented for coverage as well as the harness.
let settings: [SwiftSetting] = [.swiftLanguageMode(.v6)]

func fuzzTarget(_ name: String, _ products: [String]) -> Target {
    .executableTarget(
        name: name,
        dependencies: ["FuzzSupport"] + products.map { .product(name: $0, package: "Regimen") },
        swiftSettings: settings)
}

let package = Package(
    name: "RegimenFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "Regimen", path: "..")],
    targets: [
        .target(name: "CFuzzDriver"),
        .target(name: "FuzzSupport", dependencies: ["CFuzzDriver"], swiftSettings: settings),
        fuzzTarget("FuzzExpression", ["RegimenLanguage"]),
        fuzzTarget("FuzzPolicy", ["RegimenLanguage", "RegimenSecurity"]),
        fuzzTarget("FuzzRuleSet", ["RegimenLanguage", "RegimenRules", "RegimenCoaching", "RegimenTracking"]),
        fuzzTarget("FuzzProfile", ["RegimenLanguage", "RegimenRules", "RegimenCoaching"]),
        fuzzTarget("FuzzCheckIns", ["RegimenLanguage", "RegimenRules", "RegimenCoaching"]),
        fuzzTarget("FuzzSecurityTests", ["RegimenLanguage", "RegimenSecurity"]),
    ]
)
