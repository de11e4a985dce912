import AsyncHTTPClient
import Foundation
import JWTKit
import NIOCore
import NIOHTTP1

/// The `Authorization` Firestore's REST API gets: the emulator's owner token, or an OAuth
/// access token for a service account, obtained as Google documents for server-to-server
/// applications (a JWT signed RS256 with the account's key, exchanged at its `token_uri` with
/// grant type `urn:ietf:params:oauth:grant-type:jwt-bearer`) and reused until a minute before
/// it expires.
actor GoogleAccessTokens {
    /// The one scope reads need: Cloud Datastore / Firestore.
    static let scope = "https://www.googleapis.com/auth/datastore"
    /// The longest token answer read.
    static let maximumResponseBytes = 64 * 1024

    /// A service account key file's fields this needs.
    struct ServiceAccount: Decodable, Sendable {
        let clientEmail: String
        let privateKey: String
        let tokenURI: String
        let privateKeyID: String?

        enum CodingKeys: String, CodingKey {
            case clientEmail = "client_email", privateKey = "private_key", tokenURI = "token_uri", privateKeyID = "private_key_id"
        }
    }

    /// The claims of the assertion (RFC 7523 §3).
    struct Assertion: JWTPayload {
        let iss: IssuerClaim
        let scope: String
        let aud: AudienceClaim
        let iat: IssuedAtClaim
        let exp: ExpirationClaim

        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    private struct TokenAnswer: Decodable {
        let accessToken: String
        let expiresIn: Int?

        enum CodingKeys: String, CodingKey {
            case accessToken = "access_token", expiresIn = "expires_in"
        }
    }

    private enum Source {
        case fixed(String)
        case serviceAccount(ServiceAccount, Insecure.RSA.PrivateKey)
    }

    private let source: Source
    private var cached: (token: String, renewAt: ContinuousClock.Instant)?
    /// JWTKit's signer, filled with the account's key on first use (its collection is an actor).
    private var signer: JWTKeyCollection?

    /// - Throws: ``LiveDocumentError`` when a service-account file does not read or its key is
    ///   not an RSA private key.
    init(_ credentials: LiveDocumentSettings.Credentials) throws(LiveDocumentError) {
        switch credentials {
        case .emulatorOwner:
            source = .fixed("owner")
        case .serviceAccount(let file):
            let account: ServiceAccount
            do {
                account = try JSONDecoder().decode(ServiceAccount.self, from: Data(contentsOf: file))
            } catch {
                throw LiveDocumentError("\(file.path): not a service-account key file (client_email, private_key, token_uri): \(error)")
            }
            do {
                source = .serviceAccount(account, try Insecure.RSA.PrivateKey(pem: account.privateKey))
            } catch {
                throw LiveDocumentError("\(file.path): private_key is not an RSA private key in PEM: \(error)")
            }
        }
    }

    /// The bearer token for the next call.
    func token(client: HTTPClient, timeout: Duration) async throws(LiveDocumentError) -> String {
        switch source {
        case .fixed(let token):
            return token
        case .serviceAccount(let account, let key):
            if let cached, ContinuousClock.now < cached.renewAt { return cached.token }
            let keys = signer ?? JWTKeyCollection()
            if signer == nil {
                await keys.add(rsa: key, digestAlgorithm: .sha256)
                signer = keys
            }
            let now = Date()
            let assertion = Assertion(
                iss: IssuerClaim(value: account.clientEmail), scope: Self.scope, aud: AudienceClaim(value: account.tokenURI),
                iat: IssuedAtClaim(value: now), exp: ExpirationClaim(value: now.addingTimeInterval(3600)))
            var header = JWTHeader()
            header.kid = account.privateKeyID
            let signed: String
            do {
                signed = try await keys.sign(assertion, header: header)
            } catch {
                throw LiveDocumentError("cannot sign the token request: \(error)")
            }
            var request = HTTPClientRequest(url: account.tokenURI)
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
            let form = "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=\(signed)"
            request.body = .bytes(ByteBuffer(string: form))
            let data = try await FirestoreRESTReader.send(request, client: client, timeout: timeout, limit: Self.maximumResponseBytes, what: "the token endpoint")
            guard let answer = try? JSONDecoder().decode(TokenAnswer.self, from: data), !answer.accessToken.isEmpty else {
                throw LiveDocumentError("the token endpoint's answer has no access_token")
            }
            // Renewed a minute early, so a token never expires between here and Firestore.
            let lifetime = max(0, (answer.expiresIn ?? 3600) - 60)
            cached = (answer.accessToken, ContinuousClock.now + .seconds(lifetime))
            return answer.accessToken
        }
    }
}
