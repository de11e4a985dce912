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
        "JSON Web Key Set of the keys ID tokens are signed with (RS256, ES256): a file, read again on an unknown kid, or an http(s) URL, fetched by the first token and again after its max-age or on an unknown kid.", valueName: "file|url"))
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

    @Option(name: .customLong("caller-keys"), help: ArgumentHelp(
        "JSON file of callers' API keys (each key's SHA-256, id, scopes, rate); callers send Regimen-Api-Key. Re-read when it changes.", valueName: "file"))
    var callerKeys: String?

    @Option(name: .customLong("open-routes"), parsing: .upToNextOption, help: ArgumentHelp(
        "Route groups callable without a key while --caller-keys is set: plans, authorize, test.", valueName: "group"))
    var openRoutes: [String] = []

    @Option(name: .customLong("rate-limit"), help: ArgumentHelp(
        "Rate limit of keys whose entry names none, as PER_SECOND:BURST (token bucket; over it: 429 with Retry-After).", valueName: "rate:burst"))
    var rateLimit: String?

    @Option(name: .customLong("tls-certificate"), help: ArgumentHelp(
        "PEM certificate chain: the public listener serves HTTPS (with --tls-key); SIGHUP reads both again.", valueName: "file"))
    var tlsCertificate: String?

    @Option(name: .customLong("tls-key"), help: ArgumentHelp("PEM private key of --tls-certificate.", valueName: "file"))
    var tlsKey: String?

    @Option(name: .customLong("tls-client-ca"), help: ArgumentHelp(
        "PEM CA certificate(s) whose client certificates identify callers (mutual TLS): a caller key entry's 'subject' names one. SIGHUP reads it again.", valueName: "file"))
    var tlsClientCA: String?

    @Option(name: .customLong("tls-client-certificates"), help: ArgumentHelp(
        "With --tls-client-ca: required (no handshake without one) or optional (an API key, or nothing, otherwise).", valueName: "required|optional"))
    var tlsClientCertificates = "optional"

    @Option(name: .customLong("decision-log-mask"), parsing: .upToNextOption, help: ArgumentHelp(
        "Decision-log fields written as a SHA-256 digest (sha256:16 hex digits) instead: uid, path, caller, reason.", valueName: "field"))
    var decisionLogMask: [String] = []

    private func maskedFields() throws -> Set<MaskedField> {
        var fields: Set<MaskedField> = []
        for name in decisionLogMask.flatMap({ $0.split(separator: ",").map(String.init) }) {
            guard let field = MaskedField(rawValue: name) else { throw ValidationError("--decision-log-mask takes uid, path, caller or reason, not '\(name)'") }
            fields.insert(field)
        }
        return fields
    }

    private func defaultRate() throws -> RateLimit? {
        guard let rateLimit else { return nil }
        let parts = rateLimit.split(separator: ":")
        guard parts.count == 2, let perSecond = Double(parts[0]), let burst = Double(parts[1]), perSecond > 0, perSecond.isFinite, burst >= 1, burst.isFinite else {
            throw ValidationError("--rate-limit takes PER_SECOND:BURST (more than 0, at least 1), not '\(rateLimit)'")
        }
        return RateLimit(perSecond: perSecond, burst: burst)
    }

    private func openGroups() throws -> Set<RouteGroup> {
        var groups: Set<RouteGroup> = []
        for name in openRoutes.flatMap({ $0.split(separator: ",").map(String.init) }) {
            guard let group = RouteGroup(rawValue: name) else { throw ValidationError("--open-routes takes plans, authorize or test, not '\(name)'") }
            groups.insert(group)
        }
        return groups
    }

    func validate() throws {
        _ = try defaultRate()
        _ = try maskedFields()
        guard (tlsCertificate == nil) == (tlsKey == nil) else { throw ValidationError("--tls-certificate and --tls-key go together") }
        if tlsClientCA != nil, tlsCertificate == nil { throw ValidationError("--tls-client-ca needs --tls-certificate and --tls-key (mutual TLS is TLS)") }
        guard ClientCertificate.Requirement(rawValue: tlsClientCertificates) != nil else { throw ValidationError("--tls-client-certificates must be required or optional") }
        _ = try openGroups()
        if callerKeys == nil, !openRoutes.isEmpty || rateLimit != nil { throw ValidationError("--open-routes and --rate-limit need --caller-keys") }
        if let identity, IdentityMode(rawValue: identity) == nil {
            throw ValidationError("--identity must be verified, trusted-caller or open, not '\(identity)'")
        }
        _ = try policyModes()
        guard (idTokenJWKS == nil) == (idTokenProject == nil) else { throw ValidationError("--id-token-jwks and --id-token-project go together") }
        guard clockSkew >= 0, clockSkew <= 3600, clockSkew.isFinite else { throw ValidationError("--clock-skew must be 0–3600 seconds") }
        guard BodyDocumentLayering(rawValue: bodyDocuments) != nil else { throw ValidationError("--body-documents must be under or over") }
    }

    /// `--id-token-jwks` as a URL, when it is an http(s) one (anything else names a file).
    static func keySetURL(_ text: String) -> URL? {
        guard text.hasPrefix("https://") || text.hasPrefix("http://"), let url = URL(string: text), url.host != nil else { return nil }
        return url
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
            let skew = Duration.milliseconds(Int(clockSkew * 1000))
            var settings: IDTokenSettings
            if let url = Self.keySetURL(idTokenJWKS) {
                settings = IDTokenSettings.firebase(project: idTokenProject, keySetURL: url, clockSkew: skew)
            } else {
                settings = IDTokenSettings.firebase(
                    project: idTokenProject, keySetFile: URL(fileURLWithPath: idTokenJWKS, relativeTo: directory).standardizedFileURL, clockSkew: skew)
            }
            if let idTokenIssuer { settings.issuer = idTokenIssuer }
            tokens = settings
        }
        var configuration = AccessConfiguration(
            identityMode: identity.flatMap(IdentityMode.init(rawValue:)), policyIdentityModes: try policyModes(), idTokens: tokens,
            bodyDocuments: BodyDocumentLayering(rawValue: bodyDocuments) ?? .under,
            callerKeys: callerKeys.map { URL(fileURLWithPath: $0, relativeTo: directory).standardizedFileURL }, openRouteGroups: try openGroups(),
            defaultRate: try defaultRate())
        configuration.decisionLogMask = try maskedFields()
        if let tlsCertificate, let tlsKey {
            configuration.tls = TLSFiles(
                certificateChain: URL(fileURLWithPath: tlsCertificate, relativeTo: directory).standardizedFileURL,
                privateKey: URL(fileURLWithPath: tlsKey, relativeTo: directory).standardizedFileURL,
                clientCA: tlsClientCA.map { URL(fileURLWithPath: $0, relativeTo: directory).standardizedFileURL },
                clientCertificates: ClientCertificate.Requirement(rawValue: tlsClientCertificates) ?? .optional)
        }
        return configuration
    }
}
