import FuzzSupport
import RegimenCoaching
import RegimenLanguage
import RegimenRules

/// The profile decoder with the shipped rules (ranges, goals, age ranges, diets); an accepted
/// profile also goes through index recalculation.
let rules: NutritionRuleSet? = {
    let root = FuzzInput.repositoryRoot
    let sources = RuleSources(rules: root.appendingPathComponent("rules"), catalogs: root.appendingPathComponent("catalogs"))
    return try? NutritionRuleSet.load(from: sources).0
}()

func fuzzProfile(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let rules else { fatalError("the shipped rules do not load: run from the repository root or set REGIMEN_ROOT") }
    guard let profile = try? rules.profileDecoder.decode(text: FuzzInput(data, size).text, file: "fuzz.yaml") else { return 0 }
    _ = try? rules.recalculateIndexes(profile)
    return 0
}

@_cdecl("FuzzProfile_main")
public func entryPoint(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { data, size in fuzzProfile(data, size) }
}
