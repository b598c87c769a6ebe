import CommissionCore
import CommissionKit
import CommissionStore
import CommissionWeb
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// Each page drawn from a typed view has a template whose every name is a field of its view (or of
/// the element a section walks into): a misspelt or missing field fails here, not in front of her.
/// Mustache would draw a missing name as nothing.
@Suite struct ViewTemplatesTests {
    /// The templates' folder in the sources (what the build copies).
    static let templates = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("Sources/CommissionWeb/Resources/templates")

    /// The names of `template` (and of the partials it includes) that no view field resolves,
    /// sections walking into the first element of an array or the value of an optional, as
    /// Mustache does. `sample` has one element in each array and a value in each optional.
    static func unresolved(_ template: String, _ sample: Any) throws -> [String] {
        let text = try String(contentsOf: templates.appendingPathComponent("\(template).mustache"), encoding: .utf8)
        var missing: [String] = []
        var stack: [Any] = [sample]
        var pushed: [Bool] = []
        func resolve(_ name: String) -> Any?? {
            let parts = name.split(separator: ".").map(String.init)
            for object in stack.reversed() {
                guard var value = child(parts[0], of: object) else { continue }
                for part in parts.dropFirst() {
                    guard let inner = unwrapped(value), let next = child(part, of: inner) else { return nil }
                    value = next
                }
                return .some(value)
            }
            return nil
        }
        func walk(_ text: String) throws {
            for match in text.matches(of: /\{\{(\{?)([#^\/>&!]?)\s*([\w.]+)\s*\}?\}\}/) {
                let (kind, name) = (String(match.2), String(match.3))
                switch kind {
                case "!": continue
                case ">":
                    try walk(String(contentsOf: templates.appendingPathComponent("\(name).mustache"), encoding: .utf8))
                case "/":
                    if pushed.popLast() == true { stack.removeLast() }
                case "#":
                    guard let value = resolve(name) else {
                        missing.append(name)
                        pushed.append(false)
                        continue
                    }
                    switch unwrapped(value as Any) {
                    case let array as [Any]:
                        if let first = array.first {
                            stack.append(first)
                            pushed.append(true)
                        } else {
                            missing.append("\(name) (empty in the sample)")
                            pushed.append(false)
                        }
                    case is Bool, is String, nil: pushed.append(false)
                    case let object?:
                        stack.append(object)
                        pushed.append(true)
                    }
                case "^":
                    if resolve(name) == nil { missing.append(name) }
                    pushed.append(false)
                default:
                    if name != "." && resolve(name) == nil { missing.append(name) }
                }
            }
        }
        try walk(text)
        return missing
    }

    static func child(_ name: String, of object: Any) -> Any? {
        Mirror(reflecting: object).children.first { $0.label == name }?.value
    }

    static func unwrapped(_ value: Any) -> Any? {
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional else { return value }
        return mirror.children.first.map { unwrapped($0.value) } ?? nil
    }

    @Test func theSalesPageShowsOnlyWhatItsViewHas() throws {
        let sample = SalesPageView(
            clinics: [.init(id: 1, name: "Glow", selected: true)],
            products: [.init(id: 2, name: "Serum", selected: false)],
            from: "",
            to: "",
            q: "",
            filtered: false,
            sales: [
                .init(
                    id: 7,
                    quantity: 2,
                    product: "Serum",
                    clinic: "Glow",
                    date: "11/25/2026",
                    note: "gift",
                    commission: "$24.00"
                )
            ],
            count: "1 sale",
            previous: "/sales?offset=0",
            next: "/sales?offset=100"
        )
        #expect(try Self.unresolved("sales", sample) == [])
    }

    @Test func theStatementShowsOnlyWhatItsViewHas() throws {
        let sample = StatementPageView(
            date: "2026-11-25",
            earliest: "1900-01-01",
            latest: "2027-11-25",
            clinics: [.init(id: 1, name: "Glow", selected: true)],
            statement: .init(
                clinic: "Glow",
                period: "11/01/2026 – 11/30/2026",
                closed: true,
                previousLink: "/p",
                nextLink: "/n",
                previousName: "Oct 2026",
                nextName: "Dec 2026",
                csvLink: "/c",
                compareLink: "/m",
                lines: [
                    .init(
                        date: "11/25/2026",
                        product: "Serum",
                        quantity: 2,
                        price: "$50.00",
                        discount: "$0.00",
                        revenue: "$100.00",
                        profit: "$60.00",
                        share: "40.00%",
                        commission: "$24.00"
                    )
                ],
                grouping: .init(
                    byDay: true,
                    dayLink: "/d",
                    productLink: "/p",
                    groups: [
                        .init(
                            label: "Nov 25",
                            href: "/g",
                            sales: "1",
                            revenue: "$100.00",
                            commission: "$24.00",
                            open: true
                        )
                    ]
                ),
                opened: .init(
                    title: "Nov 25: 1 sale",
                    range: "Lines 1–200 of 201",
                    previousPage: "/1",
                    nextPage: "/3",
                    allLink: "/a"
                ),
                sales: "1 sale",
                saleCount: "1",
                revenue: "$100.00",
                profit: "$60.00",
                adjusted: true,
                lineCommission: "$24.00",
                accelerators: [.init(tiers: "50% beyond $5,000.00", basisTotal: "$6,000.00", amount: "$100.00")],
                deductions: [.init(name: "Room rent", amount: "$150.00")],
                commission: "-$26.00",
                received: "$0.00",
                balance: "-$26.00",
                standing: .init(
                    sentence: "You owe Glow $26.00 for this period: its deductions are more than your commission.",
                    meaning: "overdue"
                )
            )
        )
        #expect(try Self.unresolved("statement", sample) == [])
    }

    @Test func aClinicsEveryPeriodShowsOnlyWhatItsViewHas() throws {
        let period = PayoutsPageView.Period(
            period: "Nov 2026",
            expected: "$177.00",
            received: "$0.00",
            difference: "$177.00",
            chip: .overdue,
            closed: true,
            clinicID: 1,
            start: "2026-11-01",
            running: false,
            payLink: nil
        )
        let sample = ClinicPeriodsPageView(
            clinic: "Glow",
            back: "/payouts#clinic-1",
            range: "Periods 51–60 of 60",
            all: [period],
            newer: "/payouts/clinics/1?page=1",
            older: "/payouts/clinics/1?page=3",
            csrf: "token"
        )
        #expect(try Self.unresolved("clinic-periods", sample) == [])
    }

    @Test func theYearShowsOnlyWhatItsViewHas() throws {
        let figures = YearPageView.Figures(
            sales: "3",
            salesText: "3 sales",
            revenue: "$150.00",
            earned: "$36.00",
            periods: 1,
            commission: "$36.00",
            accelerators: "$0.00",
            deductions: "$5.00",
            netPayable: "$31.00",
            received: "$10.00",
            balance: "$21.00",
            adjusted: true
        )
        let sample = YearPageView(
            year: 2026,
            previous: 2025,
            next: 2027,
            clinics: [
                .init(
                    name: "Glow",
                    chip: .overdue,
                    year: figures,
                    months: [.init(month: "March", sales: "3", revenue: "$150.00", earned: "$36.00")]
                )
            ],
            total: figures
        )
        let missing = try Self.unresolved("year", sample)
        #expect(missing == [], "\(missing)")
    }

    @Test func thePayoutsPageShowsOnlyWhatItsViewHas() throws {
        let period = PayoutsPageView.Period(
            period: "11/01/2026 – 11/30/2026",
            expected: "$177.00",
            received: "$0.00",
            difference: "$177.00",
            chip: .overdue,
            paid: "$20.00 of $197.00 paid",
            closed: false,
            clinicID: 1,
            start: "2026-11-01",
            running: false,
            payLink: "/payouts?clinic=1"
        )
        let sample = PayoutsPageView(
            reconciliations: [
                .init(
                    id: 1,
                    clinic: "Glow",
                    balance: "$177.00",
                    balanceLabel: "owes you",
                    credit: false,
                    parts: [.init(.overdue, "$177.00", note: "since October")],
                    open: [period],
                    remind: .init(
                        subject: "Commission for 11/01/2026 – 11/30/2026",
                        body: "Hello,\n\nMy commission has not reached me yet.",
                        files: "/statements.csv?clinic=1&date=2026-11-01"
                    ),
                    periodCount: "All 60 periods",
                    moreOpen: "3 more open periods: every period of Glow ›",
                    everyLink: "/payouts/clinics/1"
                )
            ],
            clinics: [.init(id: 1, name: "Glow", selected: true)],
            periodPickers: [
                .init(
                    name: "Glow",
                    periods: [.init(value: "1/2026-10-01", label: "Oct 2026 · owes $177.00", selected: true)]
                )
            ],
            period: "2026-10-31",
            amount: "177.00",
            received: "2026-11-20",
            reference: "transfer 12",
            prefilled: true,
            invalid: FieldMarks("amount"),
            today: "2026-11-25",
            earliest: "1900-01-01",
            latest: "2027-11-25",
            zero: "0.00",
            csrf: "token",
            bank: .init(
                text: "Date,Amount",
                decimalComma: false,
                hasDeposits: true,
                open: true,
                invalid: FieldMarks("text"),
                mappings: [.init(value: "Sparkasse", label: "the mapping “Sparkasse”", selected: true)],
                columnMapping: .init(
                    columns: [
                        .init(
                            index: 0,
                            header: "Zugang",
                            sample: "24.00",
                            options: [.init(value: "amount", label: "amount (required)", selected: true)]
                        )
                    ],
                    name: "Sparkasse",
                    button: "Keep the mapping and match the deposits"
                ),
                dates: [.init(value: "mdy", label: "month/day/year", selected: false)],
                read: "1 deposit.",
                deposits: [
                    .init(
                        line: 2,
                        date: "11/20/2026",
                        amount: "$177.00",
                        description: "GLOW",
                        proposal: "Glow: November",
                        why: "exact",
                        key: "k",
                        canRecord: true,
                        exact: true,
                        attention: false,
                        checked: false,
                        assign: [
                            .init(
                                name: "Glow",
                                periods: [.init(value: "1/2026-10-01", label: "Oct 2026", selected: true)]
                            )
                        ]
                    )
                ]
            )
        )
        let missing = try Self.unresolved("payouts", sample)
        #expect(missing == [], "\(missing)")
    }

    @Test func theTransferPageShowsOnlyWhatItsViewHas() throws {
        let sample = TransferPageView(
            csv: "Date,Clinic",
            optionsOpen: true,
            importKinds: [.init(value: "sales", label: "Sales", selected: true)],
            savedMappings: [.init(value: "Clinic A", label: "Clinic A", selected: true)],
            mapping: .init(
                columns: [
                    .init(
                        index: 0,
                        header: "Wann",
                        sample: "2026-11-02",
                        options: [.init(value: "date", label: "date (required)", selected: true)]
                    )
                ],
                name: "Clinic A",
                button: "Keep the mapping and check the file"
            ),
            needs: ImportNeedsView(
                {
                    var needs = MissingRecords()
                    needs.clinics = [.init(name: "Praxis Mitte", firstSale: try! Day(parsing: "2026-09-02"))]
                    needs.products = [.init(name: "Hyaluron Serum", unitPrice: Money(minorUnits: 8900), unitCost: nil)]
                    needs.terms = [
                        .init(clinic: "Glow", from: try! Day(parsing: "2026-09-05"), share: nil, basis: .profit)
                    ]
                    needs.otherProblems = [ImportProblem(line: 4, column: "date", reason: "not a date")]
                    return needs
                }(),
                file: .csv(text: "date,clinic\n", kind: .sales, dates: .dmy, decimalComma: true, mapping: "Mine"),
                answers: nil,
                settings: BookSettings(currency: .usd, timeZoneIdentifier: "UTC"),
                again: true,
                csrf: "token"
            ),
            checked: .init(csv: "date\n", kind: "sales", dates: "dmy", decimalComma: true, mapping: "Mine"),
            reading: .init(dates: .init(.dmy), decimalComma: true, again: true, invalid: FieldMarks("dates")),
            workbookForm: .init(dates: .init(.mdy), again: true, open: true, invalid: FieldMarks("again")),
            formsOpen: true,
            alreadyImported: true,
            workbook: .init(token: "t", dates: "dmy", again: true),
            preview: [
                .init(
                    line: 2,
                    date: "11/02/2026",
                    clinic: "Glow",
                    product: "Serum",
                    quantity: 2,
                    price: "$35.00",
                    cost: "the product's"
                )
            ],
            problems: [.init(lines: "line 3", column: "date", reason: "not a date")],
            exports: [.init(value: "sales", label: "Sales")],
            backup: true,
            archive: true,
            restore: .init(takes: "An SQLite backup or a book archive", maxSize: "1 GiB", accept: ".sqlite,.jsonl"),
            csrf: "token"
        )
        let missing = try Self.unresolved("transfer", sample)
        #expect(missing == [], "\(missing)")
    }

    @Test func theSettingsPageShowsOnlyWhatItsViewHas() throws {
        let sample = SettingsPageView(
            isOwner: true,
            currencyName: "USD · US Dollar",
            timeZone: "America/New_York",
            currencies: [.init(value: "USD", label: "USD · US Dollar", selected: true)],
            timeZones: [.init(value: "America/New_York", label: "America/New York", selected: true)],
            locales: [.init(value: "en_US", label: "English (US)", selected: true)],
            awayFromZero: true,
            perLine: true,
            members: [.init(username: "olivia", role: "owner")],
            newInvitation: "https://example.com/invite/x",
            newToken: "cm_secret",
            tokens: [.init(id: 1, name: "laptop", created: "11/26/2026")],
            invalid: FieldMarks("timeZone"),
            tokenName: "laptop",
            tokenInvalid: true,
            tokensOpen: true,
            csrf: "token"
        )
        let missing = try Self.unresolved("settings", sample)
        #expect(missing == [], "\(missing)")
    }

    @Test func theNotificationsPageShowsOnlyWhatItsViewHas() throws {
        let sample = NotificationsPageView(
            canSend: true,
            publicKey: "BAbc",
            endOfDay: true,
            lateClinics: true,
            time: "19:00",
            timeZone: "Europe/Berlin",
            devices: [
                .init(id: 1, label: "Chrome on Android", since: "12/01/2026", endpoint: "https://push.example.net/1")
            ],
            calendarOn: true,
            newCalendar: "https://commission.example.net/calendar/x.ics",
            newCalendarWebcal: "webcal://commission.example.net/calendar/x.ics",
            localOnly: true,
            csrf: "token"
        )
        let missing = try Self.unresolved("notifications", sample)
        #expect(missing == [], "\(missing)")
    }

    @Test("The compare and dispute pages show only what their views have") func compareAndDisputeViews() throws {
        let line = ComparePageView.Line(
            number: 1,
            date: "11/02/2026",
            product: "Serum",
            theirs: "1 × $50.00 → $0.01",
            yours: "—",
            what: "not in your book",
            difference: "+$0.01",
            canAccept: true,
            accepted: true,
            disputed: true
        )
        let sample = ComparePageView(
            clinics: [
                .init(
                    name: "Glow",
                    periods: [.init(value: "1/2026-11-01", label: "Nov 2026 (running)", selected: true)]
                )
            ],
            text: "Date,Item",
            decimalComma: true,
            optionsOpen: true,
            dateOrders: [.init(value: "mdy", label: "month/day/year", selected: true)],
            savedMappings: [.init(value: "Glow", label: "the mapping “Glow”", selected: true)],
            columnMapping: .init(
                columns: [
                    .init(
                        index: 0,
                        header: "Wann",
                        sample: "2026-11-02",
                        options: [.init(value: "date", label: "date", selected: true)]
                    )
                ],
                name: "Glow",
                button: "Keep the mapping and compare"
            ),
            comparison: .init(
                title: "Glow · Nov 2026",
                theirTotal: "$1.01",
                herTotal: "$1.00",
                difference: "+$0.01",
                agree: "1 line agrees.",
                allAgree: true,
                unknown: [.init(index: 0, name: "THEIR NAME", products: [.init(id: 1, name: "Serum", selected: true)])],
                lines: [line]
            ),
            invalid: FieldMarks("text"),
            csrf: "token"
        )
        #expect(try Self.unresolved("compare", sample) == [])
        let dispute = DisputePageView(
            clinic: "Glow",
            period: "Nov 2026",
            lines: [
                .init(
                    date: "11/02/2026",
                    product: "Serum",
                    theirs: "1 → $0.01",
                    yours: "—",
                    what: "not in my records",
                    difference: "+$0.01"
                )
            ],
            total: "+$0.01",
            theirTotal: "$1.01",
            herTotal: "$1.00"
        )
        #expect(try Self.unresolved("dispute", dispute) == [])
    }

    @Test func theSalePageShowsOnlyWhatItsViewHas() throws {
        let steps = FirstSteps(items: [
            .init(number: 1, label: "Add a clinic and your split", href: "/welcome", done: true)
        ])
        let sample = EntryPageView(
            key: "k",
            today: "2026-11-26",
            quantity: 1,
            date: "2026-11-25",
            earliest: "1900-01-01",
            latest: "2027-11-26",
            backdated: true,
            dateLabel: "Wed 11/25/2026",
            yesterday: "2026-11-25",
            currency: "USD",
            zero: "0.00",
            selectedPrice: "35.00",
            firstSteps: steps,
            clinics: [.init(id: 1, name: "Glow", selected: true)],
            products: [.init(id: 1, name: "Serum", price: "35.00", priceShown: "$35.00", selected: true, prices: "{}")],
            recent: [
                .init(id: 1, date: "11/25/2026", clinic: "Glow", what: "1 × Serum", commission: "$6.30", key: "r")
            ],
            missedDays: [.init(iso: "2026-11-24", label: "Tue 11/24/2026", last: true)],
            saved: .init(
                id: 1,
                what: "1 × Serum",
                clinic: "Glow",
                backdated: true,
                date: "yesterday (11/25/2026)",
                commission: "$6.30"
            ),
            csrf: "token"
        )
        #expect(try Self.unresolved("entry", sample) == [])
        #expect(try Self.unresolved("dashboard", DashboardPageView(firstSteps: steps, dashboardBody: "<p/>")) == [])
        #expect(try Self.unresolved("more", MorePageView(csrf: "token")) == [])
    }

    @Test func thePagesBeforeSignInShowOnlyWhatTheirViewsHave() throws {
        let row = FirstClinicFields.ProductRow(
            index: 0,
            name: "Serum",
            price: "35.00",
            cost: "13.00",
            first: true,
            zero: "0.00"
        )
        let fields = FirstClinicFields(
            name: "Glow",
            share: "40",
            revenue: true,
            required: true,
            kinds: [.init(value: "monthly", label: "every month", selected: true)],
            weekdays: [.init(value: "monday", label: "Monday", selected: true)],
            today: "2026-11-26",
            earliest: "1900-01-01",
            latest: "2027-11-26",
            firstProduct: row,
            moreProducts: [row]
        )
        #expect(try Self.unresolved("welcome", WelcomePageView(firstClinic: fields, csrf: "token")) == [])
        let setup = SetupPageView(
            username: "olivia",
            propose: true,
            sampleOffered: true,
            lockedCurrency: "EUR",
            currencies: [.init(code: "EUR", name: "Euro", selected: true)],
            timeZone: "Europe/Berlin",
            locales: [.init(id: "de_DE", name: "German (Germany)", selected: true)],
            firstClinic: fields,
            csrf: "token"
        )
        #expect(try Self.unresolved("setup", setup) == [])
        #expect(try Self.unresolved("login", LoginPageView(username: "olivia", csrf: "token")) == [])
        #expect(
            try Self.unresolved(
                "invite",
                InvitePageView(
                    action: "/invite/x",
                    username: "ana",
                    invitedBy: "olivia",
                    isOwner: true,
                    expires: "2026-12-03",
                    csrf: "token"
                )
            ) == []
        )
    }

    @Test("The layout, restore and error pages show only what their views have") func layoutRestoreErrorViews() throws {
        let layout = LayoutView(
            title: "Sales",
            body: "<p/>",
            csrf: "token",
            signedIn: true,
            sample: true,
            lang: "en-US",
            rendered: "2026-11-26T08:00:00Z",
            nav: .init(current: "year", underMore: true),
            message: "Saved.",
            messageLink: PageLink(label: "See what each clinic owes you", href: "/dashboard"),
            error: "Refused.",
            errorLink: PageLink(label: "Add terms", href: "/book#terms")
        )
        #expect(try Self.unresolved("layout", layout) == [])
        var counts = ArchiveCounts()
        counts.sales = 3
        #expect(
            try Self.unresolved(
                "restore",
                RestorePageView(
                    token: "t",
                    backup: counts,
                    current: counts,
                    replacesAccounts: true,
                    downloadSQLite: true,
                    csrf: "token"
                )
            ) == []
        )
        #expect(
            try Self.unresolved(
                "error",
                ErrorPageView(
                    title: "Not found",
                    detail: "No such sale.",
                    link: PageLink(label: "Sales", href: "/sales")
                )
            ) == []
        )
    }

    /// Every template is held to a view by a test of this suite (a partial, through the page that includes it).
    @Test func everyTemplateIsHeldToItsView() throws {
        let source = try String(contentsOfFile: #filePath, encoding: .utf8)
        let checked = Set(source.matches(of: /unresolved\(\s*"([a-z-]+)"/).map { String($0.1) })
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.templates.path).filter {
            $0.hasSuffix(".mustache")
        }.map { String($0.dropLast(9)) }
        let partials = Set(
            try names.flatMap { name in
                try String(contentsOf: Self.templates.appendingPathComponent("\(name).mustache"), encoding: .utf8)
                    .matches(of: /\{\{> *([a-z-]+)\}\}/).map { String($0.1) }
            }
        )
        #expect(
            Set(names).subtracting(partials).subtracting(checked).sorted() == [],
            "templates no test renders with a view"
        )
    }

    @Test func theDashboardShowsOnlyWhatItsViewHas() throws {
        let sample = DashboardView(
            todayISO: "2026-11-26",
            todayLabel: "Thu 11/26/2026",
            currency: "USD",
            clinics: [
                .init(
                    id: 1,
                    name: "Glow",
                    color: "c0",
                    owed: "$10.00",
                    credit: true,
                    overdue: true,
                    parts: [.init(.overdue, "$5.00"), .init(.thisPeriod, "$2.00", note: "left of $5.00")]
                )
            ],
            hasOverdue: true,
            tiles: [
                .init(
                    id: "today-commission",
                    label: "Today",
                    commission: "$95.24",
                    sales: "6 sales",
                    revenue: "$392.10"
                )
            ],
            hasSales: true,
            monthlyNarrow: "<svg/>",
            monthlyWide: "<svg/>",
            legend: "<ul/>",
            share: "<svg/>",
            // One more product than the dashboard shows before its fold: the folded rows are drawn too.
            products: (0...DashboardView.productsShown).map {
                .init(name: "Serum \($0)", units: 3, revenue: "$150.00", commission: "$36.00")
            }
        )
        let missing = try Self.unresolved("dashboard-body", sample)
        #expect(missing == [], "\(missing)")
    }

    @Test func theBookPageShowsOnlyWhatItsViewHas() throws {
        let sample = BookPageView(
            clinics: [.init(id: 1, name: "Glow", meta: "paid monthly · 40% of profit", noSplit: true)],
            products: [.init(id: 1, name: "Serum", meta: "$35.00 · cost $13.00")],
            terms: [
                .init(id: 2, chip: .inForce, name: "Glow", meta: "45% of profit · from 01/01/2027"),
                .init(id: 1, chip: .ended, name: "Glow", meta: "40% of profit · from 01/01/2026"),
            ],
            clinicOptions: [.init(id: 1, name: "Glow", selected: true)],
            productOptions: [.init(id: 1, name: "Serum", selected: false)],
            weekdays: [.init(value: "monday", label: "Monday", selected: true)],
            tierRows: [
                .init(index: 0, number: 1, threshold: "x", share: "", thresholdInvalid: true, shareInvalid: false)
            ],
            added: .init(clinics: "Added Glow.", products: "Added Serum.", terms: "Added Glow's terms."),
            open: .init(clinic: true, product: false, terms: true),
            archived: [.init(kind: "Clinic", name: "Old", action: "/book/clinics/2")],
            archivedCount: 1,
            today: "2026-11-26",
            earliest: "1900-01-01",
            latest: "2027-11-26",
            termsFrom: "2026-11-26",
            zero: "0.00",
            clinicForm: .init(name: "Glow", kind: "weekly", anchor: "2026-11-26", invalid: FieldMarks("name")),
            productForm: .init(name: "Serum", price: "35.00", cost: "x", invalid: FieldMarks("cost")),
            termsForm: .init(share: "40", revenue: true, invalid: FieldMarks("share")),
            csrf: "token"
        )
        let missing = try Self.unresolved("book", sample)
        #expect(missing == [], "\(missing)")
    }

    /// The page of a clinic, product or terms: one sample with every part, so that every section is read.
    @Test func anItemPageShowsOnlyWhatItsViewHas() throws {
        let sample = BookItemView(
            heading: "Glow",
            archived: true,
            action: "/book/clinics/1",
            kindName: "this clinic",
            editOpen: true,
            clinic: .init(
                name: "Glow",
                scheduleNow: "monthly",
                kind: "monthly",
                anchor: "2026-11-26",
                scheduleFrom: "2026-12-01",
                invalid: FieldMarks("scheduleFrom"),
                weekdays: [.init(value: "monday", label: "Monday", selected: true)],
                first: "monthly",
                changes: [.init(iso: "2026-06-01", from: "06/01/2026", schedule: "twice a month")]
            ),
            standing: .init(
                label: "Owes you",
                amount: "$742.83",
                credit: false,
                parts: [.init(.overdue, "$432.28"), .init(.thisPeriod, "$310.55", note: "left of $400.00")],
                statement: "/statements?clinic=1",
                payouts: "/payouts#clinic-1",
                remind: .init(subject: "Commission for 2 periods", body: "Hello,", files: "/statements.csv?clinic=1")
            ),
            split: .init(
                clinicID: 1,
                terms: [
                    .init(href: "/book/terms/2", text: "45% of profit", from: "from 01/01/2027"),
                    .init(href: "/book/terms/1", text: "40% of profit", from: "from the start", chip: .ended),
                ]
            ),
            deductions: .init(
                clinicName: "Glow",
                today: "2026-11-26",
                open: true,
                fields: .init(
                    name: "Rent",
                    revenueShare: true,
                    value: "5",
                    from: "2026-11-26",
                    until: "2026-12-31",
                    invalid: FieldMarks("value")
                ),
                said: "Added Rent.",
                entries: [.init(id: 1, name: "Rent", amount: "$50.00", from: "01/01/2026", until: "12/31/2026")]
            ),
            prices: .init(
                clinicName: "Glow",
                today: "2026-11-26",
                open: true,
                fields: .init(price: "40.00", cost: "10.00", from: "2026-11-26", invalid: FieldMarks("price")),
                said: "Set.",
                entries: [.init(id: 1, product: "Serum", from: "01/01/2026", price: "$40.00", cost: "$10.00")],
                products: [.init(id: 1, name: "Serum", price: "$50.00", selected: true)]
            ),
            product: .init(name: "Serum", sku: "S-1", price: "50.00", cost: "20.00", invalid: FieldMarks("sku")),
            terms: .init(
                clinic: "Glow",
                product: "Serum",
                share: "40.00",
                profit: true,
                revenue: false,
                from: "2026-01-01",
                tierRows: [.init(index: 0, number: 1, threshold: "", share: "")],
                invalid: FieldMarks("share")
            ),
            earliest: "1900-01-01",
            latest: "2027-11-26",
            csrf: "token"
        )
        let missing = try Self.unresolved("book-item", sample)
        #expect(missing == [], "\(missing)")
    }

    @Test func aSalePageShowsOnlyWhatItsViewHas() throws {
        let sample = SalePageView(
            id: 1,
            heading: "2 × Serum",
            place: "Glow · Mon 03/02/2026",
            commission: "$6.30",
            working: ["1 × $45.00 = $45.00 revenue"],
            voided: false,
            editOpen: true,
            date: "2026-03-02",
            quantity: "2",
            price: "45.00",
            cost: "15.00",
            discount: "0.00",
            note: "n",
            noCommission: false,
            earliest: "1900-01-01",
            latest: "2027-03-02",
            clinics: [.init(id: 1, name: "Glow", selected: true)],
            products: [.init(id: 1, name: "Serum", selected: true)],
            history: [.init(at: "2026-03-02 10:00 UTC", actor: "you", action: "create", changes: "")],
            invalid: FieldMarks("price"),
            csrf: "token"
        )
        #expect(try Self.unresolved("edit-sale", sample) == [])
    }

    /// The checker itself finds a name the view lacks, at the top and inside a section.
    @Test func aNameTheViewLacksIsFound() throws {
        struct Lacking { let sales: [SalesPageView.Row] = [] }
        struct Row { let id: Int64 }
        struct Partial { let sales: [Row] = [Row(id: 1)] }
        #expect(try Self.unresolved("sales", Lacking()).contains("clinics"))
        #expect(try Self.unresolved("sales", Partial()).contains("what"))
    }
}

/// The Sales page lists a row a sale that opens it; voiding is on the sale's page, behind a
/// second step, and the list says what was voided.
@Suite struct SalesRowsTests {
    @Test func aRowOpensTheSaleWhichVoidsBehindASecondStep() async throws {
        let test = try await TestApp()
        let sale = try await test.store.createSale(
            SaleDraft(
                clinicID: test.glow.id,
                productID: test.serum.id,
                date: try Day(parsing: "2026-03-02"),
                quantity: 2
            ),
            idempotencyKey: nil
        )
        try await test.app.test(.router) { client in
            let (session, csrf) = try await signUp(client)
            let cookie: HTTPFields = [.cookie: "commission_session=\(session)"]
            let list = try await client.execute(uri: "/sales", method: .get, headers: cookie).text
            #expect(
                list.contains(#"<a class="row-link" href="/sales/\#(sale.id)/edit">"#)
                    && list.contains("2 × Serum 30ml") && list.contains("<span>1 sale</span>"),
                "\(list)"
            )
            #expect(!list.contains("/void"), "no Void on the list")
            let page = try await client.execute(uri: "/sales/\(sale.id)/edit", method: .get, headers: cookie).text
            #expect(
                page.contains(#"<summary>Void this sale…</summary>"#)
                    && page.contains(#"action="/sales/\#(sale.id)/void""#)
            )
            var headers = formHeaders
            headers[.cookie] = "commission_session=\(session)"
            let voided = try await client.execute(
                uri: "/sales/\(sale.id)/void",
                method: .post,
                headers: headers,
                body: form(["csrf": csrf])
            )
            #expect(voided.headers[.location] == "/sales?voided=\(sale.id)")
            let after = try await client.execute(uri: voided.headers[.location] ?? "", method: .get, headers: cookie)
                .text
            #expect(
                after.contains(
                    "Voided the sale of 2 × Serum 30ml at Glow on 03/02/2026: it stays on record and counts nowhere."
                ) && after.contains("No sales match."),
                "\(after)"
            )
            #expect(
                !(try await client.execute(uri: "/sales/\(sale.id)/edit", method: .get, headers: cookie).text.contains(
                    "Void this sale"
                ))
            )
        }
    }
}

/// Payouts: what is open comes first, each with a payment that opens the payout form prefilled.
@Suite struct PayoutsOpenFirstTests {
    @Test func anUnpaidPeriodsRecordPaymentOpensTheFormPrefilled() async throws {
        let test = try await TestApp()
        _ = try await test.store.createSale(
            SaleDraft(
                clinicID: test.glow.id,
                productID: test.serum.id,
                date: try Day(parsing: "2026-03-02"),
                quantity: 2
            ),
            idempotencyKey: nil
        )
        try await test.app.test(.router) { client in
            let (session, _) = try await signUp(client)
            let cookie: HTTPFields = [.cookie: "commission_session=\(session)"]
            let page = try await client.execute(uri: "/payouts", method: .get, headers: cookie).text
            let link = "/payouts?clinic=\(test.glow.id)&amp;period=2026-03-01&amp;amount=24%2E00#payout-form"
            #expect(page.contains(#"<a class="button pay" href="\#(link)">Record payment</a>"#), "\(page)")
            #expect(page.contains(#"<details class="card" id="payout-form">"#), "folded until asked for")
            let form = try await client.execute(
                uri: "/payouts?clinic=\(test.glow.id)&period=2026-03-01&amount=24.00",
                method: .get,
                headers: cookie
            ).text
            #expect(
                form.contains(#"<details class="card" id="payout-form" open>"#) && form.contains(#"value="24.00""#)
                    && form.contains(
                        #"<option value="\#(test.glow.id)/2026-03-01" selected>Glow · Mar 2026 · owes $24.00</option>"#
                    ),
                "\(form)"
            )
        }
    }
}

/// Payouts stays a page her phone loads however old the book: each clinic's recent periods and
/// what is open, the rest on the clinic's own page of periods, a page at a time.
@Suite struct PayoutsRecentPeriodsTests {
    /// A weekly clinic late for weeks: the three rows shown are the running week and two weeks not
    /// yet past its usual day, and its Remind — on the card, for every week it is late for — is
    /// there all the same.
    @Test func aLateClinicIsRemindedEvenWhenItsLateWeeksAreNotAmongTheRowsShown() async throws {
        let test = try await TestApp()
        let today = try await test.store.settings().today()
        let weekly = try await test.store.createClinic(
            ClinicDraft(name: "Weekly", schedule: .weekly(startingOn: .monday))
        )
        _ = try await test.store.createTerms(
            TermsDraft(
                clinicID: weekly.id,
                share: try Share(parsing: "40"),
                effectiveFrom: try Day(parsing: "2020-01-01")
            )
        )
        for weeks in 0..<6 {
            _ = try await test.store.createSale(
                SaleDraft(clinicID: weekly.id, productID: test.serum.id, date: today.adding(days: -7 * weeks)),
                idempotencyKey: nil
            )
        }
        try await test.app.test(.router) { client in
            let (session, _) = try await signUp(client)
            try await test.store.setHistoryQuestion(nil)
            let page = try await client.execute(
                uri: "/payouts",
                method: .get,
                headers: [.cookie: "commission_session=\(session)"]
            ).text
            let card = try #require(
                page.firstMatch(
                    of:
                        /<section id="clinic-\d+" class="card reconciliation">\s*<h2 class="split"><span>Weekly<\/span>[^§]*?<\/section>/
                )
            )
            let shown = String(card.output).components(separatedBy: "<li class=\"open-period\">").count - 1
            #expect(shown == 3)
            #expect(String(card.output).contains(">Remind Weekly</a>"), "\(card.output)")
            #expect(String(card.output).contains("more open period"), "\(card.output)")
        }
    }

