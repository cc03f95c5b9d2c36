import Foundation
import Testing

@testable import ObjectGraphCLI

@Suite struct CommandLineToolTests {
    static let commandNames = [
        "inspect", "dump", "verify", "convert", "compact", "diff", "migrate", "generate", "diagram",
    ]

    // MARK: - Help

    @Test(arguments: [["--help"], ["-h"], ["help"]])
    func helpListsEveryCommand(arguments: [String]) {
        let run = objectgraph(arguments)
        #expect(run.status == 0)
        #expect(run.error.isEmpty)
        #expect(run.output.contains("Usage: objectgraph COMMAND"))
        for name in Self.commandNames { #expect(run.output.contains("\n  \(name) ")) }
    }

    @Test func noArgumentsPrintsHelpToStandardErrorAsAUsageError() {
        let run = objectgraph()
        #expect(run.status == 2)
        #expect(run.output.isEmpty)
        #expect(run.error.contains("Usage: objectgraph COMMAND"))
    }

    @Test(arguments: commandNames)
    func everyCommandHasHelp(name: String) {
        for arguments in [[name, "--help"], [name, "-h"], ["help", name], [name, "some-file", "--help"]] {
            let run = objectgraph(arguments)
            #expect(run.status == 0, "\(arguments)")
            #expect(run.error.isEmpty)
            #expect(run.output.contains("Usage: objectgraph \(name) "))
            #expect(run.output.contains("Example: objectgraph \(name) "))
            #expect(run.output.contains("-h, --help"))
        }
    }

    @Test func helpWinsOverAnythingElseOnTheLine() {
        let run = objectgraph("dump", "--bogus", "a", "b", "--help")
        #expect(run.status == 0)
        #expect(run.output.contains("Usage: objectgraph dump FILE [--entity NAME]"))
    }

    @Test func helpForAnUnknownCommandIsAUsageError() {
        let run = objectgraph("help", "frobnicate")
        #expect(run.status == 2)
        #expect(run.error.contains("unknown command 'frobnicate'"))
    }

    // MARK: - Usage errors: one line on standard error, status 2

    @Test func unknownCommandIsAUsageErrorNamingTheCommands() {
        let run = objectgraph("frobnicate", "x")
        #expect(run.status == 2)
        #expect(run.output.isEmpty)
        #expect(
            run.error
                == "objectgraph: unknown command 'frobnicate'; the commands are inspect, dump, verify, convert, "
                + "compact, diff, migrate, generate, diagram. See 'objectgraph --help'.\n")
    }

    @Test func unknownToolOptionIsAUsageError() {
        let run = objectgraph("--frobnicate")
        #expect(run.status == 2)
        #expect(run.error == "objectgraph: unknown option '--frobnicate'. See 'objectgraph --help'.\n")
    }

