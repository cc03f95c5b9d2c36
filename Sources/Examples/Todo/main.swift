// The `todo` command: everything it does is in TodoKit, where tests run it.
import Foundation
import TodoKit

exit(TodoCommandLine().run(Array(CommandLine.arguments.dropFirst())))
