// swift-tools-version:6.2
import PackageDescription

// Dependencies point one way:
//   RegimenLanguage  ←  RegimenRules  ←  RegimenSecurity / RegimenCoaching / RegimenTracking  ←  RegimenKit  ←  RegimenCommands  ←  regimen
// Apps import RegimenKit alone: one engine, loaded once, that knows every rule kind.
let strictSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    // Imports are internal unless a file says otherwise (`package import`, `public import`), and a
    // member is visible only where its module is imported: a file names what it depends on.
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "Regimen",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "regimen", targets: ["regimen"]),
        .library(name: "RegimenKit", targets: ["RegimenKit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-collections.git", from: "1.6.0"),
        // MD5 and SHA-256 for the rules language's `hashing` namespace.
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        // `swift package generate-documentation` for RegimenKit's DocC catalog.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // `regimen serve`: the HTTP server, its lifecycle and signals, its logs and its Prometheus metrics.
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.6.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.0.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.0.0"),
        // `regimen serve`: heavy work's own thread pool (NIOThreadPool) and the request-timeout handler.
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.81.0"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.24.0"),
        // `regimen serve --identity verified`: ID-token signatures (RS256, ES256) against a JWKS.
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.7.1"),
        // `regimen serve --tls-certificate`: HTTPS on the public listener, reloaded on SIGHUP.
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        // `regimen serve --firestore-*`: get() and exists() read a Firestore database over its REST API.
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        // `regimen serve --tls-client-ca`: a client certificate's subject names the caller (mutual TLS).
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        // `regimen serve --otel-endpoint`: request spans continue a caller's W3C `traceparent` and go
        // to an OTLP/HTTP collector. Only the OTLPHTTP trait: the default also brings gRPC, which
        // costs every clean CI build several minutes for an exporter this service does not offer.
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.3"),
        .package(url: "https://github.com/swift-otel/swift-otel.git", from: "1.6.0", traits: ["OTLPHTTP"]),
    ],
    targets: [
        // The expression language of Firestore Security Rules: values, lexer, parser, compiler, evaluator.
        .target(
            name: "RegimenLanguage",
            dependencies: [
                .product(name: "OrderedCollections", package: "swift-collections"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strictSettings
        ),
        // YAML rule files → located trees → typed rule primitives, with diagnostics.
        .target(
            name: "RegimenRules",
            dependencies: ["RegimenLanguage", .product(name: "Yams", package: "Yams")],
            swiftSettings: strictSettings
        ),
        // Firestore / Storage security policies: parsing, matching, decisions, tests, coverage, audit.
        .target(
            name: "RegimenSecurity",
            dependencies: [
                "RegimenLanguage", "RegimenRules",
                .product(name: "OrderedCollections", package: "swift-collections"),
                .product(name: "Yams", package: "Yams"),
            ],
            swiftSettings: strictSettings
        ),
        // Symbolic analysis of Firestore policies: SMT-LIB 2 for an external solver (z3, cvc5);
        // no solver is linked, so the package builds without one.
        .target(
            name: "RegimenAnalysis",
            dependencies: ["RegimenLanguage", "RegimenSecurity", .product(name: "OrderedCollections", package: "swift-collections")],
            swiftSettings: strictSettings
        ),
        // The fitness planner: profiles, indexes, nutrition, training, adaptation, supplements.
        .target(
            name: "RegimenCoaching",
            dependencies: ["RegimenLanguage", "RegimenRules"],
            swiftSettings: strictSettings
        ),
        // The neighbouring apps: workout tracker, trainer/student progress, calorie burn.
        .target(
            name: "RegimenTracking",
            dependencies: ["RegimenLanguage", "RegimenRules"],
            swiftSettings: strictSettings
        ),
        // The front door for apps: `RegimenEngine` (plans, adaptation, nutrition, diff,
        // supplements, policies) with the seed's JSON contracts; re-exports only what it needs.
        .target(
            name: "RegimenKit",
            dependencies: [
                "RegimenLanguage", "RegimenRules", "RegimenSecurity", "RegimenCoaching", "RegimenTracking", "RegimenAnalysis",
                .product(name: "OrderedCollections", package: "swift-collections"),
            ],
            // Only Exports.swift's re-exports (and the modules public signatures name) reach an app.
            swiftSettings: strictSettings
        ),
        // The engine over HTTP (`regimen serve`): routes, errors, limits, live reloads, metrics, OpenAPI.
        .target(
            name: "RegimenService",
            dependencies: [
                "RegimenKit",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "OTel", package: "swift-otel"),
            ],
            // The page at `/`: plain HTML, CSS and JavaScript, served as they are (no build step).
            resources: [.copy("Web/Assets")],
            swiftSettings: strictSettings
        ),
        // Every `regimen` subcommand, as a library so tests can run them in-process.
        .target(
            name: "RegimenCommands",
            dependencies: [
                "RegimenKit", "RegimenService",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "regimen",
            dependencies: ["RegimenCommands"],
            swiftSettings: strictSettings
        ),
        // Helpers every test target may share (a seeded generator), not shipped in any product.
        .target(
            name: "RegimenTestSupport",
            dependencies: ["RegimenRules", .product(name: "OrderedCollections", package: "swift-collections")],
            path: "Tests/RegimenTestSupport", swiftSettings: strictSettings),
        .testTarget(name: "RegimenLanguageTests", dependencies: ["RegimenLanguage", "RegimenTestSupport", .product(name: "Yams", package: "Yams")], resources: [.copy("Conformance")], swiftSettings: strictSettings),
        .testTarget(name: "RegimenRulesTests", dependencies: ["RegimenRules", "RegimenTestSupport"], resources: [.copy("Fixtures")], swiftSettings: strictSettings),
        // Conformance/ holds security test files read from the repository (and by the emulator scripts).
        .testTarget(name: "RegimenSecurityTests", dependencies: ["RegimenSecurity", "RegimenTestSupport"], exclude: ["Conformance"], swiftSettings: strictSettings),
        .testTarget(name: "RegimenCoachingTests", dependencies: ["RegimenCoaching", "RegimenTestSupport"], swiftSettings: strictSettings),
        .testTarget(name: "RegimenTrackingTests", dependencies: ["RegimenTracking", "RegimenTestSupport"], swiftSettings: strictSettings),
        .testTarget(name: "RegimenCommandsTests", dependencies: ["RegimenCommands", "RegimenTestSupport"], swiftSettings: strictSettings),
        // The README's library examples and the engine-equals-CLI checks, through public API only.
        .testTarget(name: "RegimenServiceTests", dependencies: [
            "RegimenService", "RegimenKit", "RegimenTestSupport",
            .product(name: "HummingbirdTesting", package: "hummingbird"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "CryptoExtras", package: "swift-crypto"),
        ], swiftSettings: strictSettings),
        .testTarget(name: "RegimenAnalysisTests", dependencies: ["RegimenAnalysis", "RegimenSecurity", "RegimenLanguage", "RegimenTestSupport"], swiftSettings: strictSettings),
        .testTarget(name: "RegimenAPITests", dependencies: ["RegimenKit", "RegimenCommands", "RegimenTestSupport"], swiftSettings: strictSettings),
    ]
)

// libFuzzer targets (sources in Fuzz/Sources), part of this package so that they reach the
// modules' `package` declarations. Only scripts/fuzz.sh asks for them (REGIMEN_FUZZ=1): it builds
// every module with `-sanitize=fuzzer,address -parse-as-library`, which plain builds must not see.
// SwiftPM links an executable's entry point as `<Target>_main`, so each target defines that and
// hands its test function to libFuzzer's driver.
if Context.environment["REGIMEN_FUZZ"] == "1" {
    let fuzzSettings: [SwiftSetting] = [.swiftLanguageMode(.v6)]
    // FuzzCost compares the work values really do with the cost the evaluator charges.
    for target in package.targets where target.name == "RegimenLanguage" {
        target.swiftSettings = (target.swiftSettings ?? []) + [.define("REGIMEN_COUNT_WORK")]
    }
    func fuzzTarget(_ name: String, _ modules: [Target.Dependency]) -> Target {
        .executableTarget(name: name, dependencies: ["FuzzSupport"] + modules, path: "Fuzz/Sources/\(name)", swiftSettings: fuzzSettings)
    }
    package.targets += [
        .target(name: "CFuzzDriver", path: "Fuzz/Sources/CFuzzDriver"),
        .target(name: "FuzzSupport", dependencies: ["CFuzzDriver"], path: "Fuzz/Sources/FuzzSupport", swiftSettings: fuzzSettings),
        fuzzTarget("FuzzExpression", ["RegimenLanguage"]),
        fuzzTarget("FuzzCost", ["RegimenLanguage"]),
        fuzzTarget("FuzzPolicy", ["RegimenLanguage", "RegimenSecurity"]),
        fuzzTarget("FuzzRuleSet", ["RegimenLanguage", "RegimenRules", "RegimenCoaching", "RegimenTracking"]),
        fuzzTarget("FuzzProfile", ["RegimenLanguage", "RegimenRules", "RegimenCoaching"]),
        fuzzTarget("FuzzCheckIns", ["RegimenLanguage", "RegimenRules", "RegimenCoaching"]),
        fuzzTarget("FuzzSecurityTests", ["RegimenLanguage", "RegimenSecurity"]),
    ]
}
