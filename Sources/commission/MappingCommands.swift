import ArgumentParser
import CommissionKit
import CommissionStore

struct MappingCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mapping",
        abstract: "List or remove the column mappings saved in the book.",
        discussion: """
            A column mapping says which of a file's columns holds which field, for files whose \
            headers Commission does not know (a clinic's export with "Share %" or "Retail"). It is \
            made and saved by an import (--map HEADER=FIELD --save-mapping NAME) or on the Import & \
            export page; a file with the same headers is then read with it by itself, and \
            --mapping NAME reads any file with it.

            Examples:
              commission mapping list
              commission mapping remove "Clinic A"
            """,
        subcommands: [List.self, Remove.self]
    )

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the saved mappings, column by column.",
            discussion: """
                Example:
                  commission mapping list
                """
        )
        @OptionGroup var book: BookOptions

        func run() async throws {
            let store = try book.open()
            let mappings = try await store.mappings()
            output(
                mappings.isEmpty
                    ? "No saved column mappings.\n"
                    : mappings.map { mapping in
                        "\(mapping.name)\(mapping.kind.map { " (\($0))" } ?? "")\n"
                            + mapping.fields.sorted { $0.key < $1.key }.map {
                                "  \($0.key) → \($0.value.isEmpty ? "(ignored)" : $0.value)\n"
                            }.joined()
                    }.joined()
            )
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Forget a saved mapping.",
            discussion: """
                Example:
                  commission mapping remove "Clinic A"
                """
        )
        @OptionGroup var book: BookOptions
        @Argument(help: "The mapping's name.") var name: String

        func run() async throws {
            let store = try book.open()
            try await store.deleteMapping(named: name)
            output("Removed the column mapping “\(name)”.\n")
        }
    }
}
