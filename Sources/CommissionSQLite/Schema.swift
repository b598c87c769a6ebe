import CommissionStore
import GRDB

/// The database schema, as named migrations run when a store opens.
///
/// Amounts are `INTEGER` minor units and shares `INTEGER` basis points; calendar days are
/// `TEXT` in ISO form (`2026-03-02`), which sorts as dates do. A `PaySchedule` is a kind column
/// plus an anchor column, checked together. Money history is protected by `RESTRICT` foreign keys.
///
/// Four summary tables, kept by triggers, let the dashboard read a few hundred rows whatever the
/// size of the history: `clinicDayTotal` (per clinic and day), `clinicMonthTotal` (per clinic and
/// month), `productMonthTotal` (per product and month) and `productYearTotal` (per year and
/// product). Voided sales count nowhere. They are `WITHOUT ROWID` tables, clustered by their key
/// (schema v8); live updates come from the store's own change broadcast and `data_version`, not
/// from SQLite's update hook, which does not report such tables.
///
/// A fifth, `clinicPeriodTotal` (schema v12), keeps the expected figure of each pay period of the
/// clinics whose figure is not the sum of their lines' (tiers, deductions, rounding once per
/// statement): triggers mark what a write changes, and the write settles the marks in Swift before
/// it commits (`SQLiteStore.settlePeriodFigures`), since a period depends on the clinic's calendar.
package enum Schema {
    package static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()

        migrator.registerMigration("v1: book") { db in
            try db.execute(
                sql: """
                    CREATE TABLE book (
                        id INTEGER PRIMARY KEY CHECK (id = 1),
                        currencyCode TEXT NOT NULL CHECK (length(currencyCode) = 3),
                        currencyMinorDigits INTEGER NOT NULL CHECK (currencyMinorDigits BETWEEN 0 AND 4),
                        timeZone TEXT NOT NULL,
                        roundingRule TEXT NOT NULL CHECK (roundingRule IN ('half-away-from-zero', 'half-to-even')),
                        roundingScope TEXT NOT NULL CHECK (roundingScope IN ('per-line', 'per-statement')),
                        -- Bumped by every write of every Commission process: tells a process that another wrote.
                        revision INTEGER NOT NULL DEFAULT 0
                    )
                    """
            )
        }

        migrator.registerMigration("v1: clinics and products") { db in
            try db.execute(
                sql: """
                    CREATE TABLE clinic (
                        id INTEGER PRIMARY KEY,
                        name TEXT NOT NULL UNIQUE COLLATE NOCASE CHECK (length(trim(name)) > 0),
                        scheduleKind TEXT NOT NULL CHECK (scheduleKind IN ('weekly', 'biweekly', 'semimonthly', 'monthly')),
                        scheduleAnchor TEXT,
                        isArchived INTEGER NOT NULL DEFAULT 0 CHECK (isArchived IN (0, 1)),
                        CHECK ((scheduleKind IN ('weekly', 'biweekly')) = (scheduleAnchor IS NOT NULL))
                    );
                    CREATE TABLE product (
                        id INTEGER PRIMARY KEY,
                        name TEXT NOT NULL UNIQUE COLLATE NOCASE CHECK (length(trim(name)) > 0),
                        sku TEXT UNIQUE COLLATE NOCASE,
                        unitPriceMinor INTEGER NOT NULL CHECK (typeof(unitPriceMinor) = 'integer' AND unitPriceMinor >= 0),
                        unitCostMinor INTEGER NOT NULL CHECK (typeof(unitCostMinor) = 'integer' AND unitCostMinor >= 0),
                        isArchived INTEGER NOT NULL DEFAULT 0 CHECK (isArchived IN (0, 1))
                    );
                    """
            )
        }

        migrator.registerMigration("v1: terms") { db in
            try db.execute(
                sql: """
                    CREATE TABLE terms (
                        id INTEGER PRIMARY KEY,
                        clinicId INTEGER NOT NULL REFERENCES clinic(id) ON DELETE CASCADE,
                        productId INTEGER REFERENCES product(id) ON DELETE RESTRICT,
                        basis TEXT NOT NULL CHECK (basis IN ('profit', 'revenue')),
                        shareBasisPoints INTEGER NOT NULL CHECK (shareBasisPoints BETWEEN 0 AND 10000),
                        effectiveFrom TEXT NOT NULL,
                        isArchived INTEGER NOT NULL DEFAULT 0 CHECK (isArchived IN (0, 1))
                    );
                    CREATE INDEX terms_clinic ON terms(clinicId, effectiveFrom);
                    """
            )
        }

        migrator.registerMigration("v1: sales") { db in
            try db.execute(
                sql: """
                    CREATE TABLE sale (
                        id INTEGER PRIMARY KEY,
                        clinicId INTEGER NOT NULL REFERENCES clinic(id) ON DELETE RESTRICT,
                        productId INTEGER NOT NULL REFERENCES product(id) ON DELETE RESTRICT,
                        date TEXT NOT NULL,
                        quantity INTEGER NOT NULL CHECK (typeof(quantity) = 'integer' AND quantity <> 0),
                        unitPriceMinor INTEGER NOT NULL CHECK (unitPriceMinor >= 0),
                        unitCostMinor INTEGER NOT NULL CHECK (unitCostMinor >= 0),
                        discountMinor INTEGER NOT NULL CHECK (discountMinor >= 0),
                        -- The snapshot of the split; all three NULL for a sale with no commission.
                        termsId INTEGER REFERENCES terms(id) ON DELETE RESTRICT,
                        shareBasisPoints INTEGER CHECK (shareBasisPoints BETWEEN 0 AND 10000),
                        basis TEXT CHECK (basis IN ('profit', 'revenue')),
                        revenueMinor INTEGER NOT NULL CHECK (typeof(revenueMinor) = 'integer'),
                        costMinor INTEGER NOT NULL CHECK (typeof(costMinor) = 'integer'),
                        profitMinor INTEGER NOT NULL CHECK (typeof(profitMinor) = 'integer'),
                        -- The commission before rounding, in ten-thousandths of a minor unit.
                        commissionExact INTEGER NOT NULL CHECK (typeof(commissionExact) = 'integer'),
                        commissionMinor INTEGER NOT NULL CHECK (typeof(commissionMinor) = 'integer'),
                        note TEXT,
                        isVoided INTEGER NOT NULL DEFAULT 0 CHECK (isVoided IN (0, 1)),
                        idempotencyKey TEXT UNIQUE,
                        CHECK ((termsId IS NULL) = (shareBasisPoints IS NULL) AND (termsId IS NULL) = (basis IS NULL))
                    );
                    CREATE INDEX sale_clinic_date ON sale(clinicId, date);
                    CREATE INDEX sale_product_date ON sale(productId, date);
                    CREATE INDEX sale_date ON sale(date);
                    """
            )
        }

        migrator.registerMigration("v1: payouts and closed periods") { db in
            try db.execute(
                sql: """
                    CREATE TABLE payout (
                        id INTEGER PRIMARY KEY,
                        clinicId INTEGER NOT NULL REFERENCES clinic(id) ON DELETE RESTRICT,
                        periodStart TEXT NOT NULL,
                        periodEnd TEXT NOT NULL CHECK (periodEnd >= periodStart),
                        amountMinor INTEGER NOT NULL CHECK (typeof(amountMinor) = 'integer'),
                        receivedOn TEXT NOT NULL,
                        reference TEXT
                    );
                    CREATE INDEX payout_clinic_period ON payout(clinicId, periodStart);
                    CREATE TABLE closedPeriod (
                        clinicId INTEGER NOT NULL REFERENCES clinic(id) ON DELETE RESTRICT,
                        periodStart TEXT NOT NULL,
                        periodEnd TEXT NOT NULL CHECK (periodEnd >= periodStart),
                        PRIMARY KEY (clinicId, periodStart)
                    );
                    """
            )
        }

        migrator.registerMigration("v1: summary tables") { db in
            for summary in [Summary.clinicDay, .clinicMonth, .productMonth] {
                try createSummary(db, summary)
            }
            try db.execute(sql: "CREATE INDEX clinicMonthTotal_month ON clinicMonthTotal(month)")
            try db.execute(sql: "CREATE INDEX productMonthTotal_month ON productMonthTotal(month)")
        }

        migrator.registerMigration("v2: accounts, sessions and API tokens") { db in
            try db.execute(
                sql: """
                    CREATE TABLE account (
                        id INTEGER PRIMARY KEY,
                        username TEXT NOT NULL UNIQUE COLLATE NOCASE CHECK (length(trim(username)) > 0),
                        passwordHash TEXT NOT NULL,
                        createdAt INTEGER NOT NULL
                    );
                    -- Only SHA-256 digests of session and token secrets are stored.
                    CREATE TABLE session (
                        tokenDigest TEXT PRIMARY KEY,
                        accountId INTEGER NOT NULL REFERENCES account(id) ON DELETE CASCADE,
                        csrfToken TEXT NOT NULL,
                        expiresAt INTEGER NOT NULL
                    );
                    CREATE TABLE apiToken (
                        id INTEGER PRIMARY KEY,
                        accountId INTEGER NOT NULL REFERENCES account(id) ON DELETE CASCADE,
                        name TEXT NOT NULL,
                        tokenDigest TEXT NOT NULL UNIQUE,
                        createdAt INTEGER NOT NULL,
                        lastUsedAt INTEGER,
                        revokedAt INTEGER
                    );
                    """
            )
        }

        // The dashboard's top products of the year: 500 rows for the year rather than 6,000 product-months.
        migrator.registerMigration("v3: product year summary") { db in
            try createSummary(db, .productYear)
            try db.execute(
                sql: """
                    INSERT INTO productYearTotal (year, productId, saleCount, \(figureColumns.joined(separator: ", ")))
                    SELECT substr(date, 1, 4), productId, count(*), \(figureColumns.map { "sum(\($0))" }.joined(separator: ", "))
                    FROM sale WHERE isVoided = 0 GROUP BY 1, 2
                    """
            )
        }

        // Members: the first account stays the owner; invitations (one-time links, digests only) add more.
        migrator.registerMigration("v4: members and invitations") { db in
            try db.execute(
                sql: """
                    ALTER TABLE account ADD COLUMN role TEXT NOT NULL DEFAULT 'owner' CHECK (role IN ('owner', 'member'));
                    CREATE TABLE invitation (
                        tokenDigest TEXT PRIMARY KEY,
                        role TEXT NOT NULL CHECK (role IN ('owner', 'member')),
                        invitedBy INTEGER REFERENCES account(id) ON DELETE CASCADE,
                        expiresAt INTEGER NOT NULL,
                        usedAt INTEGER,
                        accountId INTEGER REFERENCES account(id) ON DELETE SET NULL
                    );
                    """
            )
        }

        // The audit log: append-only, enforced by the database itself.
        migrator.registerMigration("v5: audit log") { db in
            try db.execute(
                sql: """
                    CREATE TABLE auditEntry (
                        id INTEGER PRIMARY KEY,
                        at INTEGER NOT NULL,
                        actor TEXT NOT NULL,
                        subject TEXT NOT NULL CHECK (subject IN ('sale', 'terms', 'payout', 'period', 'settings')),
                        subjectId INTEGER,
                        lastSubjectId INTEGER,
                        action TEXT NOT NULL,
                        before TEXT,
                        after TEXT
                    );
                    CREATE INDEX auditEntry_subject ON auditEntry(subject, subjectId);
                    CREATE TRIGGER auditEntry_no_update BEFORE UPDATE ON auditEntry BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
                    CREATE TRIGGER auditEntry_no_delete BEFORE DELETE ON auditEntry BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
                    """
            )
        }

        // A UNIQUE column keeps an index entry for every row, NULL or not; only sales entered
        // through the API with an Idempotency-Key have one, so an import paid for a fourth index of
        // NULLs (8% of SQLite's work for a million sales). A partial index keeps the keys only.
        // SQLite cannot drop a column constraint: the table is rebuilt, as its documentation
        // describes (lang_altertable.html, "other kinds of table schema changes"), in this
        // migration's transaction, with the foreign keys checked at its end.
        migrator.registerMigration("v6: idempotency keys indexed where set") { db in
            try dropSummaryTriggers(db, periodMarks: false)
            try db.execute(
                sql: """
                    CREATE TABLE sale_new (
                        id INTEGER PRIMARY KEY,
                        clinicId INTEGER NOT NULL REFERENCES clinic(id) ON DELETE RESTRICT,
                        productId INTEGER NOT NULL REFERENCES product(id) ON DELETE RESTRICT,
                        date TEXT NOT NULL,
                        quantity INTEGER NOT NULL CHECK (typeof(quantity) = 'integer' AND quantity <> 0),
                        unitPriceMinor INTEGER NOT NULL CHECK (unitPriceMinor >= 0),
                        unitCostMinor INTEGER NOT NULL CHECK (unitCostMinor >= 0),
                        discountMinor INTEGER NOT NULL CHECK (discountMinor >= 0),
                        -- The snapshot of the split; all three NULL for a sale with no commission.
                        termsId INTEGER REFERENCES terms(id) ON DELETE RESTRICT,
                        shareBasisPoints INTEGER CHECK (shareBasisPoints BETWEEN 0 AND 10000),
                        basis TEXT CHECK (basis IN ('profit', 'revenue')),
                        revenueMinor INTEGER NOT NULL CHECK (typeof(revenueMinor) = 'integer'),
                        costMinor INTEGER NOT NULL CHECK (typeof(costMinor) = 'integer'),
                        profitMinor INTEGER NOT NULL CHECK (typeof(profitMinor) = 'integer'),
                        -- The commission before rounding, in ten-thousandths of a minor unit.
                        commissionExact INTEGER NOT NULL CHECK (typeof(commissionExact) = 'integer'),
                        commissionMinor INTEGER NOT NULL CHECK (typeof(commissionMinor) = 'integer'),
                        note TEXT,
                        isVoided INTEGER NOT NULL DEFAULT 0 CHECK (isVoided IN (0, 1)),
                        idempotencyKey TEXT,
                        CHECK ((termsId IS NULL) = (shareBasisPoints IS NULL) AND (termsId IS NULL) = (basis IS NULL))
                    );
                    INSERT INTO sale_new SELECT * FROM sale ORDER BY id;
                    DROP TABLE sale;
                    ALTER TABLE sale_new RENAME TO sale;
                    CREATE INDEX sale_clinic_date ON sale(clinicId, date);
                    CREATE INDEX sale_product_date ON sale(productId, date);
                    CREATE INDEX sale_date ON sale(date);
                    CREATE UNIQUE INDEX sale_idempotencyKey ON sale(idempotencyKey) WHERE idempotencyKey IS NOT NULL;
                    """
            )
            try restoreSummaryTriggers(db, periodMarks: false)
        }

        // Keeping `sale_product_date` was a third of SQLite's work in a bulk import (measured with
        // sqlite3 copying a million computed sales: 4.1–4.4 s with it, 3.0–3.2 s without): every
        // sale is inserted in the middle of that index, at one of as many places as there are
        // products, where the date index only grows at its end. A sales list filtered by product
        // now scans the date index instead, which carries the product and the voided flag, so the
        // scan reads no sale it does not return: at a million sales, a product's newest page takes
        // 2 ms and counting all its sales 50 ms (the benchmark prints both). `id` is in the key so
        // that the index still gives the lists' `ORDER BY date, id` without a sort.
        migrator.registerMigration("v7: sales by product through the date index") { db in
            try db.execute(
                sql: """
                    DROP INDEX sale_product_date;
                    DROP INDEX sale_date;
                    CREATE INDEX sale_date ON sale(date, id, productId, isVoided);
                    """
            )
        }

        // The dashboard reads every clinic's current period from the day summary: at a million sales
        // some 1,500 rows, each found in the key's index and then read from the table by its rowid
        // (2.5 ms of a 3–4 ms dashboard). Clustered by their key (`WITHOUT ROWID`), the summaries
        // are read where the key finds them (0.7 ms for the same statement). Live updates do not
        // rely on SQLite's update hook, which does not report such tables.
        migrator.registerMigration("v8: summaries clustered by their key") { db in
            try dropSummaryTriggers(db, periodMarks: false)
            for summary in Summary.all {
                try db.execute(sql: summaryTable(summary, named: "\(summary.table)_new", withoutRowID: true))
                try db.execute(
                    sql: """
                        INSERT INTO \(summary.table)_new SELECT * FROM \(summary.table);
                        DROP TABLE \(summary.table);
                        ALTER TABLE \(summary.table)_new RENAME TO \(summary.table);
                        """
                )
            }
            try db.execute(sql: "CREATE INDEX clinicMonthTotal_month ON clinicMonthTotal(month)")
            try db.execute(sql: "CREATE INDEX productMonthTotal_month ON productMonthTotal(month)")
            try restoreSummaryTriggers(db, periodMarks: false)
        }

        // How her pages write amounts and dates (LocaleStyle); what is stored stays as it was.
        migrator.registerMigration("v9: the book's locale") { db in
            try db.execute(
                sql:
                    "ALTER TABLE book ADD COLUMN locale TEXT NOT NULL DEFAULT 'en_US' CHECK (length(locale) BETWEEN 2 AND 20)"
            )
        }

        // Clinic price lists (PriceListEntry), and a clinic's schedule changes (PayCalendar), kept
        // in its row (`ScheduleChange.stored`). The audit log's subjects grow by one: SQLite cannot
        // change a CHECK constraint, so the log is copied into a new table (dropping the old one
        // deletes nothing through its triggers: DROP TABLE fires none) with the same triggers.
        migrator.registerMigration("v10: clinic price lists and schedule changes") { db in
            try db.execute(
                sql: """
                    ALTER TABLE clinic ADD COLUMN scheduleChanges TEXT;
                    CREATE TABLE priceListEntry (
                        id INTEGER PRIMARY KEY,
                        clinicId INTEGER NOT NULL REFERENCES clinic(id) ON DELETE CASCADE,
                        productId INTEGER NOT NULL REFERENCES product(id) ON DELETE CASCADE,
                        unitPriceMinor INTEGER NOT NULL CHECK (typeof(unitPriceMinor) = 'integer' AND unitPriceMinor >= 0),
                        unitCostMinor INTEGER CHECK (unitCostMinor IS NULL OR (typeof(unitCostMinor) = 'integer' AND unitCostMinor >= 0)),
                        effectiveFrom TEXT NOT NULL,
                        UNIQUE (clinicId, productId, effectiveFrom)
                    );
                    CREATE TABLE auditEntry_new (
                        id INTEGER PRIMARY KEY,
                        at INTEGER NOT NULL,
                        actor TEXT NOT NULL,
                        subject TEXT NOT NULL CHECK (subject IN ('sale', 'terms', 'payout', 'period', 'settings', 'price', 'clinic', 'deduction')),
                        subjectId INTEGER,
                        lastSubjectId INTEGER,
                        action TEXT NOT NULL,
                        before TEXT,
                        after TEXT
                    );
                    INSERT INTO auditEntry_new SELECT * FROM auditEntry;
                    DROP TABLE auditEntry;
                    ALTER TABLE auditEntry_new RENAME TO auditEntry;
                    CREATE INDEX auditEntry_subject ON auditEntry(subject, subjectId);
                    CREATE TRIGGER auditEntry_no_update BEFORE UPDATE ON auditEntry BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
                    CREATE TRIGGER auditEntry_no_delete BEFORE DELETE ON auditEntry BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
                    """
            )
        }

        // Tiers on terms (`Tier.stored`), and the deductions a clinic takes from what it pays.
        migrator.registerMigration("v11: tiers and deductions") { db in
            try db.execute(
                sql: """
                    ALTER TABLE terms ADD COLUMN tiers TEXT;
                    CREATE TABLE deduction (
                        id INTEGER PRIMARY KEY,
                        clinicId INTEGER NOT NULL REFERENCES clinic(id) ON DELETE CASCADE,
                        name TEXT NOT NULL CHECK (length(trim(name)) > 0),
                        kind TEXT NOT NULL CHECK (kind IN ('fixed', 'revenue-share')),
                        amountMinor INTEGER CHECK (amountMinor IS NULL OR (typeof(amountMinor) = 'integer' AND amountMinor >= 0)),
                        shareBasisPoints INTEGER CHECK (shareBasisPoints IS NULL OR shareBasisPoints BETWEEN 0 AND 10000),
                        effectiveFrom TEXT NOT NULL,
                        lastDay TEXT,
                        CHECK ((kind = 'fixed') = (amountMinor IS NOT NULL) AND (kind = 'revenue-share') = (shareBasisPoints IS NOT NULL))
                    );
                    CREATE INDEX deduction_clinic ON deduction(clinicId, effectiveFrom);
                    """
            )
        }

        // What a clinic is expected to pay for each pay period, kept for the clinics whose figure
        // is not the sum of their lines' (tiers, deductions, rounding once per statement): the
        // dashboard reads a row a period instead of recomputing their whole history.
        migrator.registerMigration("v12: expected figures by pay period") { db in
            try db.execute(sql: periodFigureTables)
            try db.execute(sql: periodMarkTriggers)
            try db.execute(sql: periodSaleTriggers)
            try SQLiteStore.rebuildPeriodFigures(db)
        }

        // Her column mappings (`ImportMapping`), each kept whole as JSON under its name.
        migrator.registerMigration("v13: saved column mappings") { db in
            try db.execute(
                sql: """
                    CREATE TABLE columnMapping (
                        name TEXT PRIMARY KEY COLLATE NOCASE CHECK (length(trim(name)) BETWEEN 1 AND 100),
                        body TEXT NOT NULL
                    );
                    """
            )
        }

        // What each clinic calls her products on its statements (`ProductAlias`).
        migrator.registerMigration("v14: clinics' product names") { db in
            try db.execute(
                sql: """
                    CREATE TABLE productAlias (
                        clinicId INTEGER NOT NULL REFERENCES clinic(id) ON DELETE CASCADE,
                        name TEXT NOT NULL COLLATE NOCASE CHECK (length(trim(name)) BETWEEN 1 AND 200),
                        productId INTEGER NOT NULL REFERENCES product(id) ON DELETE CASCADE,
                        PRIMARY KEY (clinicId, name)
                    ) WITHOUT ROWID;
                    """
            )
        }

        // The answers of write requests sent with an Idempotency-Key (`IdempotencyStore`): the key
        // is inserted by the write's own transaction, its answer kept once the write committed.
        migrator.registerMigration("v15: idempotency keys of write requests") { db in
            try db.execute(
                sql: """
                    CREATE TABLE idempotencyKey (
                        key TEXT PRIMARY KEY,
                        fingerprint TEXT NOT NULL,
                        status INTEGER,
                        contentType TEXT,
                        body BLOB NOT NULL DEFAULT x'',
                        createdAt INTEGER NOT NULL
                    ) WITHOUT ROWID;
                    CREATE INDEX idempotencyKey_createdAt ON idempotencyKey(createdAt);
                    """
            )
        }

        // The sign-in slowdown's counts and the server's secrets (`SignInThrottleStore`), shared by
        // every process on the file.
        migrator.registerMigration("v16: sign-in failures and server secrets") { db in
            try db.execute(
                sql: """
                    CREATE TABLE signInFailure (
                        key TEXT PRIMARY KEY,
                        failures INTEGER NOT NULL,
                        lastAtMs INTEGER NOT NULL
                    ) WITHOUT ROWID;
                    CREATE INDEX signInFailure_lastAtMs ON signInFailure(lastAtMs);
                    CREATE TABLE serverSecret (name TEXT PRIMARY KEY, value BLOB NOT NULL) WITHOUT ROWID;
                    """
            )
        }

        // The book's history (`BookChanges`: a restore starts a new one, which a device's sync must
        // not take for the old), and products, clinics' creation, names and archiving on the
        // audit log, so that the log tells every record a change touched.
        migrator.registerMigration("v17: the book's epoch, products and clinics on the audit log") { db in
            try db.execute(
                sql: """
                    ALTER TABLE book ADD COLUMN epoch TEXT NOT NULL DEFAULT '';
                    UPDATE book SET epoch = lower(hex(randomblob(16)));
                    CREATE TABLE auditEntry_new (
                        id INTEGER PRIMARY KEY,
                        at INTEGER NOT NULL,
                        actor TEXT NOT NULL,
                        subject TEXT NOT NULL CHECK (subject IN ('sale', 'terms', 'payout', 'period', 'settings', 'price', 'clinic', 'deduction', 'product')),
                        subjectId INTEGER,
                        lastSubjectId INTEGER,
                        action TEXT NOT NULL,
                        before TEXT,
                        after TEXT
                    );
                    INSERT INTO auditEntry_new SELECT * FROM auditEntry;
                    DROP TABLE auditEntry;
                    ALTER TABLE auditEntry_new RENAME TO auditEntry;
                    CREATE INDEX auditEntry_subject ON auditEntry(subject, subjectId);
                    """
            )
            try appendOnlyAudit(db)
        }

        // The question a new book asks once about the history she brought into it
        // (`HistoryQuestionStore`): the day it was set up while the question is open. A book that
        // was in use before this version asks nothing.
        migrator.registerMigration("v18: the question about her history") { db in
            try db.execute(
                sql:
                    "ALTER TABLE book ADD COLUMN historyQuestion TEXT CHECK (historyQuestion GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]')"
            )
        }

        // What reaches her when she is not looking (`ReminderStore`): her devices' push
        // subscriptions, what reminds her and when, the reminders sent (claimed once), her
        // calendar feed's secret (its digest).
        migrator.registerMigration("v19: reminders, push devices and the pay dates calendar") { db in
            try db.execute(
                sql: """
                    CREATE TABLE pushDevice (
                        id INTEGER PRIMARY KEY,
                        accountId INTEGER NOT NULL REFERENCES account(id) ON DELETE CASCADE,
                        endpoint TEXT NOT NULL UNIQUE CHECK (length(endpoint) BETWEEN 1 AND 2048),
                        p256dh TEXT NOT NULL,
                        auth TEXT NOT NULL,
                        label TEXT NOT NULL,
                        createdAt INTEGER NOT NULL
                    );
                    CREATE INDEX pushDevice_account ON pushDevice(accountId);
                    CREATE TABLE reminderSetting (
                        accountId INTEGER PRIMARY KEY REFERENCES account(id) ON DELETE CASCADE,
                        endOfDay INTEGER NOT NULL,
                        lateClinics INTEGER NOT NULL,
                        endOfDayMinute INTEGER NOT NULL CHECK (endOfDayMinute BETWEEN 0 AND 1439),
                        calendarDigest TEXT UNIQUE
                    );
                    CREATE TABLE reminderSent (
                        accountId INTEGER NOT NULL REFERENCES account(id) ON DELETE CASCADE,
                        key TEXT NOT NULL,
                        at INTEGER NOT NULL,
                        PRIMARY KEY (accountId, key)
                    ) WITHOUT ROWID;
                    """
            )
        }

        return migrator
    }

    /// The triggers that keep the audit log append-only. A device's sync lifts them for the one
    /// transaction that replaces its own entries with the server's (`SQLiteStore.apply`).
    static func appendOnlyAudit(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TRIGGER auditEntry_no_update BEFORE UPDATE ON auditEntry BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
                CREATE TRIGGER auditEntry_no_delete BEFORE DELETE ON auditEntry BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
                """
        )
    }

    /// `clinicPeriodTotal`: a kept clinic's expected figure (net payable) per pay period with
    /// sales; `clinicPeriodKept`: the clinics kept so; `clinicPeriodDirty`: what a write changed and
    /// the same transaction settles before it commits (a day of a clinic's sales, or `''` for the
    /// whole clinic: its schedule, tiers or deductions, or the book's rounding). See
    /// `SQLiteStore.settlePeriodFigures`.
    static let periodFigureTables = """
        CREATE TABLE clinicPeriodKept (clinicId INTEGER PRIMARY KEY REFERENCES clinic(id) ON DELETE CASCADE);
        CREATE TABLE clinicPeriodTotal (
            clinicId INTEGER NOT NULL REFERENCES clinic(id) ON DELETE CASCADE,
            periodStart TEXT NOT NULL,
            periodEnd TEXT NOT NULL,
            expectedMinor INTEGER NOT NULL CHECK (typeof(expectedMinor) = 'integer'),
            PRIMARY KEY (clinicId, periodStart)
        ) WITHOUT ROWID;
        CREATE TABLE clinicPeriodDirty (
            clinicId INTEGER NOT NULL REFERENCES clinic(id) ON DELETE CASCADE,
            date TEXT NOT NULL,
            PRIMARY KEY (clinicId, date)
        ) WITHOUT ROWID;
        """

    /// What marks a whole clinic: a new clinic, its schedule, its terms' tiers, its deductions, and
    /// the book's rounding (every clinic).
    static let periodMarkTriggers = """
        CREATE TRIGGER clinicPeriod_clinic_insert AFTER INSERT ON clinic BEGIN
            INSERT OR IGNORE INTO clinicPeriodDirty VALUES (NEW.id, ''); END;
        CREATE TRIGGER clinicPeriod_clinic_schedule AFTER UPDATE OF scheduleKind, scheduleAnchor, scheduleChanges ON clinic BEGIN
            INSERT OR IGNORE INTO clinicPeriodDirty VALUES (NEW.id, ''); END;
        CREATE TRIGGER clinicPeriod_terms_insert AFTER INSERT ON terms WHEN NEW.tiers IS NOT NULL BEGIN
            INSERT OR IGNORE INTO clinicPeriodDirty VALUES (NEW.clinicId, ''); END;
        CREATE TRIGGER clinicPeriod_terms_tiers AFTER UPDATE OF tiers ON terms BEGIN
            INSERT OR IGNORE INTO clinicPeriodDirty VALUES (NEW.clinicId, ''); END;
        CREATE TRIGGER clinicPeriod_terms_delete AFTER DELETE ON terms WHEN OLD.tiers IS NOT NULL BEGIN
            INSERT OR IGNORE INTO clinicPeriodDirty SELECT OLD.clinicId, '' WHERE EXISTS (SELECT 1 FROM clinic WHERE id = OLD.clinicId); END;
        CREATE TRIGGER clinicPeriod_deduction_insert AFTER INSERT ON deduction BEGIN
            INSERT OR IGNORE INTO clinicPeriodDirty VALUES (NEW.clinicId, ''); END;
        CREATE TRIGGER clinicPeriod_deduction_update AFTER UPDATE ON deduction BEGIN
            INSERT OR IGNORE INTO clinicPeriodDirty VALUES (NEW.clinicId, ''); END;
        CREATE TRIGGER clinicPeriod_deduction_delete AFTER DELETE ON deduction BEGIN
            INSERT OR IGNORE INTO clinicPeriodDirty SELECT OLD.clinicId, '' WHERE EXISTS (SELECT 1 FROM clinic WHERE id = OLD.clinicId); END;
        CREATE TRIGGER clinicPeriod_rounding AFTER UPDATE OF roundingRule, roundingScope ON book
        WHEN OLD.roundingRule IS NOT NEW.roundingRule OR OLD.roundingScope IS NOT NEW.roundingScope BEGIN
            INSERT OR IGNORE INTO clinicPeriodDirty SELECT id, '' FROM clinic; END;
        """

    static let periodSaleTriggerNames = [
        "clinicPeriod_sale_insert", "clinicPeriod_sale_delete", "clinicPeriod_sale_update",
    ]

    /// What marks a day of a kept clinic: a sale written, voided, moved or deleted there. Dropped
    /// with the summaries' for a bulk load, which marks the days it wrote itself.
    static let periodSaleTriggers = """
        CREATE TRIGGER clinicPeriod_sale_insert AFTER INSERT ON sale WHEN EXISTS (SELECT 1 FROM clinicPeriodKept WHERE clinicId = NEW.clinicId) BEGIN
            INSERT OR IGNORE INTO clinicPeriodDirty VALUES (NEW.clinicId, NEW.date); END;
        CREATE TRIGGER clinicPeriod_sale_delete AFTER DELETE ON sale WHEN EXISTS (SELECT 1 FROM clinicPeriodKept WHERE clinicId = OLD.clinicId) BEGIN
            INSERT OR IGNORE INTO clinicPeriodDirty VALUES (OLD.clinicId, OLD.date); END;
        CREATE TRIGGER clinicPeriod_sale_update AFTER UPDATE ON sale BEGIN
            INSERT OR IGNORE INTO clinicPeriodDirty SELECT OLD.clinicId, OLD.date WHERE EXISTS (SELECT 1 FROM clinicPeriodKept WHERE clinicId = OLD.clinicId);
            INSERT OR IGNORE INTO clinicPeriodDirty SELECT NEW.clinicId, NEW.date WHERE EXISTS (SELECT 1 FROM clinicPeriodKept WHERE clinicId = NEW.clinicId); END;
        """

    /// The figures every summary keeps, in the order of the sale's columns that feed them.
    static let figureColumns = [
        "quantity", "revenueMinor", "costMinor", "profitMinor", "commissionMinor", "commissionExact",
    ]

    /// A summary table: its name and its key columns (name, type, expression over a sale row).
    struct Summary {
        let table: String
        let keys: [(name: String, type: String, expression: String)]
        /// Which of the four summaries it is (its sums kept outside SQL: ``SummaryTotals``).
        let kind: SummaryTotals.Summary
        /// The length of the date prefix it groups by: 10 a day, 7 a month, 4 a year.
        var datePrefix: Int {
            switch kind {
            case .clinicDay: 10
            case .clinicMonth, .productMonth: 7
            case .productYear: 4
            }
        }

        static let clinicDay = Summary(
            table: "clinicDayTotal",
            keys: [("clinicId", "INTEGER", "clinicId"), ("date", "TEXT", "date")],
            kind: .clinicDay
        )
        static let clinicMonth = Summary(
            table: "clinicMonthTotal",
            keys: [("clinicId", "INTEGER", "clinicId"), ("month", "TEXT", "substr(date, 1, 7)")],
            kind: .clinicMonth
        )
        static let productMonth = Summary(
            table: "productMonthTotal",
            keys: [("productId", "INTEGER", "productId"), ("month", "TEXT", "substr(date, 1, 7)")],
            kind: .productMonth
        )
        /// Keyed year first, so that a year's few hundred rows are one range of the primary key.
        static let productYear = Summary(
            table: "productYearTotal",
            keys: [("year", "TEXT", "substr(date, 1, 4)"), ("productId", "INTEGER", "productId")],
            kind: .productYear
        )
        static let all = [clinicDay, clinicMonth, productMonth, productYear]

        /// The summary's key columns in the order of a delta's (id, date text).
        var deltaKeyColumns: String {
            keys.first?.name == "year" ? "\(keys[1].name), \(keys[0].name)" : keyColumns
        }

        var keyColumns: String { keys.map(\.name).joined(separator: ", ") }

        /// Adds one row of figures to the summary: `values` lists the keys, the sale count and the
        /// figures; `count` is what the sale count grows by on a conflict.
        /// `columns` names the key columns in the order `values` gives them.
        func upsert(values: String, count: String = "excluded.saleCount", columns: String? = nil) -> String {
            """
            INSERT INTO \(table) (\(columns ?? keyColumns), saleCount, \(Schema.figureColumns.joined(separator: ", ")))
            VALUES (\(values))
            ON CONFLICT (\(keyColumns)) DO UPDATE SET
                saleCount = saleCount + \(count),
                \(Schema.figureColumns.map { "\($0) = \($0) + excluded.\($0)" }.joined(separator: ", "));
            """
        }

        var triggerNames: [String] { ["insert", "delete", "update_remove", "update_add"].map { "\(table)_\($0)" } }

        /// The triggers that keep the summary: non-voided sales are added on insert, removed on
        /// delete, and moved on update.
        var triggers: String {
            func values(_ row: String) -> String {
                (keys.map { Schema.qualify($0.expression, with: row) } + ["1"]
                    + Schema.figureColumns.map { "\(row).\($0)" }).joined(separator: ", ")
            }
            let keyMatch = keys.map { "\($0.name) = \(Schema.qualify($0.expression, with: "OLD"))" }.joined(
                separator: " AND "
            )
            let remove = """
                UPDATE \(table) SET
                    saleCount = saleCount - 1,
                    \(Schema.figureColumns.map { "\($0) = \($0) - OLD.\($0)" }.joined(separator: ", "))
                WHERE \(keyMatch);
                DELETE FROM \(table) WHERE \(keyMatch) AND saleCount = 0;
                """
            let names = triggerNames
            return """
                CREATE TRIGGER \(names[0]) AFTER INSERT ON sale WHEN NEW.isVoided = 0 BEGIN \(upsert(values: values("NEW"), count: "1")) END;
                CREATE TRIGGER \(names[1]) AFTER DELETE ON sale WHEN OLD.isVoided = 0 BEGIN \(remove) END;
                CREATE TRIGGER \(names[2]) AFTER UPDATE ON sale WHEN OLD.isVoided = 0 BEGIN \(remove) END;
                CREATE TRIGGER \(names[3]) AFTER UPDATE ON sale WHEN NEW.isVoided = 0 BEGIN \(upsert(values: values("NEW"), count: "1")) END;
                """
        }
    }

    /// Creates a summary table and its triggers.
    private static func createSummary(_ db: Database, _ summary: Summary) throws {
        try db.execute(sql: summaryTable(summary, named: summary.table, withoutRowID: false))
        try db.execute(sql: summary.triggers)
    }

    /// The `CREATE TABLE` of a summary.
    private static func summaryTable(_ summary: Summary, named name: String, withoutRowID: Bool) -> String {
        // `typeof(...) = 'integer'` turns SQLite's silent integer→real overflow into an error.
        let figureDefinitions =
            figureColumns
            .map { "\($0) INTEGER NOT NULL CHECK (typeof(\($0)) = 'integer')" }
            .joined(separator: ",\n    ")
        return """
            CREATE TABLE \(name) (
                \(summary.keys.map { "\($0.name) \($0.type) NOT NULL" }.joined(separator: ", ")),
                saleCount INTEGER NOT NULL,
                \(figureDefinitions),
                PRIMARY KEY (\(summary.keyColumns))
            )\(withoutRowID ? " WITHOUT ROWID" : "")
            """
    }

    /// Drops the summary triggers, for a bulk load that keeps the summaries itself
    /// (see `SummaryDeltas`); ``restoreSummaryTriggers(_:)`` puts them back in the same transaction.
    /// The period marks' sale triggers go too: the load marks the days it wrote
    /// (`SummaryDeltas.markPeriods`).
    /// - Parameter periodMarks: false in the migrations before v12, which made them.
    static func dropSummaryTriggers(_ db: Database, periodMarks: Bool = true) throws {
        for name in Summary.all.flatMap(\.triggerNames) + (periodMarks ? periodSaleTriggerNames : []) {
            try db.execute(sql: "DROP TRIGGER \(name)")
        }
    }

    static func restoreSummaryTriggers(_ db: Database, periodMarks: Bool = true) throws {
        for summary in Summary.all {
            try db.execute(sql: summary.triggers)
        }
        if periodMarks { try db.execute(sql: periodSaleTriggers) }
    }

    /// `substr(date, 1, 7)` over `NEW` → `substr(NEW.date, 1, 7)`; a bare column → `NEW.column`.
    private static func qualify(_ expression: String, with row: String) -> String {
        if expression.hasPrefix("substr(") {
            return expression.replacingOccurrences(of: "substr(", with: "substr(\(row).")
        }
        return "\(row).\(expression)"
    }
}
