import Testing
@testable import RegimenLanguage

@Suite struct SourceTextTests {
    @Test func mapsOffsetsAcrossLines() {
        let text = SourceText("a &&\n  b", startingAt: SourceLocation(file: "r.yaml", line: 4, column: 12))
        #expect(text.location(ofScalarOffset: 0) == SourceLocation(file: "r.yaml", line: 4, column: 12))
        #expect(text.location(ofScalarOffset: 2) == SourceLocation(file: "r.yaml", line: 4, column: 14))
        #expect(text.location(ofScalarOffset: 7) == SourceLocation(file: "r.yaml", line: 5, column: 3))
    }

    @Test func parsesTimestamps() {
        #expect(Timestamp(iso8601: "2024-01-01T00:00:00Z")?.seconds == 1_704_067_200)
        #expect(Timestamp(iso8601: "2024-01-01")?.seconds == 1_704_067_200)
        #expect(Timestamp(iso8601: "2024-01-01T01:00:00+01:00")?.seconds == 1_704_067_200)
        #expect(Timestamp(iso8601: "2024-13-01") == nil)
        #expect(Timestamp(seconds: 1_704_067_200, nanos: 500_000_000).description == "2024-01-01T00:00:00.5Z")
    }
}
