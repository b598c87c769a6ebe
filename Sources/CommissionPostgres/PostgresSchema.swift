import CommissionCore
import CommissionStore
import Logging
import PostgresNIO

/// The PostgreSQL schema, as named migrations applied in one transaction under an advisory lock, so
/// that several server instances starting at once migrate exactly once.
///
/// Every row belongs to a book (`bookId`), and rows that refer to each other refer within their
/// book: a sale's clinic is `(bookId, clinicId)` → `clinic(bookId, id)`, so a row of one book can
/// never point at another's. Amounts are `bigint` minor units and shares `integer` basis points —
/// never `real`, `numeric` or `money` — and PostgreSQL refuses a `bigint` overflow rather than
/// rounding. Days are `date`. Money history is protected by `RESTRICT` foreign keys.
///
/// Four summary tables, kept by one trigger function on `sale`, let the dashboard read a few
/// hundred rows whatever the size of the history, as in the SQLite store.
package enum PostgresSchema {
    package struct Migration {
        package let name: String
        /// One statement each: PostgreSQL's extended protocol runs one statement per query.
        let statements: [String]
    }

    /// A fixed key for `pg_advisory_xact_lock`: "commission" in ASCII, truncated to 63 bits.
    static let lockKey: Int64 = 0x636F_6D6D_6973_7369

    package static let migrations: [Migration] = [
        Migration(
            name: "v1: books, accounts and members",
            statements: [
                """
                CREATE TABLE book (
                    id bigserial PRIMARY KEY,
                    name text NOT NULL CHECK (length(btrim(name)) > 0),
                    currencyCode text NOT NULL CHECK (currencyCode ~ '^[A-Z]{3}$'),
                    currencyMinorDigits integer NOT NULL CHECK (currencyMinorDigits BETWEEN 0 AND 4),
                    timeZone text NOT NULL,
                    roundingRule text NOT NULL CHECK (roundingRule IN ('half-away-from-zero', 'half-to-even')),
                    roundingScope text NOT NULL CHECK (roundingScope IN ('per-line', 'per-statement')),
                    -- Dropped by v12 (written by every write, read by nothing).
                    revision bigint NOT NULL DEFAULT 0
                )
                """,
                """
                CREATE TABLE account (
                    id bigserial PRIMARY KEY,
                    username text NOT NULL CHECK (length(btrim(username)) > 0),
                    passwordHash text NOT NULL,
                    createdAt bigint NOT NULL
                )
                """,
                "CREATE UNIQUE INDEX account_username ON account (lower(username))",
                """
                CREATE TABLE member (
                    bookId bigint NOT NULL REFERENCES book (id) ON DELETE CASCADE,
                    accountId bigint NOT NULL REFERENCES account (id) ON DELETE CASCADE,
                    role text NOT NULL CHECK (role IN ('owner', 'member')),
                    PRIMARY KEY (bookId, accountId)
                )
                """,
                "CREATE INDEX member_account ON member (accountId)",
                """
                CREATE TABLE invitation (
                    -- Only the SHA-256 digest of the one-time link's secret is stored.
                    tokenDigest text PRIMARY KEY,
                    bookId bigint NOT NULL REFERENCES book (id) ON DELETE CASCADE,
                    invitedBy bigint NOT NULL REFERENCES account (id) ON DELETE CASCADE,
                    expiresAt bigint NOT NULL,
                    usedAt bigint
                )
                """,
                """
                CREATE TABLE session (
                    tokenDigest text PRIMARY KEY,
                    accountId bigint NOT NULL REFERENCES account (id) ON DELETE CASCADE,
                    csrfToken text NOT NULL,
                    expiresAt bigint NOT NULL
                )
                """,
                """
                CREATE TABLE apiToken (
                    id bigserial PRIMARY KEY,
                    accountId bigint NOT NULL REFERENCES account (id) ON DELETE CASCADE,
                    name text NOT NULL,
                    tokenDigest text NOT NULL UNIQUE,
                    createdAt bigint NOT NULL,
                    lastUsedAt bigint,
                    revokedAt bigint
                )
                """,
            ]
        ),
        Migration(
            name: "v1: clinics, products and terms",
            statements: [
                """
                CREATE TABLE clinic (
                    id bigserial PRIMARY KEY,
                    bookId bigint NOT NULL REFERENCES book (id) ON DELETE CASCADE,
                    name text NOT NULL CHECK (length(btrim(name)) > 0),
                    scheduleKind text NOT NULL CHECK (scheduleKind IN ('weekly', 'biweekly', 'semimonthly', 'monthly')),
                    scheduleAnchor text,
                    isArchived boolean NOT NULL DEFAULT false,
                    CHECK ((scheduleKind IN ('weekly', 'biweekly')) = (scheduleAnchor IS NOT NULL)),
                    UNIQUE (bookId, id)
                )
                """,
                "CREATE UNIQUE INDEX clinic_name ON clinic (bookId, lower(name))",
                """
                CREATE TABLE product (
                    id bigserial PRIMARY KEY,
                    bookId bigint NOT NULL REFERENCES book (id) ON DELETE CASCADE,
                    name text NOT NULL CHECK (length(btrim(name)) > 0),
                    sku text,
                    unitPriceMinor bigint NOT NULL CHECK (unitPriceMinor >= 0),
                    unitCostMinor bigint NOT NULL CHECK (unitCostMinor >= 0),
                    isArchived boolean NOT NULL DEFAULT false,
                    UNIQUE (bookId, id)
                )
                """,
                "CREATE UNIQUE INDEX product_name ON product (bookId, lower(name))",
                "CREATE UNIQUE INDEX product_sku ON product (bookId, lower(sku)) WHERE sku IS NOT NULL",
                """
                CREATE TABLE terms (
                    id bigserial PRIMARY KEY,
                    bookId bigint NOT NULL,
                    clinicId bigint NOT NULL,
                    productId bigint,
                    basis text NOT NULL CHECK (basis IN ('profit', 'revenue')),
                    shareBasisPoints integer NOT NULL CHECK (shareBasisPoints BETWEEN 0 AND 10000),
                    effectiveFrom date NOT NULL,
                    isArchived boolean NOT NULL DEFAULT false,
                    UNIQUE (bookId, id),
                    FOREIGN KEY (bookId, clinicId) REFERENCES clinic (bookId, id) ON DELETE CASCADE,
                    FOREIGN KEY (bookId, productId) REFERENCES product (bookId, id) ON DELETE RESTRICT
                )
                """,
                "CREATE INDEX terms_clinic ON terms (bookId, clinicId, effectiveFrom)",
            ]
        ),
        Migration(
            name: "v1: sales, payouts and closed periods",
            statements: [
                """
                CREATE TABLE sale (
                    id bigserial PRIMARY KEY,
                    bookId bigint NOT NULL,
                    clinicId bigint NOT NULL,
                    productId bigint NOT NULL,
                    date date NOT NULL,
                    quantity bigint NOT NULL CHECK (quantity <> 0),
                    unitPriceMinor bigint NOT NULL CHECK (unitPriceMinor >= 0),
                    unitCostMinor bigint NOT NULL CHECK (unitCostMinor >= 0),
                    discountMinor bigint NOT NULL CHECK (discountMinor >= 0),
                    -- The snapshot of the split; all three NULL for a sale with no commission.
                    termsId bigint,
                    shareBasisPoints integer CHECK (shareBasisPoints BETWEEN 0 AND 10000),
                    basis text CHECK (basis IN ('profit', 'revenue')),
                    revenueMinor bigint NOT NULL,
                    costMinor bigint NOT NULL,
                    profitMinor bigint NOT NULL,
                    -- The commission before rounding, in ten-thousandths of a minor unit.
                    commissionExact bigint NOT NULL,
                    commissionMinor bigint NOT NULL,
                    note text,
                    isVoided boolean NOT NULL DEFAULT false,
                    idempotencyKey text,
                    CHECK ((termsId IS NULL) = (shareBasisPoints IS NULL) AND (termsId IS NULL) = (basis IS NULL)),
                    FOREIGN KEY (bookId, clinicId) REFERENCES clinic (bookId, id) ON DELETE RESTRICT,
                    FOREIGN KEY (bookId, productId) REFERENCES product (bookId, id) ON DELETE RESTRICT,
                    FOREIGN KEY (bookId, termsId) REFERENCES terms (bookId, id) ON DELETE RESTRICT,
                    UNIQUE (bookId, idempotencyKey)
                )
                """,
                "CREATE INDEX sale_clinic_date ON sale (bookId, clinicId, date)",
                "CREATE INDEX sale_product_date ON sale (bookId, productId, date)",
                "CREATE INDEX sale_date ON sale (bookId, date)",
                """
                CREATE TABLE payout (
                    id bigserial PRIMARY KEY,
                    bookId bigint NOT NULL,
                    clinicId bigint NOT NULL,
                    periodStart date NOT NULL,
                    periodEnd date NOT NULL CHECK (periodEnd >= periodStart),
                    amountMinor bigint NOT NULL,
                    receivedOn date NOT NULL,
                    reference text,
                    FOREIGN KEY (bookId, clinicId) REFERENCES clinic (bookId, id) ON DELETE RESTRICT
                )
                """,
                "CREATE INDEX payout_clinic_period ON payout (bookId, clinicId, periodStart)",
                """
                CREATE TABLE closedPeriod (
                    bookId bigint NOT NULL,
                    clinicId bigint NOT NULL,
                    periodStart date NOT NULL,
                    periodEnd date NOT NULL CHECK (periodEnd >= periodStart),
                    PRIMARY KEY (bookId, clinicId, periodStart),
                    FOREIGN KEY (bookId, clinicId) REFERENCES clinic (bookId, id) ON DELETE RESTRICT
                )
                """,
            ]
        ),
        Migration(name: "v1: summary tables", statements: summaryStatements),
        // Teams: an invitation says which role it grants (an owner's comes from the command line and
        // has no inviting account), and an account belongs to one book, which is how a server finds a
        // caller's book.
        Migration(
            name: "v2: invitation roles, one book per account",
            statements: [
                "ALTER TABLE invitation ADD COLUMN role text NOT NULL DEFAULT 'member' CHECK (role IN ('owner', 'member'))",
                "ALTER TABLE invitation ALTER COLUMN invitedBy DROP NOT NULL",
                "ALTER TABLE invitation ADD COLUMN accountId bigint REFERENCES account (id) ON DELETE SET NULL",
                "DROP INDEX member_account",
                "CREATE UNIQUE INDEX member_account ON member (accountId)",
            ]
        ),
        // The audit log: append-only, enforced by the database itself.
        Migration(
            name: "v3: audit log",
            statements: [
                """
                CREATE TABLE auditEntry (
                    id bigserial PRIMARY KEY,
                    bookId bigint NOT NULL REFERENCES book (id) ON DELETE CASCADE,
                    at bigint NOT NULL,
                    actor text NOT NULL,
                    subject text NOT NULL CHECK (subject IN ('sale', 'terms', 'payout', 'period', 'settings')),
                    subjectId bigint,
                    lastSubjectId bigint,
                    action text NOT NULL,
                    before text,
                    after text
                )
                """,
                "CREATE INDEX auditEntry_subject ON auditEntry (bookId, subject, subjectId)",
                """
                CREATE FUNCTION commission_audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    RAISE EXCEPTION 'the audit log is append-only';
                END
                $$
                """,
                "CREATE TRIGGER auditEntry_append_only BEFORE UPDATE OR DELETE ON auditEntry FOR EACH ROW EXECUTE FUNCTION commission_audit_append_only()",
            ]
        ),
        // How her pages write amounts and dates (LocaleStyle); what is stored stays as it was.
        Migration(
            name: "v4: the book's locale",
            statements: [
                "ALTER TABLE book ADD COLUMN locale text NOT NULL DEFAULT 'en_US' CHECK (length(locale) BETWEEN 2 AND 20)"
            ]
        ),
        // Clinic price lists (PriceListEntry), the audit log's subject that records them, and a
        // clinic's schedule changes (PayCalendar) kept in its row (`ScheduleChange.stored`).
        Migration(
            name: "v5: clinic price lists and schedule changes",
            statements: [
                "ALTER TABLE clinic ADD COLUMN scheduleChanges text",
                """
                CREATE TABLE priceListEntry (
                    id bigserial PRIMARY KEY,
                    bookId bigint NOT NULL,
                    clinicId bigint NOT NULL,
                    productId bigint NOT NULL,
                    unitPriceMinor bigint NOT NULL CHECK (unitPriceMinor >= 0),
                    unitCostMinor bigint CHECK (unitCostMinor >= 0),
                    effectiveFrom date NOT NULL,
                    UNIQUE (bookId, clinicId, productId, effectiveFrom),
                    FOREIGN KEY (bookId, clinicId) REFERENCES clinic (bookId, id) ON DELETE CASCADE,
                    FOREIGN KEY (bookId, productId) REFERENCES product (bookId, id) ON DELETE CASCADE
                )
                """,
                "ALTER TABLE auditEntry DROP CONSTRAINT auditentry_subject_check",
                "ALTER TABLE auditEntry ADD CONSTRAINT auditentry_subject_check CHECK (subject IN ('sale', 'terms', 'payout', 'period', 'settings', 'price', 'clinic', 'deduction'))",
            ]
        ),
        // Tiers on terms (`Tier.stored`), and the deductions a clinic takes from what it pays.
        Migration(
            name: "v6: tiers and deductions",
            statements: [
                "ALTER TABLE terms ADD COLUMN tiers text",
                """
                CREATE TABLE deduction (
                    id bigserial PRIMARY KEY,
                    bookId bigint NOT NULL,
                    clinicId bigint NOT NULL,
                    name text NOT NULL CHECK (length(btrim(name)) > 0),
                    kind text NOT NULL CHECK (kind IN ('fixed', 'revenue-share')),
                    amountMinor bigint CHECK (amountMinor >= 0),
                    shareBasisPoints integer CHECK (shareBasisPoints BETWEEN 0 AND 10000),
                    effectiveFrom date NOT NULL,
                    lastDay date,
                    CHECK ((kind = 'fixed') = (amountMinor IS NOT NULL) AND (kind = 'revenue-share') = (shareBasisPoints IS NOT NULL)),
                    FOREIGN KEY (bookId, clinicId) REFERENCES clinic (bookId, id) ON DELETE CASCADE
                )
                """,
                "CREATE INDEX deduction_clinic ON deduction (bookId, clinicId, effectiveFrom)",
            ]
        ),
        // What a clinic is expected to pay for each pay period, kept for the clinics whose figure
        // is not the sum of their lines' (tiers, deductions, rounding once per statement): the
        // dashboard reads a row a period instead of recomputing their whole history. Triggers mark
        // what a write changes; every write settles the marks before it commits
        // (`PostgresStore.settlePeriodFigures`); the books this migration finds are settled when a
        // store opens them.
        Migration(
            name: "v7: expected figures by pay period",
            statements: periodFigureStatements + [
                "INSERT INTO clinicPeriodDirty (bookId, clinicId, day) SELECT bookId, id, '-infinity' FROM clinic"
            ]
        ),
        // Her column mappings (`ImportMapping`), each kept whole as JSON under its name (any case).
        Migration(
            name: "v8: saved column mappings",
            statements: [
                """
                CREATE TABLE columnMapping (
                    bookId bigint NOT NULL REFERENCES book (id) ON DELETE CASCADE,
                    name text NOT NULL CHECK (length(btrim(name)) BETWEEN 1 AND 100),
                    body text NOT NULL
                )
                """,
                "CREATE UNIQUE INDEX columnMapping_name ON columnMapping (bookId, lower(name))",
            ]
        ),
        // What each clinic calls her products on its statements (`ProductAlias`).
        Migration(
            name: "v9: clinics' product names",
            statements: [
                """
                CREATE TABLE productAlias (
                    bookId bigint NOT NULL,
                    clinicId bigint NOT NULL,
                    name text NOT NULL CHECK (length(btrim(name)) BETWEEN 1 AND 200),
                    productId bigint NOT NULL,
                    FOREIGN KEY (bookId, clinicId) REFERENCES clinic (bookId, id) ON DELETE CASCADE,
                    FOREIGN KEY (bookId, productId) REFERENCES product (bookId, id) ON DELETE CASCADE
                )
                """,
                "CREATE UNIQUE INDEX productAlias_name ON productAlias (bookId, clinicId, lower(name))",
            ]
        ),
        // The answers of write requests sent with an Idempotency-Key (`IdempotencyStore`): the key
        // is inserted by the write's own transaction, its answer kept once the write committed.
        Migration(
            name: "v10: idempotency keys of write requests",
            statements: [
                """
                CREATE TABLE idempotencyKey (
                    bookId bigint NOT NULL REFERENCES book (id) ON DELETE CASCADE,
                    key text NOT NULL,
                    fingerprint text NOT NULL,
                    status integer,
                    contentType text,
                    body bytea NOT NULL DEFAULT '',
                    createdAt bigint NOT NULL,
                    PRIMARY KEY (bookId, key)
                )
                """,
                "CREATE INDEX idempotencyKey_createdAt ON idempotencyKey (createdAt)",
            ]
        ),
        // The sign-in slowdown's counts and the server's secrets (`SignInThrottleStore`), shared by
        // every server process on the database (a name is unique on it: the keys are not a book's).
        Migration(
            name: "v11: sign-in failures and server secrets",
            statements: [
                "CREATE TABLE signInFailure (key text PRIMARY KEY, failures integer NOT NULL, lastAtMs bigint NOT NULL)",
                "CREATE INDEX signInFailure_lastAtMs ON signInFailure (lastAtMs)",
                "CREATE TABLE serverSecret (name text PRIMARY KEY, value bytea NOT NULL)",
            ]
        ),
        // The dashboard reads a day, a month, a year across clinics or products: each by an index
        // of its own rather than every row of the book's summary. A sale's key is unique when it
        // has one (an imported or migrated sale has none, and costs the index nothing). The book
        // keeps no revision column: every write would queue on its row, and nothing reads it.
        // (A migration's name is its identity in a database that applied it: it stays as written.)
        Migration(
            name:
                "v12: the dashboard's indexes, sale keys indexed when present, no book revision, references checked per statement, bulk copies",
            statements: [
                "CREATE INDEX clinicDayTotal_date ON clinicDayTotal (bookId, date)",
                "CREATE INDEX clinicMonthTotal_month ON clinicMonthTotal (bookId, month)",
                "CREATE INDEX productMonthTotal_month ON productMonthTotal (bookId, month)",
                "CREATE UNIQUE INDEX sale_key ON sale (bookId, idempotencyKey) WHERE idempotencyKey IS NOT NULL",
                "ALTER TABLE sale DROP CONSTRAINT sale_bookid_idempotencykey_key",
                "ALTER TABLE book DROP COLUMN revision",
            ] + referenceStatements
                + saleOperations.flatMap {
                    [
                        summariesFunction($0, create: "CREATE OR REPLACE", skipsBulk: true),
                        periodMarksFunction($0, create: "CREATE OR REPLACE", skipsBulk: true),
                    ]
                }
        ),
        // The references of a statement's sales, checked once per value they name: a probe of
        // the clinic, product or terms per sale cost two seconds of a million-sale COPY.
        Migration(
            name: "v13: a sale's references checked once per value",
            statements: [
                referencesFunction(create: "CREATE OR REPLACE", byValue: true)
            ]
        ),
        // The book's history (`BookChanges`): each book its own, a replacement a new one, so that a
        // device's sync never takes changes of one history for another's. Products and clinics'
        // creation, names and archiving go on the audit log, so that it tells every record a
        // change touched.
        Migration(
            name: "v14: the book's epoch, products and clinics on the audit log",
            statements: [
                "ALTER TABLE book ADD COLUMN epoch text NOT NULL DEFAULT md5(random()::text || clock_timestamp()::text)",
                "ALTER TABLE auditEntry DROP CONSTRAINT auditentry_subject_check",
                "ALTER TABLE auditEntry ADD CONSTRAINT auditentry_subject_check CHECK (subject IN ('sale', 'terms', 'payout', 'period', 'settings', 'price', 'clinic', 'deduction', 'product'))",
            ]
        ),
        // Books on several databases (`PostgresBooks`): the directory's database keeps a row for
        // every book of the server, `place` naming the database that holds its records when it is
        // not this one, and `movingTo` where a move under way copies it; on the database that holds
        // them, `leaving` names where a move takes them (and from then on every write of the book
        // is refused, there).
        Migration(
            name: "v15: books placed on several databases",
            statements: [
                "ALTER TABLE book ADD COLUMN place text CHECK (place <> '')",
                "ALTER TABLE book ADD COLUMN leaving text CHECK (leaving <> '')",
                // On the directory's: the database a move under way (or cut short) copies the book to.
                "ALTER TABLE book ADD COLUMN movingTo text CHECK (movingTo <> '')",
                // Each database's own identity, by which a server tells that it was given one database twice.
                "CREATE TABLE databaseIdentity (id text PRIMARY KEY)",
                "INSERT INTO databaseIdentity (id) VALUES (md5(random()::text || clock_timestamp()::text))",
                // On the directory's: the block each further database numbers its records from.
                "CREATE TABLE databaseBlock (name text PRIMARY KEY, block bigint NOT NULL UNIQUE CHECK (block > 0))",
                // Where the book is leaving for, as committed when it is called: a VOLATILE function's
                // query takes a snapshot of its own, so a write that waited for the book's lock sees
                // the mark of a move that held it (its own statement's snapshot is older), without
                // locking the book's row.
                """
                CREATE FUNCTION commission_book_leaving(bigint) RETURNS text LANGUAGE plpgsql VOLATILE AS $$
                BEGIN
                    RETURN (SELECT leaving FROM book WHERE id = $1);
                END
                $$
                """,
                // A moved book's old copy is removed, its audit log with it: the transaction that does
                // so names the book (`SET LOCAL commission.removing_book`), and only its rows go.
                """
                CREATE OR REPLACE FUNCTION commission_audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    IF TG_OP = 'DELETE' AND current_setting('commission.removing_book', true) = OLD.bookId::text THEN
                        RETURN OLD;
                    END IF;
                    RAISE EXCEPTION 'the audit log is append-only';
                END
                $$
                """,
            ]
        ),
        // The question a new book asks once about the history she brought into it
        // (`HistoryQuestionStore`): the day it was set up while the question is open.
        Migration(
            name: "v16: the question about her history",
            statements: ["ALTER TABLE book ADD COLUMN historyQuestion date"]
        ),
        // What reaches her when she is not looking (`ReminderStore`), kept beside the accounts:
        // her devices, what reminds her and when, the reminders sent (claimed once by whichever
        // server sends them first), her calendar feed's secret (its digest).
        Migration(
            name: "v17: reminders, push devices and the pay dates calendar",
            statements: [
                """
                CREATE TABLE pushDevice (
                    id bigserial PRIMARY KEY,
                    bookId bigint NOT NULL,
                    accountId bigint NOT NULL REFERENCES account (id) ON DELETE CASCADE,
                    endpoint text NOT NULL CHECK (length(endpoint) BETWEEN 1 AND 2048),
                    p256dh text NOT NULL,
                    auth text NOT NULL,
                    label text NOT NULL,
                    createdAt bigint NOT NULL,
                    UNIQUE (bookId, endpoint)
                )
                """,
                "CREATE INDEX pushDevice_account ON pushDevice (bookId, accountId)",
                """
                CREATE TABLE reminderSetting (
                    bookId bigint NOT NULL,
                    accountId bigint NOT NULL REFERENCES account (id) ON DELETE CASCADE,
                    endOfDay boolean NOT NULL,
                    lateClinics boolean NOT NULL,
                    endOfDayMinute bigint NOT NULL CHECK (endOfDayMinute BETWEEN 0 AND 1439),
                    calendarDigest text UNIQUE,
                    PRIMARY KEY (bookId, accountId)
                )
                """,
                """
                CREATE TABLE reminderSent (
                    bookId bigint NOT NULL,
                    accountId bigint NOT NULL REFERENCES account (id) ON DELETE CASCADE,
                    key text NOT NULL,
                    at bigint NOT NULL,
                    PRIMARY KEY (bookId, accountId, key)
                )
                """,
            ]
        ),
    ]

    /// `clinicPeriodTotal`: a kept clinic's expected figure (net payable) per pay period with sales;
    /// `clinicPeriodKept`: the clinics kept so; `clinicPeriodDirty`: a day of a clinic's sales a
    /// write changed, or `-infinity` for the whole clinic (its schedule, tiers or deductions, or the
    /// book's rounding). Marks have no foreign key: deleting a clinic may mark it on the way.
    static let periodFigureStatements: [String] =
        [
            """
            CREATE TABLE clinicPeriodKept (
                bookId bigint NOT NULL, clinicId bigint NOT NULL, PRIMARY KEY (bookId, clinicId),
                FOREIGN KEY (bookId, clinicId) REFERENCES clinic (bookId, id) ON DELETE CASCADE
            )
            """,
            """
            CREATE TABLE clinicPeriodTotal (
                bookId bigint NOT NULL, clinicId bigint NOT NULL, periodStart date NOT NULL, periodEnd date NOT NULL, expectedMinor bigint NOT NULL,
                PRIMARY KEY (bookId, clinicId, periodStart),
                FOREIGN KEY (bookId, clinicId) REFERENCES clinic (bookId, id) ON DELETE CASCADE
            )
            """,
            "CREATE TABLE clinicPeriodDirty (bookId bigint NOT NULL, clinicId bigint NOT NULL, day date NOT NULL, PRIMARY KEY (bookId, clinicId, day))",
            """
            CREATE FUNCTION commission_period_mark_clinic() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                INSERT INTO clinicPeriodDirty (bookId, clinicId, day) VALUES (NEW.bookId, NEW.id, '-infinity') ON CONFLICT DO NOTHING;
                RETURN NULL;
            END
            $$
            """,
            """
            CREATE FUNCTION commission_period_mark_owner() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF TG_OP = 'DELETE' THEN
                    INSERT INTO clinicPeriodDirty (bookId, clinicId, day) VALUES (OLD.bookId, OLD.clinicId, '-infinity') ON CONFLICT DO NOTHING;
                ELSE
                    INSERT INTO clinicPeriodDirty (bookId, clinicId, day) VALUES (NEW.bookId, NEW.clinicId, '-infinity') ON CONFLICT DO NOTHING;
                END IF;
                RETURN NULL;
            END
            $$
            """,
            """
            CREATE FUNCTION commission_period_mark_book() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                INSERT INTO clinicPeriodDirty (bookId, clinicId, day) SELECT NEW.id, id, '-infinity' FROM clinic WHERE bookId = NEW.id ON CONFLICT DO NOTHING;
                RETURN NULL;
            END
            $$
            """,
            """
            CREATE TRIGGER clinic_period_mark AFTER INSERT OR UPDATE OF scheduleKind, scheduleAnchor, scheduleChanges ON clinic
            FOR EACH ROW EXECUTE FUNCTION commission_period_mark_clinic()
            """,
            "CREATE TRIGGER terms_period_mark_insert AFTER INSERT ON terms FOR EACH ROW WHEN (NEW.tiers IS NOT NULL) EXECUTE FUNCTION commission_period_mark_owner()",
            "CREATE TRIGGER terms_period_mark_update AFTER UPDATE OF tiers ON terms FOR EACH ROW EXECUTE FUNCTION commission_period_mark_owner()",
            "CREATE TRIGGER terms_period_mark_delete AFTER DELETE ON terms FOR EACH ROW WHEN (OLD.tiers IS NOT NULL) EXECUTE FUNCTION commission_period_mark_owner()",
            "CREATE TRIGGER deduction_period_mark AFTER INSERT OR UPDATE OR DELETE ON deduction FOR EACH ROW EXECUTE FUNCTION commission_period_mark_owner()",
            """
            CREATE TRIGGER book_period_mark AFTER UPDATE OF roundingRule, roundingScope ON book FOR EACH ROW
            WHEN (OLD.roundingRule IS DISTINCT FROM NEW.roundingRule OR OLD.roundingScope IS DISTINCT FROM NEW.roundingScope)
            EXECUTE FUNCTION commission_period_mark_book()
            """,
        ]
        + saleOperations.flatMap { operation -> [String] in
            // A statement's sales mark the days of kept clinics they touch, once per statement.
            [periodMarksFunction(operation, create: "CREATE"), operation.trigger("period_marks")]
        }

    /// The three operations on sales the statement-level triggers follow, with their transition tables.
    static let saleOperations = [
        SaleOperation(name: "INSERT", added: "new_rows", removed: nil),
        SaleOperation(name: "UPDATE", added: "new_rows", removed: "old_rows"),
        SaleOperation(name: "DELETE", added: nil, removed: "old_rows"),
    ]

    struct SaleOperation {
        var name: String, added: String?, removed: String?
        /// The function `what` (`summaries`, `period_marks`) runs after the operation.
        func function(_ what: String) -> String { "commission_\(what)_after_\(name.lowercased())" }

        /// The statement-level trigger on sales that runs ``function(_:)``, with the transition tables.
        func trigger(_ what: String) -> String {
            let transitions = [removed.map { "OLD TABLE AS \($0)" }, added.map { "NEW TABLE AS \($0)" }].compactMap {
                $0
            }.joined(separator: " ")
            return """
                CREATE TRIGGER sale_\(what)_after_\(name.lowercased()) AFTER \(name) ON sale
                REFERENCING \(transitions) FOR EACH STATEMENT EXECUTE FUNCTION \(function(what))()
                """
        }
    }

    /// While a transaction copies a book's sales in bulk (``bulkSetting`` on: a restore, a
    /// migration), the summaries' and the period marks' triggers stand aside: the copy builds the
    /// book's summaries once at its end (``endBulkCopy(_:book:totals:setAside:logger:)``).
    static let bulkSetting = "commission.bulk"
    static let skipInBulk = "IF current_setting('\(bulkSetting)', true) = 'on' THEN RETURN NULL; END IF;"

    /// The function that marks the days of kept clinics a statement's sales touch (`skipsBulk`: from v12 on).
    static func periodMarksFunction(_ operation: SaleOperation, create: String, skipsBulk: Bool = false) -> String {
        let rows = [operation.added, operation.removed].compactMap { $0 }.map {
            "SELECT bookId, clinicId, date FROM \($0)"
        }.joined(separator: " UNION ")
        return """
            \(create) FUNCTION \(operation.function("period_marks"))() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                \(skipsBulk ? skipInBulk : "")
                INSERT INTO clinicPeriodDirty (bookId, clinicId, day)
                SELECT DISTINCT r.bookId, r.clinicId, r.date FROM (\(rows)) r
                JOIN clinicPeriodKept k ON k.bookId = r.bookId AND k.clinicId = r.clinicId
                ON CONFLICT DO NOTHING;
                RETURN NULL;
            END
            $$
            """
    }

    /// A summary table: the totals it keeps (``SummaryTotals/Summary``), its name, and the key
    /// columns after `bookId`, with their types and the expressions over a sale row (`ROW` stands
    /// for `NEW` or `OLD`) that give them.
    typealias SummaryTable = (
        kind: SummaryTotals.Summary, table: String, keys: [(name: String, type: String, expression: String)]
    )

    static let summaries: [SummaryTable] = [
        (.clinicDay, "clinicDayTotal", [("clinicId", "bigint", "ROW.clinicId"), ("date", "date", "ROW.date")]),
        (
            .clinicMonth, "clinicMonthTotal",
            [("clinicId", "bigint", "ROW.clinicId"), ("month", "date", "date_trunc('month', ROW.date)::date")]
        ),
        (
            .productMonth, "productMonthTotal",
            [("productId", "bigint", "ROW.productId"), ("month", "date", "date_trunc('month', ROW.date)::date")]
        ),
        (
            .productYear, "productYearTotal",
            [("year", "integer", "extract(year FROM ROW.date)::integer"), ("productId", "bigint", "ROW.productId")]
        ),
    ]

    /// The figures every summary keeps, in the order of the sale's columns that feed them.
    static let figureColumns = [
        "quantity", "revenueMinor", "costMinor", "profitMinor", "commissionMinor", "commissionExact",
    ]

    static var summaryStatements: [String] {
        var statements = summaries.map { summary in
            """
            CREATE TABLE \(summary.table) (
                bookId bigint NOT NULL REFERENCES book (id) ON DELETE CASCADE,
                \(summary.keys.map { "\($0.name) \($0.type) NOT NULL" }.joined(separator: ", ")),
                saleCount bigint NOT NULL,
                \(figureColumns.map { "\($0) bigint NOT NULL" }.joined(separator: ", ")),
                PRIMARY KEY (bookId, \(summary.keys.map(\.name).joined(separator: ", ")))
            )
            """
        }
        // Statement-level triggers with transition tables: a statement's rows are added up per
        // summary row first, then applied with one upsert per summary. A bulk insert (COPY, a
        // migration) costs one upsert per summary row, not one per sale; a single sale costs the same.
        for operation in saleOperations {
            statements.append(summariesFunction(operation, create: "CREATE"))
            statements.append(operation.trigger("summaries"))
        }
        return statements
    }

    /// The function that moves every summary by a statement's sales (`skipsBulk`: from v12 on).
    static func summariesFunction(_ operation: SaleOperation, create: String, skipsBulk: Bool = false) -> String {
        """
        \(create) FUNCTION \(operation.function("summaries"))() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            \(skipsBulk ? skipInBulk : "")
        \(summaries.map { apply($0, added: operation.added, removed: operation.removed) }.joined(separator: "\n"))
            RETURN NULL;
        END
        $$
        """
    }

    /// Sets the transaction's sales triggers aside (``bulkSetting``) until
    /// ``endBulkCopy(_:book:totals:setAside:logger:)``. When no book has sales yet (a migration into
    /// a new database), the sale's secondary indexes are set aside too — dropped in the transaction
    /// and built again whole at its end (PostgreSQL sorts them with parallel workers), which took a
    /// million-sale migration from 11.1 s to 8.8 s; returns their definitions. A table that other
    /// books' sales fill keeps them: building it whole again would cost more than it saves, and
    /// would hold their writes meanwhile (the drop locks the table until the commit).
    static func startBulkCopy(_ connection: PostgresConnection, logger: Logger) async throws -> [String] {
        try await connection.query("SELECT set_config(\(bulkSetting), 'on', true)", logger: logger)
        let indexes = try await connection.query(
            """
            SELECT i.indexrelid::regclass::text, pg_get_indexdef(i.indexrelid) FROM pg_index i
            WHERE i.indrelid = 'sale'::regclass AND NOT i.indisunique AND NOT i.indisprimary AND NOT EXISTS (SELECT 1 FROM sale) ORDER BY 1
            """,
            logger: logger
        ).decode((String, String).self).all()
        guard !indexes.isEmpty else { return [] }
        try await connection.query(
            PostgresQuery(unsafeSQL: "DROP INDEX " + indexes.map(\.0).joined(separator: ", ")),
            logger: logger
        )
        return indexes.map(\.1)
    }

    /// Sets the triggers back, builds the indexes ``startBulkCopy(_:logger:)`` set aside (their
    /// definitions, `setAside`), and writes the book's summaries, added up while its sales were
    /// copied (its clinics, new, are marked for their period figures already).
    static func endBulkCopy(
        _ connection: PostgresConnection,
        book: Int64,
        totals: SummaryTotals,
        setAside: [String],
        logger: Logger
    ) async throws {
        try await connection.query("SELECT set_config(\(bulkSetting), 'off', true)", logger: logger)
        for definition in setAside { try await connection.query(PostgresQuery(unsafeSQL: definition), logger: logger) }
        for summary in summaries {
            let rows = totals[summary.kind]
            guard !rows.isEmpty else { continue }
            // In the order of the primary key, so that a clinic's days (a product's months) share pages.
            let yearFirst = summary.keys.first?.name == "year"
            let ordered = rows.sorted { a, b in
                yearFirst
                    ? (a.key.period, a.key.id) < (b.key.period, b.key.id)
                    : (a.key.id, a.key.period) < (b.key.id, b.key.period)
            }
            var buffer = ByteBuffer()
            for (key, figures) in ordered {
                let period = Day(ordinal: key.period)
                let keys = summary.keys.map {
                    $0.name == "year" ? String(period.year) : $0.type == "date" ? period.description : String(key.id)
                }
                let values = [
                    figures.saleCount, figures.quantity, figures.revenue, figures.cost, figures.profit,
                    figures.commission,
                    figures.exactCommission,
                ].map(String.init)
                buffer.writeString(([String(book)] + keys + values).joined(separator: "\t") + "\n")
            }
            let columns = ["bookId"] + summary.keys.map(\.name) + ["saleCount"] + figureColumns
            try await connection.copy(into: summary.table, columns: columns, logger: logger) { writer in
                try await writer.write(buffer)
            }
        }
        // The planner's statistics, at once: until autovacuum comes round, a book copied into an
        // empty database would be read by plans made for empty tables (a statement 40 times slower).
        if !totals.isEmpty {
            try await connection.query(
                PostgresQuery(unsafeSQL: "ANALYZE sale, auditEntry, " + summaries.map(\.table).joined(separator: ", ")),
                logger: logger
            )
        }
    }

    /// The sale's references (its clinic, product and terms, in its book), checked once per
    /// statement (v12): a foreign key checks them row by row, which made a copy of a million sales
    /// spend most of its time on three million lookups. A clinic, product or terms still named by
    /// a sale cannot be deleted, likewise once per statement.
    static let saleReferences = [("clinic", "clinicId"), ("product", "productId"), ("terms", "termsId")]

    /// The function the sale's statement triggers call: whether the new rows name a clinic,
    /// product or terms their book lacks — row by row (v12), or `byValue`, once per distinct
    /// book and value they name (v13).
    static func referencesFunction(create: String, byValue: Bool) -> String {
        let missing = saleReferences.map { table, column in
            let lacking = "NOT EXISTS (SELECT 1 FROM \(table) r WHERE r.bookId = n.bookId AND r.id = n.\(column))"
            return byValue
                ? "EXISTS (SELECT 1 FROM (SELECT DISTINCT bookId, \(column) FROM new_rows WHERE \(column) IS NOT NULL) n WHERE \(lacking))"
                : "EXISTS (SELECT 1 FROM new_rows n WHERE n.\(column) IS NOT NULL AND \(lacking))"
        }
        return """
            \(create) FUNCTION commission_sale_references() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF \(missing.joined(separator: "\n        OR ")) THEN
                    RAISE EXCEPTION 'a sale names a clinic, product or terms its book does not have' USING ERRCODE = 'foreign_key_violation';
                END IF;
                RETURN NULL;
            END
            $$
            """
    }

    static let referenceStatements: [String] = {
        var statements = [
            "ALTER TABLE sale DROP CONSTRAINT sale_bookid_clinicid_fkey, DROP CONSTRAINT sale_bookid_productid_fkey, DROP CONSTRAINT sale_bookid_termsid_fkey",
            referencesFunction(create: "CREATE", byValue: false),
            "CREATE TRIGGER sale_references_after_insert AFTER INSERT ON sale REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION commission_sale_references()",
            "CREATE TRIGGER sale_references_after_update AFTER UPDATE ON sale REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION commission_sale_references()",
        ]
        for (table, column) in saleReferences {
            statements.append(
                """
                CREATE FUNCTION commission_\(table)_named_by_sales() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    IF EXISTS (SELECT 1 FROM old_rows o JOIN sale s ON s.bookId = o.bookId AND s.\(column) = o.id) THEN
                        RAISE EXCEPTION 'a sale still names this \(table)' USING ERRCODE = 'foreign_key_violation';
                    END IF;
                    RETURN NULL;
                END
                $$
                """
            )
            statements.append(
                """
                CREATE TRIGGER \(table)_named_by_sales AFTER DELETE ON \(table)
                REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION commission_\(table)_named_by_sales()
                """
            )
        }
        return statements
    }()

    /// The SQL that moves one summary by a statement's rows: `added` rows count once each, `removed`
    /// rows negatively; voided sales count nowhere. Rows whose count falls to zero go away.
    static func apply(
        _ summary: SummaryTable,
        added: String?,
        removed: String?
    ) -> String {
        let keyNames = summary.keys.map(\.name)
        func rows(_ table: String, sign: String) -> String {
            let keys = summary.keys.map { "\($0.expression.replacingOccurrences(of: "ROW.", with: "")) AS \($0.name)" }
            return """
                SELECT bookId, \(keys.joined(separator: ", ")), \(sign) AS saleCount, \(figureColumns.map { "\(sign) * \($0) AS \($0)" }.joined(separator: ", "))
                FROM \(table) WHERE NOT isVoided
                """
        }
        let sources = [added.map { rows($0, sign: "1") }, removed.map { rows($0, sign: "-1") }].compactMap { $0 }
        var sql = """
                INSERT INTO \(summary.table) AS t (bookId, \(keyNames.joined(separator: ", ")), saleCount, \(figureColumns.joined(separator: ", ")))
                SELECT bookId, \(keyNames.joined(separator: ", ")), sum(saleCount)::bigint, \(figureColumns.map { "sum(\($0))::bigint" }.joined(separator: ", "))
                FROM (\(sources.joined(separator: " UNION ALL "))) AS moved
                GROUP BY bookId, \(keyNames.joined(separator: ", "))
                ON CONFLICT (bookId, \(keyNames.joined(separator: ", "))) DO UPDATE SET
                    saleCount = t.saleCount + excluded.saleCount,
                    \(figureColumns.map { "\($0) = t.\($0) + excluded.\($0)" }.joined(separator: ", "));
            """
        if let removed {
            let keys = summary.keys.map { "\($0.expression.replacingOccurrences(of: "ROW.", with: "")) AS \($0.name)" }
            sql += """

                DELETE FROM \(summary.table) AS t USING (SELECT DISTINCT bookId, \(keys.joined(separator: ", ")) FROM \(removed)) AS k
                WHERE t.saleCount = 0 AND t.bookId = k.bookId AND \(keyNames.map { "t.\($0) = k.\($0)" }.joined(separator: " AND "));
                """
        }
        return sql
    }

    /// Applies the migrations the database lacks, in one transaction.
    /// - Throws: ``StoreError/storage(_:)`` when the database holds a migration this program does not know.
    static func migrate(_ client: PostgresClient, logger: Logger) async throws {
        try await client.withTransaction(logger: logger) { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(\(lockKey))", logger: logger)
            try await connection.query(
                """
                CREATE TABLE IF NOT EXISTS commissionMigration (name text PRIMARY KEY, appliedAt timestamptz NOT NULL DEFAULT now())
                """,
                logger: logger
            )
            var applied: Set<String> = []
            for try await name in try await connection.query("SELECT name FROM commissionMigration", logger: logger)
                .decode(String.self)
            {
                applied.insert(name)
            }
            let known = Set(migrations.map(\.name))
            if let unknown = applied.subtracting(known).sorted().first {
                throw StoreError.storage(
                    "the database was migrated by a newer Commission (\"\(unknown)\"): upgrade this program"
                )
            }
            for migration in migrations where !applied.contains(migration.name) {
                for statement in migration.statements {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                try await connection.query(
                    "INSERT INTO commissionMigration (name) VALUES (\(migration.name))",
                    logger: logger
                )
            }
        }
    }
}
