import ArgumentParser
import Foundation
import RegimenKit
import RegimenService

/// `regimen serve`'s options for who may ask, and as whom.
struct ServeAccessOptions: ParsableArguments {
    @Option(name: .customLong("identity"), help: ArgumentHelp(
        "Where request.auth comes from on the public listener: verified (the Authorization: Bearer ID token only), trusted-caller, or open (the body's 'auth'). Default: open on a loopback --host; required otherwise.",
        valueName: "mode"))
    var identity: String?

    @Option(name: .customLong("identity-for"), help: ArgumentHelp("A policy's own identity mode, as POLICY=MODE (repeatable).", valueName: "policy=mode"))
    var identityFor: [String] = []

    @Option(name: .customLong("id-token-jwks"), help: ArgumentHelp(
        "JSON Web Key Set file of the keys ID tokens are signed with (RS256, ES256); read again on an unknown kid.", valueName: "file"))
    var idTokenJWKS: String?

    @Option(name: .customLong("id-token-project"), help: ArgumentHelp(
        "Firebase project id: ID tokens must say aud=<project> and iss=https://securetoken.google.com/<project>.", valueName: "id"))
    var idTokenProject: String?

    @Option(name: .customLong("id-token-issuer"), help: ArgumentHelp("The iss ID tokens must carry, when not Firebase's for the project.", valueName: "url"))
    var idTokenIssuer: String?

    @Option(name: .customLong("clock-skew"), parsing: .unconditional, help: "Seconds an ID token's exp, nbf, iat and auth_time may be off this machine's clock.")
    var clockSkew = 60.0

    @Option(name: .customLong("body-documents"), help: ArgumentHelp(
        "Where a body's own documents go: under the served documents (they never replace one) or over them.", valueName: "under|over"))
    var bodyDocuments = "under"

    func validate() throws {
        if let identity, IdentityMode(rawValue: identity) == nil {
            throw ValidationError("--identity must be verified, trusted-caller or open, not '\(identity)'")
        }
        _ = try policyModes()
        guard (idTokenJWKS == nil) == (idTokenProject == nil) else { throw ValidationError("--id-token-jwks and --id-token-project go together") }
        guard clockSkew >= 0, clockSkew <= 3600, clockSkew.isFinite else { throw ValidationError("--clock-skew must be 0–3600 seconds") }
        guard BodyDocumentLayering(rawValue: bodyDocuments) != nil else { throw ValidationError("--body-documents must be under or over") }
    }

    private func policyModes() throws -> [String: IdentityMode] {
        var modes: [String: IdentityMode] = [:]
        for entry in identityFor {
            guard let equals = entry.lastIndex(of: "="), let mode = IdentityMode(rawValue: String(entry[entry.index(after: equals)...])),
                  !entry[..<equals].isEmpty
            else { throw ValidationError("--identity-for takes POLICY=MODE (verified, trusted-caller or open), not '\(entry)'") }
            modes[String(entry[..<equals])] = mode
        }
        return modes
    }

    /// The access configuration, files resolved against `directory`.
    func configuration(relativeTo directory: URL) throws -> AccessConfiguration {
        var tokens: IDTokenSettings?
        if let idTokenJWKS, let idTokenProject {
            var settings = IDTokenSettings.firebase(
                project: idTokenProject, keySetFile: URL(fileURLWithPath: idTokenJWKS, relativeTo: directory).standardizedFileURL,
                clockSkew: .milliseconds(Int(clockSkew * 1000)))
            if let idTokenIssuer { settings.issuer = idTokenIssuer }
            tokens = settings
        }
        return AccessConfiguration(
            identityMode: identity.flatMap(IdentityMode.init(rawValue:)), policyIdentityModes: try policyModes(), idTokens: tokens,
            bodyDocuments: BodyDocumentLayering(rawValue: bodyDocuments) ?? .under)
    }
}
