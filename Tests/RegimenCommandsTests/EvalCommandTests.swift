import Foundation
import Testing
@testable import RegimenCommands
import RegimenTestSupport

@Suite struct EvalCommandTests {
    let nowhere = URL(fileURLWithPath: "/")

    @Test(arguments: [
        ("1 + 2 * 3", "7"),
        ("{'b': 1, 'a': [1.5, 'x', null]}", #"{"a":[1.5,"x",null],"b":1}"#),
        ("'abc'.upper()", #""ABC""#),
        ("7 / 2", "3"),
        ("[1, 2, 3].hasAny([3])", "true"),
    ])
    func printsTheValueAsJSON(expression: String, json: String) {
        let run = runRegimen(["eval", expression], in: nowhere)
        #expect(run.status == 0)
        #expect(run.standardOutput == json + "\n")
        #expect(run.standardError == "")
    }

    @Test func readsVariablesFromYAMLAndJSON() throws {
        let scratch = try ScratchDirectory([
            "vars.yaml": "profile:\n  weight_kg: 80\n  goal: fat_loss\n",
            "vars.json": #"{"profile": {"weight_kg": 80.5, "since": "2024-01-01T00:00:00Z"}}"#,
        ])
        defer { scratch.cleanUp() }
        let yaml = runRegimen(["eval", "profile.weight_kg * 10 + (profile.goal == 'fat_loss' ? -500 : 0)", "--vars", "vars.yaml"], in: scratch.url)
        #expect(yaml.status == 0)
        #expect(yaml.standardOutput == "300\n")
        let json = runRegimen(["eval", "profile.since + duration.value(1, 'd')", "--vars", "vars.json", "--timestamps"], in: scratch.url)
        #expect(json.standardError == "")
        #expect(json.standardOutput == "\"2024-01-02T00:00:00Z\"\n")
    }

    @Test func compileErrorShowsTheColumnAndExitsOne() {
        let run = runRegimen(["eval", "1 + foo * 2"], in: nowhere)
        #expect(run.status == 1)
        #expect(run.standardOutput == "")
        #expect(run.standardError == "<expression>:1:5: error: unknown name 'foo'\n  1 + foo * 2\n      ^\n")
    }

    @Test func evaluationErrorShowsTheColumnAndExitsOne() throws {
        let scratch = try ScratchDirectory(["v.yaml": "p: {age: 30}\n"])
        defer { scratch.cleanUp() }
        let run = runRegimen(["eval", "p.age > 20 && p.sleep < 6", "--vars", "v.yaml"], in: scratch.url)
        #expect(run.status == 1)
        #expect(run.standardError == "<expression>:1:15: error: Property sleep is undefined on object.\n  p.age > 20 && p.sleep < 6\n                ^\n")
    }

    @Test func badVariablesFileIsAnInputError() throws {
        let scratch = try ScratchDirectory(["list.yaml": "- 1\n- 2\n", "broken.yaml": "a: [1\n"])
        defer { scratch.cleanUp() }
        let list = runRegimen(["eval", "1", "--vars", "list.yaml"], in: scratch.url)
        #expect(list.status == 2)
        #expect(list.standardError == "list.yaml:1:1: error: the variables file must be a mapping of variable names to values, not a list\n")
        let broken = runRegimen(["eval", "1", "--vars", "broken.yaml"], in: scratch.url)
        #expect(broken.status == 2)
        #expect(broken.standardError.hasPrefix("broken.yaml:2:1: error: yaml syntax error"))
        let missing = runRegimen(["eval", "1", "--vars", "absent.yaml"], in: scratch.url)
        #expect(missing.status == 2)
        #expect(missing.standardError == "absent.yaml:1:1: error: file does not exist\n")
    }

    @Test func callsTheRuleSetsSharedFunctions() throws {
        let scratch = try ScratchDirectory([
            "Package.swift": "",
            "rules/functions.yaml": "kind: functions\nversion: 1\nfunctions:\n  - name: double\n    params: [x]\n    return: x * 2\n",
            "rules/other.yaml": "kind: something_the_registry_lacks\nversion: 1\n",
        ])
        defer { scratch.cleanUp() }
        let run = runRegimen(["eval", "double(21)"], in: scratch.url)
        #expect(run.standardError == "")
        #expect(run.standardOutput == "42\n")
    }

    @Test func missingExpressionIsAUsageError() {
        let run = runRegimen(["eval"], in: nowhere)
        #expect(run.status == 2)
        #expect(run.standardError.contains("Missing expected argument '<expression>'"))
    }
}
