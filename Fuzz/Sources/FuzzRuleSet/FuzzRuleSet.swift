import FuzzSupport
import RegimenCoaching
import RegimenLanguage
import RegimenRules
import RegimenTracking

/// The YAML rule-set loader with every kind the planner, adaptation and tracking register: the
/// input is one rule file. (Alone: loading the shipped helper functions beside it would spend
/// most of each run compiling the same functions.)
let loader = RuleSetLoader(kinds: PlanGenerator.kinds + AdaptationRuleSet.kinds + TrackingRules.kinds)

func fuzzRuleSet(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = FuzzInput(data, size).text
    _ = loader.load(files: [("rules/fuzz.yaml", text)])
    return 0
}

@_cdecl("FuzzRuleSet_main")
public func entryPoint(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { data, size in fuzzRuleSet(data, size) }
}
