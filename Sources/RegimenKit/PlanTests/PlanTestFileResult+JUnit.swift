import RegimenLanguage

extension PlanTestFileResult {
    /// The file's cases as one JUnit `<testsuite>` (`regimen test --format junit`), beside the
    /// security files' suites: a failing case carries its first failure as the message and
    /// every failure line as the body.
    package var junitSuite: String {
        func xml(_ text: String) -> String { MarkupText.escaped(text) }
        var out = "  <testsuite name=\"\(xml(file))\" tests=\"\(results.count)\" failures=\"\(failed)\">\n"
        for result in results {
            out += "    <testcase classname=\"\(xml(file))\" name=\"\(xml(result.name))\""
            if let first = result.failures.first {
                let body = result.failures.map(\.line).joined(separator: "\n")
                out += ">\n      <failure message=\"\(xml(first.key)): expected \(xml(first.expected))\">\(xml(body))</failure>\n    </testcase>\n"
            } else {
                out += "/>\n"
            }
        }
        return out + "  </testsuite>\n"
    }
}
