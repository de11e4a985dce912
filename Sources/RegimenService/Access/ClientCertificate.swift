import NIOCore
import NIOSSL
import X509
import SwiftASN1

/// Mutual TLS as a caller identity: the subject of the certificate a client presented on the
/// public listener (validated against `--tls-client-ca` during the handshake), which a caller
/// key file entry names instead of an API key's digest.
package enum ClientCertificate {
    /// Whether a client of the public listener must present a certificate.
    package enum Requirement: String, Sendable, CaseIterable {
        /// The handshake fails without a certificate the client CA issued.
        case required
        /// A client may present one (then it must be the client CA's) or none (then it
        /// identifies itself with an API key, or not at all).
        case optional
    }

    /// The subject (`CN=backend,O=Example`, RFC 4514 order: most specific first, as
    /// `openssl x509 -noout -subject -nameopt RFC2253` prints it) of the validated certificate
    /// the client on `channel` presented, or `nil` when it presented none or the channel has no TLS.
    static func subject(on channel: any Channel) async -> String? {
        guard let certificate = try? await channel.nioSSL_peerCertificate().get(), let der = try? certificate.toDERBytes(),
              let parsed = try? Certificate(derEncoded: der)
        else { return nil }
        return parsed.subject.description
    }
}
