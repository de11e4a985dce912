import Foundation
import Testing
@testable import RegimenLanguage

/// The `hashing` namespace and `path.bind()`.
@Suite struct HashingAndBindTests {
    static func evaluate(_ expression: String, _ variables: [String: Value] = [:]) throws -> Value {
        let environment = try ExpressionEnvironment(variables: variables.keys.sorted())
        return try CompiledExpression(expression, environment: environment).evaluate(variables)
    }

    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02X", $0) }.joined() }

    /// The standard check values of each algorithm (CRCs as Firestore orders their bytes).
    @Test func standardCheckValues() {
        let check = Array("123456789".utf8)
        #expect(Self.hex(Hashing.crc32(check)) == "2639F4CB")
        #expect(Self.hex(Hashing.crc32c(check)) == "839206E3")
        #expect(Self.hex(Hashing.md5([])) == "D41D8CD98F00B204E9800998ECF8427E")
        #expect(Self.hex(Hashing.sha256(Array("abc".utf8))) == "BA7816BF8F01CFEA414140DE5DAE2223B00361A396177A9CB410FF61F20015AD")
    }

    /// Property: over a grid of strings, hashing a string is hashing its UTF-8 bytes, digests
    /// have their fixed size, and a CRC differs when one byte changes.
    @Test func stringsHashAsTheirUTF8() throws {
        let alphabet = ["a", "é", "😀", "\n", "Z", "0", " "]
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let text = (0..<Int.random(in: 0...40, using: &rng)).map { _ in alphabet.randomElement(using: &rng) ?? "a" }.joined()
            let vars: [String: Value] = ["s": .string(text), "b": .bytes(Array(text.utf8))]
            for (function, size) in [("crc32", 4), ("crc32c", 4), ("md5", 16), ("sha256", 32)] {
                let fromString = try Self.evaluate("hashing.\(function)(s)", vars)
                #expect(fromString == (try Self.evaluate("hashing.\(function)(b)", vars)))
                guard case .bytes(let digest) = fromString else {
                    Issue.record("hashing.\(function) returned \(fromString)")
                    continue
                }
                #expect(digest.count == size)
            }
            var changed = Array(text.utf8) + [0]
            changed[0] ^= 1
            #expect(Hashing.crc32(changed) != Hashing.crc32(Array(text.utf8) + [0]))
        }
    }

    @Test func nonTextArgumentsAreUnsupported() {
        #expect(throws: EvaluationError.self) { try Self.evaluate("hashing.md5(1)") }
        #expect(throws: (any Error).self) { try Self.evaluate("hashing.sha512('a')") }
    }

    @Test func bindFillsTemplateVariables() throws {
        #expect(try Self.evaluate("string(path('/a/{x}/c').bind({'x': 'b'}))") == .string("/a/b/c"))
        #expect(try Self.evaluate("string(path('/a/{x=**}').bind({'x': path('/b/c')}))") == .string("/a/b/c"))
        #expect(try Self.evaluate("string(path('/a/{x}').bind({'x': 1}))") == .string("/a/1"))
        #expect(try Self.evaluate("path('/a/b').bind({}) == path('/a/b')") == .bool(true))
        #expect(throws: EvaluationError.self) { try Self.evaluate("path('/a/b').bind({'x': 'y'})") }
        #expect(throws: EvaluationError.self) { try Self.evaluate("path('/a/{x}/{x}').bind({'x': 'y'})") }
        #expect(throws: EvaluationError.self) { try Self.evaluate("path('/a/{x=**}').bind({'x': 'y'})") }
    }
}
