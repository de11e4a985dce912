package import Foundation
import NIOSSL
import Synchronization

/// The public listener's certificate chain and private key (PEM files).
package struct TLSFiles: Sendable, Hashable {
    var certificateChain: URL
    var privateKey: URL
    /// The CA (PEM) whose certificates identify clients (mutual TLS); `nil`: clients present none.
    var clientCA: URL?
    /// Whether clients must present a certificate of ``clientCA``.
    var clientCertificates: ClientCertificate.Requirement

    package init(certificateChain: URL, privateKey: URL, clientCA: URL? = nil, clientCertificates: ClientCertificate.Requirement = .optional) {
        self.certificateChain = certificateChain
        self.privateKey = privateKey
        self.clientCA = clientCA
        self.clientCertificates = clientCertificates
    }
}

/// TLS for the public listener with swift-nio-ssl, its certificate read again on SIGHUP
/// (`systemctl reload`, or after certbot renews): connections opened after the reload present
/// the new certificate, open ones keep theirs. A pair that does not load (a half-written file,
/// a key that does not match) keeps the last good one serving.
package final class ReloadableTLS: Sendable {
    let files: TLSFiles
    private let current: Mutex<NIOSSLContext>

    /// Loads the pair.
    /// - Throws: ``AccessConfigurationError`` naming the files and why they do not load.
    init(_ files: TLSFiles) throws(AccessConfigurationError) {
        self.files = files
        current = Mutex(try Self.context(files))
    }

    static func context(_ files: TLSFiles) throws(AccessConfigurationError) -> NIOSSLContext {
        do {
            let chain = try NIOSSLCertificate.fromPEMFile(files.certificateChain.path)
            guard !chain.isEmpty else { throw AccessConfigurationError("\(files.certificateChain.path): holds no PEM certificate") }
            let key = try NIOSSLPrivateKey(file: files.privateKey.path, format: .pem)
            var configuration = TLSConfiguration.makeServerConfiguration(certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
            configuration.minimumTLSVersion = .tlsv12
            if let clientCA = files.clientCA {
                // Read here (not by path at each handshake), so that SIGHUP reloads it with the pair.
                let authorities = try NIOSSLCertificate.fromPEMFile(clientCA.path)
                guard !authorities.isEmpty else { throw AccessConfigurationError("\(clientCA.path): holds no PEM certificate") }
                configuration.trustRoots = .certificates(authorities)
                configuration.certificateVerification = files.clientCertificates == .required ? .noHostnameVerification : .optionalVerification
            }
            return try NIOSSLContext(configuration: configuration)
        } catch let error as AccessConfigurationError {
            throw error
        } catch {
            throw AccessConfigurationError("TLS: \(files.certificateChain.path), \(files.privateKey.path)\(files.clientCA.map { " and \($0.path)" } ?? "") do not load: \(error)")
        }
    }

    /// The context new connections are served with.
    var context: NIOSSLContext { current.withLock { $0 } }

    /// Reads the pair again and serves new connections with it.
    /// - Throws: ``AccessConfigurationError`` when it does not load; the last good pair stays.
    func reload() throws(AccessConfigurationError) {
        let fresh = try Self.context(files)
        current.withLock { $0 = fresh }
    }
}
