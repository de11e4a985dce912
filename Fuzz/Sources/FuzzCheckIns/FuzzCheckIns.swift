import FuzzSupport
import RegimenCoaching
import RegimenLanguage
import RegimenRules

/// The check-ins decoder and the plan reader of `adapt`: the input is read both as a check-ins
/// file and as a plan document.
func fuzzCheckIns(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = FuzzInput(data, size).text
    _ = try? AdaptationInputDecoder.decode(text: text, file: "fuzz.yaml")
    if let document = YAMLReader.read(text, file: "fuzz.json").document {
        _ = try? PlanView(document: document.value())
    }
    return 0
}

@_cdecl("FuzzCheckIns_main")
public func entryPoint(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { data, size in fuzzCheckIns(data, size) }
}