    @Test(arguments: commandNames)
    func unknownCommandOptionIsAUsageError(name: String) {
        let run = objectgraph(name, "--frobnicate", "a", "b")
        #expect(run.status == 2)
        #expect(
            run.error
                == "objectgraph \(name): unknown option '--frobnicate' for '\(name)'. "
                + "See 'objectgraph \(name) --help'.\n")
    }

    @Test func missingArgumentNamesItAndTheUsage() {
        let run = objectgraph("convert", "a.store")
        #expect(run.status == 2)
        #expect(
            run.error
                == "objectgraph convert: missing DST: usage: objectgraph convert SRC DST [--force]. "
                + "See 'objectgraph convert --help'.\n")
    }

    @Test func extraArgumentIsAUsageError() {
        let run = objectgraph("inspect", "a.store", "b.store")
        #expect(run.status == 2)
        #expect(run.error.hasPrefix("objectgraph inspect: unexpected argument 'b.store'"))
    }

    @Test func optionValueProblemsAreUsageErrors() {
        #expect(objectgraph("dump", "a.store", "--entity").error.contains("'--entity' needs a value"))
        #expect(objectgraph("dump", "a.store", "--entity", "--x").error.contains("'--entity' needs a value"))
        #expect(objectgraph("dump", "a", "--entity", "A", "--entity=B").error.contains("'--entity' is given twice"))
        #expect(objectgraph("convert", "a", "b", "--force=yes").error.contains("'--force' takes no value"))
        for run in [objectgraph("dump", "a", "--entity"), objectgraph("convert", "a", "b", "--force=yes")] {
            #expect(run.status == 2)
            #expect(run.error.filter { $0 == "\n" }.count == 1)
        }
    }

    // MARK: - Parsing

    @Test func argumentsParseOptionsAnywhereAndBothValueSpellings() throws {
        let command = DumpCommand.command
        let spaced = try Arguments(parsing: ["--entity", "Fruit", "a.store"], for: command)
        let joined = try Arguments(parsing: ["a.store", "--entity=Fruit"], for: command)
        #expect(spaced == joined)
        #expect(spaced.positionals == ["a.store"])
        #expect(spaced.value("--entity") == "Fruit")
        let empty = try Arguments(parsing: ["a.store"], for: command)
        #expect(empty.value("--entity") == nil)
    }

    @Test func doubleDashEndsOptionsSoFilesMayStartWithADash() throws {
        let parsed = try Arguments(parsing: ["--force", "--", "-a.store", "--help"], for: ConvertCommand.command)
        #expect(parsed.positionals == ["-a.store", "--help"])
        #expect(parsed.flag("--force"))
        #expect(!parsed.wantsHelp)
        let run = objectgraph("inspect", "--", "-missing.store")
        #expect(run.status == 1)
        #expect(run.error.contains("-missing.store does not exist"))
    }

    @Test func aLoneDashIsAnArgument() throws {
        #expect(try Arguments(parsing: ["-"], for: InspectCommand.command).positionals == ["-"])
    }

    // MARK: - Store errors: one line on standard error, status 1

    @Test(arguments: ["inspect", "dump", "verify", "compact"])
    func missingFileIsOneLineNamingIt(name: String) {
        let url = TemporaryDirectory.make().appendingPathComponent("absent.store")
        let run = objectgraph(name, url.path)
        #expect(run.status == 1)
        #expect(run.output.isEmpty)
        #expect(run.error == "objectgraph \(name): ioFailure: The file \(url.path) does not exist. Check the path.\n")
        #expect(StoreFixtures.directoryListing(url).isEmpty)
    }

    @Test(arguments: ["inspect", "dump", "verify", "compact"])
    func emptyFileIsDamagedAtByteZero(name: String) {
        let url = TemporaryDirectory.make().appendingPathComponent("empty.store")
        StoreFixtures.write([], to: url)
        let run = objectgraph(name, url.path)
        #expect(run.status == 1)
        #expect(
            run.error.hasPrefix("objectgraph \(name): corruptStore: The store file \(url.path) is damaged at byte 0"))
        #expect(run.error.contains("the file is empty"))
        #expect(run.error.filter { $0 == "\n" }.count == 1)
    }

    @Test(arguments: ["inspect", "dump", "verify", "compact"])
    func nonStoreFileIsRefused(name: String) {
        let directory = TemporaryDirectory.make()
        let text = directory.appendingPathComponent("notes.txt")
        StoreFixtures.write(Array("# shopping\napples\n".utf8), to: text)
        let json = directory.appendingPathComponent("package.json")
        StoreFixtures.write(Array(#"{"name": "app", "version": 1}"#.utf8), to: json)
        for url in [text, json] {
            let run = objectgraph(name, url.path)
            #expect(run.status == 1)
            #expect(run.error.hasPrefix("objectgraph \(name): unsupportedFormat: The file \(url.path) is not a"))
        }
        #expect(StoreFixtures.bytes(text) == Array("# shopping\napples\n".utf8))
    }

    @Test(arguments: ["inspect", "dump", "verify", "compact"])
    func directoryIsRefused(name: String) {
        let directory = TemporaryDirectory.make()
        let run = objectgraph(name, directory.path)
        #expect(run.status == 1)
        #expect(run.error.contains("is a directory, not a store file"))
    }
}

extension CommandLineToolTests {
    // MARK: - Files that are not regular files

    @Test(arguments: ["inspect", "dump", "verify", "compact"])
    func deviceIsNeverReadAsAStore(name: String) {
        let run = objectgraph(name, "/dev/null")
        #expect(run.status == 1)
        #expect(run.error.contains("/dev/null is a device, pipe or socket, not a store file"))
    }

    @Test func deviceIsNeverReplacedByAConversion() throws {
        let source = try StoreFixtures.makeStore(.binary)
        let run = objectgraph("convert", source.path, "/dev/null", "--force")
        #expect(run.status == 1)
        #expect(run.error.contains("/dev/null is a device, pipe or socket, not a store file"))
        #expect(!FileManager.default.fileExists(atPath: "/dev/null.lock"))
        var info = stat()
        #expect(stat("/dev/null", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR)
    }

    @Test func symlinkToAStoreIsFollowed() throws {
        let url = try StoreFixtures.makeStore(.binary)
        let link = url.deletingLastPathComponent().appendingPathComponent("link.store")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: url)
        #expect(objectgraph("verify", link.path).output == "ok\n")
        #expect(objectgraph("compact", link.path).status == 0)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == url.path)
    }
}
