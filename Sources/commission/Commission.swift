import ArgumentParser
import CommissionCore
import CommissionKit
import CommissionSQLite
import CommissionStore
import Foundation

@main
struct Commission: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "commission",
        abstract: "Record sales at several clinics and see what each one owes you.",
        discussion: """
            Commission keeps a book of your sales, the clinics' commission terms and their payments, \
            and tells you what each clinic owes for each pay period.

            The book is an SQLite file: $XDG_DATA_HOME/commission/commission.sqlite (or \
            ~/.local/share/commission/commission.sqlite) unless --db PATH or COMMISSION_DB says otherwise.

            Examples, to start with:
              commission demo                       build a sample book and show its dashboard
              commission init --currency EUR --time-zone Europe/Paris
              commission clinic add "Glow" --schedule monthly
              commission product add "Serum 30ml" --price 68.00 --cost 24.00
              commission terms add "Glow" --share 40 --from 2026-01-01
              commission sale add "Glow" "Serum 30ml" 2
              commission report
            """,
        version: Commission.version,
        subcommands: [
            Init.self, ClinicCommand.self, ProductCommand.self, TermsCommand.self, PriceCommand.self,
            DeductionCommand.self, SaleCommand.self,
            Report.self, StatementCommand.self, YearCommand.self, PayoutCommand.self, PeriodCommand.self,
            Reconcile.self, Compare.self,
            Import.self, MappingCommand.self, Export.self, Backup.self, Restore.self, Migrate.self, BooksCommand.self,
            Demo.self, Watch.self, Serve.self, TokenCommand.self, Sync.self,
        ]
    )

    /// What `commission --version` prints: the release, and the book archive format it writes
    /// (and the newest it reads).
    static let version = "\(CommissionRelease.version) (book archive format \(ArchiveFile.version))"

    /// Runs the command with its changes on record as made by `cli:USER`.
    static func main() async {
        let user = ProcessInfo.processInfo.environment["USER"].flatMap { $0.isEmpty ? nil : $0 } ?? NSUserName()
        await Audit.$actor.withValue("cli:\(user)") {
            do {
                var command = try parseAsRoot()
                if var command = command as? any AsyncParsableCommand {
                    try await command.run()
                } else {
                    try command.run()
                }
            } catch {
                exit(withError: error)
            }
        }
    }
}

/// The options every command that opens the book takes.
struct BookOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The book's database file.", valueName: "path"))
    var db: String?

    var path: String { db ?? SQLiteStore.defaultPath() }

    init() {}

    /// The book at `path` (nil: the default one), as settings from elsewhere name it.
    init(path: String?) { db = path }

    func open() throws -> SQLiteStore {
        try SQLiteStore(.file(path)) {
            FileHandle.standardError.write(
                Data("Upgrading \(path) to this version of Commission (once; a big book takes a few seconds)…\n".utf8)
            )
        }
    }
}

/// `--format table|csv|json`, for every report.
struct FormatOption: ParsableArguments {
    @Option(name: .long, help: "Output as an aligned table, CSV, or JSON (amounts as decimal strings).")
    var format: OutputFormat = .table
}

extension OutputFormat: ExpressibleByArgument {}
extension RoundingRule: ExpressibleByArgument {}
extension RoundingScope: ExpressibleByArgument {}
extension CommissionBasis: ExpressibleByArgument {}
extension ImportKind: ExpressibleByArgument {}
extension DateOrder: ExpressibleByArgument {}

/// A plain sentence for the user, printed as `Error: …` with exit status 1.
struct Failure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

// MARK: Parsing helpers shared by the commands

func parseDay(_ text: String, _ what: String = "date") throws -> Day {
    switch text.lowercased() {
    case "today": return Day(Date(), in: .current)
    case "yesterday": return Day(Date(), in: .current).adding(days: -1)
    default:
        do { return try Day(parsing: text) } catch { throw Failure("The \(what) \(error)") }
    }
}

extension BookSettings {
    func money(_ text: String, _ what: String) throws -> Money {
        do { return try currency.parse(text) } catch { throw Failure("The \(what): \(error)") }
    }
}

func output(_ text: String) {
    FileHandle.standardOutput.write(Data(text.utf8))
}

func note(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

/// The pay period of `clinic` containing `date` (today by default), or the one before with `previous`.
func payPeriod(of clinic: Clinic, containing date: String?, previous: Bool, settings: BookSettings) throws -> PayPeriod
{
    let day = try date.map { try parseDay($0) } ?? settings.today()
    let period = clinic.calendar.period(containing: day)
    return previous ? clinic.calendar.period(before: period) : period
}