    @Test func aClinicOfFiveYearsShowsItsRecentPeriodsAndEveryOneOnItsOwnPage() async throws {
        let test = try await TestApp()
        // Five years of Glow: a sale a month, each month paid but the last three ended.
        let today = try await test.store.settings().today()
        var month = today.firstOfMonth.adding(days: -5 * 365).firstOfMonth
        var made: [Day] = []
        while month <= today {
            made.append(month)
            _ = try await test.store.createSale(
                SaleDraft(clinicID: test.glow.id, productID: test.serum.id, date: month, quantity: 1),
                idempotencyKey: nil
            )
            month = month.lastOfMonth.adding(days: 1)
        }
        for paid in made.dropLast(4) {
            _ = try await test.store.createPayout(
                PayoutDraft(
                    clinicID: test.glow.id,
                    period: PayPeriod(start: paid, end: paid.lastOfMonth),
                    amount: Money(minorUnits: 1200),
                    receivedOn: paid.lastOfMonth.adding(days: 5)
                )
            )
        }
        let months = made
        try await test.app.test(.router) { client in
            let (session, _) = try await signUp(client)
            let cookie: HTTPFields = [.cookie: "commission_session=\(session)"]
            let page = try await client.execute(uri: "/payouts", method: .get, headers: cookie).text
            // Payouts stays small: what is open (at most three rows), and every period a tap away.
            let closeForms = page.components(separatedBy: "class=\"inline period-form\"").count - 1
            #expect(closeForms == 0, "no period to close or reopen on Payouts itself, not all \(months.count)")
            #expect(page.components(separatedBy: "<li class=\"open-period\">").count - 1 == 3)
            #expect(page.contains("1 more open period: every period of Glow ›"), "\(page)")
            #expect(
                page.contains(
                    "<a class=\"every-periods\" href=\"/payouts/clinics/\(test.glow.id)\">All \(months.count) periods, to close or reopen ›<span class=\"visually-hidden\"> (every period of Glow)</span></a>"
                ),
                "\(page)"
            )
            let every = try await client.execute(uri: "/payouts/clinics/\(test.glow.id)", method: .get, headers: cookie)
            #expect(every.status == .ok)
            let first = every.text
            #expect(first.contains("Glow: every period") && first.contains("Periods 1–50 of \(months.count)"))
            #expect(first.components(separatedBy: "class=\"inline period-form\"").count - 1 == 50)
            #expect(first.contains("?page=2\">Older periods ›</a>") && !first.contains("Newer periods"))
            let second = try await client.execute(
                uri: "/payouts/clinics/\(test.glow.id)?page=2",
                method: .get,
                headers: cookie
            ).text
            #expect(second.components(separatedBy: "class=\"inline period-form\"").count - 1 == months.count - 50)
            #expect(
                second.contains("Periods 51–\(months.count) of \(months.count)") && second.contains("Newer periods")
            )
            // The oldest period is there, a tap from Payouts.
            let style = try await test.store.settings().style
            #expect(second.contains(style.formatShort(PayPeriod(start: months[0], end: months[0].lastOfMonth))))
            let none = try await client.execute(uri: "/payouts/clinics/999", method: .get, headers: cookie)
            #expect(none.status == .notFound)
        }
    }
}
