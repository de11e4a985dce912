import FuzzSupport
import RegimenLanguage
import RegimenSecurity

/// The security test-file loader (cases, documents, requests, expectations); a test file whose
/// policy loads is also run. Paths in `rules:` resolve against the repository's security folder.
let base = FuzzInput.repositoryRoot.appendingPathComponent("rules/security/fuzz.tests.yaml").path

func fuzzSecurityTests(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let suite = try? SecurityTestSuite.parse(FuzzInput(data, size).text, file: base),
          let runner = try? SecurityTestRunner(suite: suite) else { return 0 }
    _ = runner.run()
    return 0
}

@_cdecl("FuzzSecurityTests_main")
public func entryPoint(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { data, size in fuzzSecurityTests(data, size) }
}
