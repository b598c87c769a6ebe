import CommissionAPI
import CommissionCore
import CommissionStore

/// What a file of sales names that the book does not have — clinics, products, a clinic's terms
/// for the file's dates — found by the store itself (so names are matched as the book matches
/// them: by SKU, by a clinic's own name for a product, without regard to case), with what the file
/// says of each: a new clinic's first sale (where its split would start), a new product's price
/// and cost on its first line.
///
/// Her history then comes in one pass: she answers for each (``Additions``), and the additions
/// and the file are imported together, in one transaction (``Additions/importing(_:)``).
public struct MissingRecords: Sendable, Hashable {
    /// A clinic the file names that the book does not have.
    public struct NewClinic: Sendable, Hashable {
        public var name: String
        /// The earliest sale of it in the file: where its split starts, unless she says otherwise.
        public var firstSale: Day
        /// Where the file first names it ("line 3", "sales.csv, line 3"): a misspelt name is found there.
        public var firstLine: String

        public init(name: String, firstSale: Day, firstLine: String = "") {
            (self.name, self.firstSale, self.firstLine) = (name, firstSale, firstLine)
        }
    }

    /// A product the file names that the book does not have, with the price and cost of its first
    /// line in the file (nil when the file gives none).
    public struct NewProduct: Sendable, Hashable {
        public var name: String
        public var unitPrice: Money?
        public var unitCost: Money?
        /// Where the file first names it.
        public var firstLine: String

        public init(name: String, unitPrice: Money?, unitCost: Money?, firstLine: String = "") {
            (self.name, self.unitPrice, self.unitCost, self.firstLine) = (name, unitPrice, unitCost, firstLine)
        }
    }

    /// A clinic of the book with sales in the file on days no terms of it cover.
    public struct MissingTerms: Sendable, Hashable {
        public var clinic: String
        /// The earliest such sale.
        public var from: Day
        /// The share and basis of the clinic's terms in force at its latest terms, as a proposal.
        public var share: Share?
        public var basis: CommissionBasis

        public init(clinic: String, from: Day, share: Share?, basis: CommissionBasis) {
            (self.clinic, self.from, self.share, self.basis) = (clinic, from, share, basis)
        }
    }

    public init() {}

    public var clinics: [NewClinic] = []
    public var products: [NewProduct] = []
    public var terms: [MissingTerms] = []
    /// The problems that are left once these are made: rows to correct in the file.
    public var otherProblems: [ImportProblem] = []
    /// How many problems are left (``otherProblems`` holds them all).
    public var otherTotal: Int { otherProblems.count }

    /// Nothing the book lacks: the file's problems, if any, are its own.
    public var isEmpty: Bool { clinics.isEmpty && products.isEmpty && terms.isEmpty }

    /// How many sales of the file would be imported, once the missing records are made and no
    /// other problem is left (a dry run's count).
    public var sales = 0
    /// For a new product whose lines give no price, the price its stand-in takes in the check: the
    /// largest discount of those lines, so that no discount is judged against a price she has yet
    /// to give (her answer's price is checked with the import itself).
    var standInPrices: [String: Money] = [:]

    /// What `source` needs of the book before it can be imported into `store`: found by dry runs
    /// of the import (nothing is written), each with what the earlier ones found made first — a row
    /// naming an unknown clinic and an unknown product tells of the product only once its clinic
    /// exists. Nil when the file imports as it is. Throws what the import itself throws before its
    /// rows (a file imported before, ``StoreError/alreadyImported(file:on:)``).
    public static func find(
        importing source: any ImportSource,
        into store: any CommissionStore,
        options: ImportOptions = ImportOptions()
    ) async throws -> MissingRecords? {
        var firstSales: [String: Day] = [:]
        var firstLines: [String: NewProduct] = [:]
        var clinicLines: [String: String] = [:]
        var standIns: [String: Money] = [:]
        // Where each name first stands in the file: what is missing is listed in that order.
        var order: [String: Int] = [:]
        var rows = 0
        _ = try source.read { row in
            guard case .sale(let sale) = row.record else { return }
            let clinic = fold(sale.clinic), product = fold(sale.product)
            firstSales[clinic] = min(firstSales[clinic] ?? sale.date, sale.date)
            let line = (row.file.map { "\($0.name), " } ?? "") + "line \(row.line)"
            if firstLines[product] == nil {
                firstLines[product] = NewProduct(
                    name: sale.product,
                    unitPrice: sale.unitPrice,
                    unitCost: sale.unitCost,
                    firstLine: line
                )
            }
            if clinicLines[clinic] == nil { clinicLines[clinic] = line }
            if sale.unitPrice == nil, sale.discount > (standIns[product] ?? .zero) { standIns[product] = sale.discount }
            rows += 1
            for key in ["c" + clinic, "p" + product] where order[key] == nil { order[key] = rows }
        }
        var found = MissingRecords()
        found.standInPrices = standIns
        var check = options
        check.dryRun = true
        check.problemLimit = .max
        // Each pass can reveal more (a product, once its clinic is made); a pass that finds nothing
        // new ends it. Four passes reach everything a row can lack (clinic, terms, product).
        for _ in 0..<4 {
            let placeholders = found.placeholders
            let checked = placeholders.isEmpty ? source : ImportSources([("", placeholders), ("", source)])
            do {
                let summary = try await store.importRows(from: checked, options: check)
                found.otherProblems = []
                found.sales = summary.sales
                break
            } catch StoreError.importRejected(let problems, _) {
                var grew = false
                var others: [ImportProblem] = []
                for problem in problems {
                    switch problem.cause {
                    case .unknownClinic(let name)? where firstSales[fold(name)] != nil:
                        grew =
                            found.add(
                                clinic: NewClinic(
                                    name: name,
                                    firstSale: firstSales[fold(name)]!,
                                    firstLine: clinicLines[fold(name)] ?? ""
                                )
                            ) || grew
                    case .unknownProduct(let name)? where firstLines[fold(name)] != nil:
                        grew = found.add(product: firstLines[fold(name)]!) || grew
                    case .noTermsInForce(let clinic, _, let day)?:
                        grew = try await found.add(terms: clinic, from: day, in: store) || grew
                    default:
                        others.append(problem)
                    }
                }
                found.otherProblems = others
                if !grew { break }
            }
        }
        found.clinics.sort { order["c" + fold($0.name), default: .max] < order["c" + fold($1.name), default: .max] }
        found.products.sort { order["p" + fold($0.name), default: .max] < order["p" + fold($1.name), default: .max] }
        found.terms.sort { order["c" + fold($0.clinic), default: .max] < order["c" + fold($1.clinic), default: .max] }
        return found.isEmpty ? nil : found
    }

