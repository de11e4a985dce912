import Crypto
import Foundation
import HTTPTypes
import RegimenKit

/// Fields of a decision-log line an operator may mask (`--decision-log-mask`): each is
/// replaced by `sha256:` and the first 16 hex digits of its SHA-256, so that lines about the
/// same user, path or caller still match each other without naming them.
package enum MaskedField: String, Sendable, CaseIterable, Hashable {
    case uid, path, caller, reason
}

/// Who asked, for the decision log: where `request.auth` came from and the caller's key id.
struct DecisionAsker: Sendable {
    enum Source: String, Sendable {
        /// A verified ID token.
        case idToken = "id-token"
        /// The body's `auth` (open mode, or a trusted caller's claim).
        case body
        /// No identity: a signed-out request.
        case signedOut = "signed-out"
    }

    var source: Source
    var uid: String?
    var caller: String?
}

extension HTTPField.Name {
    /// The id of an authorize answer's decisions, as the decision log names them.
    static let regimenDecisionID = Self("Regimen-Decision-Id")!
}

enum DecisionAudit {
    /// A fresh decision id: 128 random bits in hex.
    static func newID() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in String(generator.next() as UInt64, radix: 16).leftPadded(to: 16) }.joined()
    }

    /// `value` masked: `sha256:` and 16 hex digits of its digest.
    static func mask(_ value: String) -> String {
        "sha256:" + SHA256.hash(data: Data(value.utf8)).prefix(8).map { String(format: "%02x", $0) }.joined()
    }
}

extension String {
    fileprivate func leftPadded(to length: Int) -> String {
        count >= length ? self : String(repeating: "0", count: length - count) + self
    }
}
