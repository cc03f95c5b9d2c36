// The `objectgraph` command: everything it does is in the ObjectGraphCLI module, where tests run it.
import Foundation
import ObjectGraphCLI

exit(CommandLineTool.run(Array(CommandLine.arguments.dropFirst()), output: .standardStreams()))