    /// The records that stand for the missing ones in a dry run: the clinics paid monthly with a
    /// share of 0% from their first sale, the products at the file's price, the terms at 0%.
    var placeholders: ImportRecords {
        let zero = Share.zero
        return ImportRecords(
            clinics.map { .clinic(ClinicDraft(name: $0.name, schedule: .monthly)) }
                + clinics.map {
                    .terms(
                        NamedTermsDraft(
                            clinic: $0.name,
                            product: nil,
                            basis: .profit,
                            share: zero,
                            effectiveFrom: $0.firstSale
                        )
                    )
                }
                + products.map {
                    .product(
                        ProductDraft(
                            name: $0.name,
                            unitPrice: $0.unitPrice ?? standInPrices[Self.fold($0.name)] ?? .zero,
                            unitCost: $0.unitCost ?? .zero
                        )
                    )
                }
                + terms.map {
                    .terms(
                        NamedTermsDraft(
                            clinic: $0.clinic,
                            product: nil,
                            basis: .profit,
                            share: zero,
                            effectiveFrom: $0.from
                        )
                    )
                }
        )
    }

    private mutating func add(clinic: NewClinic) -> Bool {
        guard !clinics.contains(where: { Self.fold($0.name) == Self.fold(clinic.name) }) else { return false }
        clinics.append(clinic)
        return true
    }

    private mutating func add(product: NewProduct) -> Bool {
        guard !products.contains(where: { Self.fold($0.name) == Self.fold(product.name) }) else { return false }
        products.append(product)
        return true
    }

    /// Terms for a clinic of the book (a new one's are made with it), from the earliest day asked.
    private mutating func add(terms clinic: String, from day: Day, in store: any CommissionStore) async throws -> Bool {
        guard !clinics.contains(where: { Self.fold($0.name) == Self.fold(clinic) }) else { return false }
        if let index = terms.firstIndex(where: { Self.fold($0.clinic) == Self.fold(clinic) }) {
            terms[index].from = min(terms[index].from, day)
            return false
        }
        // The clinic's own split, as a proposal: its latest clinic-wide terms.
        let known = try await store.terms(TermsQuery(clinicID: try await store.clinic(named: clinic).id))
            .filter { $0.productID == nil && !$0.isArchived }
            .max { $0.effectiveFrom < $1.effectiveFrom }
        terms.append(MissingTerms(clinic: clinic, from: day, share: known?.share, basis: known?.basis ?? .profit))
        return true
    }

    /// Names as the book compares them: ASCII letters in any case.
    static func fold(_ name: String) -> String {
        String(
            String.UnicodeScalarView(
                name.unicodeScalars.map { ("A"..."Z").contains($0) ? Unicode.Scalar($0.value + 32)! : $0 }
            )
        )
    }
}

/// Her answers to ``MissingRecords``: the clinics, products and terms to make, imported with the
/// file in one transaction.
public struct Additions: Sendable, Hashable {
    public struct NewClinic: Sendable, Hashable {
        public var name: String
        public var schedule: PaySchedule
        public var share: Share
        public var basis: CommissionBasis
        /// The first day of its split (the file's first sale there, unless she says otherwise).
        public var from: Day

