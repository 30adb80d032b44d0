import Foundation
import LoupeCLI

exit(await LoupeCLI.main(arguments: Array(CommandLine.arguments.dropFirst())))
