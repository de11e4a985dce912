import Foundation
import RegimenCommands

@main
enum Regimen {
    static func main() {
        exit(RegimenCommand.run(arguments: Array(CommandLine.arguments.dropFirst())))
    }
}
