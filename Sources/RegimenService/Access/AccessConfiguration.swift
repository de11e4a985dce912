package import Foundation
package import RegimenKit

/// Where `request.auth` comes from on the public listener's authorize route.
package enum IdentityMode: String, Sendable, CaseIterable {
    /// From the `Authorization: Bearer` ID token alone, verified against the configured keys;
    /// no token is a signed-out request, and a body naming `auth` is refused (400).
    case verified
    /// From the ID token when one is sent; from the body's `auth` only when the caller's API
    /// key holds the `authorize:claims` scope (a trusted back end asking on a user's behalf).
    case trustedCaller = "trusted-caller"
    /// From the body, as a test case names it (and from a verified ID token when one is sent).
    case open
}

/// How ID tokens are checked: Firebase's checks for ID tokens, with this service's keys.
package struct IDTokenSettings: Sendable {
    /// A JSON Web Key Set file (`{"keys": [...]}`): RS256 (`kty: RSA`) and ES256 (`kty: EC`,
    /// `crv: P-256`) keys, each with its `kid`. Read at start and again, at most once per
    /// ``refreshInterval``, when a token names a `kid` it does not hold (key rotation).
    var keySetFile: URL
    /// A JSON Web Key Set served over HTTP(S) instead of ``keySetFile`` (Google's
    /// `https://www.googleapis.com/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com`):
    /// fetched on the first token, kept for the answer's `Cache-Control: max-age` (an hour when
    /// it names none), and fetched again when that has passed or a token names an unknown `kid`,
    /// at most once per ``refreshInterval``.
    var keySetURL: URL?
    /// The `iss` a token must carry: `https://securetoken.google.com/<project>` for Firebase.
    package var issuer: String
    /// The `aud` a token must carry: the Firebase project id.
    var audience: String
    /// How far the token's clock may be from this machine's for `exp`, `nbf`, `iat` and `auth_time`.
    var clockSkew: Duration
    /// The shortest time between two reads of ``keySetFile`` caused by unknown `kid`s: a flood of
    /// made-up `kid`s costs one read per interval, not one per request.
    var refreshInterval: Duration
    /// The shortest time between a read or fetch that failed and the next one (at most
    /// ``refreshInterval``): one transient failure at start must not refuse every token for a
    /// whole interval, and a key set that stays down still costs one attempt per retry, not one
    /// per request.
    var retryAfterFailure: Duration
    /// How long one fetch of ``keySetURL`` may take before it counts as a failure.
    var fetchTimeout: Duration

    init(
        keySetFile: URL, issuer: String, audience: String, clockSkew: Duration = .seconds(60), refreshInterval: Duration = .seconds(30),
        retryAfterFailure: Duration = .seconds(5), fetchTimeout: Duration = .seconds(5)
    ) {
        self.keySetFile = keySetFile
        self.issuer = issuer
        self.audience = audience
        self.clockSkew = clockSkew
        self.refreshInterval = refreshInterval
        self.retryAfterFailure = retryAfterFailure
        self.fetchTimeout = fetchTimeout
    }

    /// The settings for a Firebase project: issuer `https://securetoken.google.com/<project>`,
    /// audience the project id.
    package static func firebase(project: String, keySetFile: URL, clockSkew: Duration = .seconds(60)) -> IDTokenSettings {
        IDTokenSettings(keySetFile: keySetFile, issuer: "https://securetoken.google.com/\(project)", audience: project, clockSkew: clockSkew)
    }

    /// The settings for a Firebase project whose keys are fetched from `keySetURL`.
    package static func firebase(project: String, keySetURL: URL, clockSkew: Duration = .seconds(60)) -> IDTokenSettings {
        var settings = IDTokenSettings(keySetFile: keySetURL, issuer: "https://securetoken.google.com/\(project)", audience: project, clockSkew: clockSkew)
        settings.keySetURL = keySetURL
        return settings
    }
}

/// Who may ask the service, and as whom: the identity mode, the ID-token keys.
package struct AccessConfiguration: Sendable {
    /// The service's identity mode; `nil` chooses ``IdentityMode/open`` when the public
    /// listener is on a loopback address and refuses to start otherwise.
    var identityMode: IdentityMode?
    /// Policies (by name, `workout-tracker/corrected`) whose identity mode differs from the service's.
    var policyIdentityModes: [String: IdentityMode]
    /// How ID tokens are verified; `nil` refuses every `Authorization: Bearer` on authorize.
    var idTokens: IDTokenSettings?
    /// Where a body's own `documents` go beside the served ones.
    var bodyDocuments: BodyDocumentLayering
    /// The callers' API keys (``CallerKeys``); `nil`: callers are not identified and every
    /// route group is open.
    var callerKeys: URL?
    /// Route groups any caller may call without a key while keys are configured.
    var openRouteGroups: Set<RouteGroup>
    /// The rate limit of a key whose entry names none; `nil`: such keys are unlimited.
    var defaultRate: RateLimit?
    /// Decision-log fields written as a digest rather than as they are.
    package var decisionLogMask: Set<MaskedField> = []
    /// The public listener's certificate and key; `nil`: plain HTTP (behind a TLS proxy).
    package var tls: TLSFiles?

    package init(
        identityMode: IdentityMode? = nil, policyIdentityModes: [String: IdentityMode] = [:], idTokens: IDTokenSettings? = nil,
        bodyDocuments: BodyDocumentLayering = .under, callerKeys: URL? = nil, openRouteGroups: Set<RouteGroup> = [], defaultRate: RateLimit? = nil
    ) {
        self.identityMode = identityMode
        self.policyIdentityModes = policyIdentityModes
        self.idTokens = idTokens
        self.bodyDocuments = bodyDocuments
        self.callerKeys = callerKeys
        self.openRouteGroups = openRouteGroups
        self.defaultRate = defaultRate
    }

    /// The service's identity mode for a public listener on `host`.
    /// - Throws: ``AccessConfigurationError`` when the public listener is reachable from other
    ///   machines and no mode was chosen, or a mode needs ID-token keys that were not given.
    func resolvedIdentityMode(publicHost host: String) throws(AccessConfigurationError) -> IdentityMode {
        let modes = [identityMode].compactMap { $0 } + Array(policyIdentityModes.values)
        if idTokens == nil, modes.contains(.verified) {
            throw AccessConfigurationError("identity mode 'verified' needs ID-token keys (--id-token-jwks and --id-token-project)")
        }
        if let identityMode { return identityMode }
        guard ServiceConfiguration.isLoopback(host) else {
            throw AccessConfigurationError(
                "the public listener on '\(host)' is reachable from other machines: choose an identity mode (--identity verified, trusted-caller or open)")
        }
        return .open
    }
}

/// A configuration the service refuses to start with.
package struct AccessConfigurationError: Error, Sendable, CustomStringConvertible {
    package var description: String
    init(_ description: String) { self.description = description }
}
