import RegimenCommands

@main
enum Regimen {
    static func main() {
        RegimenCommand.main()
    }
}