        public init(name: String, schedule: PaySchedule, share: Share, basis: CommissionBasis, from: Day) {
            (self.name, self.schedule, self.share, self.basis, self.from) = (name, schedule, share, basis, from)
        }
    }

    public struct NewTerms: Sendable, Hashable {
        public var clinic: String
        public var share: Share
        public var basis: CommissionBasis
        public var from: Day

        public init(clinic: String, share: Share, basis: CommissionBasis, from: Day) {
            (self.clinic, self.share, self.basis, self.from) = (clinic, share, basis, from)
        }
    }

    public var clinics: [NewClinic]
    public var products: [ProductDraft]
    public var terms: [NewTerms]

    public init(clinics: [NewClinic] = [], products: [ProductDraft] = [], terms: [NewTerms] = []) {
        (self.clinics, self.products, self.terms) = (clinics, products, terms)
    }

    public var isEmpty: Bool { clinics.isEmpty && products.isEmpty && terms.isEmpty }

    /// The same answer for every missing record: each new clinic paid on `schedule` at `share` of
    /// its `basis` from its first sale, each product at its first line's price and cost, each
    /// clinic's missing terms at `share`. Throws ``StoreError/invalid(field:reason:)`` naming a
    /// product whose price the file does not give.
    public init(
        _ missing: MissingRecords,
        schedule: PaySchedule,
        share: Share?,
        basis: CommissionBasis
    ) throws {
        // A clinic of the book keeps its own split; `share` is for those without one.
        let clinicShare = { (name: String, proposed: Share?) throws -> Share in
            guard let share = proposed ?? share else {
                throw StoreError.invalid(field: "share", reason: "give the share of \(name)'s sales that is yours.")
            }
            return share
        }
        clinics = try missing.clinics.map {
            NewClinic(
                name: $0.name,
                schedule: schedule,
                share: try clinicShare($0.name, nil),
                basis: basis,
                from: $0.firstSale
            )
        }
        products = try missing.products.map {
            guard let price = $0.unitPrice else {
                throw StoreError.invalid(
                    field: "price",
                    reason: "the file gives no price for \($0.name): give the product its price."
                )
            }
            return ProductDraft(name: $0.name, unitPrice: price, unitCost: $0.unitCost ?? .zero)
        }
        terms = try missing.terms.map {
            NewTerms(clinic: $0.clinic, share: try clinicShare($0.clinic, $0.share), basis: basis, from: $0.from)
        }
    }

    /// The additions as records: clinics, products, then every split.
    public var records: ImportRecords {
        ImportRecords(
            clinics.map { .clinic(ClinicDraft(name: $0.name, schedule: $0.schedule)) }
                + products.map { .product($0) }
                + clinics.map {
                    .terms(
                        NamedTermsDraft(
                            clinic: $0.name,
                            product: nil,
                            basis: $0.basis,
                            share: $0.share,
                            effectiveFrom: $0.from
                        )
                    )
                }
                + terms.map {
                    .terms(
                        NamedTermsDraft(
                            clinic: $0.clinic,
                            product: nil,
                            basis: $0.basis,
                            share: $0.share,
                            effectiveFrom: $0.from
                        )
                    )
                }
        )
    }

    /// `source` with the additions made first, as one import (one transaction: all or nothing).
    public func importing(_ source: any ImportSource) -> any ImportSource {
        isEmpty ? source : ImportSources([("Your additions", records), ("", source)])
    }
}

extension API.MissingRecords {
    /// What a file lacks, as the API tells it: amounts as decimal strings of `currency`.
    public init(_ missing: MissingRecords, currency: Currency) {
        self.init(
            clinics: missing.clinics.map {
                .init(name: $0.name, firstSale: $0.firstSale.description, firstLine: $0.firstLine)
            },
            products: missing.products.map {
                .init(
                    name: $0.name,
                    unitPrice: $0.unitPrice.map { currency.format($0) },
                    unitCost: $0.unitCost.map { currency.format($0) },
                    firstLine: $0.firstLine
                )
            },
            terms: missing.terms.map {
                .init(
                    clinic: $0.clinic,
                    from: $0.from.description,
                    share: $0.share?.percentText,
                    basis: API.spelt($0.basis)
                )
            }
        )
    }

    /// "clinics Praxis Mitte, Haut & Co; products Hyaluron Serum; Glow's sales from 2026-09-05".
    public static func said(_ missing: MissingRecords) -> String {
        [
            missing.clinics.isEmpty ? nil : "clinics " + missing.clinics.map(\.name).joined(separator: ", "),
            missing.products.isEmpty ? nil : "products " + missing.products.map(\.name).joined(separator: ", "),
            missing.terms.isEmpty
                ? nil
                : missing.terms.map { "\($0.clinic)'s sales from \($0.from) without its split" }.joined(
                    separator: ", "
                ),
        ].compactMap { $0 }.joined(separator: "; ")
    }
}
